import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { CancellationToken } from '../util/Cancellation'
import { Clock } from './Clock'
import { HttpResponseHead, HttpStreamHandler } from './HttpTransport'

/**
 * Turns a pushed exchange into awaitable reads, queueing what arrives while the consumer is busy.
 * Timeouts watch the network, not the consumer: the first-chunk timer runs from creation until the
 * first body text arrives, then the idle timer restarts on every arrival. Chunks received before a
 * failure are still handed out first (the answer may already be complete); cancellation wins at once.
 */
export class HttpResponseReader implements HttpStreamHandler {
  private head: HttpResponseHead | null = null
  private chunks: string[] = []
  private readPos: number = 0
  private ended: boolean = false
  private endStatus: number = 0
  private failure: ArkAgentError | null = null
  private cancelError: ArkAgentError | null = null
  private closed: boolean = false
  private wake: (() => void) | null = null
  private stopTimer: () => void = (): void => {}
  private readonly offCancel: () => void
  private readonly clock: Clock
  private readonly idleTimeoutMs: number

  constructor(clock: Clock, firstChunkTimeoutMs: number, idleTimeoutMs: number, token: CancellationToken) {
    this.clock = clock
    this.idleTimeoutMs = idleTimeoutMs
    this.arm(firstChunkTimeoutMs, (): ArkAgentError => new ArkAgentError(ErrorLayer.transport,
      ErrorCodes.transportFirstChunkTimeout, `No response data within ${firstChunkTimeoutMs} ms`,
      ErrorRetryability.retryable))
    this.offCancel = token.onCancel((reason: string): void => {
      if (!this.closed && this.cancelError === null) {
        this.cancelError = CancellationToken.cancelledError(reason)
        this.stopTimer()
        this.notify()
      }
    })
  }

  onHead(head: HttpResponseHead): void {
    if (this.closed || this.head !== null) {
      return
    }
    this.head = head
    this.notify()
  }

  onData(text: string): void {
    if (this.closed || this.ended || this.failure !== null || text.length === 0) {
      return
    }
    this.chunks.push(text)
    this.arm(this.idleTimeoutMs, (): ArkAgentError => new ArkAgentError(ErrorLayer.transport,
      ErrorCodes.transportIdleTimeout, `No response data for ${this.idleTimeoutMs} ms (stream stalled)`,
      ErrorRetryability.retryable))
    this.notify()
  }

  onEnd(finalStatus?: number): void {
    if (this.closed || this.ended || this.failure !== null) {
      return
    }
    this.ended = true
    this.endStatus = finalStatus !== undefined ? finalStatus : 0
    this.stopTimer()
    this.notify()
  }

  onError(error: ArkAgentError): void {
    if (this.closed || this.ended || this.failure !== null) {
      return
    }
    this.failure = error
    this.stopTimer()
    this.notify()
  }

  /** The status given with `onEnd` (for transports that report it late); 0 when none. */
  get finalStatus(): number {
    return this.endStatus
  }

  async readHead(): Promise<HttpResponseHead> {
    for (;;) {
      if (this.cancelError !== null) {
        throw this.cancelError
      }
      if (this.head !== null) {
        return this.head
      }
      if (this.failure !== null) {
        throw this.failure
      }
      if (this.ended) {
        throw new ArkAgentError(ErrorLayer.transport, ErrorCodes.transportNetwork,
          'Connection ended before a response status arrived', ErrorRetryability.retryable)
      }
      await this.nextSignal()
    }
  }

  /** The next piece of body text, or null at the end of the body. */
  async read(): Promise<string | null> {
    for (;;) {
      if (this.cancelError !== null) {
        throw this.cancelError
      }
      if (this.readPos < this.chunks.length) {
        const chunk = this.chunks[this.readPos]
        this.readPos++
        if (this.readPos === this.chunks.length) {
          this.chunks = []
          this.readPos = 0
        }
        return chunk
      }
      if (this.failure !== null) {
        throw this.failure
      }
      if (this.ended) {
        return null
      }
      await this.nextSignal()
    }
  }

  /** Reads the rest of the body, keeping at most `maxChars` (error bodies are only shown trimmed). */
  async readAll(maxChars: number): Promise<string> {
    const parts: string[] = []
    let kept = 0
    for (;;) {
      const chunk = await this.read()
      if (chunk === null) {
        return parts.join('')
      }
      if (kept < maxChars) {
        const piece = chunk.length > maxChars - kept ? chunk.substring(0, maxChars - kept) : chunk
        parts.push(piece)
        kept += piece.length
      }
    }
  }

  /** Stops timers and listeners; later transport calls are ignored. */
  close(): void {
    this.closed = true
    this.stopTimer()
    this.offCancel()
    this.notify()
  }

  private arm(ms: number, makeError: () => ArkAgentError): void {
    this.stopTimer()
    if (ms <= 0 || ms === Number.POSITIVE_INFINITY) {
      this.stopTimer = (): void => {}
      return
    }
    this.stopTimer = this.clock.setTimer(ms, (): void => {
      this.stopTimer = (): void => {}
      if (!this.closed && !this.ended && this.failure === null) {
        this.failure = makeError()
        this.notify()
      }
    })
  }

  private nextSignal(): Promise<void> {
    return new Promise<void>((resolve: () => void): void => {
      this.wake = resolve
    })
  }

  private notify(): void {
    const wake = this.wake
    if (wake !== null) {
      this.wake = null
      wake()
    }
  }
}
