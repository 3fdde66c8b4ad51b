// How hooks are named in errors, how a failure, a hang and a malformed answer are told apart, how
// the chunk chain hands text from hook to hook and keeps its watchdog honest, and what a context
// copy shares with the context it came from.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { AgentHook } from '../../src/core/hook/AgentHook'
import { AgentHookPipeline } from '../../src/core/hook/AgentHookPipeline'
import {
  ModelChunkHookContext,
  StateView,
  ToolCallHookContext
} from '../../src/core/hook/HookContexts'
import { HookGuard } from '../../src/core/hook/HookGuard'
import { HookWatchdog } from '../../src/core/hook/HookWatchdog'
import {
  ModelChunkHookAction,
  ModelChunkHookResult,
  ToolCallHookResult
} from '../../src/core/hook/HookResults'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ToolCall } from '../../src/core/model/ToolCall'
import { ToolDefinition, ToolRiskLevel } from '../../src/core/model/ToolDefinition'
import { AgentState } from '../../src/core/state/AgentState'
import { rejectionOf, thrownBy } from './fixtures'

afterEach(() => { vi.useRealTimers() })

type Loose = Record<string, unknown>

function hook(slots: Loose, name: string = 'T'): AgentHook {
  const h = new AgentHook()
  Object.assign(h as unknown as Loose, slots)
  Object.defineProperty(h, 'hookName', { get: () => name })
  return h
}

const view = (): StateView => StateView.of(new AgentState('s'))
const CALL = new ToolCall('c1', 'read', '{}', 0)
const chunkCtx = (text = 'hello'): ModelChunkHookContext => new ModelChunkHookContext('s', 'r', view(), text, false, 0, 1)
const toolCtx = (tools: ToolDefinition[] = [], definition?: ToolDefinition): ToolCallHookContext =>
  new ToolCallHookContext('s', 'r', view(), CALL, AgentMessage.assistant('', [CALL]), tools, definition)

describe('hooks are named in errors', () => {
  class AuditHook extends AgentHook {
    get hookName(): string { return 'Audit' }
    async beforeToolCall(): Promise<ToolCallHookResult> { throw new Error('db down') }
  }
  class Unnamed extends AgentHook {
    async beforeToolCall(): Promise<ToolCallHookResult> { throw new Error('oops') }
  }

  it('by their hookName, or "AgentHook" when they do not name themselves', async () => {
    expect(new AgentHook().hookName).toBe('AgentHook')
    expect(HookGuard.nameOf(new AuditHook())).toBe('Audit')
    expect(HookGuard.nameOf(new Unnamed())).toBe('AgentHook')
    expect((await rejectionOf(new AgentHookPipeline([new AuditHook()]).beforeToolCall(toolCtx()))).message)
      .toBe('Hook Audit.beforeToolCall failed: db down')
    expect((await rejectionOf(new AgentHookPipeline([new Unnamed()]).beforeToolCall(toolCtx()))).message)
      .toBe('Hook AgentHook.beforeToolCall failed: oops')
  })
})

describe('a throw, a hang and a malformed answer are three different errors', () => {
  it('a throw is hook_failed with the thrown error as its cause', async () => {
    const boom = new RangeError('out of range')
    const e = await rejectionOf(new AgentHookPipeline([hook({ beforeToolCall: async () => { throw boom } })]).beforeToolCall(toolCtx()))
    expect([e.layer, e.code, e.message, e.retryability]).toEqual([ErrorLayer.security, ErrorCodes.hookFailed,
      'Hook T.beforeToolCall failed: out of range', 'never'])
    expect(e.cause).toBe(boom)
    const plain = await rejectionOf(new AgentHookPipeline([hook({ beforeToolCall: async () => { throw 'just text' } })]).beforeToolCall(toolCtx()))
    expect([plain.message, plain.cause]).toEqual(['Hook T.beforeToolCall failed: just text', undefined])
  })

  it('a hang is hook_timeout naming the bound; a malformed answer is hook_failed "returned an invalid result"', async () => {
    vi.useFakeTimers()
    const p = new AgentHookPipeline([hook({ beforeToolCall: () => new Promise(() => {}) }, 'Hang')], 50)
    const hung = rejectionOf(p.beforeToolCall(toolCtx()))
    await vi.advanceTimersByTimeAsync(49)
    await vi.advanceTimersByTimeAsync(1)
    const e = await hung
    expect([e.layer, e.code, e.message]).toEqual([ErrorLayer.security, ErrorCodes.hookTimeout,
      'Hook Hang.beforeToolCall did not answer within 50 ms'])
    expect(vi.getTimerCount()).toBe(0)
    vi.useRealTimers()
    const bad = await rejectionOf(new AgentHookPipeline([hook({ beforeToolCall: async () => 'proceed' }, 'Bad')]).beforeToolCall(toolCtx()))
    expect([bad.code, bad.message]).toEqual([ErrorCodes.hookFailed,
      'Hook Bad.beforeToolCall returned an invalid result: expected a ToolCallHookResult (use its static factories)'])
  })

  it('a hook that answers within the bound is not timed out, however close to it', async () => {
    vi.useFakeTimers()
    const p = new AgentHookPipeline([hook({
      beforeToolCall: () => new Promise<ToolCallHookResult>((r) => setTimeout(() => r(ToolCallHookResult.deny()), 49))
    })], 50)
    const done = p.beforeToolCall(toolCtx())
    await vi.advanceTimersByTimeAsync(49)
    expect((await done).action).toBe('deny')
    expect(vi.getTimerCount()).toBe(0)
  })

  it('an observer hook that answers nothing is fine; one that hangs is reported with the bound', async () => {
    vi.useFakeTimers()
    const ok = new AgentHookPipeline([hook({ afterRun: async () => undefined })], 30)
    const { AfterRunHookContext } = await import('../../src/core/hook/HookContexts')
    expect(await ok.afterRun(new AfterRunHookContext('s', 'r', view(), 'complete'))).toEqual([])
    const hang = new AgentHookPipeline([hook({ afterRun: () => new Promise(() => {}) }, 'Slow')], 30)
    const diag = hang.afterRun(new AfterRunHookContext('s', 'r', view(), 'complete'))
    await vi.advanceTimersByTimeAsync(30)
    expect(await diag).toEqual(['Hook Slow.afterRun did not answer within 30 ms'])
  })
})

describe('the pipeline\'s hook timeout setting', () => {
  it('a bad value names the setting; the setter marks the timeout explicit', () => {
    const e = thrownBy(() => new AgentHookPipeline([], -1))
    expect([e.code, e.message]).toEqual([ErrorCodes.invalidConfig,
      'AgentHookPipeline hookTimeoutMs must be a number of milliseconds from 0 (disables it) to 2147483647 (what a timer can hold); got -1'])
    const p = new AgentHookPipeline()
    expect(p.hasExplicitTimeout).toBe(false)
    const e2 = thrownBy(() => { p.hookTimeoutMs = Number.NaN })
    expect(e2.message).toBe('AgentHookPipeline hookTimeoutMs must be a number of milliseconds from 0 (disables it) to 2147483647 (what a timer can hold); got NaN')
    expect(p.hasExplicitTimeout).toBe(false)
    p.hookTimeoutMs = 250
    expect([p.hookTimeoutMs, p.hasExplicitTimeout]).toEqual([250, true])
    expect(new AgentHookPipeline([], 0).hasExplicitTimeout).toBe(true)
    expect(p.newChunkWatchdog().timeoutMs).toBe(250)
  })
})

describe('the chunk chain', () => {
  const rewrite = (f: (t: string) => string, name = 'T'): AgentHook =>
    hook({ onModelChunk: async (c: ModelChunkHookContext) => ModelChunkHookResult.proceed(f(c.text)) }, name)
  const record = (seen: string[], answer: () => ModelChunkHookResult = () => ModelChunkHookResult.proceed()): AgentHook =>
    hook({ onModelChunk: async (c: ModelChunkHookContext) => { seen.push(c.text); return answer() } })

  it('rewrites pass on in order; a rewrite back to the original text is no rewrite', async () => {
    const seen: string[] = []
    const p = new AgentHookPipeline([rewrite((t) => t.toUpperCase()), record(seen), rewrite((t) => `${t}!`), record(seen)])
    const r = await p.onModelChunk(chunkCtx('hi'))
    expect(seen).toEqual(['HI', 'HI!'])
    expect([r.action, r.text]).toEqual([ModelChunkHookAction.proceed, 'HI!'])
    const back = await new AgentHookPipeline([rewrite((t) => t + 'x'), rewrite((t) => t.slice(0, -1))]).onModelChunk(chunkCtx('hi'))
    expect([back.action, back.text]).toEqual([ModelChunkHookAction.proceed, undefined])
    const none = await new AgentHookPipeline([record([])]).onModelChunk(chunkCtx('hi'))
    expect([none.action, none.text]).toEqual([ModelChunkHookAction.proceed, undefined])
  })

  it('the first drop or abort wins and later hooks never see the chunk', async () => {
    const seen: string[] = []
    const drop = await new AgentHookPipeline([rewrite((t) => `<${t}>`), record(seen, () => ModelChunkHookResult.drop('spam')), record(seen)])
      .onModelChunk(chunkCtx('ad'))
    expect([drop.action, drop.reason, drop.text]).toEqual([ModelChunkHookAction.drop, 'spam', undefined])
    expect(seen).toEqual(['<ad>'])
    const abort = await new AgentHookPipeline([record(seen, () => ModelChunkHookResult.abort('leak')), record(seen)])
      .onModelChunk(chunkCtx('key'))
    expect([abort.action, abort.reason]).toEqual([ModelChunkHookAction.abort, 'leak'])
    expect(seen).toEqual(['<ad>', 'key'])
  })

  it('a hook that reads and changes its state copy does not change the next hook\'s', async () => {
    const plans: string[] = []
    const root = new StateView(() => new AgentState('s'))
    const touch = hook({ onModelChunk: async (c: ModelChunkHookContext) => {
      plans.push(c.state.plan)
      c.state.plan = 'tampered'
      return ModelChunkHookResult.proceed()
    } })
    await new AgentHookPipeline([touch, touch, touch]).onModelChunk(new ModelChunkHookContext('s', 'r', root, 'x', true, 4, 2))
    expect(plans).toEqual(['', '', ''])
  })

  it('every hook sees the chunk\'s position, kind and run', async () => {
    const seen: unknown[] = []
    const p = new AgentHookPipeline([rewrite((t) => t + '1'), hook({ onModelChunk: async (c: ModelChunkHookContext) => {
      seen.push([c.sessionId, c.runId, c.text, c.reasoning, c.chunkIndex, c.turn])
      return ModelChunkHookResult.proceed()
    } })])
    await p.onModelChunk(new ModelChunkHookContext('s', 'r', view(), 'x', true, 4, 2))
    expect(seen).toEqual([['s', 'r', 'x1', true, 4, 2]])
  })

  it('a result\'s fields are read once: a getter that would change or throw on a second read is never read again', async () => {
    const seen: string[] = []
    const shifty = ModelChunkHookResult.proceed('fine')
    let actionReads = 0
    let textReads = 0
    const trap = new Error('second read')
    Object.defineProperty(shifty, 'action', { get: () => { if (actionReads++ > 0) { throw trap } return 'proceed' } })
    Object.defineProperty(shifty, 'text', { get: () => { if (textReads++ > 0) { throw trap } return 'fine' } })
    const r = await new AgentHookPipeline([hook({ onModelChunk: async () => shifty }), record(seen)]).onModelChunk(chunkCtx())
    expect([r.action, r.text]).toEqual(['proceed', 'fine'])
    expect(seen).toEqual(['fine'])
    expect([actionReads, textReads]).toEqual([1, 1])
  })

  it('a hook that throws synchronously or rejects is hook_failed naming it; the chain stops', async () => {
    const seen: string[] = []
    const sync = hook({ onModelChunk: () => { throw new Error('sync') } }, 'Sync')
    const e1 = await rejectionOf(new AgentHookPipeline([sync, record(seen)]).onModelChunk(chunkCtx()))
    expect([e1.code, e1.message]).toEqual([ErrorCodes.hookFailed, 'Hook Sync.onModelChunk failed: sync'])
    const rej = hook({ onModelChunk: async () => { throw new Error('async') } }, 'Async')
    const e2 = await rejectionOf(new AgentHookPipeline([rewrite((t) => t), rej, record(seen)]).onModelChunk(chunkCtx()))
    expect([e2.code, e2.message]).toEqual([ErrorCodes.hookFailed, 'Hook Async.onModelChunk failed: async'])
    expect(seen).toEqual([])
  })

  it('a continuation runs with the result before the pass settles; its throw rejects the pass', async () => {
    const got: string[] = []
    const p = new AgentHookPipeline([rewrite((t) => t + '+')])
    const r = await p.onModelChunkThen(chunkCtx('a'), { afterChunkHooks: (res, ctx) => { got.push(`${res.text}/${ctx.text}`) } })
    expect([r.text, got]).toEqual(['a+', ['a+/a']])
    const boom = new Error('collector failed')
    expect(await rejectionOf(p.onModelChunkThen(chunkCtx('a'), { afterChunkHooks: () => { throw boom } }))).toBe(boom)
  })
})

describe('a stream\'s shared chunk watchdog', () => {
  it('stops ticking on its own once the stream\'s calls have settled', async () => {
    vi.useFakeTimers()
    const slow = hook({ onModelChunk: () => new Promise<ModelChunkHookResult>((r) => setTimeout(() => r(ModelChunkHookResult.proceed()), 10)) })
    const p = new AgentHookPipeline([slow, slow], 100)
    const shared = p.newChunkWatchdog()
    const done = p.onModelChunkThen(chunkCtx(), { afterChunkHooks: () => {} }, shared)
    await vi.advanceTimersByTimeAsync(20)
    await done
    await vi.advanceTimersByTimeAsync(25)
    expect(shared.isTicking()).toBe(false)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('a late answer from a timed-out pass does not blind the watchdog to the next pass\'s hang', async () => {
    vi.useFakeTimers()
    let releaseFirst: (r: ModelChunkHookResult) => void = () => {}
    let failFirst: (e: Error) => void = () => {}
    let n = 0
    const slow = hook({ onModelChunk: () => new Promise<ModelChunkHookResult>((resolve, reject) => {
      n++
      if (n === 1) {
        releaseFirst = resolve
      } else if (n === 2) {
        failFirst = reject
      }
    }) }, 'Slow')
    const p = new AgentHookPipeline([slow], 100)
    const shared = p.newChunkWatchdog()
    for (const late of [() => releaseFirst(ModelChunkHookResult.proceed('late')), () => failFirst(new Error('late'))]) {
      const first = rejectionOf(p.onModelChunkThen(chunkCtx(), { afterChunkHooks: () => {} }, shared))
      await vi.advanceTimersByTimeAsync(125)
      expect((await first).code).toBe(ErrorCodes.hookTimeout)
      const second = rejectionOf(p.onModelChunkThen(chunkCtx(), { afterChunkHooks: () => {} }, shared))
      await vi.advanceTimersByTimeAsync(10)
      late()
      await vi.advanceTimersByTimeAsync(125)
      const e = await second
      expect([e.code, e.message]).toEqual([ErrorCodes.hookTimeout, 'Hook Slow.onModelChunk did not answer within 100 ms'])
    }
    shared.close()
  })

  it('a stale overrun verdict for a call that already settled is ignored', async () => {
    const begun: Array<[{ overran(call: number, ms: number): void }, number]> = []
    class Spy extends HookWatchdog {
      begin(owner: { overran(call: number, ms: number): void }, call: number): void {
        begun.push([owner, call])
        super.begin(owner, call)
      }
    }
    let releaseSecond: (r: ModelChunkHookResult) => void = () => {}
    const first = hook({ onModelChunk: async () => ModelChunkHookResult.proceed('one') })
    const second = hook({ onModelChunk: () => new Promise<ModelChunkHookResult>((r) => { releaseSecond = r }) })
    const watchdog = new Spy(0)
    const pass = new AgentHookPipeline([first, second], 0).onModelChunkThen(chunkCtx(), { afterChunkHooks: () => {} }, watchdog)
    await new Promise((r) => setTimeout(r, 0))
    expect(begun.map((b) => b[1])).toEqual([0, 1])
    begun[0][0].overran(0, 5)
    releaseSecond(ModelChunkHookResult.proceed())
    const r = await pass
    expect([r.action, r.text]).toEqual([ModelChunkHookAction.proceed, 'one'])
  })
})

describe('context copies', () => {
  it('a rewrite keeping the tool name keeps the definition the context was given', async () => {
    const def = new ToolDefinition('read', 'given', {}, ToolRiskLevel.sensitive)
    const ctx = toolCtx([], def)
    const same = ctx.copyWith(new ToolCall('c1', 'read', '{"path":"/x"}'))
    expect(same.definition).toBe(def)
    expect(same.call.argumentsJson).toBe('{"path":"/x"}')
    expect(ctx.copyWith().definition).toBe(def)
    expect(ctx.copyWith(new ToolCall('c1', 'write', '{}')).definition).toBeUndefined()
  })

  it('a hook adding to its list of available tools changes neither the next hook\'s list nor what a rename resolves to', async () => {
    const tools = [new ToolDefinition('read', 'reads', {})]
    const seen: string[][] = []
    const resolved: Array<string | undefined> = []
    const p = new AgentHookPipeline([
      hook({ beforeToolCall: async (c: ToolCallHookContext) => {
        c.availableTools.push(new ToolDefinition('wipe', 'injected', {}, ToolRiskLevel.safe))
        return ToolCallHookResult.proceed()
      } }),
      hook({ beforeToolCall: async (c: ToolCallHookContext) => {
        seen.push(c.availableTools.map((t) => t.name))
        return ToolCallHookResult.proceed(new ToolCall('c1', 'wipe', '{}'))
      } }),
      hook({ beforeToolCall: async (c: ToolCallHookContext) => { resolved.push(c.definition?.description); return ToolCallHookResult.proceed() } })
    ])
    await p.beforeToolCall(toolCtx(tools, tools[0]))
    expect(seen).toEqual([['read']])
    expect(resolved).toEqual([undefined])
    expect(tools.map((t) => t.name)).toEqual(['read'])
  })

  it('a copy of a copy still starts from the pass\'s snapshot, not from what a hook did to its copy', () => {
    const root = StateView.of(new AgentState('s'))
    const first = new ModelChunkHookContext('s', 'r', root, 'a', false, 0, 1).copyWith()
    first.state.plan = 'changed by the first hook'
    const second = first.copyWith('b')
    expect(second.state.plan).toBe('')
    expect(second.state).not.toBe(first.state)
    expect(second.text).toBe('b')
  })

  it('a view built with its own supplier takes its state from that supplier', () => {
    const root = StateView.of(new AgentState('root'))
    const own = new AgentState('own')
    const v = new StateView(() => own, root)
    expect(v.isMaterialized()).toBe(false)
    expect(v.get()).toBe(own)
    expect(v.isMaterialized()).toBe(true)
    expect(root.fork().get().sessionId).toBe('root')
  })
})

describe('slots a hook does not override', () => {
  it('are never called, in any decision slot', async () => {
    const spies = (['beforeToolCall', 'beforeRun', 'afterToolCall'] as const).map((s) => vi.spyOn(AgentHook.prototype, s))
    try {
      const p = new AgentHookPipeline([hook({ onTurnCompletion: async () => { throw new Error('unused') } })])
      const r = await p.beforeToolCall(toolCtx())
      expect([r.action, r.call]).toEqual(['proceed', CALL])
      for (const spy of spies) {
        expect(spy).not.toHaveBeenCalled()
      }
    } finally {
      vi.restoreAllMocks()
    }
  })
})
