import { CancellationToken } from './Cancellation'
import { startTimer, stopTimer } from '../host/Timers'

/** Resolves after `ms`, or rejects with a cancelled error when `token` fires first. */
export function delay(ms: number, token: CancellationToken = CancellationToken.none): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (token.isCancelled) {
      reject(CancellationToken.cancelledError(token.reason))
      return
    }
    let off: () => void = (): void => {}
    const timer = startTimer((): void => {
      off()
      resolve()
    }, ms)
    off = token.onCancel((reason: string): void => {
      stopTimer(timer)
      reject(CancellationToken.cancelledError(reason))
    })
  })
}

/**
 * Races `work` against a timeout. The timer is always cleared, so a finished race never keeps
 * the process alive. `onTimeout` builds the error for the timeout case.
 */
export function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  if (ms <= 0 || ms === Number.POSITIVE_INFINITY) {
    return work
  }
  return new Promise<T>((resolve, reject) => {
    let settled = false
    const timer = startTimer((): void => {
      if (!settled) {
        settled = true
        reject(onTimeout())
      }
    }, ms)
    work.then((v: T): void => {
      if (!settled) {
        settled = true
        stopTimer(timer)
        resolve(v)
      }
    }, (e: Object): void => {
      if (!settled) {
        settled = true
        stopTimer(timer)
        reject(e)
      }
    })
  })
}
