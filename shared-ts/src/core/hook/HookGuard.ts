import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { Thrown } from '../errors/Thrown'
import { AgentHook } from './AgentHook'
import { startTimer, stopTimer } from '../host/Timers'

/**
 * Runs one hook call fail-closed: a throw becomes hook_failed, a hang past the timeout becomes
 * hook_timeout (security layer). A timer is armed only if the hook did not settle right away, so
 * hooks that answer synchronously (the common case on the chunk path) cost no timer.
 */
export class HookGuard {
  timeoutMs: number

  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs
  }

  /**
   * `check` validates and normalizes the hook's answer (HookResultCheck); what it throws is
   * hook_failed too, so a malformed answer is judged like a thrown error.
   */
  run<T>(hookName: string, slot: string, start: () => Promise<T>, check?: (value: T) => T): Promise<T> {
    let promise: Promise<T>
    try {
      // Promise.resolve: a plain-JS override that returns no promise is still judged (hook_failed), not a TypeError.
      promise = Promise.resolve<T>(start())
    } catch (e) {
      return Promise.reject(HookGuard.failed(hookName, slot, e as Object))
    }
    const timeoutMs = this.timeoutMs
    return new Promise<T>((resolve, reject) => {
      // A promise settles once, so a late answer after the timeout (or a timeout after the answer)
      // is ignored by the promise itself; the flag only keeps a finished call from arming a timer.
      let settled = false
      let timer = 0
      const settle = (): void => {
        settled = true
        stopTimer(timer)
      }
      promise.then((value: T): void => {
        settle()
        if (value === undefined || value === null) {
          reject(HookGuard.failed(hookName, slot, new Error('returned no result')))
          return
        }
        if (check === undefined) {
          resolve(value)
          return
        }
        let checked: T
        try {
          checked = check(value)
        } catch (e) {
          reject(HookGuard.invalid(hookName, slot, e as Object))
          return
        }
        resolve(checked)
      }, (e: Object): void => {
        settle()
        reject(HookGuard.failed(hookName, slot, e))
      })
      if (timeoutMs > 0) {
        // Runs after the settle callback above if the hook had already finished: no timer then.
        Promise.resolve().then((): void => {
          if (!settled) {
            timer = startTimer((): void => {
              reject(HookGuard.timedOut(hookName, slot, timeoutMs))
            }, timeoutMs)
          }
        })
      }
    })
  }

  static timedOut(hookName: string, slot: string, timeoutMs: number): ArkAgentError {
    return new ArkAgentError(ErrorLayer.security, ErrorCodes.hookTimeout,
      `Hook ${hookName}.${slot} did not answer within ${timeoutMs} ms`, ErrorRetryability.never)
  }

  /** A hook's name for messages; a hookName getter that throws or returns a non-string cannot break the guard. */
  static nameOf(hook: AgentHook): string {
    try {
      const name = hook.hookName
      return typeof name === 'string' ? name : 'AgentHook'
    } catch (e) {
      return 'AgentHook'
    }
  }

  /** The hook answered, but not with a well-formed result of its slot. */
  static invalid(hookName: string, slot: string, problem: Object): ArkAgentError {
    return new ArkAgentError(ErrorLayer.security, ErrorCodes.hookFailed,
      `Hook ${hookName}.${slot} returned an invalid result: ${Thrown.describe(problem)}`, ErrorRetryability.never)
  }

  static failed(hookName: string, slot: string, thrown: Object): ArkAgentError {
    const detail = Thrown.describe(thrown)
    const cause = Thrown.asError(thrown)
    return new ArkAgentError(ErrorLayer.security, ErrorCodes.hookFailed,
      `Hook ${hookName}.${slot} failed: ${detail}`, ErrorRetryability.never, cause)
  }
}
