// What the SDK throws, read safely (a Proxy can throw from instanceof) and described without any
// secret: the chain of causes, a cause safe to keep, and whether trying again can help.
import { inspect } from 'node:util'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import {
  OAuthError, ServerError, TemporarilyUnavailableError, TooManyRequestsError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { ErrorRetryability } from '../../core/errors/ArkAgentError'
import { Thrown } from '../../core/errors/Thrown'
import { SecretVault } from '../../core/secrets/SecretVault'

/** `e instanceof type`, false when asking throws (a Proxy). */
export function is(e: unknown, type: Function): boolean {
  try {
    return e instanceof type
  } catch {
    return false
  }
}

/** A JSON-RPC error answer: the server is alive and said no; the connection stays. */
export function isAnswer(e: unknown): boolean {
  return is(e, McpError) && (e as McpError).code !== ErrorCode.ConnectionClosed && (e as McpError).code !== ErrorCode.RequestTimeout
}

/** What was thrown and what caused it, one line, redacted (`fetch failed: connect ECONNREFUSED ...`). */
export function describeChain(e: unknown): string {
  const parts: string[] = []
  let at: unknown = e
  for (let depth = 0; depth < 3 && at !== undefined && at !== null; depth++) {
    const text = Thrown.describe(at as Object)
    if (!parts.includes(text)) parts.push(text)
    const error = Thrown.asError(at as Object)
    try {
      at = error !== undefined ? error.cause : undefined
    } catch {
      at = undefined
    }
  }
  return parts.join(': ')
}

/**
 * The raw error, kept as a cause only when nothing a logger would print of it (message, stack,
 * fields such as an McpError's `data`, its causes) holds a secret; else a plain Error with its redacted text.
 */
export function safeCause(e: unknown): Error | undefined {
  const error = Thrown.asError(e as Object)
  if (error === undefined || !SecretVault.active) return error
  let shown: string | undefined
  try {
    shown = inspect(error, { depth: 20 })
  } catch {
    shown = undefined
  }
  return shown !== undefined && !SecretVault.leaks(shown) ? error : new Error(Thrown.describe(error))
}

/** Node's network error codes: the server could not be reached, or the connection broke. */
const NETWORK_CODES = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_SOCKET']

/**
 * A refused or missing credential (401/403, an OAuth error, authorization that needs the user) waits
 * for a change; a lost connection, a network failure or an overloaded server may pass; anything else
 * (a JSON-RPC answer, a bad request, a provider that cannot do the flow) is final.
 */
export function retryabilityOf(e: unknown, status: number | undefined): ErrorRetryability {
  if (is(e, ServerError) || is(e, TemporarilyUnavailableError) || is(e, TooManyRequestsError)) return ErrorRetryability.retryable
  if (is(e, UnauthorizedError) || is(e, OAuthError) || status === 401 || status === 403) return ErrorRetryability.afterAction
  if (is(e, McpError)) return isAnswer(e) ? ErrorRetryability.never : ErrorRetryability.retryable
  if (status !== undefined) return status >= 500 || status === 408 || status === 429 ? ErrorRetryability.retryable : ErrorRetryability.never
  let at: unknown = e
  for (let depth = 0; depth < 3 && at !== null && typeof at === 'object'; depth++) {
    try {
      const code = (at as { code?: unknown }).code
      if (typeof code === 'string' && NETWORK_CODES.includes(code)) return ErrorRetryability.retryable
      // undici's fetch: a TypeError 'fetch failed' whose cause says why.
      if (is(at, TypeError) && (at as Error).message === 'fetch failed') return ErrorRetryability.retryable
      at = (at as { cause?: unknown }).cause
    } catch {
      break
    }
  }
  return ErrorRetryability.never
}

