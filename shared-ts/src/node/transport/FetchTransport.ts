import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../../core/errors/ArkAgentError'
import { HttpRequest, HttpResponseHead, HttpStreamHandler, HttpTransport } from '../../core/transport/HttpTransport'
import { CancellationToken } from '../../core/util/Cancellation'
import { ConfigCheck } from '../../core/util/ConfigCheck'

/** Settings of a FetchTransport: the `fetch` function to use (default: the global one). */
export interface FetchTransportOptions {
  /** Defaults to the global `fetch` (Node 20+). */
  fetch?: typeof fetch
}

/**
 * `HttpTransport` over Node's fetch. Bytes are decoded with a streaming TextDecoder, so a
 * multi-byte UTF-8 character split across network chunks is delivered whole. Cancelling the
 * token aborts the request; nothing reaches the handler afterwards.
 */
export class FetchTransport implements HttpTransport {
  private readonly fetchImpl: typeof fetch

  constructor(options: FetchTransportOptions = {}) {
    if (options === null || typeof options !== 'object' || Array.isArray(options)) {
      throw ConfigCheck.invalid(`FetchTransport options must be an object; got ${ConfigCheck.show(options as Object)}`)
    }
    for (const name of Object.keys(options)) {
      if (name !== 'fetch') throw ConfigCheck.invalid(`FetchTransport: unknown option ${JSON.stringify(name.slice(0, 64))}; the only one is fetch`)
    }
    if (options.fetch !== undefined && typeof options.fetch !== 'function') {
      throw ConfigCheck.invalid(`FetchTransport fetch must be a function; got ${ConfigCheck.show(options.fetch as Object)}`)
    }
    this.fetchImpl = options.fetch ?? globalThis.fetch
  }

  send(request: HttpRequest, handler: HttpStreamHandler, token: CancellationToken): void {
    void this.run(request, handler, token)
  }

  private async run(request: HttpRequest, handler: HttpStreamHandler, token: CancellationToken): Promise<void> {
    try {
      new URL(request.url)
    } catch {
      handler.onError(new ArkAgentError(ErrorLayer.transport, ErrorCodes.transportInvalidUrl,
        `Invalid URL: ${request.url.slice(0, 200)}`, ErrorRetryability.never))
      return
    }
    if (token.isCancelled) return
    const controller = new AbortController()
    const off = token.onCancel(() => controller.abort())
    try {
      const response = await this.fetchImpl(request.url, {
        method: request.method,
        headers: Object.fromEntries(request.headers),
        body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body,
        signal: controller.signal,
      })
      if (token.isCancelled) return
      const headers = new Map<string, string>()
      response.headers.forEach((value, name) => headers.set(name.toLowerCase(), value))
      handler.onHead(new HttpResponseHead(response.status, headers))
      if (response.body === null) {
        handler.onEnd()
        return
      }
      const reader = response.body.getReader()
      const decoder = new TextDecoder('utf-8')
      for (;;) {
        const next = await reader.read()
        if (token.isCancelled) return
        if (next.done) break
        const text = decoder.decode(next.value, { stream: true })
        if (text.length > 0) handler.onData(text)
      }
      const tail = decoder.decode()
      if (tail.length > 0) handler.onData(tail)
      handler.onEnd()
    } catch (e) {
      if (!token.isCancelled) handler.onError(networkError(e))
    } finally {
      off()
    }
  }
}

/** Describes a fetch/undici failure (refused, reset, DNS, TLS, body terminated) as a retryable transport error. */
export function networkError(thrown: unknown): ArkAgentError {
  const parts: string[] = []
  let current: unknown = thrown
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code
    parts.push(code !== undefined ? `${current.message} [${code}]` : current.message)
    current = (current as Error & { cause?: unknown }).cause
  }
  const detail = parts.length > 0 ? parts.join(': ') : String(thrown)
  return new ArkAgentError(ErrorLayer.transport, ErrorCodes.transportNetwork, `Network error: ${detail}`,
    ErrorRetryability.retryable, thrown instanceof Error ? thrown : undefined)
}
