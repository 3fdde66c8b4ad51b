// Every tool failure is a tool result, every hook failure is hook_failed, and whatever a tool
// returns is stored as text that loads again. Fuzzed over the values plain JavaScript can throw,
// reject with or return (null-prototype objects, throwing toString/getters, Proxies, revoked
// Proxies, symbols, BigInts, circular objects, functions, ...) × the call's position in its batch
// × how it fails (synchronous throw, rejection) — and for hooks × every slot.
import fc from 'fast-check'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import {
  AfterRunHookContext,
  AgentHook,
  AgentMessage,
  BeforeRunHookResult,
  ErrorCodes,
  ErrorLayer,
  FunctionTool,
  MemoryStateStorage,
  ModelCallHookResult,
  ModelChunkHookResult,
  ModelResponse,
  ModelResponseHookResult,
  RestoreKind,
  RunStatus,
  ScriptedTurn,
  StatePersistenceHookResult,
  ToolCallHookResult,
  ToolDefinition,
  ToolResultHookResult,
  ToolRiskLevel,
  TurnCompletionHookResult
} from '../../src/index'
import { cleanupTempDirs, CountingTool, expectPaired, makeRuntime, toolMessage } from '../runtime/helpers'
import { flush, record } from './summary'
import { cases } from '../support/scale'

afterEach(() => cleanupTempDirs())
afterAll(() => flush('ThrownValues'))

const SEED = 20261201

type Loose = Record<string, unknown>

/** Values plain JavaScript can throw or return, made fresh each time (a revoked Proxy must be new). */
const hostile: Array<{ name: string, make: () => unknown }> = [
  { name: 'Object.create(null)', make: () => Object.create(null) },
  { name: 'Object.create(null) with fields', make: () => Object.assign(Object.create(null), { code: 7 }) },
  { name: 'an object whose toString throws', make: () => ({ toString() { throw new Error('toString bomb') } }) },
  { name: 'an object whose valueOf and toString throw', make: () => ({ valueOf() { throw 1 }, toString() { throw 2 } }) },
  { name: 'an Error whose message getter throws', make: () => { const e = new Error('x'); Object.defineProperty(e, 'message', { get() { throw new Error('getter bomb') } }); return e } },
  { name: 'an Error with a non-string message', make: () => { const e = new Error('x'); (e as unknown as Loose).message = { nested: true }; return e } },
  { name: 'a Proxy throwing from every trap', make: () => new Proxy({}, new Proxy({}, { get: () => () => { throw new Error('trap') } })) },
  { name: 'a revoked Proxy', make: () => { const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy } },
  { name: 'a symbol', make: () => Symbol('sym') },
  { name: 'a BigInt', make: () => BigInt('12345678901234567890') },
  { name: 'undefined', make: () => undefined },
  { name: 'null', make: () => null },
  { name: 'NaN', make: () => NaN },
  { name: 'a string', make: () => 'plain string' },
  { name: 'an empty string', make: () => '' },
  { name: 'a plain object', make: () => ({ status: 500, detail: 'upstream' }) },
  { name: 'an array', make: () => [1, 'two', { three: 3 }] },
  { name: 'a circular object', make: () => { const o: Loose = { a: 1 }; o.self = o; return o } },
  { name: 'a function', make: () => function named() { return 1 } },
  { name: 'a Date', make: () => new Date(0) },
  { name: 'a Map', make: () => new Map([[1, 2]]) },
  { name: 'a huge string', make: () => 'x'.repeat(1_000_000) },
  { name: 'a thenable that rejects', make: () => ({ then: (_: unknown, reject: (e: unknown) => void) => reject(new Error('then')) }) }
]

const valueArb = fc.constantFrom(...hostile)

function tool(name: string, body: (args: Record<string, Object>) => unknown): FunctionTool {
  return new FunctionTool(new ToolDefinition(name, name, { type: 'object' }, ToolRiskLevel.safe),
    ((args: Record<string, Object>) => body(args)) as never)
}

let toolCases = 0
let hookCases = 0
let restores = 0

describe('whatever a tool throws or rejects with is an error-flagged tool_execution_failed result', () => {
  it('fuzz: value × position in a batch of three × synchronous throw or rejection; the batch and run go on', async () => {
    await fc.assert(fc.asyncProperty(valueArb, fc.nat({ max: 2 }), fc.boolean(), async (v, position, sync) => {
      toolCases++
      const good = new CountingTool('good', ToolRiskLevel.safe, async () => 'fine')
      const bad = tool('bad', () => {
        if (sync) throw v.make()
        return Promise.reject(v.make())
      })
      const turn = new ScriptedTurn()
      for (let i = 0; i < 3; i++) turn.call(`c${i}`, i === position ? 'bad' : 'good', '{}')
      const storage = new MemoryStateStorage()
      const rt = makeRuntime([turn, ScriptedTurn.text('done')], { tools: [good.tool, bad], storage })
      const outcome = await rt.run('go')
      expect(outcome.status, v.name).toBe(RunStatus.completed)
      const h = rt.snapshot().history
      expectPaired(h)
      expect(good.count).toBe(2)
      const failed = toolMessage(h, `c${position}`)
      expect(failed.isError).toBe(true)
      expect(failed.errorCode).toBe(ErrorCodes.toolExecutionFailed)
      expect(failed.text()).toMatch(/^Tool 'bad' failed: ./)
      expect(failed.text()).not.toContain('[object Object]')
      expect(failed.text().length).toBeLessThan(2200)
      // And it loads again.
      const again = makeRuntime([], { sessionId: rt.sessionId, storage: new MemoryStateStorage(undefined, storage.memory) })
      expect((await again.restore()).kind).toBe(RestoreKind.idle)
      restores++
    }), { seed: SEED, numRuns: cases(300) })
  })

  it('readable messages: a plain object reads as JSON, an Error as its message, the unprintable as a description', async () => {
    const cases: Array<[unknown, string]> = [
      [{ status: 500, detail: 'upstream' }, '{"status":500,"detail":"upstream"}'],
      [new Error('disk on fire'), 'disk on fire'],
      ['plain string', 'plain string'],
      [Object.create(null), 'a thrown object'],
      [Object.assign(Object.create(null), { code: 7 }), '{"code":7}'],
      [Symbol('s'), 'Symbol(s)'],
      [BigInt(5), '5']
    ]
    for (const [value, expected] of cases) {
      const rt = makeRuntime([ScriptedTurn.text('').call('c', 'bad', '{}'), ScriptedTurn.text('done')],
        { tools: [tool('bad', () => Promise.reject(value))] })
      await rt.run('go')
      expect(toolMessage(rt.snapshot().history, 'c').text()).toBe(`Tool 'bad' failed: ${expected}`)
    }
  })
})

describe('whatever a tool returns is stored as text that loads again', () => {
  it('fuzz: returned value × position; the run completes and the session restores', async () => {
    await fc.assert(fc.asyncProperty(valueArb, fc.nat({ max: 2 }), async (v, position) => {
      toolCases++
      const good = new CountingTool('good', ToolRiskLevel.safe, async () => 'fine')
      const odd = tool('odd', () => Promise.resolve(v.make()))
      const turn = new ScriptedTurn()
      for (let i = 0; i < 3; i++) turn.call(`c${i}`, i === position ? 'odd' : 'good', '{}')
      const storage = new MemoryStateStorage()
      const rt = makeRuntime([turn, ScriptedTurn.text('done')], { tools: [good.tool, odd], storage })
      expect((await rt.run('go')).status, v.name).toBe(RunStatus.completed)
      const result = toolMessage(rt.snapshot().history, `c${position}`)
      expect(typeof result.text()).toBe('string')
      const again = makeRuntime([], { sessionId: rt.sessionId, storage: new MemoryStateStorage(undefined, storage.memory) })
      expect((await again.restore()).kind).toBe(RestoreKind.idle)
      expect(again.snapshot().history.map((m) => m.text())).toEqual(rt.snapshot().history.map((m) => m.text()))
      restores++
    }), { seed: SEED, numRuns: cases(300) })
  })

  it('the documented rule: text as is, nothing as empty, numbers as text, objects as JSON, functions refused', async () => {
    const circular: Loose = { a: 1 }
    circular.self = circular
    const cases: Array<[unknown, string, boolean]> = [
      ['text', 'text', false], [undefined, '', false], [null, '', false], [42, '42', false], [true, 'true', false],
      [BigInt(7), '7', false], [{ a: [1, 2] }, '{"a":[1,2]}', false], [{ n: BigInt(3) }, '{"n":"3"}', false],
      [circular, '{"a":1,"self":"[Circular]"}', false], [() => 1, "Tool 'odd' returned a function, not text", true],
      [Symbol('s'), "Tool 'odd' returned a symbol, not text", true]
    ]
    for (const [value, text, isError] of cases) {
      const rt = makeRuntime([ScriptedTurn.text('').call('c', 'odd', '{}'), ScriptedTurn.text('done')],
        { tools: [tool('odd', () => value)] })
      await rt.run('go')
      const m = toolMessage(rt.snapshot().history, 'c')
      expect(m.text()).toBe(text)
      expect(m.isError).toBe(isError)
      if (isError) expect(m.errorCode).toBe(ErrorCodes.toolExecutionFailed)
    }
  })
})

type Slot = 'beforeRun' | 'beforeModelCall' | 'onModelChunk' | 'afterModelCall' | 'beforeToolCall' | 'afterToolCall' |
  'onTurnCompletion' | 'beforePersistState' | 'afterPersistState' | 'afterRun'
const DECISION: Slot[] = ['beforeRun', 'beforeModelCall', 'onModelChunk', 'afterModelCall', 'beforeToolCall',
  'afterToolCall', 'onTurnCompletion', 'beforePersistState']

/** A hook whose `slot` throws (synchronously or by rejecting) `value`, or returns what `answer` makes. */
function hookIn(slot: Slot, fail: () => unknown, sync: boolean): AgentHook {
  const h = new AgentHook()
  ;(h as unknown as Loose)[slot] = sync ? () => { throw fail() } : () => Promise.reject(fail())
  return h
}

function runtimeFor(hooks: AgentHook[], storage = new MemoryStateStorage()) {
  const t = new CountingTool('t', ToolRiskLevel.safe, async () => 'ok')
  const rt = makeRuntime([ScriptedTurn.text('hello').call('c1', 't', '{}'), ScriptedTurn.text('done')],
    { tools: [t.tool], hooks, storage })
  return { rt, t }
}

describe('whatever a hook throws is hook_failed (decision slots) or a diagnostic (observers), never a crash', () => {
  it('fuzz: value × decision slot × synchronous throw or rejection', async () => {
    await fc.assert(fc.asyncProperty(valueArb, fc.constantFrom(...DECISION), fc.boolean(), async (v, slot, sync) => {
      hookCases++
      const { rt, t } = runtimeFor([hookIn(slot, v.make, sync)])
      const outcome = await rt.run('go')
      expect(outcome.status, `${slot} ${v.name}`).toBe(RunStatus.failed)
      expect(outcome.error?.code).toBe(ErrorCodes.hookFailed)
      expect(outcome.error?.layer).toBe(ErrorLayer.security)
      expect(outcome.error?.message).toContain(`.${slot} failed: `)
      expect(outcome.error?.message).not.toContain('[object Object]')
      if (slot === 'beforeRun' || slot === 'beforeModelCall' || slot === 'onModelChunk' || slot === 'afterModelCall' ||
        slot === 'beforeToolCall') expect(t.count).toBe(0)
      expectPaired(rt.snapshot().history)
    }), { seed: SEED, numRuns: cases(300) })
  })

  it('fuzz: value × observer slot: the outcome stands, the failure is a diagnostic', async () => {
    await fc.assert(fc.asyncProperty(valueArb, fc.constantFrom<Slot>('afterPersistState', 'afterRun'), fc.boolean(),
      async (v, slot, sync) => {
        hookCases++
        const { rt } = runtimeFor([hookIn(slot, v.make, sync)])
        const diagnostics: string[] = []
        rt.controller.subscribeAll((e) => { if (e.eventType() === 'hook.diagnostic') diagnostics.push((e as unknown as { message: string }).message) })
        const outcome = await rt.run('go')
        expect(outcome.status).toBe(RunStatus.completed)
        expect(diagnostics.length).toBeGreaterThan(0)
      }), { seed: SEED, numRuns: cases(100) })
  })

  it('a hookName getter that throws cannot break the guard', async () => {
    const h = hookIn('beforeToolCall', () => new Error('boom'), false)
    Object.defineProperty(h, 'hookName', { get() { throw new Error('name bomb') } })
    const { rt } = runtimeFor([h])
    const outcome = await rt.run('go')
    expect(outcome.error?.code).toBe(ErrorCodes.hookFailed)
    expect(outcome.error?.message).toContain('boom')
  })
})

/** Answers a decision slot must reject: wrong classes, unknown actions, rewrites of the wrong type. */
const malformed: Array<{ slot: Slot, name: string, answer: () => unknown }> = [
  ...DECISION.flatMap((slot): Array<{ slot: Slot, name: string, answer: () => unknown }> => [
    { slot, name: 'a plain object with an action', answer: () => ({ action: 'proceed' }) },
    { slot, name: 'a number', answer: () => 42 },
    { slot, name: 'a string', answer: () => 'proceed' },
    { slot, name: "another slot's result", answer: () => slot === 'beforeRun' ? ModelCallHookResult.proceed() : BeforeRunHookResult.proceed() }
  ]),
  { slot: 'beforeToolCall', name: 'an unknown action', answer: () => { const r = ToolCallHookResult.proceed(); (r as unknown as Loose).action = 'approve'; return r } },
  { slot: 'beforeToolCall', name: 'a rewritten call that is a plain object', answer: () => ToolCallHookResult.proceed({ id: 'x', name: 't', argumentsJson: '{}', index: 0 } as never) },
  { slot: 'beforeToolCall', name: 'a deny with a synthetic result that is a string', answer: () => ToolCallHookResult.deny('nope' as never) },
  { slot: 'beforeToolCall', name: 'a reason that is a number', answer: () => ToolCallHookResult.defer(5 as never) },
  { slot: 'onModelChunk', name: 'a rewrite that is a number', answer: () => ModelChunkHookResult.proceed(7 as never) },
  { slot: 'onModelChunk', name: 'an unknown action', answer: () => { const r = ModelChunkHookResult.drop(); (r as unknown as Loose).action = 'shout'; return r } },
  { slot: 'beforeRun', name: 'input that is not messages', answer: () => BeforeRunHookResult.proceed(['hi'] as never) },
  { slot: 'beforeModelCall', name: 'a respond without a response', answer: () => ModelCallHookResult.respond(undefined as never) },
  { slot: 'beforeModelCall', name: 'a request whose messages are strings', answer: () => ModelCallHookResult.proceed({ messages: ['x'], tools: [], model: '' } as never) },
  { slot: 'afterModelCall', name: 'a response whose message is a user message', answer: () => ModelResponseHookResult.proceed(new ModelResponse(AgentMessage.user('x'))) },
  { slot: 'afterToolCall', name: 'injected messages that are strings', answer: () => ToolResultHookResult.proceed(undefined, ['x'] as never) },
  { slot: 'onTurnCompletion', name: 'continue with a null message', answer: () => TurnCompletionHookResult.continueRun([null] as never) },
  { slot: 'beforePersistState', name: 'an abort with an error that is a string', answer: () => StatePersistenceHookResult.abort('x', 'err' as never) }
]

describe('a decision hook answering with a malformed result fails closed (hook_failed)', () => {
  for (const m of malformed) {
    it(`${m.slot}: ${m.name}`, async () => {
      hookCases++
      const h = new AgentHook()
      ;(h as unknown as Loose)[m.slot] = async () => m.answer()
      const { rt, t } = runtimeFor([h])
      const outcome = await rt.run('go')
      expect(outcome.status).toBe(RunStatus.failed)
      expect(outcome.error?.code).toBe(ErrorCodes.hookFailed)
      expect(outcome.error?.message).toContain(`.${m.slot} returned an invalid result`)
      if (m.slot === 'beforeToolCall' || m.slot === 'beforeRun' || m.slot === 'beforeModelCall') expect(t.count).toBe(0)
      expectPaired(rt.snapshot().history)
    })
  }
})

describe('afterRun observers get a context even when the run failed in a hook', () => {
  it('afterRun runs once after a hook_failed run', async () => {
    const seen: string[] = []
    const obs = new (class extends AgentHook {
      async afterRun(ctx: AfterRunHookContext): Promise<void> { seen.push(ctx.error?.code ?? 'none') }
    })()
    const { rt } = runtimeFor([hookIn('beforeToolCall', () => Object.create(null), false), obs])
    await rt.run('go')
    expect(seen).toEqual([ErrorCodes.hookFailed])
  })
})

afterAll(() => {
  record('thrown values', 'tool throws/rejects/returns a hostile value', toolCases, 'cases', `seed ${SEED}, ${hostile.length} kinds of value`)
  record('thrown values', 'hook throws/rejects or answers malformed', hookCases, 'cases', 'every slot; 0 crashes')
  record('thrown values', 'sessions restored after those runs', restores, 'restores', '0 unloadable states')
})
