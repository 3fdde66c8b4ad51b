import { CancellationToken } from '../util/Cancellation'
import { delay } from '../util/Delay'

/** Time source for retries and timeouts; injectable so tests never wait for real. */
export interface Clock {
  /** Milliseconds since the epoch (used to turn an HTTP-date Retry-After into a delay). */
  now(): number
  /** Waits `ms`; rejects with the cancelled error when `token` fires first. */
  sleep(ms: number, token: CancellationToken): Promise<void>
  /** Calls `callback` once after `ms`; returns a function that cancels it. */
  setTimer(ms: number, callback: () => void): () => void
}

export class SystemClock implements Clock {
  static readonly instance: SystemClock = new SystemClock()

  now(): number {
    return Date.now()
  }

  sleep(ms: number, token: CancellationToken): Promise<void> {
    return delay(ms, token)
  }

  setTimer(ms: number, callback: () => void): () => void {
    const timer = setTimeout(callback, ms)
    return (): void => clearTimeout(timer)
  }
}
