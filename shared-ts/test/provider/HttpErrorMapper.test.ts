import { describe, expect, it } from 'vitest'
import { ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { errorDetail, httpError, parseRetryAfter } from '../../src/core/provider/HttpErrorMapper'
import { RetryPolicy } from '../../src/core/provider/RetryPolicy'
import { HttpResponseHead } from '../../src/core/transport/HttpTransport'

const head = (status: number, headers: Record<string, string> = {}): HttpResponseHead =>
  new HttpResponseHead(status, new Map(Object.entries(headers)))
const noRedact = (t: string): string => t

describe('httpError', () => {
  it.each([
    [400, ErrorCodes.providerBadRequest], [401, ErrorCodes.providerAuth], [403, ErrorCodes.providerForbidden],
    [404, ErrorCodes.providerNotFound], [422, ErrorCodes.providerUnprocessable], [402, ErrorCodes.providerHttpError],
  ])('maps client error %i to %s, never retryable', (status, code) => {
    const error = httpError('deepseek', head(status), '', 0, noRedact)
    expect(error.layer).toBe(ErrorLayer.provider)
    expect(error.code).toBe(code)
    expect(error.isRetryable()).toBe(false)
  })

  it.each([
    [408, ErrorCodes.providerHttpError], [409, ErrorCodes.providerHttpError], [429, ErrorCodes.providerRateLimited],
    [500, ErrorCodes.providerServerError], [503, ErrorCodes.providerServerError],
  ])('maps %i to a retryable %s', (status, code) => {
    const error = httpError('zhipu', head(status), '', 0, noRedact)
    expect(error.code).toBe(code)
    expect(error.isRetryable()).toBe(true)
  })

  it('takes the message from an OpenAI-shaped error body', () => {
    const error = httpError('deepseek', head(400), '{"error":{"message":"Invalid model","type":"invalid_request_error"}}', 0, noRedact)
    expect(error.message).toBe('deepseek HTTP 400 (invalid_request_error): Invalid model')
  })

  it('records Retry-After on the error', () => {
    expect(httpError('x', head(429, { 'retry-after': '7' }), '', 0, noRedact).retryAfterMs).toBe(7000)
  })
})

describe('errorDetail', () => {
  it('falls back to a top-level message, a string error, then the trimmed raw body', () => {
    expect(errorDetail('{"message":"top"}')).toBe('top')
    expect(errorDetail('{"error":"plain"}')).toBe('plain')
    expect(errorDetail('<html>Bad Gateway</html>')).toBe('<html>Bad Gateway</html>')
    expect(errorDetail('{broken')).toBe('{broken')
  })
})

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-06-01T12:00:00Z')
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3000)
    expect(parseRetryAfter('1.5', now)).toBe(1500)
  })
  it('reads an HTTP date relative to the injected clock', () => {
    expect(parseRetryAfter('Sun, 01 Jun 2025 12:00:05 GMT', now)).toBe(5000)
    expect(parseRetryAfter('Sun, 01 Jun 2025 11:00:00 GMT', now)).toBe(0)
  })
  it('returns -1 when absent or unparsable', () => {
    expect(parseRetryAfter('', now)).toBe(-1)
    expect(parseRetryAfter('soon', now)).toBe(-1)
  })
})

describe('RetryPolicy', () => {
  it('backs off exponentially with jitter inside [ceiling/2, ceiling]', () => {
    const low = new RetryPolicy(5, 100, 10000, 60000, () => 0)
    const high = new RetryPolicy(5, 100, 10000, 60000, () => 0.999999)
    expect([0, 1, 2, 3].map((r) => low.delayBeforeRetry(r))).toEqual([50, 100, 200, 400])
    expect([0, 1, 2, 3].map((r) => high.delayBeforeRetry(r))).toEqual([100, 200, 400, 800])
  })
  it('caps the backoff at maxDelayMs', () => {
    expect(new RetryPolicy(20, 100, 1000, 60000, () => 0.999999).delayBeforeRetry(10)).toBe(1000)
  })
  it('honours Retry-After exactly, and refuses one longer than maxRetryAfterMs', () => {
    const policy = new RetryPolicy(3, 100, 1000, 30000)
    expect(policy.delayBeforeRetry(0, 2500)).toBe(2500)
    expect(policy.delayBeforeRetry(0, 31000)).toBe(-1)
  })
  it('stops after maxRetries', () => {
    const policy = new RetryPolicy(2)
    expect(policy.delayBeforeRetry(1)).toBeGreaterThanOrEqual(0)
    expect(policy.delayBeforeRetry(2)).toBe(-1)
    expect(RetryPolicy.none().delayBeforeRetry(0)).toBe(-1)
  })
})
