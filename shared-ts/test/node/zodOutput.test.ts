// A zod schema as the output schema: the vendor gets its JSON Schema, the answer is parsed by zod
// (defaults and transforms apply), RunOutcome.output is the parsed value and typed through typed().
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { ErrorCodes, createAgent, ScriptedProvider, ScriptedTurn } from '../../src/index'
import { zodOutput } from '../../src/zod'

const Ticket = z.object({
  title: z.string().min(1),
  priority: z.enum(['low', 'high']).default('low'),
  due: z.string().transform((s) => s.toUpperCase())
})

describe('zodOutput', () => {
  it('parses the answer with zod: defaults, transforms, typed output', async () => {
    const answer = zodOutput(Ticket, { name: 'ticket' })
    const p = new ScriptedProvider([ScriptedTurn.text('{"title":"x","due":"mon"}')])
    const agent = createAgent({ sessionId: 'z1', model: p, outputSchema: answer })
    const outcome = answer.typed(await agent.runtime.run('file it'))
    expect(outcome.output).toEqual({ title: 'x', priority: 'low', due: 'MON' })
    expectTypeOf(outcome.output).toEqualTypeOf<{ title: string, priority: 'low' | 'high', due: string } | undefined>()
    expect(p.requests[0].output?.name).toBe('ticket')
    expect(p.requests[0].output?.schema.type).toBe('object')
  })

  it('zod issues become the repair message; past the bound output_invalid', async () => {
    const answer = zodOutput(Ticket)
    const p = new ScriptedProvider([ScriptedTurn.text('{"title":""}'), ScriptedTurn.text('{"title":"ok","due":"x"}')])
    const agent = createAgent({ sessionId: 'z2', model: p, outputSchema: answer, outputRepairs: 1 })
    const outcome = await agent.runtime.run('file it')
    expect(outcome.output).toEqual({ title: 'ok', priority: 'low', due: 'X' })
    const repair = p.requests[1].messages[p.requests[1].messages.length - 1].text()
    expect(repair).toContain('$.title')
    const failing = createAgent({ sessionId: 'z3', model: new ScriptedProvider([ScriptedTurn.text('{}')]), outputSchema: answer,
      outputRepairs: 0 })
    expect((await failing.runtime.run('x')).error?.code).toBe(ErrorCodes.outputInvalid)
  })
})
