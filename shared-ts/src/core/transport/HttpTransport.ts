import { ArkAgentError } from '../errors/ArkAgentError'
import { CancellationToken } from '../util/Cancellation'

/**
 * One HTTP request. Header names are lower-case. `toJSON` masks the Authorization header so a
 * logged request never reveals the API key.
 */
export class HttpRequest {
  readonly method: string
  readonly url: string
  readonly headers: Map<string, string>
  readonly body: string

  constructor(method: string, url: string, headers: Map<string, string>, body: string = '') {
    this.method = method
    this.url = url
    this.headers = headers
    this.body = body
  }

  toJSON(): Record<string, Object> {
    const shown: Record<string, Object> = {}
    this.headers.forEach((value: string, name: string): void => {
      shown[name] = name === 'authorization' ? '[redacted]' : value
    })
    const out: Record<string, Object> = { 'method': this.method, 'url': this.url, 'headers': shown }
    return out
  }

  toString(): string {
    return `${this.method} ${this.url}`
  }
}

/**
 * Status and headers of a response. Header names are lower-case. `status` is 0 when the transport
 * learns it only at the end (HarmonyOS `requestInStream` resolves with the code); see `onEnd`.
 */
export class HttpResponseHead {
  readonly status: number
  readonly headers: Map<string, string>

  constructor(status: number, headers: Map<string, string>) {
    this.status = status
    this.headers = headers
  }

  header(name: string): string {
    const value = this.headers.get(name.toLowerCase())
    return value === undefined ? '' : value
  }
}

/**
 * Receives one exchange, push style (HarmonyOS `requestInStream` delivers events the same way).
 * Order: `onHead` once, then `onData` zero or more times with decoded UTF-8 text (a multi-byte
 * character is never split between calls), then exactly one of `onEnd` / `onError`. A transport
 * that knows the status only at the end passes status 0 to `onHead` and the real one to `onEnd`.
 * After the token fires the transport should stop calling the handler; calls that still arrive
 * are ignored by the consumer.
 */
export interface HttpStreamHandler {
  onHead(head: HttpResponseHead): void
  onData(text: string): void
  /** `finalStatus` reports the status when `onHead` had to give 0; 0 or absent otherwise. */
  onEnd(finalStatus?: number): void
  /** Network failures use the transport layer (retryable when a retry can help). */
  onError(error: ArkAgentError): void
}

/**
 * A streaming HTTP client. `send` starts the exchange and returns at once; everything else
 * arrives through `handler`. Cancelling `token` aborts the request.
 */
export interface HttpTransport {
  send(request: HttpRequest, handler: HttpStreamHandler, token: CancellationToken): void
}
