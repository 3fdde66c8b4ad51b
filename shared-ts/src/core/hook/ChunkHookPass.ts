import { ArkAgentError } from '../errors/ArkAgentError'
import { startTimer, stopTimer } from '../util/Timers'
import { AgentHook } from './AgentHook'
import { HookGuard } from './HookGuard'
import { HookWatchdog, WatchedCall } from './HookWatchdog'
import { ModelChunkHookContext } from './HookContexts'
import { ModelChunkHookAction, ModelChunkHookResult } from './HookResults'

const SLOT: string = 'onModelChunk'

/**
 * Runs as the last step of a pass, before its promise resolves (the runtime's stream collector):
 * saves the caller an async frame per chunk. A throw rejects the pass with that error.
 */
export interface ChunkHookContinuation {
  afterChunkHooks(result: ModelChunkHookResult, context: ModelChunkHookContext): void
}

/** Already settled: `then` on it queues a microtask that runs after every callback queued before it. */
const SETTLED: Promise<boolean> = Promise.resolve(true)

/**
 * One chunk through the onModelChunk hooks — the hottest path of the runtime, run for every
 * streamed token. Same semantics as the generic pipeline loop under HookGuard: registration order;
 * each hook is awaited before the next one starts; a rewrite is what the next hook sees; the first
 * drop/abort wins and later hooks do not run; a throw, a rejection or no result is hook_failed; no
 * answer within the bound is hook_timeout (later hooks do not run, a late answer is ignored).
 *
 * Cost: instead of an async frame plus a guard deferred per hook, one object per chunk drives the
 * chain from promise callbacks. Per hook: the hook's own promise, one `then` and (with a bound) one
 * check microtask queued after the hook's settle callback. The timer is armed only when the check
 * finds the hook still pending, i.e. for hooks that did not answer synchronously.
 */
export class ChunkHookPass implements WatchedCall {
  private readonly hooks: AgentHook[]
  private readonly context: ModelChunkHookContext
  private readonly guard: HookGuard
  private readonly after?: ChunkHookContinuation
  /** With a watchdog (the runtime's streams), it bounds the calls and no check is queued per call. */
  private readonly watchdog?: HookWatchdog
  private readonly resolve: (result: ModelChunkHookResult) => void
  private readonly reject: (error: Object) => void
  private readonly onValue: (result: ModelChunkHookResult) => void
  private readonly onError: (error: Object) => void
  private readonly onCheck: (settled: boolean) => void
  private text: string
  /** hookName of the current hook, read before the call as the generic guard does. */
  private currentName: string = ''
  /** Index of the hook being called; hooks run strictly one after another. */
  private current: number = -1
  private currentSettled: boolean = true
  /** The bound read when the current call started (0: none). */
  private callTimeoutMs: number = 0
  /** One check is queued per call, in call order, and microtasks run FIFO: the k-th check is call k's. */
  private checksRun: number = 0
  private timer: number = -1
  private finished: boolean = false
  private lastContext?: ModelChunkHookContext

  private constructor(hooks: AgentHook[], context: ModelChunkHookContext, guard: HookGuard,
    resolve: (result: ModelChunkHookResult) => void, reject: (error: Object) => void, after?: ChunkHookContinuation,
    watchdog?: HookWatchdog) {
    this.hooks = hooks
    this.watchdog = watchdog
    this.context = context
    this.guard = guard
    this.after = after
    this.resolve = resolve
    this.reject = reject
    this.text = context.text
    // Callbacks never throw: anything unexpected (a hostile context or result) rejects the pass
    // with the raw error, as it did when the chain was an async function.
    this.onValue = (result: ModelChunkHookResult): void => {
      try {
        this.settled(result)
      } catch (e) {
        this.abandon(e as Object)
      }
    }
    this.onError = (error: Object): void => {
      try {
        this.failedWith(error)
      } catch (e) {
        this.abandon(e as Object)
      }
    }
    this.onCheck = (settled: boolean): void => this.check()
  }

  static run(hooks: AgentHook[], context: ModelChunkHookContext, guard: HookGuard,
    after?: ChunkHookContinuation, watchdog?: HookWatchdog): Promise<ModelChunkHookResult> {
    // A throw inside the executor (first hook call) rejects the promise, as an async function would.
    return new Promise<ModelChunkHookResult>((resolve, reject) => {
      new ChunkHookPass(hooks, context, guard, resolve, reject, after, watchdog).next()
    })
  }

  /** The watchdog's verdict on the running call. */
  overran(call: number, timeoutMs: number): void {
    if (!this.finished && this.current === call && !this.currentSettled) {
      this.fail(HookGuard.timedOut(this.currentName, SLOT, timeoutMs))
    }
  }

  /** Calls the next hook, or finishes when every hook proceeded. */
  private next(): void {
    const i = this.current + 1
    if (i >= this.hooks.length) {
      this.finish(this.text === this.context.text ? ModelChunkHookResult.proceed() :
        ModelChunkHookResult.proceed(this.text))
      return
    }
    const hook = this.hooks[i]
    const name = hook.hookName
    // Each hook gets its own context. The previous hook's is handed on only when it is exactly
    // what a fresh copy would be: same text, and its state snapshot never taken (so the hook
    // could not have changed it). Saves two allocations per hook per chunk.
    const last = this.lastContext
    const ctx = last !== undefined && last.text === this.text && !last.stateWasRead() ? last :
      this.context.copyWith(this.text)
    this.lastContext = ctx
    this.current = i
    this.currentName = name
    this.currentSettled = false
    this.callTimeoutMs = this.guard.timeoutMs
    let promise: Promise<ModelChunkHookResult>
    try {
      // Promise.resolve: a plain-JS override that returns no promise is still judged (hook_failed).
      promise = Promise.resolve<ModelChunkHookResult>(hook.onModelChunk(ctx))
    } catch (e) {
      this.currentSettled = true
      this.fail(HookGuard.failed(name, SLOT, e as Object))
      return
    }
    promise.then(this.onValue, this.onError)
    if (this.watchdog !== undefined) {
      this.watchdog.begin(this, i)
      return
    }
    // Queued after the settle callback above when the hook had already answered. Every call queues
    // exactly one check (even without a bound), which keeps checks and calls paired.
    SETTLED.then(this.onCheck)
  }

  private settled(result: ModelChunkHookResult): void {
    if (this.finished) {
      return
    }
    this.endCall()
    if (result === undefined || result === null) {
      this.fail(HookGuard.failed(this.currentName, SLOT, new Error('returned no result')))
      return
    }
    if (result.action !== ModelChunkHookAction.proceed) {
      this.finish(result)
      return
    }
    if (result.text !== undefined) {
      this.text = result.text
    }
    this.next()
  }

  private failedWith(error: Object): void {
    if (this.finished) {
      return
    }
    this.endCall()
    this.fail(HookGuard.failed(this.currentName, SLOT, error))
  }

  private check(): void {
    const call = this.checksRun++
    const timeoutMs = this.callTimeoutMs
    if (this.finished || call !== this.current || this.currentSettled || timeoutMs <= 0) {
      return
    }
    const hookName = this.currentName
    this.timer = startTimer((): void => {
      this.timer = -1
      if (!this.finished && this.current === call && !this.currentSettled) {
        this.fail(HookGuard.timedOut(hookName, SLOT, timeoutMs))
      }
    }, timeoutMs)
  }

  private endCall(): void {
    this.currentSettled = true
    if (this.watchdog !== undefined) {
      this.watchdog.end()
    }
    if (this.timer >= 0) {
      stopTimer(this.timer)
      this.timer = -1
    }
  }

  private finish(result: ModelChunkHookResult): void {
    this.finished = true
    const after = this.after
    if (after !== undefined) {
      try {
        after.afterChunkHooks(result, this.context)
      } catch (e) {
        this.reject(e as Object)
        return
      }
    }
    this.resolve(result)
  }

  private fail(error: ArkAgentError): void {
    this.finished = true
    this.reject(error)
  }

  private abandon(error: Object): void {
    if (this.finished) {
      return
    }
    this.endCall()
    this.finished = true
    this.reject(error)
  }
}
