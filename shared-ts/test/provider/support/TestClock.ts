import { SystemClock, type Clock } from '../../../src/core/transport/Clock'
import { CancellationToken } from '../../../src/core/util/Cancellation'

/** Real timers (for first-chunk/idle timeouts) but instant, recorded retry sleeps. */
export class TestClock implements Clock {
  readonly sleeps: number[] = []
  nowMs = Date.parse('2025-06-01T12:00:00Z')

  now(): number {
    return this.nowMs
  }

  async sleep(ms: number, token: CancellationToken): Promise<void> {
    token.throwIfCancelled()
    this.sleeps.push(ms)
  }

  setTimer(ms: number, callback: () => void): () => void {
    return SystemClock.instance.setTimer(ms, callback)
  }
}
