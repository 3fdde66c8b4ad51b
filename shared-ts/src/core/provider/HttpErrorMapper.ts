import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { HttpResponseHead } from '../transport/HttpTransport'
import { snippet } from './OpenAIWireFormat'

/**
 * Maps a non-2xx response to an error. Client errors (400/401/403/404/422 and other 4xx) are
 * final; 408/409/429/5xx are retryable. The message comes from the body's `error.message`
 * (OpenAI shape) when present, else a trimmed body. `redact` removes secrets a server may echo.
 */
export function httpError(providerId: string, head: HttpResponseHead, body: string, nowMs: number,
  redact: (text: string) => string): ArkAgentError {
  const status = head.status
  const detail = redact(errorDetail(body))
  const message = `${providerId} HTTP ${status}${detail.length > 0 ? ': ' + detail : ''}`
  const error = new ArkAgentError(ErrorLayer.provider, codeFor(status), message,
    isRetryableStatus(status) ? ErrorRetryability.retryable : ErrorRetryability.never)
  const retryAfter = parseRetryAfter(head.header('retry-after'), nowMs)
  if (retryAfter >= 0) {
    error.retryAfterMs = retryAfter
  }
  return error
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status <= 599)
}

function codeFor(status: number): string {
  switch (status) {
    case 400:
      return ErrorCodes.providerBadRequest
    case 401:
      return ErrorCodes.providerAuth
    case 403:
      return ErrorCodes.providerForbidden
    case 404:
      return ErrorCodes.providerNotFound
    case 422:
      return ErrorCodes.providerUnprocessable
    case 429:
      return ErrorCodes.providerRateLimited
    default:
      return status >= 500 && status <= 599 ? ErrorCodes.providerServerError : ErrorCodes.providerHttpError
  }
}

/** `error.message` of an OpenAI-shaped body (also `message` / string `error`), else the trimmed body. */
export function errorDetail(body: string): string {
  const trimmed = body.trim()
  if (trimmed.length === 0) {
    return ''
  }
  if (trimmed.charAt(0) === '{') {
    try {
      const parsed = JSON.parse(trimmed) as Record<string, Object>
      const error: Object | null | undefined = parsed['error']
      if (typeof error === 'string') {
        return snippet(error as string, 500)
      }
      if (error !== null && error !== undefined && typeof error === 'object') {
        const message: Object | null | undefined = (error as Record<string, Object>)['message']
        if (typeof message === 'string' && (message as string).length > 0) {
          return snippet(message as string, 500)
        }
      }
      const top: Object | null | undefined = parsed['message']
      if (typeof top === 'string' && (top as string).length > 0) {
        return snippet(top as string, 500)
      }
    } catch (e) {
      // Not JSON after all: fall through to the raw text.
    }
  }
  return snippet(trimmed, 300)
}

/**
 * `Retry-After` as milliseconds from now: delta-seconds or an HTTP date; -1 when absent or
 * unparsable. A date in the past means "now" (0).
 */
export function parseRetryAfter(value: string, nowMs: number): number {
  const text = value.trim()
  if (text.length === 0) {
    return -1
  }
  if (/^[0-9]+(\.[0-9]+)?$/.test(text)) {
    return Math.round(parseFloat(text) * 1000)
  }
  const at = Date.parse(text)
  if (isNaN(at)) {
    return -1
  }
  return at > nowMs ? at - nowMs : 0
}
