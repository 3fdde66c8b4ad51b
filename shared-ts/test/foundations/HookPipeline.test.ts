import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { AgentHook } from '../../src/core/hook/AgentHook'
import { AgentHookPipeline } from '../../src/core/hook/AgentHookPipeline'
import {
  AfterRunHookContext,
  BeforeRunHookContext,
  ModelCallHookContext,
  ModelChunkHookContext,
  ModelResponseHookContext,
  StatePersistenceHookContext,
  StateView,
  ToolCallHookContext,
  ToolResultHookContext,
  TurnCompletionHookContext
} from '../../src/core/hook/HookContexts'
import {
  BeforeRunHookAction,
  BeforeRunHookResult,
  ModelCallHookAction,
  ModelCallHookResult,
  ModelChunkHookAction,
  ModelChunkHookResult,
  ModelResponseHookAction,
  ModelResponseHookResult,
  StatePersistenceHookAction,
  StatePersistenceHookResult,
  ToolCallHookAction,
  ToolCallHookResult,
  ToolResultHookAction,
  ToolResultHookResult,
  TurnCompletionHookAction,
  TurnCompletionHookResult
} from '../../src/core/hook/HookResults'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ModelRequest } from '../../src/core/model/ModelRequest'
import { ModelResponse } from '../../src/core/model/ModelResponse'
import { ToolCall } from '../../src/core/model/ToolCall'
import { ToolDefinition } from '../../src/core/model/ToolDefinition'
import { ToolResult } from '../../src/core/model/ToolResult'
import { AgentState, SessionStatus } from '../../src/core/state/AgentState'
import { ApprovalDecision } from '../../src/core/state/PendingApproval'
import { rejectionOf, richBatch, sleep } from './fixtures'

// ---------- context factories ----------

function runtimeState(): AgentState {
  const s = new AgentState('s1')
  s.history = [AgentMessage.user('hello'), AgentMessage.assistant('hi')]
  s.status = SessionStatus.running
  s.pendingApproval = richBatch('r1')
  return s
}

/** The view the runtime would build: a fresh snapshot of its live state, taken lazily. */
function viewOf(state: AgentState): StateView {
  return new StateView((): AgentState => state.snapshot())
}

const CALL = new ToolCall('call_orig', 'search', '{"q":"weather"}', 0)
const TOOLS = [new ToolDefinition('search', 'searches', { 'type': 'object' })]

function beforeRunCtx(state: AgentState = runtimeState(), input: AgentMessage[] = [AgentMessage.user('in')]): BeforeRunHookContext {
  return new BeforeRunHookContext('s1', 'r1', viewOf(state), input)
}
function modelCallCtx(state: AgentState = runtimeState()): ModelCallHookContext {
  return new ModelCallHookContext('s1', 'r1', viewOf(state), new ModelRequest([AgentMessage.user('q')], TOOLS, 'm0'), 1)
}
function chunkCtx(text: string = 'chunk', state: AgentState = runtimeState()): ModelChunkHookContext {
  return new ModelChunkHookContext('s1', 'r1', viewOf(state), text, false, 0, 1)
}
function responseCtx(state: AgentState = runtimeState()): ModelResponseHookContext {
  return new ModelResponseHookContext('s1', 'r1', viewOf(state), new ModelResponse(AgentMessage.assistant('answer')), 1, 0)
}
function toolCallCtx(call: ToolCall = CALL, state: AgentState = runtimeState()): ToolCallHookContext {
  return new ToolCallHookContext('s1', 'r1', viewOf(state), call, AgentMessage.assistant('', [call]), TOOLS, TOOLS[0])
}
function toolResultCtx(call: ToolCall = CALL, state: AgentState = runtimeState()): ToolResultHookContext {
  return new ToolResultHookContext('s1', 'r1', viewOf(state), call, ToolResult.text(call.id, 'sunny'))
}
function turnCtx(state: AgentState = runtimeState()): TurnCompletionHookContext {
  return new TurnCompletionHookContext('s1', 'r1', viewOf(state), AgentMessage.assistant('done'), 1)
}
function persistCtx(mandatory: boolean = false, state: AgentState = runtimeState()): StatePersistenceHookContext {
  return new StatePersistenceHookContext('s1', 'r1', viewOf(state), mandatory ? 'terminal' : 'after_tool_batch', mandatory)
}
function afterRunCtx(state: AgentState = runtimeState()): AfterRunHookContext {
  return new AfterRunHookContext('s1', 'r1', viewOf(state), 'complete')
}

// ---------- slot table: one generic driver per slot ----------

type Slot = 'beforeRun' | 'beforeModelCall' | 'onModelChunk' | 'afterModelCall' | 'beforeToolCall' | 'afterToolCall' |
  'onTurnCompletion' | 'beforePersistState' | 'afterPersistState' | 'afterRun'

const ALL_SLOTS: Slot[] = ['beforeRun', 'beforeModelCall', 'onModelChunk', 'afterModelCall', 'beforeToolCall',
  'afterToolCall', 'onTurnCompletion', 'beforePersistState', 'afterPersistState', 'afterRun']

/** Calls the slot on a pipeline with a fresh default context; returns whatever the pipeline returned. */
function runSlot(p: AgentHookPipeline, slot: Slot): Promise<Object> {
  switch (slot) {
    case 'beforeRun': return p.beforeRun(beforeRunCtx())
    case 'beforeModelCall': return p.beforeModelCall(modelCallCtx())
    case 'onModelChunk': return p.onModelChunk(chunkCtx())
    case 'afterModelCall': return p.afterModelCall(responseCtx())
    case 'beforeToolCall': return p.beforeToolCall(toolCallCtx())
    case 'afterToolCall': return p.afterToolCall(toolResultCtx())
    case 'onTurnCompletion': return p.onTurnCompletion(turnCtx())
    case 'beforePersistState': return p.beforePersistState(persistCtx())
    case 'afterPersistState': return p.afterPersistState(persistCtx())
    case 'afterRun': return p.afterRun(afterRunCtx())
  }
}

/** A hook overriding exactly one slot with `body`, answering that slot's pass-through result. */
function hookOn(slot: Slot, body: () => Promise<void>, name: string = 'H'): AgentHook {
  switch (slot) {
    case 'beforeRun': return new (class extends AgentHook {
      get hookName(): string { return name }
      async beforeRun(c: BeforeRunHookContext): Promise<BeforeRunHookResult> { await body(); return BeforeRunHookResult.proceed() }
    })()
    case 'beforeModelCall': return new (class extends AgentHook {
      get hookName(): string { return name }
      async beforeModelCall(c: ModelCallHookContext): Promise<ModelCallHookResult> { await body(); return ModelCallHookResult.proceed() }
    })()
    case 'onModelChunk': return new (class extends AgentHook {
      get hookName(): string { return name }
      async onModelChunk(c: ModelChunkHookContext): Promise<ModelChunkHookResult> { await body(); return ModelChunkHookResult.proceed() }
    })()
    case 'afterModelCall': return new (class extends AgentHook {
      get hookName(): string { return name }
      async afterModelCall(c: ModelResponseHookContext): Promise<ModelResponseHookResult> { await body(); return ModelResponseHookResult.proceed() }
    })()
    case 'beforeToolCall': return new (class extends AgentHook {
      get hookName(): string { return name }
      async beforeToolCall(c: ToolCallHookContext): Promise<ToolCallHookResult> { await body(); return ToolCallHookResult.proceed() }
    })()
    case 'afterToolCall': return new (class extends AgentHook {
      get hookName(): string { return name }
      async afterToolCall(c: ToolResultHookContext): Promise<ToolResultHookResult> { await body(); return ToolResultHookResult.proceed() }
    })()
    case 'onTurnCompletion': return new (class extends AgentHook {
      get hookName(): string { return name }
      async onTurnCompletion(c: TurnCompletionHookContext): Promise<TurnCompletionHookResult> { await body(); return TurnCompletionHookResult.accept() }
    })()
    case 'beforePersistState': return new (class extends AgentHook {
      get hookName(): string { return name }
      async beforePersistState(c: StatePersistenceHookContext): Promise<StatePersistenceHookResult> { await body(); return StatePersistenceHookResult.proceed() }
    })()
    case 'afterPersistState': return new (class extends AgentHook {
      get hookName(): string { return name }
      async afterPersistState(c: StatePersistenceHookContext): Promise<void> { await body() }
    })()
    case 'afterRun': return new (class extends AgentHook {
      get hookName(): string { return name }
      async afterRun(c: AfterRunHookContext): Promise<void> { await body() }
    })()
  }
}

afterEach(() => {
  vi.restoreAllMocks()
})

// =====================================================================================

describe('Hook SPI', () => {
  it('lets a custom hook be an explicit `class extends AgentHook` overriding only the slots it needs', async () => {
    class DenyClear extends AgentHook {
      get hookName(): string { return 'DenyClear' }
      async beforeToolCall(context: ToolCallHookContext): Promise<ToolCallHookResult> {
        if (context.call.name === 'clear_cache') {
          return ToolCallHookResult.deny(ToolResult.error(context.call.id, 'tool_denied', 'user refused'), 'policy')
        }
        return ToolCallHookResult.proceed(context.call)
      }
    }
    const hook = new DenyClear()
    expect(hook).toBeInstanceOf(AgentHook)
    const p = new AgentHookPipeline([hook])
    const denied = await p.beforeToolCall(toolCallCtx(new ToolCall('c1', 'clear_cache', '{}')))
    expect(denied.action).toBe(ToolCallHookAction.deny)
    expect(denied.syntheticResult!.isError).toBe(true)
    expect(denied.reason).toBe('policy')
    const allowed = await p.beforeToolCall(toolCallCtx())
    expect(allowed.action).toBe(ToolCallHookAction.proceed)
    expect(allowed.call).toEqual(CALL)
  })

  it('has pass-through defaults for every decision slot and no-op observers on the base class', async () => {
    const h = new AgentHook()
    const br = beforeRunCtx()
    expect((await h.beforeRun(br)).action).toBe(BeforeRunHookAction.proceed)
    expect((await h.beforeRun(br)).input).toBe(br.input)
    const mc = modelCallCtx()
    expect((await h.beforeModelCall(mc)).request).toBe(mc.request)
    const ch = chunkCtx('abc')
    expect((await h.onModelChunk(ch)).action).toBe(ModelChunkHookAction.proceed)
    const rc = responseCtx()
    expect((await h.afterModelCall(rc)).response).toBe(rc.response)
    const tc = toolCallCtx()
    expect((await h.beforeToolCall(tc)).call).toBe(tc.call)
    const trc = toolResultCtx()
    const tr = await h.afterToolCall(trc)
    expect(tr.action).toBe(ToolResultHookAction.proceed)
    expect(tr.result).toBe(trc.result)
    expect(tr.injectedMessages).toEqual([])
    expect((await h.onTurnCompletion(turnCtx())).action).toBe(TurnCompletionHookAction.accept)
    expect((await h.beforePersistState(persistCtx())).action).toBe(StatePersistenceHookAction.proceed)
    await expect(h.afterPersistState(persistCtx())).resolves.toBeUndefined()
    await expect(h.afterRun(afterRunCtx())).resolves.toBeUndefined()
  })

  it('builds each slot result only through factories carrying exactly that slot\'s actions', () => {
    const err = new ArkAgentError(ErrorLayer.security, ErrorCodes.hookAbort, 'x')
    const msg = AgentMessage.system('note')
    expect(BeforeRunHookResult.proceed().action).toBe('proceed')
    expect(BeforeRunHookResult.abort('why', err).action).toBe('abort')
    expect(BeforeRunHookResult.abort('why', err).error).toBe(err)
    expect(Object.values(BeforeRunHookAction)).toEqual(['proceed', 'abort'])
    expect(Object.values(ModelCallHookAction)).toEqual(['proceed', 'respond', 'abort'])
    const canned = new ModelResponse(AgentMessage.assistant('cached'))
    expect(ModelCallHookResult.respond(canned).action).toBe('respond')
    expect(ModelCallHookResult.respond(canned).response).toBe(canned)
    expect(Object.values(ModelChunkHookAction)).toEqual(['proceed', 'drop', 'abort'])
    expect(ModelChunkHookResult.drop('noise').action).toBe('drop')
    expect(ModelChunkHookResult.proceed('x').text).toBe('x')
    expect(ModelChunkHookResult.proceed().text).toBeUndefined()
    expect(Object.values(ModelResponseHookAction)).toEqual(['proceed', 'retry', 'abort'])
    expect(ModelResponseHookResult.retry('bad').action).toBe('retry')
    expect(Object.values(ToolCallHookAction)).toEqual(['proceed', 'deny', 'defer', 'abort'])
    expect(ToolCallHookResult.defer('ask').action).toBe('defer')
    expect(ToolCallHookResult.defer('ask').reason).toBe('ask')
    expect(ToolCallHookResult.deny().syntheticResult).toBeUndefined()
    expect(ToolCallHookResult.abort('no', err).error).toBe(err)
    expect(Object.values(ToolResultHookAction)).toEqual(['proceed', 'stop', 'abort'])
    expect(ToolResultHookResult.stop(undefined, [msg], 'enough').injectedMessages).toEqual([msg])
    expect(ToolResultHookResult.abort().injectedMessages).toEqual([])
    expect(Object.values(TurnCompletionHookAction)).toEqual(['accept', 'continue_run', 'abort'])
    expect(TurnCompletionHookResult.continueRun([msg], 'more').action).toBe('continue_run')
    expect(TurnCompletionHookResult.continueRun([msg]).injectedMessages).toEqual([msg])
    expect(Object.values(StatePersistenceHookAction)).toEqual(['proceed', 'skip', 'abort'])
    expect(StatePersistenceHookResult.skip('noise').action).toBe('skip')
  })
})

describe('AgentHookPipeline: each decision slot returns the hook\'s action', () => {
  const abortErr = new ArkAgentError(ErrorLayer.security, ErrorCodes.hookAbort, 'stop it')

  it('beforeRun: proceed / abort', async () => {
    class A extends AgentHook {
      async beforeRun(c: BeforeRunHookContext): Promise<BeforeRunHookResult> { return BeforeRunHookResult.abort('no', abortErr) }
    }
    expect((await new AgentHookPipeline([]).beforeRun(beforeRunCtx())).action).toBe(BeforeRunHookAction.proceed)
    const r = await new AgentHookPipeline([new A()]).beforeRun(beforeRunCtx())
    expect(r.action).toBe(BeforeRunHookAction.abort)
    expect(r.reason).toBe('no')
    expect(r.error).toBe(abortErr)
  })

  it('beforeModelCall: proceed / respond / abort', async () => {
    const canned = new ModelResponse(AgentMessage.assistant('from cache'))
    class Respond extends AgentHook {
      async beforeModelCall(c: ModelCallHookContext): Promise<ModelCallHookResult> { return ModelCallHookResult.respond(canned) }
    }
    class Abort extends AgentHook {
      async beforeModelCall(c: ModelCallHookContext): Promise<ModelCallHookResult> { return ModelCallHookResult.abort('x') }
    }
    const ctx = modelCallCtx()
    const pr = await new AgentHookPipeline([]).beforeModelCall(ctx)
    expect(pr.action).toBe(ModelCallHookAction.proceed)
    expect(pr.request).toBe(ctx.request)
    const r = await new AgentHookPipeline([new Respond()]).beforeModelCall(modelCallCtx())
    expect(r.action).toBe(ModelCallHookAction.respond)
    expect(r.response).toEqual(canned)
    expect((await new AgentHookPipeline([new Abort()]).beforeModelCall(modelCallCtx())).action).toBe(ModelCallHookAction.abort)
  })

  it('onModelChunk: proceed / drop / abort', async () => {
    class Drop extends AgentHook {
      async onModelChunk(c: ModelChunkHookContext): Promise<ModelChunkHookResult> { return ModelChunkHookResult.drop('noise') }
    }
    class Abort extends AgentHook {
      async onModelChunk(c: ModelChunkHookContext): Promise<ModelChunkHookResult> { return ModelChunkHookResult.abort('leak') }
    }
    const pr = await new AgentHookPipeline([]).onModelChunk(chunkCtx('abc'))
    expect(pr.action).toBe(ModelChunkHookAction.proceed)
    expect(pr.text ?? 'abc').toBe('abc')
    const d = await new AgentHookPipeline([new Drop()]).onModelChunk(chunkCtx('abc'))
    expect(d.action).toBe(ModelChunkHookAction.drop)
    expect(d.reason).toBe('noise')
    expect((await new AgentHookPipeline([new Abort()]).onModelChunk(chunkCtx())).action).toBe(ModelChunkHookAction.abort)
  })

  it('afterModelCall: proceed / retry / abort', async () => {
    class Retry extends AgentHook {
      async afterModelCall(c: ModelResponseHookContext): Promise<ModelResponseHookResult> { return ModelResponseHookResult.retry('bad json') }
    }
    class Abort extends AgentHook {
      async afterModelCall(c: ModelResponseHookContext): Promise<ModelResponseHookResult> { return ModelResponseHookResult.abort('x') }
    }
    const ctx = responseCtx()
    expect((await new AgentHookPipeline([]).afterModelCall(ctx)).response).toBe(ctx.response)
    const r = await new AgentHookPipeline([new Retry()]).afterModelCall(responseCtx())
    expect(r.action).toBe(ModelResponseHookAction.retry)
    expect(r.reason).toBe('bad json')
    expect((await new AgentHookPipeline([new Abort()]).afterModelCall(responseCtx())).action).toBe(ModelResponseHookAction.abort)
  })

  it('beforeToolCall: proceed / deny / defer / abort', async () => {
    const synthetic = ToolResult.error('whatever', 'tool_denied', 'no')
    const make = (r: ToolCallHookResult): AgentHook => new (class extends AgentHook {
      async beforeToolCall(c: ToolCallHookContext): Promise<ToolCallHookResult> { return r }
    })()
    expect((await new AgentHookPipeline([]).beforeToolCall(toolCallCtx())).action).toBe(ToolCallHookAction.proceed)
    const deny = await new AgentHookPipeline([make(ToolCallHookResult.deny(synthetic, 'policy'))]).beforeToolCall(toolCallCtx())
    expect(deny.action).toBe(ToolCallHookAction.deny)
    expect(deny.syntheticResult).toEqual(synthetic)
    const defer = await new AgentHookPipeline([make(ToolCallHookResult.defer('ask user'))]).beforeToolCall(toolCallCtx())
    expect(defer.action).toBe(ToolCallHookAction.defer)
    expect(defer.reason).toBe('ask user')
    const abort = await new AgentHookPipeline([make(ToolCallHookResult.abort('injection', abortErr))]).beforeToolCall(toolCallCtx())
    expect(abort.action).toBe(ToolCallHookAction.abort)
    expect(abort.error).toBe(abortErr)
  })

  it('afterToolCall: proceed / stop / abort', async () => {
    const make = (r: ToolResultHookResult): AgentHook => new (class extends AgentHook {
      async afterToolCall(c: ToolResultHookContext): Promise<ToolResultHookResult> { return r }
    })()
    const ctx = toolResultCtx()
    const pr = await new AgentHookPipeline([]).afterToolCall(ctx)
    expect(pr.action).toBe(ToolResultHookAction.proceed)
    expect(pr.result).toBe(ctx.result)
    const stop = await new AgentHookPipeline([make(ToolResultHookResult.stop(undefined, [], 'enough'))]).afterToolCall(toolResultCtx())
    expect(stop.action).toBe(ToolResultHookAction.stop)
    expect(stop.reason).toBe('enough')
    expect(stop.result!.textContent()).toBe('sunny')
    const abort = await new AgentHookPipeline([make(ToolResultHookResult.abort('x'))]).afterToolCall(toolResultCtx())
    expect(abort.action).toBe(ToolResultHookAction.abort)
  })

  it('onTurnCompletion: accept / continue_run / abort', async () => {
    const more = AgentMessage.user('keep going')
    const make = (r: TurnCompletionHookResult): AgentHook => new (class extends AgentHook {
      async onTurnCompletion(c: TurnCompletionHookContext): Promise<TurnCompletionHookResult> { return r }
    })()
    expect((await new AgentHookPipeline([]).onTurnCompletion(turnCtx())).action).toBe(TurnCompletionHookAction.accept)
    const c = await new AgentHookPipeline([make(TurnCompletionHookResult.continueRun([more], 'unfinished'))]).onTurnCompletion(turnCtx())
    expect(c.action).toBe(TurnCompletionHookAction.continueRun)
    expect(c.injectedMessages).toEqual([more])
    expect((await new AgentHookPipeline([make(TurnCompletionHookResult.abort('x'))]).onTurnCompletion(turnCtx())).action)
      .toBe(TurnCompletionHookAction.abort)
  })
})

describe('AgentHookPipeline: contexts are snapshots', () => {
  it('a hook mutating the state it was given changes neither the next hook\'s view nor the runtime state', async () => {
    const live = runtimeState()
    const seen: string[] = []
    class Vandal extends AgentHook {
      async beforeToolCall(c: ToolCallHookContext): Promise<ToolCallHookResult> {
        c.state.history.push(AgentMessage.user('injected by vandal'))
        c.state.history[0] = AgentMessage.user('overwritten')
        c.state.status = SessionStatus.failed
        c.state.pendingApproval!.items[0].decision = ApprovalDecision.approved
        c.state.consumedApprovalIds.push('forged')
        return ToolCallHookResult.proceed()
      }
    }
    class Observer extends AgentHook {
      async beforeToolCall(c: ToolCallHookContext): Promise<ToolCallHookResult> {
        seen.push(`${c.state.history.length}|${c.state.history[0].text()}|${c.state.status}|` +
          `${c.state.pendingApproval!.items[0].decision}|${c.state.consumedApprovalIds.length}`)
        return ToolCallHookResult.proceed()
      }
    }
    const p = new AgentHookPipeline([new Vandal(), new Observer()])
    await p.beforeToolCall(toolCallCtx(CALL, live))
    expect(seen).toEqual(['2|hello|running|pending|0'])
    expect(live.history.length).toBe(2)
    expect(live.history[0].text()).toBe('hello')
    expect(live.status).toBe(SessionStatus.running)
    expect(live.pendingApproval!.items[0].decision).toBe(ApprovalDecision.pending)
    expect(live.consumedApprovalIds).toEqual([])
  })

  it('isolates the state between hooks in every slot, also slots without a rewrite', async () => {
    for (const slot of ALL_SLOTS) {
      const live = runtimeState()
      const views: number[] = []
      let turn = 0
      const body = async (ctx: { state: AgentState }): Promise<void> => {
        views.push(ctx.state.history.length)
        ctx.state.history.push(AgentMessage.user(`mutation ${turn++}`))
      }
      // Two hooks that both read and mutate ctx.state; each must see the untouched 2-message history.
      const hooks: AgentHook[] = []
      for (let i = 0; i < 2; i++) {
        let captured: { state: AgentState } | undefined
        const h = hookOn(slot, async () => { await body(captured!) })
        // Capture the context by wrapping the overridden slot.
        const original = (h as unknown as Record<string, (c: { state: AgentState }) => Promise<Object>>)[slot].bind(h)
        ;(h as unknown as Record<string, unknown>)[slot] = (c: { state: AgentState }): Promise<Object> => {
          captured = c
          return original(c)
        }
        hooks.push(h)
      }
      const p = new AgentHookPipeline(hooks)
      await runSlotWith(p, slot, live)
      expect({ slot, views }).toEqual({ slot, views: [2, 2] })
      expect(live.history.length).toBe(2)
    }
  })

  it('a hook mutating the input array it was given does not change what the next hook sees (beforeRun)', async () => {
    const seen: number[] = []
    class Pusher extends AgentHook {
      async beforeRun(c: BeforeRunHookContext): Promise<BeforeRunHookResult> {
        c.input.push(AgentMessage.user('smuggled'))
        return BeforeRunHookResult.proceed()
      }
    }
    class Reader extends AgentHook {
      async beforeRun(c: BeforeRunHookContext): Promise<BeforeRunHookResult> {
        seen.push(c.input.length)
        return BeforeRunHookResult.proceed()
      }
    }
    const original = [AgentMessage.user('hi')]
    const r = await new AgentHookPipeline([new Pusher(), new Reader()]).beforeRun(beforeRunCtx(runtimeState(), original))
    expect(seen).toEqual([1])
    expect(original.length).toBe(1)
    expect(r.input!.length).toBe(1)
  })

  it('copyWith returns a new context with the rewrite and leaves the original untouched', () => {
    const ctx = toolCallCtx()
    const rewritten = new ToolCall('call_orig', 'search', '{"q":"beijing weather"}', 0)
    const copy = ctx.copyWith(rewritten)
    expect(copy).not.toBe(ctx)
    expect(copy.call).toBe(rewritten)
    expect(ctx.call).toBe(CALL)
    expect(copy.sessionId).toBe(ctx.sessionId)
    expect(copy.runId).toBe(ctx.runId)
    expect(copy.modelMessage).toBe(ctx.modelMessage)
    expect(copy.definition).toBe(ctx.definition)
    expect(ctx.copyWith().call).toBe(CALL)
    const br = beforeRunCtx()
    const newInput = [AgentMessage.user('x')]
    expect(br.copyWith(newInput).input).toBe(newInput)
    expect(br.input).not.toBe(newInput)
    const ch = chunkCtx('a')
    expect(ch.copyWith('b').text).toBe('b')
    expect(ch.text).toBe('a')
    const rc = toolResultCtx()
    const res = ToolResult.text(CALL.id, 'rainy')
    expect(rc.copyWith(res).result).toBe(res)
    expect(rc.copyWith(res).call).toBe(rc.call)
  })

  it('takes the state snapshot lazily: hooks that never read state cost no snapshot', async () => {
    const live = runtimeState()
    const spy = vi.spyOn(live, 'snapshot')
    class NoRead extends AgentHook {
      async onModelChunk(c: ModelChunkHookContext): Promise<ModelChunkHookResult> { return ModelChunkHookResult.proceed(c.text + '!') }
    }
    const p = new AgentHookPipeline([new NoRead(), new NoRead()])
    for (let i = 0; i < 10; i++) {
      await p.onModelChunk(chunkCtx(`c${i}`, live))
    }
    expect(spy).not.toHaveBeenCalled()
  })
})

/** Like runSlot but over a given live state. */
function runSlotWith(p: AgentHookPipeline, slot: Slot, state: AgentState): Promise<Object> {
  switch (slot) {
    case 'beforeRun': return p.beforeRun(beforeRunCtx(state))
    case 'beforeModelCall': return p.beforeModelCall(modelCallCtx(state))
    case 'onModelChunk': return p.onModelChunk(chunkCtx('x', state))
    case 'afterModelCall': return p.afterModelCall(responseCtx(state))
    case 'beforeToolCall': return p.beforeToolCall(toolCallCtx(CALL, state))
    case 'afterToolCall': return p.afterToolCall(toolResultCtx(CALL, state))
    case 'onTurnCompletion': return p.onTurnCompletion(turnCtx(state))
    case 'beforePersistState': return p.beforePersistState(persistCtx(false, state))
    case 'afterPersistState': return p.afterPersistState(persistCtx(false, state))
    case 'afterRun': return p.afterRun(afterRunCtx(state))
  }
}

describe('AgentHookPipeline: serial execution', () => {
  it('runs hooks strictly in registration order, each awaited before the next, in every slot', async () => {
    const delays = [25, 1, 12, 0, 6]
    for (const slot of ALL_SLOTS) {
      const log: string[] = []
      let inFlight = 0
      let maxInFlight = 0
      const hooks = delays.map((d, i) => hookOn(slot, async () => {
        inFlight++
        maxInFlight = Math.max(maxInFlight, inFlight)
        log.push(`start${i}`)
        await sleep(d)
        log.push(`end${i}`)
        inFlight--
      }, `H${i}`))
      await runSlot(new AgentHookPipeline(hooks), slot)
      const expected: string[] = []
      delays.forEach((_d, i) => { expected.push(`start${i}`, `end${i}`) })
      expect({ slot, log }).toEqual({ slot, log: expected })
      expect({ slot, maxInFlight }).toEqual({ slot, maxInFlight: 1 })
    }
  })

  it('does not call slots a hook does not override, and reports no chunk hooks when none override onModelChunk', async () => {
    const baseSpies = ALL_SLOTS.filter((s) => s !== 'beforeToolCall')
      .map((s) => vi.spyOn(AgentHook.prototype, s as 'beforeRun'))
    class ToolOnly extends AgentHook {
      calls = 0
      async beforeToolCall(c: ToolCallHookContext): Promise<ToolCallHookResult> { this.calls++; return ToolCallHookResult.proceed() }
    }
    const hook = new ToolOnly()
    const p = new AgentHookPipeline([hook])
    expect(p.hasChunkHooks()).toBe(false)
    expect(p.size()).toBe(1)
    for (const slot of ALL_SLOTS) {
      await runSlot(p, slot)
    }
    expect(hook.calls).toBe(1)
    for (const spy of baseSpies) {
      expect(spy).not.toHaveBeenCalled()
    }
    class ChunkHook extends AgentHook {
      async onModelChunk(c: ModelChunkHookContext): Promise<ModelChunkHookResult> { return ModelChunkHookResult.proceed() }
    }
    expect(p.register(new ChunkHook()).hasChunkHooks()).toBe(true)
    expect(p.size()).toBe(2)
  })
})

describe('AgentHookPipeline: rewrites pass to the next hook', () => {
  it('beforeRun: the next hook sees the rewritten input, and the pipeline returns the last rewrite', async () => {
    const seen: string[][] = []
    const rewriter = (tag: string): AgentHook => new (class extends AgentHook {
      async beforeRun(c: BeforeRunHookContext): Promise<BeforeRunHookResult> {
        seen.push(c.input.map((m) => m.text()))
        return BeforeRunHookResult.proceed(c.input.map((m) => AgentMessage.user(m.text() + tag)))
      }
    })()
    const r = await new AgentHookPipeline([rewriter('A'), rewriter('B'), rewriter('C')])
      .beforeRun(beforeRunCtx(runtimeState(), [AgentMessage.user('x')]))
    expect(seen).toEqual([['x'], ['xA'], ['xAB']])
    expect(r.action).toBe(BeforeRunHookAction.proceed)
    expect(r.input!.map((m) => m.text())).toEqual(['xABC'])
  })

  it('beforeModelCall: the next hook sees the rewritten request', async () => {
    const seen: string[] = []
    const rewriter = (model: string): AgentHook => new (class extends AgentHook {
      async beforeModelCall(c: ModelCallHookContext): Promise<ModelCallHookResult> {
        seen.push(c.request.model)
        expect(c.turn).toBe(1)
        return ModelCallHookResult.proceed(new ModelRequest(c.request.messages, c.request.tools, model))
      }
    })()
    const r = await new AgentHookPipeline([rewriter('m1'), rewriter('m2')]).beforeModelCall(modelCallCtx())
    expect(seen).toEqual(['m0', 'm1'])
    expect(r.request!.model).toBe('m2')
  })

  it('onModelChunk: the next hook sees the rewritten text; a pass-through keeps it', async () => {
    const seen: string[] = []
    const upper = new (class extends AgentHook {
      async onModelChunk(c: ModelChunkHookContext): Promise<ModelChunkHookResult> {
        seen.push(c.text)
        return ModelChunkHookResult.proceed(c.text.toUpperCase())
      }
    })()
    const passthrough = new (class extends AgentHook {
      async onModelChunk(c: ModelChunkHookContext): Promise<ModelChunkHookResult> {
        seen.push(c.text)
        return ModelChunkHookResult.proceed()
      }
    })()
    const bang = new (class extends AgentHook {
      async onModelChunk(c: ModelChunkHookContext): Promise<ModelChunkHookResult> {
        seen.push(c.text)
        expect(c.chunkIndex).toBe(0)
        expect(c.reasoning).toBe(false)
        return ModelChunkHookResult.proceed(c.text + '!')
      }
    })()
    const r = await new AgentHookPipeline([upper, passthrough, bang]).onModelChunk(chunkCtx('abc'))
    expect(seen).toEqual(['abc', 'ABC', 'ABC'])
    expect(r.action).toBe(ModelChunkHookAction.proceed)
    expect(r.text).toBe('ABC!')
  })

  it('afterModelCall: the next hook sees the rewritten response', async () => {
    const seen: string[] = []
    const rewriter = (suffix: string): AgentHook => new (class extends AgentHook {
      async afterModelCall(c: ModelResponseHookContext): Promise<ModelResponseHookResult> {
        seen.push(c.response.message.text())
        return ModelResponseHookResult.proceed(c.response.withMessage(AgentMessage.assistant(c.response.message.text() + suffix)))
      }
    })()
    const r = await new AgentHookPipeline([rewriter('1'), rewriter('2')]).afterModelCall(responseCtx())
    expect(seen).toEqual(['answer', 'answer1'])
    expect(r.response!.message.text()).toBe('answer12')
  })

  it('beforeToolCall: the next hook sees the rewritten call', async () => {
    const seen: string[] = []
    const forceOff = new (class extends AgentHook {
      async beforeToolCall(c: ToolCallHookContext): Promise<ToolCallHookResult> {
        seen.push(c.call.argumentsJson)
        return ToolCallHookResult.proceed(c.call.withArguments('{"q":"weather","force":false}'))
      }
    })()
    const audit = new (class extends AgentHook {
      async beforeToolCall(c: ToolCallHookContext): Promise<ToolCallHookResult> {
        seen.push(c.call.argumentsJson)
        return ToolCallHookResult.proceed()
      }
    })()
    const r = await new AgentHookPipeline([forceOff, audit]).beforeToolCall(toolCallCtx())
    expect(seen).toEqual(['{"q":"weather"}', '{"q":"weather","force":false}'])
    expect(r.call!.argumentsJson).toBe('{"q":"weather","force":false}')
    expect(r.call!.id).toBe('call_orig')
  })

  it('afterToolCall: the next hook sees the rewritten result, always paired with the original call id', async () => {
    const seen: string[] = []
    const redact = new (class extends AgentHook {
      async afterToolCall(c: ToolResultHookContext): Promise<ToolResultHookResult> {
        seen.push(c.result.textContent())
        // Built without knowing the id: the pipeline pairs it with the call.
        return ToolResultHookResult.proceed(ToolResult.text('some-other-id', '[redacted]'))
      }
    })()
    const reader = new (class extends AgentHook {
      async afterToolCall(c: ToolResultHookContext): Promise<ToolResultHookResult> {
        seen.push(`${c.result.callId}:${c.result.textContent()}`)
        return ToolResultHookResult.proceed()
      }
    })()
    const r = await new AgentHookPipeline([redact, reader]).afterToolCall(toolResultCtx())
    expect(seen).toEqual(['sunny', 'call_orig:[redacted]'])
    expect(r.result!.callId).toBe('call_orig')
    expect(r.result!.textContent()).toBe('[redacted]')
  })

  it('preserves the original tool call id and batch position when a hook rewrites the call with new ones', async () => {
    const seenIds: string[] = []
    const renamer = new (class extends AgentHook {
      async beforeToolCall(c: ToolCallHookContext): Promise<ToolCallHookResult> {
        seenIds.push(c.call.id)
        return ToolCallHookResult.proceed(new ToolCall('call_xyz', c.call.name, '{"q":"北京天气"}', c.call.index))
      }
    })()
    const second = new (class extends AgentHook {
      async beforeToolCall(c: ToolCallHookContext): Promise<ToolCallHookResult> {
        seenIds.push(c.call.id)
        return ToolCallHookResult.proceed(new ToolCall('call_again', 'search_v2', c.call.argumentsJson, 7))
      }
    })()
    const r = await new AgentHookPipeline([renamer, second]).beforeToolCall(toolCallCtx())
    expect(seenIds).toEqual(['call_orig', 'call_orig'])
    expect(r.call!.id).toBe('call_orig')
    expect(r.call!.name).toBe('search_v2')
    expect(r.call!.argumentsJson).toBe('{"q":"北京天气"}')
    expect(r.call!.index).toBe(CALL.index)
  })
})

describe('AgentHookPipeline: first short-circuit wins', () => {
  type Case = { slot: Slot, action: string, hook: () => AgentHook, check: (r: Object) => void }
  const cases: Case[] = [
    { slot: 'beforeRun', action: 'abort', hook: () => new (class extends AgentHook {
      async beforeRun(): Promise<BeforeRunHookResult> { return BeforeRunHookResult.abort('first') } })(),
    check: (r) => expect((r as BeforeRunHookResult).reason).toBe('first') },
    { slot: 'beforeModelCall', action: 'respond', hook: () => new (class extends AgentHook {
      async beforeModelCall(): Promise<ModelCallHookResult> { return ModelCallHookResult.respond(new ModelResponse(AgentMessage.assistant('first'))) } })(),
    check: (r) => expect((r as ModelCallHookResult).response!.message.text()).toBe('first') },
    { slot: 'beforeModelCall', action: 'abort', hook: () => new (class extends AgentHook {
      async beforeModelCall(): Promise<ModelCallHookResult> { return ModelCallHookResult.abort('first') } })(),
    check: (r) => expect((r as ModelCallHookResult).reason).toBe('first') },
    { slot: 'onModelChunk', action: 'drop', hook: () => new (class extends AgentHook {
      async onModelChunk(): Promise<ModelChunkHookResult> { return ModelChunkHookResult.drop('first') } })(),
    check: (r) => expect((r as ModelChunkHookResult).reason).toBe('first') },
    { slot: 'onModelChunk', action: 'abort', hook: () => new (class extends AgentHook {
      async onModelChunk(): Promise<ModelChunkHookResult> { return ModelChunkHookResult.abort('first') } })(),
    check: (r) => expect((r as ModelChunkHookResult).reason).toBe('first') },
    { slot: 'afterModelCall', action: 'retry', hook: () => new (class extends AgentHook {
      async afterModelCall(): Promise<ModelResponseHookResult> { return ModelResponseHookResult.retry('first') } })(),
    check: (r) => expect((r as ModelResponseHookResult).reason).toBe('first') },
    { slot: 'afterModelCall', action: 'abort', hook: () => new (class extends AgentHook {
      async afterModelCall(): Promise<ModelResponseHookResult> { return ModelResponseHookResult.abort('first') } })(),
    check: (r) => expect((r as ModelResponseHookResult).reason).toBe('first') },
    { slot: 'beforeToolCall', action: 'deny', hook: () => new (class extends AgentHook {
      async beforeToolCall(): Promise<ToolCallHookResult> { return ToolCallHookResult.deny(undefined, 'first') } })(),
    check: (r) => expect((r as ToolCallHookResult).reason).toBe('first') },
    { slot: 'beforeToolCall', action: 'defer', hook: () => new (class extends AgentHook {
      async beforeToolCall(): Promise<ToolCallHookResult> { return ToolCallHookResult.defer('first') } })(),
    check: (r) => expect((r as ToolCallHookResult).reason).toBe('first') },
    { slot: 'beforeToolCall', action: 'abort', hook: () => new (class extends AgentHook {
      async beforeToolCall(): Promise<ToolCallHookResult> { return ToolCallHookResult.abort('first') } })(),
    check: (r) => expect((r as ToolCallHookResult).reason).toBe('first') },
    { slot: 'afterToolCall', action: 'stop', hook: () => new (class extends AgentHook {
      async afterToolCall(): Promise<ToolResultHookResult> { return ToolResultHookResult.stop(undefined, [], 'first') } })(),
    check: (r) => expect((r as ToolResultHookResult).reason).toBe('first') },
    { slot: 'afterToolCall', action: 'abort', hook: () => new (class extends AgentHook {
      async afterToolCall(): Promise<ToolResultHookResult> { return ToolResultHookResult.abort('first') } })(),
    check: (r) => expect((r as ToolResultHookResult).reason).toBe('first') },
    { slot: 'onTurnCompletion', action: 'continue_run', hook: () => new (class extends AgentHook {
      async onTurnCompletion(): Promise<TurnCompletionHookResult> { return TurnCompletionHookResult.continueRun([], 'first') } })(),
    check: (r) => expect((r as TurnCompletionHookResult).reason).toBe('first') },
    { slot: 'onTurnCompletion', action: 'abort', hook: () => new (class extends AgentHook {
      async onTurnCompletion(): Promise<TurnCompletionHookResult> { return TurnCompletionHookResult.abort('first') } })(),
    check: (r) => expect((r as TurnCompletionHookResult).reason).toBe('first') },
    { slot: 'beforePersistState', action: 'skip', hook: () => new (class extends AgentHook {
      async beforePersistState(): Promise<StatePersistenceHookResult> { return StatePersistenceHookResult.skip('first') } })(),
    check: (r) => expect((r as StatePersistenceHookResult).reason).toBe('first') },
    { slot: 'beforePersistState', action: 'abort', hook: () => new (class extends AgentHook {
      async beforePersistState(): Promise<StatePersistenceHookResult> { return StatePersistenceHookResult.abort('first') } })(),
    check: (r) => expect((r as StatePersistenceHookResult).reason).toBe('first') }
  ]

  for (const c of cases) {
    it(`${c.slot}: ${c.action} short-circuits; earlier hooks ran, later hooks do not`, async () => {
      const log: string[] = []
      const before = hookOn(c.slot, async () => { log.push('before') })
      const after1 = hookOn(c.slot, async () => { log.push('after1') })
      // A second short-circuiting hook later in the chain must not override the first one.
      const secondDecider = c.hook()
      const original = (secondDecider as unknown as Record<string, (x: Object) => Promise<Object>>)[c.slot].bind(secondDecider)
      ;(secondDecider as unknown as Record<string, unknown>)[c.slot] = async (x: Object): Promise<Object> => {
        log.push('secondDecider')
        return original(x)
      }
      const p = new AgentHookPipeline([before, c.hook(), after1, secondDecider])
      const r = await runSlot(p, c.slot) as { action: string }
      expect(r.action).toBe(c.action)
      c.check(r)
      expect(log).toEqual(['before'])
    })
  }
})

describe('AgentHookPipeline: afterToolCall injected messages', () => {
  it('accumulates injected messages in hook order', async () => {
    const inj = (text: string): AgentHook => new (class extends AgentHook {
      async afterToolCall(c: ToolResultHookContext): Promise<ToolResultHookResult> {
        return ToolResultHookResult.proceed(undefined, [AgentMessage.system(`${text}-1`), AgentMessage.system(`${text}-2`)])
      }
    })()
    const r = await new AgentHookPipeline([inj('audit'), inj('safety'), inj('ux')]).afterToolCall(toolResultCtx())
    expect(r.action).toBe(ToolResultHookAction.proceed)
    expect(r.injectedMessages.map((m) => m.text())).toEqual(['audit-1', 'audit-2', 'safety-1', 'safety-2', 'ux-1', 'ux-2'])
  })

  it('keeps messages injected by earlier hooks (and the stopping hook\'s own) on stop, and the rewritten result', async () => {
    const inj = new (class extends AgentHook {
      async afterToolCall(c: ToolResultHookContext): Promise<ToolResultHookResult> {
        return ToolResultHookResult.proceed(ToolResult.text(c.result.callId, 'rewritten'), [AgentMessage.system('audit')])
      }
    })()
    const stopper = new (class extends AgentHook {
      async afterToolCall(c: ToolResultHookContext): Promise<ToolResultHookResult> {
        return ToolResultHookResult.stop(undefined, [AgentMessage.system('stopping')], 'done')
      }
    })()
    const never = new (class extends AgentHook {
      async afterToolCall(c: ToolResultHookContext): Promise<ToolResultHookResult> {
        throw new Error('must not run')
      }
    })()
    const r = await new AgentHookPipeline([inj, stopper, never]).afterToolCall(toolResultCtx())
    expect(r.action).toBe(ToolResultHookAction.stop)
    expect(r.reason).toBe('done')
    expect(r.result!.textContent()).toBe('rewritten')
    expect(r.injectedMessages.map((m) => m.text())).toEqual(['audit', 'stopping'])
  })

  it('does not let one hook\'s returned array be mutated into another\'s (the pipeline owns the accumulation)', async () => {
    const shared = [AgentMessage.system('a')]
    const inj = new (class extends AgentHook {
      async afterToolCall(c: ToolResultHookContext): Promise<ToolResultHookResult> {
        return ToolResultHookResult.proceed(undefined, shared)
      }
    })()
    const r = await new AgentHookPipeline([inj, inj]).afterToolCall(toolResultCtx())
    expect(r.injectedMessages.map((m) => m.text())).toEqual(['a', 'a'])
    expect(shared.length).toBe(1)
  })
})

describe('AgentHookPipeline: observer slots isolate failures into diagnostics', () => {
  it('afterRun turns each failing hook into one diagnostic and still runs the others', async () => {
    const ran: string[] = []
    const ok = (n: string): AgentHook => hookOn('afterRun', async () => { ran.push(n) }, n)
    const bad = (n: string): AgentHook => hookOn('afterRun', async () => { ran.push(n); throw new Error(`${n} exploded`) }, n)
    const p = new AgentHookPipeline([ok('a'), bad('b'), ok('c'), bad('d'), ok('e')])
    const diagnostics = await p.afterRun(afterRunCtx())
    expect(ran).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(diagnostics.length).toBe(2)
    expect(diagnostics[0]).toContain('b exploded')
    expect(diagnostics[0]).toContain('b.afterRun')
    expect(diagnostics[1]).toContain('d exploded')
  })

  it('afterRun returns no diagnostics when every hook succeeds, and isolates a hook that hangs', async () => {
    expect(await new AgentHookPipeline([hookOn('afterRun', async () => {})]).afterRun(afterRunCtx())).toEqual([])
    const ran: string[] = []
    const hang = hookOn('afterRun', () => new Promise<void>(() => {}), 'Hang')
    const after = hookOn('afterRun', async () => { ran.push('after') })
    const diagnostics = await new AgentHookPipeline([hang, after], 30).afterRun(afterRunCtx())
    expect(diagnostics.length).toBe(1)
    expect(diagnostics[0]).toContain('Hang.afterRun')
    expect(ran).toEqual(['after'])
  })

  it('afterPersistState isolates failures the same way', async () => {
    const ran: string[] = []
    const p = new AgentHookPipeline([
      hookOn('afterPersistState', async () => { throw new Error('disk telemetry down') }, 'T'),
      hookOn('afterPersistState', async () => { ran.push('second') })
    ])
    const diagnostics = await p.afterPersistState(persistCtx(true))
    expect(diagnostics).toHaveLength(1)
    expect(diagnostics[0]).toContain('disk telemetry down')
    expect(ran).toEqual(['second'])
  })

  it('afterRun runs each hook exactly once per call, with the stop reason it was given', async () => {
    const seen: string[] = []
    class Audit extends AgentHook {
      async afterRun(c: AfterRunHookContext): Promise<void> { seen.push(c.stopReason) }
    }
    await new AgentHookPipeline([new Audit(), new Audit()]).afterRun(afterRunCtx())
    expect(seen).toEqual(['complete', 'complete'])
  })
})

describe('AgentHookPipeline: beforePersistState and mandatory writes', () => {
  const decide = (r: () => StatePersistenceHookResult, log: string[], name: string): AgentHook => new (class extends AgentHook {
    async beforePersistState(c: StatePersistenceHookContext): Promise<StatePersistenceHookResult> { log.push(name); return r() }
  })()

  it('honours skip for a non-mandatory write', async () => {
    const log: string[] = []
    const r = await new AgentHookPipeline([decide(() => StatePersistenceHookResult.skip('noise'), log, 's'),
      decide(() => StatePersistenceHookResult.proceed(), log, 'p')]).beforePersistState(persistCtx(false))
    expect(r.action).toBe(StatePersistenceHookAction.skip)
    expect(r.reason).toBe('noise')
    expect(log).toEqual(['s'])
  })

  it('ignores skip for a mandatory write and keeps asking the later hooks', async () => {
    const log: string[] = []
    const r = await new AgentHookPipeline([decide(() => StatePersistenceHookResult.skip('noise'), log, 's1'),
      decide(() => StatePersistenceHookResult.skip('more noise'), log, 's2'),
      decide(() => StatePersistenceHookResult.proceed(), log, 'p')]).beforePersistState(persistCtx(true))
    expect(r.action).toBe(StatePersistenceHookAction.proceed)
    expect(log).toEqual(['s1', 's2', 'p'])
  })

  it('honours abort even for a mandatory write, after ignored skips', async () => {
    const log: string[] = []
    const err = new ArkAgentError(ErrorLayer.security, ErrorCodes.hookAbort, 'inconsistent')
    const r = await new AgentHookPipeline([decide(() => StatePersistenceHookResult.skip(), log, 's'),
      decide(() => StatePersistenceHookResult.abort('inconsistent state', err), log, 'a'),
      decide(() => StatePersistenceHookResult.proceed(), log, 'p')]).beforePersistState(persistCtx(true))
    expect(r.action).toBe(StatePersistenceHookAction.abort)
    expect(r.error).toBe(err)
    expect(log).toEqual(['s', 'a'])
  })

  it('shows hooks whether the write is mandatory and why it happens', async () => {
    const seen: string[] = []
    class Peek extends AgentHook {
      async beforePersistState(c: StatePersistenceHookContext): Promise<StatePersistenceHookResult> {
        seen.push(`${c.reason}:${c.mandatory}`)
        return StatePersistenceHookResult.proceed()
      }
    }
    const p = new AgentHookPipeline([new Peek()])
    await p.beforePersistState(persistCtx(false))
    await p.beforePersistState(persistCtx(true))
    expect(seen).toEqual(['after_tool_batch:false', 'terminal:true'])
  })
})

describe('AgentHookPipeline: decision hooks fail closed', () => {
  it('turns a decision hook that throws into ArkAgentError security/hook_failed naming the hook, and stops the chain', async () => {
    for (const slot of ALL_SLOTS.filter((s) => s !== 'afterRun' && s !== 'afterPersistState')) {
      const log: string[] = []
      const p = new AgentHookPipeline([
        hookOn(slot, async () => { log.push('first'); throw new Error('boom') }, 'Exploder'),
        hookOn(slot, async () => { log.push('second') })
      ])
      const e = await rejectionOf(runSlot(p, slot))
      expect(e).toBeInstanceOf(ArkAgentError)
      expect({ slot, layer: e.layer, code: e.code }).toEqual({ slot, layer: ErrorLayer.security, code: ErrorCodes.hookFailed })
      expect(e.message).toContain(`Exploder.${slot}`)
      expect(e.message).toContain('boom')
      expect(e.isRetryable()).toBe(false)
      expect(log).toEqual(['first'])
    }
  })

  it('treats a hook that throws synchronously (non-async override) as hook_failed', async () => {
    class SyncThrow extends AgentHook {
      beforeToolCall(c: ToolCallHookContext): Promise<ToolCallHookResult> { throw new Error('sync boom') }
    }
    const e = await rejectionOf(new AgentHookPipeline([new SyncThrow()]).beforeToolCall(toolCallCtx()))
    expect(e.code).toBe(ErrorCodes.hookFailed)
    expect(e.layer).toBe(ErrorLayer.security)
  })

  it('treats a hook that throws a non-Error value as hook_failed', async () => {
    class ThrowString extends AgentHook {
      async beforeRun(c: BeforeRunHookContext): Promise<BeforeRunHookResult> { throw 'a string' }
    }
    const e = await rejectionOf(new AgentHookPipeline([new ThrowString()]).beforeRun(beforeRunCtx()))
    expect(e.code).toBe(ErrorCodes.hookFailed)
    expect(e.message).toContain('a string')
  })

  it('turns a decision hook that hangs past hookTimeoutMs into security/hook_timeout and never runs later hooks', async () => {
    for (const slot of ALL_SLOTS.filter((s) => s !== 'afterRun' && s !== 'afterPersistState')) {
      const log: string[] = []
      const p = new AgentHookPipeline([
        hookOn(slot, () => new Promise<void>(() => {}), 'Sleeper'),
        hookOn(slot, async () => { log.push('second') })
      ], 30)
      expect(p.hookTimeoutMs).toBe(30)
      const e = await rejectionOf(runSlot(p, slot))
      expect(e).toBeInstanceOf(ArkAgentError)
      expect({ slot, layer: e.layer, code: e.code }).toEqual({ slot, layer: ErrorLayer.security, code: ErrorCodes.hookTimeout })
      expect(e.message).toContain(`Sleeper.${slot}`)
      expect(log).toEqual([])
    }
  })

  it('does not time out a slow hook that answers within the bound', async () => {
    const p = new AgentHookPipeline([hookOn('beforeToolCall', () => sleep(5))], 2000)
    const r = await p.beforeToolCall(toolCallCtx())
    expect(r.action).toBe(ToolCallHookAction.proceed)
  })

  it('can change the timeout after construction', async () => {
    const p = new AgentHookPipeline([hookOn('beforeModelCall', () => new Promise<void>(() => {}))], 0)
    p.hookTimeoutMs = 20
    const e = await rejectionOf(p.beforeModelCall(modelCallCtx()))
    expect(e.code).toBe(ErrorCodes.hookTimeout)
  })

  it('treats a decision hook that returns undefined as hook_failed', async () => {
    class Forgetful extends AgentHook {
      async beforeToolCall(c: ToolCallHookContext): Promise<ToolCallHookResult> {
        return undefined as unknown as ToolCallHookResult
      }
    }
    const e = await rejectionOf(new AgentHookPipeline([new Forgetful()]).beforeToolCall(toolCallCtx()))
    expect(e).toBeInstanceOf(ArkAgentError)
    expect(e.code).toBe(ErrorCodes.hookFailed)
    expect(e.layer).toBe(ErrorLayer.security)
  })

  it('treats a non-async override that returns undefined (no promise at all) as hook_failed, not a TypeError', async () => {
    class PlainJs extends AgentHook {
      beforeToolCall(c: ToolCallHookContext): Promise<ToolCallHookResult> {
        return undefined as unknown as Promise<ToolCallHookResult>
      }
    }
    const e = await rejectionOf(new AgentHookPipeline([new PlainJs()]).beforeToolCall(toolCallCtx()))
    expect(e).toBeInstanceOf(ArkAgentError)
    expect(e.code).toBe(ErrorCodes.hookFailed)
  })
})

// =====================================================================================
// Property-based: the pipeline equals a tiny reference model.

type ToolCallChoice = { kind: 'proceed' | 'rewrite' | 'deny' | 'defer' | 'abort', newId: string, args: string }
type ToolResultChoice = { kind: 'proceed' | 'rewrite' | 'stop' | 'abort', inject: number, text: string }

const toolCallChoice: fc.Arbitrary<ToolCallChoice> = fc.record({
  kind: fc.constantFrom<ToolCallChoice['kind']>('proceed', 'rewrite', 'rewrite', 'deny', 'defer', 'abort'),
  newId: fc.string({ maxLength: 6 }),
  args: fc.string({ maxLength: 10 })
})
const toolResultChoice: fc.Arbitrary<ToolResultChoice> = fc.record({
  kind: fc.constantFrom<ToolResultChoice['kind']>('proceed', 'proceed', 'rewrite', 'stop', 'abort'),
  inject: fc.nat({ max: 3 }),
  text: fc.string({ maxLength: 10 })
})

describe('AgentHookPipeline: properties', () => {
  it('beforeToolCall matches the reference model: first non-proceed wins, calls = index + 1, id always preserved', async () => {
    await fc.assert(fc.asyncProperty(fc.array(toolCallChoice, { maxLength: 8 }), async (choices) => {
      const invoked: number[] = []
      const seenIds: string[] = []
      const seenArgs: string[] = []
      const hooks = choices.map((ch, i) => new (class extends AgentHook {
        async beforeToolCall(c: ToolCallHookContext): Promise<ToolCallHookResult> {
          invoked.push(i)
          seenIds.push(c.call.id)
          seenArgs.push(c.call.argumentsJson)
          switch (ch.kind) {
            case 'proceed': return ToolCallHookResult.proceed()
            case 'rewrite': return ToolCallHookResult.proceed(new ToolCall(ch.newId, c.call.name, ch.args, c.call.index))
            case 'deny': return ToolCallHookResult.deny(undefined, `deny${i}`)
            case 'defer': return ToolCallHookResult.defer(`defer${i}`)
            case 'abort': return ToolCallHookResult.abort(`abort${i}`)
          }
        }
      })())
      const r = await new AgentHookPipeline(hooks).beforeToolCall(toolCallCtx())
      // Reference model.
      let args = CALL.argumentsJson
      const expectedArgsSeen: string[] = []
      let expectedAction = 'proceed'
      let expectedReason: string | undefined
      let last = choices.length - 1
      for (let i = 0; i < choices.length; i++) {
        expectedArgsSeen.push(args)
        const k = choices[i].kind
        if (k === 'rewrite') {
          args = choices[i].args
        } else if (k !== 'proceed') {
          expectedAction = k
          expectedReason = `${k}${i}`
          last = i
          break
        }
      }
      expect(invoked).toEqual(Array.from({ length: last + 1 }, (_v, i) => i))
      expect(seenIds.every((id) => id === CALL.id)).toBe(true)
      expect(seenArgs).toEqual(expectedArgsSeen)
      expect(r.action).toBe(expectedAction)
      if (expectedAction === 'proceed') {
        expect(r.call!.id).toBe(CALL.id)
        expect(r.call!.argumentsJson).toBe(args)
      } else {
        expect(r.reason).toBe(expectedReason)
      }
    }), { numRuns: 300, seed: 20240611 })
  })

  it('afterToolCall matches the reference model: injected = concatenation in order up to the stop, abort wins', async () => {
    await fc.assert(fc.asyncProperty(fc.array(toolResultChoice, { maxLength: 8 }), async (choices) => {
      const invoked: number[] = []
      const hooks = choices.map((ch, i) => new (class extends AgentHook {
        async afterToolCall(c: ToolResultHookContext): Promise<ToolResultHookResult> {
          invoked.push(i)
          const msgs: AgentMessage[] = []
          for (let j = 0; j < ch.inject; j++) msgs.push(AgentMessage.system(`h${i}m${j}`))
          switch (ch.kind) {
            case 'proceed': return ToolResultHookResult.proceed(undefined, msgs)
            case 'rewrite': return ToolResultHookResult.proceed(ToolResult.text('foreign-id', ch.text), msgs)
            case 'stop': return ToolResultHookResult.stop(undefined, msgs, `stop${i}`)
            case 'abort': return ToolResultHookResult.abort(`abort${i}`)
          }
        }
      })())
      const r = await new AgentHookPipeline(hooks).afterToolCall(toolResultCtx())
      let text = 'sunny'
      const injected: string[] = []
      let action = 'proceed'
      let last = choices.length - 1
      for (let i = 0; i < choices.length; i++) {
        const ch = choices[i]
        if (ch.kind === 'abort') { action = 'abort'; last = i; break }
        if (ch.kind === 'rewrite') text = ch.text
        for (let j = 0; j < ch.inject; j++) injected.push(`h${i}m${j}`)
        if (ch.kind === 'stop') { action = 'stop'; last = i; break }
      }
      expect(invoked).toEqual(Array.from({ length: last + 1 }, (_v, i) => i))
      expect(r.action).toBe(action)
      if (action === 'abort') {
        expect(r.reason).toBe(`abort${last}`)
      } else {
        expect(r.injectedMessages.map((m) => m.text())).toEqual(injected)
        expect(r.result!.callId).toBe(CALL.id)
        expect(r.result!.textContent()).toBe(text)
      }
    }), { numRuns: 300, seed: 20240612 })
  })
})
