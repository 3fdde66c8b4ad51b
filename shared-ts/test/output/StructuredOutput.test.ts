// Structured output through AgentRuntime: the final answer is checked against the output schema,
// RunOutcome.output carries it parsed; invalid answers get bounded repair turns that say exactly
// what failed (passing every hook, counting against maxTurns), then output_invalid with the last
// answer in history; tool turns are not held to the schema; a whole-answer ```json fence is accepted.
import { describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentMessage,
  ArkAgentError,
  ControllerEventTypes,
  createAgent,
  ErrorCodes,
  ErrorLayer,
  MessageRole,
  ModelCallHookContext,
  ModelCallHookResult,
  ModelChunkHookContext,
  ModelChunkHookResult,
  ModelResponseHookContext,
  ModelResponseHookResult,
  OutputPartialEvent,
  OutputSchema,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  StopReason
} from '../../src/index'
import { Recorder, runtime, ticketSchema, TICKET, VALID } from './support'

const lastUser = (p: ScriptedProvider, call: number): string => {
  const msgs = p.requests[call].messages.filter((m) => m.role === MessageRole.user)
  return msgs[msgs.length - 1].text()
}

describe('a valid final answer', () => {
  it('completes the run with the parsed value; the request carries the schema and instructs it', async () => {
    const p = new ScriptedProvider([ScriptedTurn.text('{"title":"Printer ', 'on fire","priority":"high","tags":["hw"]}')])
    const outcome = await runtime(p).run('file a ticket')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.hasOutput).toBe(true)
    expect(outcome.output).toEqual({ title: 'Printer on fire', priority: 'high', tags: ['hw'] })
    const request = p.requests[0]
    expect(request.output?.name).toBe('ticket')
    expect(request.output?.schema).toEqual(TICKET)
    // A provider without a response_format mode: the schema is written into the system prompt.
    const system = request.messages[0]
    expect(system.role).toBe(MessageRole.system)
    expect(system.text()).toContain('JSON Schema "ticket"')
    expect(system.text()).toContain(JSON.stringify(TICKET))
  })

  it('a run without an output schema has no output and sends none', async () => {
    const p = new ScriptedProvider([ScriptedTurn.text('free text')])
    const outcome = await runtime(p, { schema: undefined }).run('hi')
    expect([outcome.status, outcome.hasOutput, outcome.output]).toEqual([RunStatus.completed, false, undefined])
    expect(p.requests[0].output).toBeUndefined()
  })

  it('an answer that is exactly one ```json fence counts as its content; history keeps it as sent', async () => {
    const fenced = '```json\n' + VALID + '\n```'
    const p = new ScriptedProvider([ScriptedTurn.text(fenced)])
    const rt = runtime(p)
    const outcome = await rt.run('file it')
    expect(outcome.output).toEqual(JSON.parse(VALID))
    expect(p.callCount).toBe(1)
    expect(rt.snapshot().history[1].text()).toBe(fenced)
  })

  it('JSON null is a value when the schema allows it', async () => {
    const p = new ScriptedProvider([ScriptedTurn.text('null')])
    const outcome = await runtime(p, { schema: OutputSchema.fromJson({ type: ['object', 'null'] }) }).run('x')
    expect([outcome.status, outcome.hasOutput, outcome.output]).toEqual([RunStatus.completed, true, null])
  })
})

describe('repair turns', () => {
  it('prose around the JSON: one repair turn that says what failed, then the valid answer completes', async () => {
    const p = new ScriptedProvider([ScriptedTurn.text('Sure! Here it is: ' + VALID), ScriptedTurn.text(VALID)])
    const rt = runtime(p)
    const outcome = await rt.run('file it')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.output).toEqual(JSON.parse(VALID))
    expect(p.callCount).toBe(2)
    expect(lastUser(p, 1)).toBe('Your last answer is not a valid final answer (repair 1 of 2): the answer is not JSON: ' +
      'it starts with "Sure! Here it is: {\\"title\\":\\"Printer on f"; reply with the JSON value alone, no prose around it. ' +
      'Reply again with only the corrected JSON value, valid against the JSON Schema "ticket" — no prose, no code fence, nothing else.')
    const roles = rt.snapshot().history.map((m) => m.role)
    expect(roles).toEqual([MessageRole.user, MessageRole.assistant, MessageRole.user, MessageRole.assistant])
  })

  it('JSON failing the schema: the repair names every failing path', async () => {
    const p = new ScriptedProvider([ScriptedTurn.text('{"title":"","priority":"urgent","extra":1}'), ScriptedTurn.text(VALID)])
    const outcome = await runtime(p).run('file it')
    expect(outcome.status).toBe(RunStatus.completed)
    const repair = lastUser(p, 1)
    expect(repair).toMatch(/^Your last answer is not a valid final answer \(repair 1 of 2\): /)
    expect(repair).toContain('$.title')
    expect(repair).toContain('$.priority')
    expect(repair).toContain('extra')
  })

  it('past the bound the run fails with output_invalid (runtime layer), the last answer kept in history', async () => {
    const answers = ['nope', '{"title":"x"}', '{"priority":"low"}']
    const p = new ScriptedProvider(answers.map((a) => ScriptedTurn.text(a)))
    const rt = runtime(p)
    const rec = new Recorder()
    const outcome = await rt.runStream([AgentMessage.user('file it')], rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.stopReason).toBe(StopReason.outputInvalid)
    expect(outcome.error?.code).toBe(ErrorCodes.outputInvalid)
    expect(outcome.error?.layer).toBe(ErrorLayer.runtime)
    expect(outcome.error?.message).toContain("output schema 'ticket' after 2 repair turns")
    expect(outcome.hasOutput).toBe(false)
    expect(p.callCount).toBe(3)
    const history = rt.snapshot().history
    expect(history[history.length - 1].role).toBe(MessageRole.assistant)
    expect(history[history.length - 1].text()).toBe('{"priority":"low"}')
    expect(rec.types()[rec.types().length - 1]).toBe(ControllerEventTypes.agentFailed)
    expect(rt.snapshot().lastError?.code).toBe(ErrorCodes.outputInvalid)
    expect(rt.snapshot().outputSchema).toBe('')
  })

  it('maxOutputRepairs 0: the first invalid answer ends the run', async () => {
    const p = new ScriptedProvider([ScriptedTurn.text('no'), ScriptedTurn.text(VALID)])
    const outcome = await runtime(p, { repairs: 0 }).run('x')
    expect([outcome.error?.code, p.callCount]).toEqual([ErrorCodes.outputInvalid, 1])
  })

  it('repair turns count against maxTurns', async () => {
    const p = ScriptedProvider.fromFunction(() => ScriptedTurn.text('still prose'))
    const outcome = await runtime(p, { repairs: 10, maxTurns: 3 }).run('x')
    expect([outcome.error?.code, p.callCount]).toEqual([ErrorCodes.maxTurns, 3])
  })

  it('the repair count is per run: a new run starts with the full bound again', async () => {
    const p = new ScriptedProvider(['a', VALID, 'b', 'c', VALID].map((t) => ScriptedTurn.text(t)))
    const rt = runtime(p)
    expect((await rt.run('one')).status).toBe(RunStatus.completed)
    const second = await rt.run('two')
    expect([second.status, p.callCount]).toEqual([RunStatus.completed, 5])
  })

  it('repeating the same invalid answer feeds the loop detector like any turn', async () => {
    const p = ScriptedProvider.fromFunction(() => ScriptedTurn.text('I cannot produce JSON for this request, sorry.'))
    const outcome = await runtime(p, { repairs: 20, maxTurns: 30, loop: true }).run('x')
    expect(outcome.status).toBe(RunStatus.failed)
    expect([ErrorCodes.loopDetected, ErrorCodes.maxTurns]).toContain(outcome.error?.code)
    expect(p.callCount).toBeLessThan(30)
  })
})

class RewriteFirstAnswer extends AgentHook {
  readonly seen: number[] = []
  readonly chunks: string[] = []
  async beforeModelCall(ctx: ModelCallHookContext): Promise<ModelCallHookResult> {
    this.seen.push(ctx.turn)
    return ModelCallHookResult.proceed()
  }
  async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
    this.chunks.push(ctx.text)
    return ModelChunkHookResult.proceed()
  }
  async afterModelCall(ctx: ModelResponseHookContext): Promise<ModelResponseHookResult> {
    if (ctx.turn === 1) {
      return ModelResponseHookResult.proceed(ctx.response.withMessage(AgentMessage.assistant('{"title": 42}')))
    }
    return ModelResponseHookResult.proceed()
  }
}

describe('hooks', () => {
  it('an afterModelCall rewrite into something invalid is caught: the repair turn passes every hook again', async () => {
    const p = new ScriptedProvider([ScriptedTurn.text(VALID), ScriptedTurn.text('{"title":"ok",', '"priority":"low"}')])
    const hook = new RewriteFirstAnswer()
    const rt = runtime(p, { hooks: [hook] })
    const outcome = await rt.run('file it')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.output).toEqual({ title: 'ok', priority: 'low' })
    expect(hook.seen).toEqual([1, 2])
    // Chunk hooks see the JSON text as it streams, the repair turn's too.
    expect(hook.chunks).toEqual([VALID, '{"title":"ok",', '"priority":"low"}'])
    const repair = lastUser(p, 1)
    expect(repair).toContain('$.title')
    expect(rt.snapshot().history[1].text()).toBe('{"title": 42}')
  })

  it('a chunk hook rewrite is what is checked (the text after chunk hooks)', async () => {
    class Breaker extends AgentHook {
      async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
        return ModelChunkHookResult.proceed(ctx.turn === 1 ? ctx.text.replace('high', 'HIGH') : ctx.text)
      }
    }
    const p = new ScriptedProvider([ScriptedTurn.text(VALID), ScriptedTurn.text(VALID)])
    const outcome = await runtime(p, { hooks: [new Breaker()] }).run('x')
    expect([outcome.status, p.callCount]).toEqual([RunStatus.completed, 2])
    expect(lastUser(p, 1)).toContain('$.priority')
  })
})

describe('with tools', () => {
  it('tool calls proceed as usual; only the final answer is held to the schema', async () => {
    const p = new ScriptedProvider([ScriptedTurn.text('Let me look that up.').call('c1', 'lookup', '{}'), ScriptedTurn.text(VALID)])
    const rt = runtime(p)
    const outcome = await rt.run('file it')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.output).toEqual(JSON.parse(VALID))
    expect(p.callCount).toBe(2)
    expect(rt.snapshot().history.map((m) => m.role)).toEqual(
      [MessageRole.user, MessageRole.assistant, MessageRole.tool, MessageRole.assistant])
    expect(p.requests[1].output?.name).toBe('ticket')
  })
})

describe('partial output', () => {
  it('publishes the parsed prefix as it streams, after each llm.chunk, only when it changed', async () => {
    const p = new ScriptedProvider([ScriptedTurn.text('{"title":"Prin', 'ter', '","prio', 'rity":"high"', '}')])
    const rec = new Recorder()
    const outcome = await runtime(p, { partial: true }).runStream([AgentMessage.user('x')], rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    const views = rec.of<OutputPartialEvent>(ControllerEventTypes.outputPartial)
    expect(views.map((v) => v.value)).toEqual([
      { title: 'Prin' }, { title: 'Printer' }, { title: 'Printer', priority: 'high' }])
    expect(views.map((v) => v.turn)).toEqual([1, 1, 1])
    const types = rec.types()
    expect(types.indexOf(ControllerEventTypes.outputPartial)).toBe(types.indexOf(ControllerEventTypes.llmChunk) + 1)
  })

  it('is off by default', async () => {
    const rec = new Recorder()
    await runtime(new ScriptedProvider([ScriptedTurn.text(VALID)])).runStream([AgentMessage.user('x')], rec.observer)
    expect(rec.of(ControllerEventTypes.outputPartial)).toEqual([])
  })
})

describe('configuration', () => {
  const refused = (f: () => unknown): ArkAgentError => {
    try {
      f()
    } catch (e) {
      return e as ArkAgentError
    }
    throw new Error('expected a refusal')
  }

  it('an invalid schema is refused when it is made: invalid_config naming the keyword', () => {
    const e = refused(() => OutputSchema.fromJson({ type: 'object', properties: { a: { type: 'strin' } } }))
    expect([e.code, e.layer]).toEqual([ErrorCodes.invalidConfig, ErrorLayer.config])
    expect(e.message).toContain("outputSchema 'final_answer'")
    expect(refused(() => OutputSchema.fromJson({ type: 'object', frobnicate: true })).code).toBe(ErrorCodes.invalidConfig)
    expect(refused(() => OutputSchema.fromJson(TICKET, 'has space')).code).toBe(ErrorCodes.invalidConfig)
    expect(refused(() => OutputSchema.fromJson([] as unknown as Record<string, Object>)).code).toBe(ErrorCodes.invalidConfig)
  })

  it('createAgent takes an OutputSchema or a JSON Schema object; a bad one or a bad count is refused', async () => {
    const p = new ScriptedProvider([ScriptedTurn.text(VALID)])
    const agent = createAgent({ sessionId: 'ca', model: p, outputSchema: TICKET, outputRepairs: 1, partialOutput: true })
    const outcome = await agent.runtime.run('x')
    expect(outcome.output).toEqual(JSON.parse(VALID))
    expect(p.requests[0].output?.name).toBe('final_answer')
    const bad = refused(() => createAgent({ sessionId: 'cb', model: p, outputSchema: { type: 'object', nope: 1 } }))
    expect(bad.code).toBe(ErrorCodes.invalidConfig)
    expect(refused(() => createAgent({ sessionId: 'cc', model: p, outputSchema: ticketSchema(), outputRepairs: -1 })).code)
      .toBe(ErrorCodes.invalidConfig)
    expect(refused(() => runtime(p, { schema: {} as unknown as OutputSchema })).code).toBe(ErrorCodes.invalidConfig)
  })
})
