import { ConfigCheck } from '../util/ConfigCheck'

/**
 * Exponential backoff with jitter. A server's `Retry-After` is honoured as given; one longer than
 * `maxRetryAfterMs` ends retrying (waiting minutes inside an agent turn helps nobody).
 */
export class RetryPolicy {
  readonly maxRetries: number
  readonly initialDelayMs: number
  readonly maxDelayMs: number
  readonly maxRetryAfterMs: number
  /** Jitter source in [0, 1); injectable for deterministic tests. */
  readonly random: () => number

  /** Every argument is checked: a bad one is invalid_config naming it, never clamped. */
  constructor(maxRetries: number = 3, initialDelayMs: number = 500, maxDelayMs: number = 8000,
    maxRetryAfterMs: number = 60000, random: () => number = Math.random) {
    this.maxRetries = ConfigCheck.count(maxRetries, 0, 'RetryPolicy maxRetries', 100)
    this.initialDelayMs = ConfigCheck.delayMs(initialDelayMs, 0, 'RetryPolicy initialDelayMs')
    this.maxDelayMs = ConfigCheck.delayMs(maxDelayMs, 0, 'RetryPolicy maxDelayMs')
    if (maxDelayMs < initialDelayMs) {
      throw ConfigCheck.invalid(`RetryPolicy maxDelayMs (${maxDelayMs}) must be at least RetryPolicy initialDelayMs (${initialDelayMs})`)
    }
    this.maxRetryAfterMs = ConfigCheck.delayMs(maxRetryAfterMs, 0, 'RetryPolicy maxRetryAfterMs')
    if (typeof random !== 'function') {
      throw ConfigCheck.invalid(`RetryPolicy random must be a function returning a number in [0, 1); got ${ConfigCheck.show(random)}`)
    }
    this.random = random
  }

  static none(): RetryPolicy {
    return new RetryPolicy(0)
  }

  /**
   * Delay before retry number `retry` (0 for the first retry), or -1 when no retry should happen.
   * `retryAfterMs` < 0 means the server gave no Retry-After.
   */
  delayBeforeRetry(retry: number, retryAfterMs: number = -1): number {
    if (retry >= this.maxRetries) {
      return -1
    }
    if (retryAfterMs >= 0) {
      return retryAfterMs > this.maxRetryAfterMs ? -1 : retryAfterMs
    }
    const ceiling = Math.min(this.maxDelayMs, this.initialDelayMs * Math.pow(2, retry))
    // "Equal jitter": half fixed, half random, so concurrent clients spread out but never retry at once.
    // An injected source answering outside [0, 1) (or not a number) waits the longest, never less.
    const r = this.random()
    const jitter = typeof r === 'number' && r >= 0 && r < 1 ? r : 1
    return Math.round(ceiling / 2 + jitter * ceiling / 2)
  }
}
