// Property and fuzz cases: OutputText never accepts what JSON.parse refuses (after the documented
// fence rule); over many invalid answers a run makes exactly 1 + maxOutputRepairs model calls and
// ends output_invalid with the last answer in history; PartialJson's view of every prefix of a
// valid answer never throws and the whole answer's view equals its parse.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  ErrorCodes,
  MessageRole,
  OutputText,
  PartialJson,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn
} from '../../src/index'
import { runtime, ticketSchema } from './support'

const jsonParses = (s: string): boolean => {
  try {
    JSON.parse(s)
    return true
  } catch {
    return false
  }
}

/** Answers that are not a valid ticket: prose, broken JSON, wrong shapes, prose-wrapped valid JSON. */
const invalidAnswer = fc.oneof(
  fc.string(),
  fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1)) + ','),
  fc.record({ title: fc.oneof(fc.constant(''), fc.integer()), priority: fc.string() }).map((v) => JSON.stringify(v)),
  fc.constantFrom('Sure! {"title":"a","priority":"low"}', '```python\n{"title":"a","priority":"low"}\n```',
    '{"title":"a","priority":"low"} Hope this helps', '[]', 'null', '', '   ', '```json\n{"title":"a"}\n```'),
  fc.anything().map((v) => { try { return JSON.stringify(v) ?? 'undefined' } catch { return 'x' } })
).filter((a) => !ticketSchema().verify(a).ok)

describe('OutputText', () => {
  it('accepts exactly what JSON.parse accepts, once a whole-answer fence is unwrapped', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (s) => {
      expect(OutputText.parse(s).ok).toBe(jsonParses(OutputText.unwrap(s)))
    }), { numRuns: 500 })
  })

  it('a fenced valid value parses to the value; prose around the fence does not', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.constantFrom('```json', '```', '~~~json', '````JSON'), (v, open) => {
      const json = JSON.stringify(v)
      const close = open.replace(/[a-zA-Z]/g, '')
      const verdict = OutputText.parse(`${open}\n${json}\n${close}`)
      expect(verdict.ok).toBe(true)
      expect(verdict.value).toEqual(JSON.parse(json))
      expect(OutputText.parse(`Here: ${open}\n${json}\n${close}`).ok).toBe(json === undefined)
    }), { numRuns: 300 })
  })
})

describe('repair bound over many invalid answers', () => {
  it('1 + maxOutputRepairs calls, then output_invalid with the last answer in history', async () => {
    await fc.assert(fc.asyncProperty(fc.array(invalidAnswer, { minLength: 4, maxLength: 4 }), fc.integer({ min: 0, max: 3 }),
      async (answers, repairs) => {
        const p = new ScriptedProvider(answers.map((a) => ScriptedTurn.text(a)))
        const rt = runtime(p, { repairs })
        const outcome = await rt.run('file it')
        expect(outcome.status).toBe(RunStatus.failed)
        expect(outcome.error?.code).toBe(ErrorCodes.outputInvalid)
        expect(p.callCount).toBe(repairs + 1)
        const history = rt.snapshot().history
        const last = history[history.length - 1]
        expect(last.role).toBe(MessageRole.assistant)
        expect(last.text()).toBe(answers[repairs])
        // Every repair message is a user turn that names what failed.
        const repairsSent = history.filter((m) => m.role === MessageRole.user && m.text().startsWith('Your last answer'))
        expect(repairsSent.length).toBe(repairs)
      }), { numRuns: 60 })
  })
})

describe('PartialJson', () => {
  it('every prefix of a JSON text gives a view or nothing, never throws; the whole text gives its value', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      const json = JSON.stringify(v, null, 1)
      for (let i = 0; i <= json.length; i += Math.max(1, Math.floor(json.length / 40))) {
        PartialJson.parse(json.slice(0, i))
      }
      const whole = PartialJson.parse(json)
      if (typeof v === 'number' || typeof v === 'boolean' || v === null || json.includes('"__proto__"')) {
        return // a bare scalar is complete only once something follows it
      }
      expect(whole).toEqual(JSON.parse(json))
    }), { numRuns: 300 })
  })

  it('pinned views of a streaming object', () => {
    expect(PartialJson.parse('{"a":"he')).toEqual({ a: 'he' })
    expect(PartialJson.parse('{"a":"he\\')).toEqual({ a: 'he' })
    expect(PartialJson.parse('{"a":12')).toEqual({})
    expect(PartialJson.parse('{"a":12,')).toEqual({ a: 12 })
    expect(PartialJson.parse('{"a":[1,{"b":tr')).toEqual({ a: [1, {}] })
    expect(PartialJson.parse('{"a":[1,{"b":true}],"c')).toEqual({ a: [1, { b: true }] })
    expect(PartialJson.parse('```json\n{"a":1}')).toEqual({ a: 1 })
    expect(PartialJson.parse('Sure, here')).toBeUndefined()
    expect(PartialJson.parse('')).toBeUndefined()
  })
})
