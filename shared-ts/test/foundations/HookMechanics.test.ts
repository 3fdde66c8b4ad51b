// The mechanics under the hook rules: answers that are not answers, late answers after a timeout,
// timers that must not outlive a hook call, the chunk watchdog's cost, lazy state snapshots, and
// rewrites that a later bare proceed() must not wipe.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorCodes } from '../../src/core/errors/ArkAgentError'
import { AgentHook } from '../../src/core/hook/AgentHook'
import { AgentHookPipeline } from '../../src/core/hook/AgentHookPipeline'
import {
  BeforeRunHookContext,
  ModelCallHookContext,
  ModelChunkHookContext,
  ModelResponseHookContext,
  StatePersistenceHookContext,
  StateView,
  ToolCallHookContext
} from '../../src/core/hook/HookContexts'
import { HookWatchdog } from '../../src/core/hook/HookWatchdog'
import {
  BeforeRunHookResult,
  ModelCallHookResult,
  ModelChunkHookAction,
  ModelChunkHookResult,
  ModelResponseHookResult,
  ToolCallHookResult
} from '../../src/core/hook/HookResults'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ModelRequest } from '../../src/core/model/ModelRequest'
import { ModelResponse } from '../../src/core/model/ModelResponse'
import { ToolCall } from '../../src/core/model/ToolCall'
import { ToolDefinition, ToolRiskLevel } from '../../src/core/model/ToolDefinition'
import { AgentState } from '../../src/core/state/AgentState'
import { rejectionOf } from './fixtures'

afterEach(() => { vi.useRealTimers() })

type Loose = Record<string, unknown>

function hook(slots: Loose, name: unknown = 'T'): AgentHook {
  const h = new AgentHook()
  Object.assign(h as unknown as Loose, slots)
  Object.defineProperty(h, 'hookName', { get: () => name, configurable: true })
  return h
}

const view = (): StateView => StateView.of(new AgentState('s'))
const CALL = new ToolCall('c1', 'read', '{}', 3)
const toolCtx = (call = CALL, tools: ToolDefinition[] = [], lookup?: (n: string) => ToolDefinition | undefined): ToolCallHookContext =>
  new ToolCallHookContext('s', 'r', view(), call, AgentMessage.assistant('', [call]), tools, tools.find((t) => t.name === call.name), lookup)
const chunkCtx = (text = 'hello'): ModelChunkHookContext => new ModelChunkHookContext('s', 'r', view(), text, false, 0, 1)

describe('an answer that is not one', () => {
  for (const nothing of [undefined, null]) {
    it(`${String(nothing)} from a decision hook or a chunk hook is hook_failed "returned no result"`, async () => {
      const p = new AgentHookPipeline([hook({ beforeToolCall: async () => nothing, onModelChunk: async () => nothing })])
      const e1 = await rejectionOf(p.beforeToolCall(toolCtx()))
      expect([e1.code, e1.message]).toEqual([ErrorCodes.hookFailed, 'Hook T.beforeToolCall failed: returned no result'])
      const e2 = await rejectionOf(p.onModelChunk(chunkCtx()))
      expect([e2.code, e2.message]).toEqual([ErrorCodes.hookFailed, 'Hook T.onModelChunk failed: returned no result'])
    })
  }

  it('a hook whose name is not text (or whose name getter throws) is called AgentHook in errors', async () => {
    for (const name of [42, null, { not: 'text' }]) {
      const p = new AgentHookPipeline([hook({ beforeToolCall: async () => { throw new Error('x') } }, name)])
      expect((await rejectionOf(p.beforeToolCall(toolCtx()))).message).toBe('Hook AgentHook.beforeToolCall failed: x')
    }
    const thrower = hook({ onModelChunk: async () => { throw new Error('y') } })
    Object.defineProperty(thrower, 'hookName', { get: () => { throw new Error('no name') } })
    expect((await rejectionOf(new AgentHookPipeline([thrower]).onModelChunk(chunkCtx()))).message)
      .toBe('Hook AgentHook.onModelChunk failed: y')
  })

  it('an observer that fails is reported as "Hook <name>.<slot> failed: <why>"', async () => {
    const p = new AgentHookPipeline([hook({ afterPersistState: async () => { throw new Error('audit down') },
      afterRun: async () => { throw new Error('metrics down') } }, 'Obs')])
    const ctx = new StatePersistenceHookContext('s', 'r', view(), 'terminal', true)
    expect(await p.afterPersistState(ctx)).toEqual(['Hook Obs.afterPersistState failed: audit down'])
  })
})

describe('a late answer after the timeout changes nothing', () => {
  it('decision slot: the run got hook_timeout; the late deny is ignored and nothing else is called', async () => {
    let release: (r: ToolCallHookResult) => void = () => {}
    const later: string[] = []
    const p = new AgentHookPipeline([
      hook({ beforeToolCall: () => new Promise<ToolCallHookResult>((r) => { release = r }) }, 'Slow'),
      hook({ beforeToolCall: async () => { later.push('called'); return ToolCallHookResult.proceed() } }, 'Next')
    ], 20)
    const e = await rejectionOf(p.beforeToolCall(toolCtx()))
    expect([e.code, e.message]).toEqual([ErrorCodes.hookTimeout, 'Hook Slow.beforeToolCall did not answer within 20 ms'])
    release(ToolCallHookResult.deny())
    await new Promise((r) => setTimeout(r, 5))
    expect(later).toEqual([])
  })

  it('chunk slot: after the timeout the chunk never reaches later hooks, even when the slow hook answers', async () => {
    let release: (r: ModelChunkHookResult) => void = () => {}
    const later: string[] = []
    const p = new AgentHookPipeline([
      hook({ onModelChunk: () => new Promise<ModelChunkHookResult>((r) => { release = r }) }, 'Slow'),
      hook({ onModelChunk: async (c: ModelChunkHookContext) => { later.push(c.text); return ModelChunkHookResult.proceed() } }, 'Next')
    ], 20)
    const e = await rejectionOf(p.onModelChunk(chunkCtx()))
    expect([e.code, e.message]).toEqual([ErrorCodes.hookTimeout, 'Hook Slow.onModelChunk did not answer within 20 ms'])
    release(ModelChunkHookResult.proceed('late'))
    await new Promise((r) => setTimeout(r, 5))
    expect(later).toEqual([])
  })

  it('a hook that rejects after it already timed out does not reject twice or call anything', async () => {
    let fail: (e: Error) => void = () => {}
    const p = new AgentHookPipeline([hook({ onTurnCompletion: () => new Promise((_, j) => { fail = j }) }, 'Slow')], 15)
    const ctx = new (await import('../../src/core/hook/HookContexts')).TurnCompletionHookContext('s', 'r', view(), AgentMessage.assistant('x'), 1)
    const e = await rejectionOf(p.onTurnCompletion(ctx))
    expect(e.code).toBe(ErrorCodes.hookTimeout)
    fail(new Error('too late'))
    await new Promise((r) => setTimeout(r, 5))
  })
})

describe('timers do not outlive a hook call', () => {
  it('a slow decision hook that answers in time leaves no timer behind', async () => {
    vi.useFakeTimers()
    const p = new AgentHookPipeline([hook({ beforeToolCall: () => new Promise<ToolCallHookResult>((r) => setTimeout(() => r(ToolCallHookResult.proceed()), 10)) })], 1000)
    const done = p.beforeToolCall(toolCtx())
    await vi.advanceTimersByTimeAsync(10)
    expect((await done).action).toBe('proceed')
    expect(vi.getTimerCount()).toBe(0)
    const failing = new AgentHookPipeline([hook({ beforeToolCall: () => new Promise<ToolCallHookResult>((_, j) => setTimeout(() => j(new Error('no')), 10)) })], 1000)
    const f = rejectionOf(failing.beforeToolCall(toolCtx()))
    await vi.advanceTimersByTimeAsync(10)
    expect((await f).code).toBe(ErrorCodes.hookFailed)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('a hook that answers at once arms no timer; a timeout of 0 never arms one', async () => {
    vi.useFakeTimers()
    const spy = vi.spyOn(globalThis, 'setTimeout')
    await new AgentHookPipeline([hook({ beforeToolCall: async () => ToolCallHookResult.proceed() })], 1000).beforeToolCall(toolCtx())
    expect(spy).not.toHaveBeenCalled()
    const slow = new AgentHookPipeline([hook({ beforeToolCall: () => new Promise<ToolCallHookResult>((r) => setTimeout(() => r(ToolCallHookResult.proceed()), 10)) })], 0)
    const done = slow.beforeToolCall(toolCtx())
    await vi.advanceTimersByTimeAsync(10)
    await done
    expect(spy).toHaveBeenCalledTimes(1)
  })

  it('a chunk pass without a stream watchdog makes its own and stops it; with one it leaves the stream\'s running', async () => {
    vi.useFakeTimers()
    const slow = hook({ onModelChunk: () => new Promise<ModelChunkHookResult>((r) => setTimeout(() => r(ModelChunkHookResult.proceed()), 10)) })
    const p = new AgentHookPipeline([slow], 1000)
    const own = p.onModelChunk(chunkCtx())
    await vi.advanceTimersByTimeAsync(10)
    await own
    expect(vi.getTimerCount()).toBe(0)
    const shared = p.newChunkWatchdog()
    const next = p.onModelChunkThen(chunkCtx(), { afterChunkHooks: () => {} }, shared)
    await vi.advanceTimersByTimeAsync(10)
    expect((await next).action).toBe(ModelChunkHookAction.proceed)
    expect(shared.isTicking()).toBe(true)
    shared.close()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('the chunk watchdog wakes about four times per bound, not once per millisecond', async () => {
    vi.useFakeTimers()
    const spy = vi.spyOn(globalThis, 'setTimeout')
    const p = new AgentHookPipeline([hook({ onModelChunk: () => new Promise<ModelChunkHookResult>(() => {}) }, 'Hang')], 100)
    const r = rejectionOf(p.onModelChunk(chunkCtx()))
    await vi.advanceTimersByTimeAsync(130)
    expect((await r).code).toBe(ErrorCodes.hookTimeout)
    expect(spy.mock.calls.length).toBeLessThanOrEqual(6)
    expect(spy.mock.calls.every((c) => c[1] === 25)).toBe(true)
  })

  it('a watchdog declares a call overrun between one and 1.25 bounds after it began', async () => {
    vi.useFakeTimers()
    const verdicts: number[] = []
    const w = new HookWatchdog(100)
    const started = Date.now()
    w.begin({ overran: () => { verdicts.push(Date.now() - started) } }, 0)
    await vi.advanceTimersByTimeAsync(99)
    expect(verdicts).toEqual([])
    await vi.advanceTimersByTimeAsync(40)
    expect(verdicts.length).toBe(1)
    expect(verdicts[0]).toBeGreaterThanOrEqual(100)
    expect(verdicts[0]).toBeLessThanOrEqual(125)
    expect(w.isTicking()).toBe(false)
    // A call that ends is never declared overrun; the watchdog stops at its next tick.
    w.begin({ overran: () => { verdicts.push(-1) } }, 1)
    w.end()
    await vi.advanceTimersByTimeAsync(500)
    expect(verdicts.length).toBe(1)
    expect(w.isTicking()).toBe(false)
    expect(new HookWatchdog(0).timeoutMs).toBe(0)
  })
})

describe('state snapshots for hooks', () => {
  it('taken lazily, once per context, a separate copy for every hook', async () => {
    let taken = 0
    const root = new StateView(() => { taken++; return new AgentState('s') })
    const seen: AgentState[] = []
    const p = new AgentHookPipeline([
      hook({ beforeToolCall: async (c: ToolCallHookContext) => { seen.push(c.state, c.state); c.state.plan = 'changed'; return ToolCallHookResult.proceed() } }),
      hook({ beforeToolCall: async () => ToolCallHookResult.proceed() }),
      hook({ beforeToolCall: async (c: ToolCallHookContext) => { seen.push(c.state); return ToolCallHookResult.proceed() } })
    ])
    await p.beforeToolCall(new ToolCallHookContext('s', 'r', root, CALL, AgentMessage.assistant('', [CALL]), []))
    expect(taken).toBe(1)
    expect(seen[0]).toBe(seen[1])
    expect(seen[2]).not.toBe(seen[0])
    expect(seen[2].plan).toBe('')
    expect(root.isMaterialized()).toBe(true)
    expect(new StateView(() => new AgentState('x')).isMaterialized()).toBe(false)
  })
})

describe('rewrites carried through', () => {
  it('a renamed call is resolved by the lookup when given, else among the available tools', async () => {
    const fromLookup = new ToolDefinition('rm', 'by lookup', {}, ToolRiskLevel.dangerous)
    const listed = new ToolDefinition('rm', 'listed', {}, ToolRiskLevel.sensitive)
    const seen: Array<string | undefined> = []
    const p = new AgentHookPipeline([
      hook({ beforeToolCall: async (c: ToolCallHookContext) => ToolCallHookResult.proceed(new ToolCall(c.call.id, 'rm', '{}')) }),
      hook({ beforeToolCall: async (c: ToolCallHookContext) => { seen.push(c.definition?.description); return ToolCallHookResult.proceed() } })
    ])
    await p.beforeToolCall(toolCtx(CALL, [listed], (n) => n === 'rm' ? fromLookup : undefined))
    await p.beforeToolCall(toolCtx(CALL, [listed]))
    await p.beforeToolCall(toolCtx(CALL, [new ToolDefinition('read', 'r', {})]))
    expect(seen).toEqual(['by lookup', 'listed', undefined])
  })

  it('a rewrite that keeps the id but moves the call is put back in its position', async () => {
    const p = new AgentHookPipeline([hook({ beforeToolCall: async () => ToolCallHookResult.proceed(new ToolCall('c1', 'read', '{"a":1}', 9)) })])
    const r = await p.beforeToolCall(toolCtx())
    expect([r.call!.id, r.call!.index, r.call!.argumentsJson]).toEqual(['c1', 3, '{"a":1}'])
  })

  it('a later hook\'s bare proceed() keeps an earlier hook\'s rewrite (request, response, input)', async () => {
    const redacted = new ModelRequest([AgentMessage.user('[redacted]')])
    const better = new ModelResponse(AgentMessage.assistant('better'))
    const p = new AgentHookPipeline([
      hook({ beforeModelCall: async () => ModelCallHookResult.proceed(redacted),
        afterModelCall: async () => ModelResponseHookResult.proceed(better),
        beforeRun: async () => BeforeRunHookResult.proceed([AgentMessage.user('clean')]) }),
      hook({ beforeModelCall: async () => ModelCallHookResult.proceed(), afterModelCall: async () => ModelResponseHookResult.proceed(),
        beforeRun: async () => BeforeRunHookResult.proceed() })
    ])
    const req = await p.beforeModelCall(new ModelCallHookContext('s', 'r', view(), new ModelRequest([AgentMessage.user('secret')]), 1))
    expect(req.request!.messages.map((m) => m.text())).toEqual(['[redacted]'])
    const res = await p.afterModelCall(new ModelResponseHookContext('s', 'r', view(), new ModelResponse(AgentMessage.assistant('raw')), 1, 0))
    expect(res.response!.message.text()).toBe('better')
    const run = await p.beforeRun(new BeforeRunHookContext('s', 'r', view(), [AgentMessage.user('dirty')]))
    expect(run.input!.map((m) => m.text())).toEqual(['clean'])
  })

  it('with no chunk hooks a chunk passes untouched', async () => {
    const r = await new AgentHookPipeline([]).onModelChunk(chunkCtx('as is'))
    expect([r.action, r.text]).toEqual([ModelChunkHookAction.proceed, undefined])
  })
})
