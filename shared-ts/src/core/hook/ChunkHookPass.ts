import { ArkAgentError } from '../errors/ArkAgentError'
import { AgentHook } from './AgentHook'
import { HookGuard } from './HookGuard'
import { HookResultCheck } from './HookResultCheck'
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

/**
 * One chunk through the onModelChunk hooks — the hottest path of the runtime, run for every
 * streamed token. Same semantics as the generic pipeline loop under HookGuard: registration order;
 * each hook is awaited before the next one starts; a rewrite is what the next hook sees; the first
 * drop/abort wins and later hooks do not run; a throw, a rejection or no result is hook_failed; no
 * answer within the bound is hook_timeout (later hooks do not run, a late answer is ignored).
 *
 * Cost: instead of an async frame plus a guard deferred per hook, one object per chunk drives the
 * chain from promise callbacks. Per hook: the hook's own promise and one `then`. The bound is kept
 * by a HookWatchdog: the runtime passes one per stream (one timer for all its chunks); a pass run
 * without one makes its own and closes it when it settles.
 */
export class ChunkHookPass implements WatchedCall {
  private readonly hooks: AgentHook[]
  private readonly context: ModelChunkHookContext
  private readonly after?: ChunkHookContinuation
  private readonly watchdog: HookWatchdog
  /** True when the pass made its watchdog itself (then it closes it when it settles). */
  private readonly ownsWatchdog: boolean
  private readonly resolve: (result: ModelChunkHookResult) => void
  private readonly reject: (error: Object) => void
  private readonly onValue: (result: ModelChunkHookResult) => void
  private readonly onError: (error: Object) => void
  private text: string
  /** hookName of the current hook, read before the call as the generic guard does. */
  private currentName: string = ''
  /** Index of the hook being called; hooks run strictly one after another. */
  private current: number = -1
  private currentSettled: boolean = true
  private finished: boolean = false
  private lastContext?: ModelChunkHookContext

  private constructor(hooks: AgentHook[], context: ModelChunkHookContext, guard: HookGuard,
    resolve: (result: ModelChunkHookResult) => void, reject: (error: Object) => void, after?: ChunkHookContinuation,
    watchdog?: HookWatchdog) {
    this.hooks = hooks
    this.ownsWatchdog = watchdog === undefined
    this.watchdog = watchdog !== undefined ? watchdog : new HookWatchdog(guard.timeoutMs)
    this.context = context
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
    const name = HookGuard.nameOf(hook)
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
    this.watchdog.begin(this, i)
  }

  private settled(answer: ModelChunkHookResult): void {
    if (this.finished) {
      return
    }
    this.endCall()
    if (answer === undefined || answer === null) {
      this.fail(HookGuard.failed(this.currentName, SLOT, new Error('returned no result')))
      return
    }
    let result: ModelChunkHookResult
    try {
      result = HookResultCheck.onModelChunk(answer)
    } catch (e) {
      this.fail(HookGuard.invalid(this.currentName, SLOT, e as Object))
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

  private endCall(): void {
    this.currentSettled = true
    this.watchdog.end()
  }

  /** The pass settled: nothing more to watch. */
  private settle(): void {
    this.finished = true
    if (this.ownsWatchdog) {
      this.watchdog.close()
    }
  }

  private finish(result: ModelChunkHookResult): void {
    this.settle()
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
    this.settle()
    this.reject(error)
  }

  private abandon(error: Object): void {
    if (this.finished) {
      return
    }
    this.endCall()
    this.settle()
    this.reject(error)
  }
}
