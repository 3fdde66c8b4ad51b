import { Thrown } from '../errors/Thrown'
import { AgentMessage } from '../model/AgentMessage'
import { ModelRequest } from '../model/ModelRequest'
import { ModelResponse } from '../model/ModelResponse'
import { ToolCall } from '../model/ToolCall'
import { ToolResult } from '../model/ToolResult'
import { AgentHook } from './AgentHook'
import { ChunkHookContinuation, ChunkHookPass } from './ChunkHookPass'
import { HookGuard } from './HookGuard'
import { HookResultCheck } from './HookResultCheck'
import { HookWatchdog } from './HookWatchdog'
import { SlotLists } from './SlotLists'
import { ConfigCheck } from '../util/ConfigCheck'
import {
  AfterRunHookContext,
  BeforeRunHookContext,
  CompactionHookContext,
  ModelCallHookContext,
  ModelChunkHookContext,
  ModelResponseHookContext,
  StatePersistenceHookContext,
  ToolCallHookContext,
  ToolResultHookContext,
  TurnCompletionHookContext
} from './HookContexts'
import {
  BeforeRunHookAction,
  BeforeRunHookResult,
  CompactionHookAction,
  CompactionHookResult,
  ModelCallHookAction,
  ModelCallHookResult,
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
} from './HookResults'

/** Used when neither the pipeline nor the runtime config names a hook timeout. */
export const DEFAULT_HOOK_TIMEOUT_MS: number = 30000

/** A hook's slot implementations are compared with these to find the slots it overrides. */
const BASE: AgentHook = new AgentHook()

/**
 * Runs hooks strictly in registration order, awaiting each one: a rewrite is what the next hook
 * sees, and the first short-circuit action wins (later hooks do not run). Decision hooks fail
 * closed (hook_failed / hook_timeout); observer hooks are isolated into diagnostics.
 */
export class AgentHookPipeline {
  private readonly hooks: AgentHook[] = []
  private slots: SlotLists = new SlotLists()
  private readonly guard: HookGuard
  private explicitTimeout: boolean

  /**
   * `hookTimeoutMs` bounds every decision-hook call (0 disables the bound); see `hookTimeoutMs`
   * for how it meets the runtime config.
   */
  constructor(hooks: AgentHook[] = [], hookTimeoutMs?: number) {
    if (!(hooks instanceof Array)) {
      throw ConfigCheck.invalid(`AgentHookPipeline hooks must be an array of AgentHook; got ${ConfigCheck.show(hooks)}`)
    }
    this.guard = new HookGuard(hookTimeoutMs !== undefined ?
      ConfigCheck.timeoutMs(hookTimeoutMs, 'AgentHookPipeline hookTimeoutMs') : DEFAULT_HOOK_TIMEOUT_MS)
    this.explicitTimeout = hookTimeoutMs !== undefined
    for (let i = 0; i < hooks.length; i++) {
      this.register(hooks[i])
    }
  }

  /**
   * Bound for every decision-hook call in ms; 0 disables it. Set here (constructor or setter) or
   * through `AgentRuntimeConfig.hookTimeoutMs`: an explicit value always wins over the default,
   * and two different explicit values for one pipeline are a config error when the runtime is built.
   */
  get hookTimeoutMs(): number {
    return this.guard.timeoutMs
  }

  set hookTimeoutMs(ms: number) {
    this.guard.timeoutMs = ConfigCheck.timeoutMs(ms, 'AgentHookPipeline hookTimeoutMs')
    this.explicitTimeout = true
  }

  /** Whether the timeout was set explicitly (not the default). */
  get hasExplicitTimeout(): boolean {
    return this.explicitTimeout
  }

  register(hook: AgentHook): AgentHookPipeline {
    if (!(hook instanceof AgentHook)) {
      // A plain object could leave slots out or carry anything: only subclasses of AgentHook register.
      throw ConfigCheck.invalid(`A hook must be an instance of a subclass of AgentHook; got ${ConfigCheck.show(hook)}`)
    }
    this.hooks.push(hook)
    const s = this.slots
    if (hook.beforeRun !== BASE.beforeRun) s.beforeRun.push(hook)
    if (hook.beforeModelCall !== BASE.beforeModelCall) s.beforeModelCall.push(hook)
    if (hook.onModelChunk !== BASE.onModelChunk) s.onModelChunk.push(hook)
    if (hook.afterModelCall !== BASE.afterModelCall) s.afterModelCall.push(hook)
    if (hook.beforeToolCall !== BASE.beforeToolCall) s.beforeToolCall.push(hook)
    if (hook.afterToolCall !== BASE.afterToolCall) s.afterToolCall.push(hook)
    if (hook.onTurnCompletion !== BASE.onTurnCompletion) s.onTurnCompletion.push(hook)
    if (hook.beforePersistState !== BASE.beforePersistState) s.beforePersistState.push(hook)
    if (hook.afterPersistState !== BASE.afterPersistState) s.afterPersistState.push(hook)
    if (hook.afterRun !== BASE.afterRun) s.afterRun.push(hook)
    if (hook.beforeCompaction !== BASE.beforeCompaction) s.beforeCompaction.push(hook)
    if (hook.afterCompaction !== BASE.afterCompaction) s.afterCompaction.push(hook)
    return this
  }

  size(): number {
    return this.hooks.length
  }

  /** True when some hook overrides onModelChunk (the runtime skips the chunk chain otherwise). */
  hasChunkHooks(): boolean {
    return this.slots.onModelChunk.length > 0
  }

  async beforeRun(context: BeforeRunHookContext): Promise<BeforeRunHookResult> {
    const hooks = this.slots.beforeRun
    let input = context.input
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i]
      // A copy of the array: a hook pushing into what it got does not reach the next hook.
      const ctx = context.copyWith(input.slice())
      const result = await this.guard.run<BeforeRunHookResult>(HookGuard.nameOf(hook), 'beforeRun',
        (): Promise<BeforeRunHookResult> => hook.beforeRun(ctx), HookResultCheck.beforeRun)
      if (result.action === BeforeRunHookAction.abort) {
        return result
      }
      if (result.input !== undefined) {
        input = result.input
      }
    }
    return BeforeRunHookResult.proceed(input)
  }

  async beforeModelCall(context: ModelCallHookContext): Promise<ModelCallHookResult> {
    const hooks = this.slots.beforeModelCall
    let request: ModelRequest = context.request
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i]
      const ctx = context.copyWith(request)
      const result = await this.guard.run<ModelCallHookResult>(HookGuard.nameOf(hook), 'beforeModelCall',
        (): Promise<ModelCallHookResult> => hook.beforeModelCall(ctx), HookResultCheck.beforeModelCall)
      if (result.action !== ModelCallHookAction.proceed) {
        return result
      }
      if (result.request !== undefined) {
        request = result.request
      }
    }
    return ModelCallHookResult.proceed(request)
  }

  /**
   * Runs for every streamed chunk, so it is driven by ChunkHookPass (same semantics as the other
   * slots under HookGuard, without an async frame and a guard deferred per hook).
   */
  onModelChunk(context: ModelChunkHookContext): Promise<ModelChunkHookResult> {
    return ChunkHookPass.run(this.slots.onModelChunk, context, this.guard)
  }

  /**
   * onModelChunk for the runtime's stream collector: `after` runs with the chain's result before
   * the returned promise settles (its throw rejects it). Only call with hasChunkHooks() true.
   */
  onModelChunkThen(context: ModelChunkHookContext, after: ChunkHookContinuation,
    watchdog?: HookWatchdog): Promise<ModelChunkHookResult> {
    return ChunkHookPass.run(this.slots.onModelChunk, context, this.guard, after, watchdog)
  }

  /** A watchdog bounding every chunk-hook call of one stream with this pipeline's hook timeout. */
  newChunkWatchdog(): HookWatchdog {
    return new HookWatchdog(this.guard.timeoutMs)
  }

  async afterModelCall(context: ModelResponseHookContext): Promise<ModelResponseHookResult> {
    const hooks = this.slots.afterModelCall
    let response: ModelResponse = context.response
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i]
      const ctx = context.copyWith(response)
      const result = await this.guard.run<ModelResponseHookResult>(HookGuard.nameOf(hook), 'afterModelCall',
        (): Promise<ModelResponseHookResult> => hook.afterModelCall(ctx), HookResultCheck.afterModelCall)
      if (result.action !== ModelResponseHookAction.proceed) {
        return result
      }
      if (result.response !== undefined) {
        response = result.response
      }
    }
    return ModelResponseHookResult.proceed(response)
  }

  /**
   * Every hook sees the call as rewritten so far, with that call's definition (a rename re-resolves
   * it). The call's id and batch position never change. A defer or deny comes back carrying the
   * call as rewritten up to (and by) the hook that decided: that is the call the user approves and
   * that runs after approval; later hooks do not run for it.
   */
  async beforeToolCall(context: ToolCallHookContext): Promise<ToolCallHookResult> {
    const hooks = this.slots.beforeToolCall
    const original = context.call
    let call: ToolCall = original
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i]
      const ctx = context.copyWith(call)
      const result = await this.guard.run<ToolCallHookResult>(HookGuard.nameOf(hook), 'beforeToolCall',
        (): Promise<ToolCallHookResult> => hook.beforeToolCall(ctx), HookResultCheck.beforeToolCall)
      if (result.call !== undefined) {
        call = AgentHookPipeline.sameIdentity(original, result.call)
      }
      if (result.action !== ToolCallHookAction.proceed) {
        return result.withCall(call)
      }
    }
    return ToolCallHookResult.proceed(call)
  }

  /** A rewrite keeps the model's id (results pair by it) and the call's position in its batch. */
  private static sameIdentity(original: ToolCall, call: ToolCall): ToolCall {
    if (call.id === original.id && call.index === original.index) {
      return call
    }
    return new ToolCall(original.id, call.name, call.argumentsJson, original.index)
  }

  async afterToolCall(context: ToolResultHookContext): Promise<ToolResultHookResult> {
    const hooks = this.slots.afterToolCall
    const callId = context.result.callId
    let result: ToolResult = context.result
    const injected: AgentMessage[] = []
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i]
      const ctx = context.copyWith(result)
      const hookResult = await this.guard.run<ToolResultHookResult>(HookGuard.nameOf(hook), 'afterToolCall',
        (): Promise<ToolResultHookResult> => hook.afterToolCall(ctx), HookResultCheck.afterToolCall)
      if (hookResult.action === ToolResultHookAction.abort) {
        return hookResult
      }
      if (hookResult.result !== undefined) {
        result = hookResult.result.forCall(callId)
      }
      for (let j = 0; j < hookResult.injectedMessages.length; j++) {
        injected.push(hookResult.injectedMessages[j])
      }
      if (hookResult.action === ToolResultHookAction.stop) {
        // Messages injected by earlier hooks are kept when a later one stops.
        return ToolResultHookResult.stop(result, injected, hookResult.reason)
      }
    }
    return ToolResultHookResult.proceed(result, injected)
  }

  async onTurnCompletion(context: TurnCompletionHookContext): Promise<TurnCompletionHookResult> {
    const hooks = this.slots.onTurnCompletion
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i]
      const ctx = context.copyWith()
      const result = await this.guard.run<TurnCompletionHookResult>(HookGuard.nameOf(hook), 'onTurnCompletion',
        (): Promise<TurnCompletionHookResult> => hook.onTurnCompletion(ctx), HookResultCheck.onTurnCompletion)
      if (result.action !== TurnCompletionHookAction.accept) {
        return result
      }
    }
    return TurnCompletionHookResult.accept()
  }

  async beforePersistState(context: StatePersistenceHookContext): Promise<StatePersistenceHookResult> {
    const hooks = this.slots.beforePersistState
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i]
      const ctx = context.copyWith()
      const result = await this.guard.run<StatePersistenceHookResult>(HookGuard.nameOf(hook), 'beforePersistState',
        (): Promise<StatePersistenceHookResult> => hook.beforePersistState(ctx), HookResultCheck.beforePersistState)
      if (result.action === StatePersistenceHookAction.proceed) {
        continue
      }
      if (result.action === StatePersistenceHookAction.skip && context.mandatory) {
        // Safety and terminal writes cannot be skipped; abort still counts.
        continue
      }
      return result
    }
    return StatePersistenceHookResult.proceed()
  }

  /** Observer slot: returns one diagnostic per hook that threw or timed out. */
  async afterPersistState(context: StatePersistenceHookContext): Promise<string[]> {
    const hooks = this.slots.afterPersistState
    const diagnostics: string[] = []
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i]
      const ctx = context.copyWith()
      try {
        await this.guard.run<AgentHook>(HookGuard.nameOf(hook), 'afterPersistState', async (): Promise<AgentHook> => {
          await hook.afterPersistState(ctx)
          return hook
        })
      } catch (e) {
        diagnostics.push(Thrown.describe(e as Object))
      }
    }
    return diagnostics
  }

  /** Observer slot: errors never change the run's outcome; they come back as diagnostics. */
  async afterRun(context: AfterRunHookContext): Promise<string[]> {
    const hooks = this.slots.afterRun
    const diagnostics: string[] = []
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i]
      const ctx = context.copyWith()
      try {
        await this.guard.run<AgentHook>(HookGuard.nameOf(hook), 'afterRun', async (): Promise<AgentHook> => {
          await hook.afterRun(ctx)
          return hook
        })
      } catch (e) {
        diagnostics.push(Thrown.describe(e as Object))
      }
    }
    return diagnostics
  }

  /**
   * Each hook sees the summary and pins as rewritten so far; the first skip or abort wins. A pin
   * outside [from, upTo) is a malformed answer (hook_failed), like any other bad answer.
   */
  async beforeCompaction(context: CompactionHookContext): Promise<CompactionHookResult> {
    const hooks = this.slots.beforeCompaction
    let summary = context.summary
    const pinned: number[] = context.pinned.slice()
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i]
      const ctx = context.copyWith(summary, pinned)
      const name = HookGuard.nameOf(hook)
      const result = await this.guard.run<CompactionHookResult>(name, 'beforeCompaction',
        (): Promise<CompactionHookResult> => hook.beforeCompaction(ctx), HookResultCheck.beforeCompaction)
      if (result.action !== CompactionHookAction.proceed) {
        return result
      }
      if (result.summary !== undefined) {
        summary = result.summary
      }
      for (let j = 0; j < result.pin.length; j++) {
        const p = result.pin[j]
        if (p < context.from || p >= context.upTo) {
          throw HookGuard.invalid(name, 'beforeCompaction',
            new Error(`pin ${p} is outside the compacted range [${context.from}, ${context.upTo})`))
        }
        if (pinned.indexOf(p) < 0) {
          pinned.push(p)
        }
      }
    }
    return CompactionHookResult.proceed(summary, pinned)
  }

  /** Observer slot: errors come back as diagnostics. */
  async afterCompaction(context: CompactionHookContext): Promise<string[]> {
    const hooks = this.slots.afterCompaction
    const diagnostics: string[] = []
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i]
      const ctx = context.copyWith()
      try {
        await this.guard.run<AgentHook>(HookGuard.nameOf(hook), 'afterCompaction', async (): Promise<AgentHook> => {
          await hook.afterCompaction(ctx)
          return hook
        })
      } catch (e) {
        diagnostics.push(Thrown.describe(e as Object))
      }
    }
    return diagnostics
  }
}
