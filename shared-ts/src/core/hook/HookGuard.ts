import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { startTimer, stopTimer } from '../util/Timers'

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

  run<T>(hookName: string, slot: string, start: () => Promise<T>): Promise<T> {
    let promise: Promise<T>
    try {
      // Promise.resolve: a plain-JS override that returns no promise is still judged (hook_failed), not a TypeError.
      promise = Promise.resolve<T>(start())
    } catch (e) {
      return Promise.reject(HookGuard.failed(hookName, slot, e as Object))
    }
    const timeoutMs = this.timeoutMs
    return new Promise<T>((resolve, reject) => {
      let done = false
      let timer = -1
      promise.then((value: T): void => {
        if (done) {
          return
        }
        done = true
        if (timer >= 0) {
          stopTimer(timer)
        }
        if (value === undefined || value === null) {
          reject(HookGuard.failed(hookName, slot, new Error('returned no result')))
          return
        }
        resolve(value)
      }, (e: Object): void => {
        if (done) {
          return
        }
        done = true
        if (timer >= 0) {
          stopTimer(timer)
        }
        reject(HookGuard.failed(hookName, slot, e))
      })
      if (timeoutMs > 0) {
        // Runs after the settle callback above if the hook had already finished.
        Promise.resolve().then((): void => {
          if (!done) {
            timer = startTimer((): void => {
              if (!done) {
                done = true
                reject(HookGuard.timedOut(hookName, slot, timeoutMs))
              }
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

  static failed(hookName: string, slot: string, thrown: Object): ArkAgentError {
    const detail = thrown instanceof Error ? thrown.message : String(thrown)
    const cause = thrown instanceof Error ? thrown : undefined
    return new ArkAgentError(ErrorLayer.security, ErrorCodes.hookFailed,
      `Hook ${hookName}.${slot} failed: ${detail}`, ErrorRetryability.never, cause)
  }
}
