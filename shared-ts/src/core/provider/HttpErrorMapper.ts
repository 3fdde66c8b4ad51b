import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { HttpResponseHead } from '../transport/HttpTransport'
import { snippet } from './OpenAIWireFormat'
import { CommonErrorRules, ErrorRule, VendorErrorBody } from './VendorErrors'

/**
 * Maps a non-2xx response to an error. The vendor's error table decides first (its rows match
 * the status and the body's code or type: Zhipu reports an exhausted balance as HTTP 429 code
 * 1113, which must not be retried), then the rows every vendor shares, then the status alone:
 * 400/401/403/404/422 and other 4xx are final; 408/409/429/5xx are retryable. The message names the
 * vendor's code and carries the body's `error.message` (or a trimmed body). `redact` removes
 * secrets a server may echo; it runs on every text taken from the body before any of it is cut
 * short, so a cut can never leave a piece of a secret that the redactor no longer recognises.
 */
export function httpError(providerId: string, head: HttpResponseHead, body: string, nowMs: number,
  redact: (text: string) => string, rules: ErrorRule[] = []): ArkAgentError {
  const status = head.status
  const vendor = VendorErrorBody.parse(body)
  const row = matchRule(rules, status, vendor)
  const detail = errorDetail(body, redact)
  const message = `${providerId} HTTP ${status}${describeVendor(vendor, row, redact)}${detail.length > 0 ? ': ' + detail : ''}`
  const retryable = row !== undefined ? row.retryable : isRetryableStatus(status)
  const error = new ArkAgentError(ErrorLayer.provider, row !== undefined ? row.errorCode : codeFor(status), message,
    retryable ? ErrorRetryability.retryable : ErrorRetryability.never)
  const retryAfter = parseRetryAfter(head.header('retry-after'), nowMs)
  if (retryAfter >= 0) {
    error.retryAfterMs = retryAfter
  }
  return error
}

/**
 * An error a server reports inside a 200 stream (`data: {"error": ...}` or `event: error`): mapped
 * by the same tables (rows for any status), else provider_error, not retried.
 */
export function streamError(providerId: string, vendor: VendorErrorBody, raw: string,
  redact: (text: string) => string, rules: ErrorRule[] = []): ArkAgentError {
  const row = matchRule(rules, 200, vendor)
  const detail = snippet(redact(vendor.message.length > 0 ? vendor.message : raw))
  return new ArkAgentError(ErrorLayer.provider, row !== undefined ? row.errorCode : ErrorCodes.providerError,
    `${providerId} reported an error mid-stream${describeVendor(vendor, row, redact)}: ${detail}`,
    row !== undefined && row.retryable ? ErrorRetryability.retryable : ErrorRetryability.never)
}

function matchRule(rules: ErrorRule[], status: number, vendor: VendorErrorBody): ErrorRule | undefined {
  const own = ErrorRule.find(rules, status, vendor)
  return own !== undefined ? own : ErrorRule.find(CommonErrorRules.rows, status, vendor)
}

/** " (1113: account in arrears)" — the vendor's code and what it means, when known. */
function describeVendor(vendor: VendorErrorBody, row: ErrorRule | undefined, redact: (text: string) => string): string {
  const code = redact(vendor.code.length > 0 ? vendor.code : vendor.type)
  if (code.length === 0 && row === undefined) {
    return ''
  }
  const parts: string[] = []
  if (code.length > 0) {
    parts.push(snippet(code, 60))
  }
  if (row !== undefined) {
    parts.push(row.meaning)
  }
  return ` (${parts.join(': ')})`
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

/**
 * `error.message` of an OpenAI-shaped body (also `message` / string `error`), else the trimmed body;
 * `redact` runs on the text before it is cut to length.
 */
export function errorDetail(body: string, redact: (text: string) => string = (t: string): string => t): string {
  const trimmed = body.trim()
  if (trimmed.length === 0) {
    return ''
  }
  if (trimmed.charAt(0) === '{') {
    try {
      const parsed = JSON.parse(trimmed) as Record<string, Object>
      const error: Object | null | undefined = parsed['error']
      if (typeof error === 'string') {
        return snippet(redact(error as string), 500)
      }
      if (error !== null && error !== undefined && typeof error === 'object') {
        const message: Object | null | undefined = (error as Record<string, Object>)['message']
        if (typeof message === 'string' && (message as string).length > 0) {
          return snippet(redact(message as string), 500)
        }
      }
      const top: Object | null | undefined = parsed['message']
      if (typeof top === 'string' && (top as string).length > 0) {
        return snippet(redact(top as string), 500)
      }
    } catch (e) {
      // Not JSON after all: fall through to the raw text.
    }
  }
  return snippet(redact(trimmed), 300)
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
