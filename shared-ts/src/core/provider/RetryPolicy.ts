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

  constructor(maxRetries: number = 3, initialDelayMs: number = 500, maxDelayMs: number = 8000,
    maxRetryAfterMs: number = 60000, random: () => number = Math.random) {
    this.maxRetries = Math.max(0, Math.floor(maxRetries))
    this.initialDelayMs = Math.max(0, initialDelayMs)
    this.maxDelayMs = Math.max(this.initialDelayMs, maxDelayMs)
    this.maxRetryAfterMs = maxRetryAfterMs
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
    return Math.round(ceiling / 2 + this.random() * ceiling / 2)
  }
}
