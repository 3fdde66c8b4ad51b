// Credentials of a URL server: header values sent to its origin only, and an OAuth provider whose
// every token and client secret is registered as a secret before the SDK uses it.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { SecretVault } from '../../core/secrets/SecretVault'

/** Registers the secrets of what an OAuth provider hands out or is given: tokens, a client secret, a PKCE verifier. */
export function registerOAuth(value: unknown): void {
  if (typeof value === 'string') SecretVault.register(value)
  if (value === null || typeof value !== 'object') return
  for (const key of ['access_token', 'refresh_token', 'id_token', 'client_secret', 'registration_access_token']) {
    const v = (value as Record<string, unknown>)[key]
    if (typeof v === 'string') SecretVault.register(v)
  }
}

/** `answer` (a value or a promise of one), its secrets registered before anyone gets it. */
function registered(answer: unknown): unknown {
  if (answer !== null && typeof answer === 'object' && typeof (answer as { then?: unknown }).then === 'function') {
    return (answer as Promise<unknown>).then((v) => { registerOAuth(v); return v })
  }
  registerOAuth(answer)
  return answer
}

const ANSWERS_SECRET = ['tokens', 'clientInformation', 'codeVerifier']
const GIVEN_SECRET = ['saveTokens', 'saveClientInformation', 'saveCodeVerifier']

/**
 * The provider as the SDK sees it: every member forwarded unchanged (methods called on the provider
 * itself, so private fields work), with the secrets in what it hands out or is given registered first.
 * The target is a blank object, so a frozen provider breaks no Proxy invariant.
 */
export function guarded(provider: OAuthClientProvider): OAuthClientProvider {
  return new Proxy({} as OAuthClientProvider, {
    get(_, key) {
      const member = Reflect.get(provider, key) as unknown
      if (typeof member !== 'function') return member
      const fn = member as (...args: unknown[]) => unknown
      if (typeof key === 'string' && GIVEN_SECRET.includes(key)) {
        return (...args: unknown[]) => { registerOAuth(args[0]); return fn.apply(provider, args) }
      }
      if (typeof key === 'string' && ANSWERS_SECRET.includes(key)) return (...args: unknown[]) => registered(fn.apply(provider, args))
      return fn.bind(provider)
    },
    has: (_, key) => Reflect.has(provider, key),
  })
}

/**
 * A fetch that adds `headers` to requests to `origin` only. Not `requestInit.headers`: the SDK adds
 * those to its OAuth requests too, which may go to another origin (the authorization server).
 */
export function fetchWith(headers: Record<string, string>, origin: string): FetchLike {
  return (url, init) => {
    let same = false
    try {
      same = new URL(String(url)).origin === origin
    } catch {
      same = false
    }
    if (!same) return fetch(url, init)
    const merged = new Headers(init?.headers)
    for (const [k, v] of Object.entries(headers)) merged.set(k, v)
    return fetch(url, { ...init, headers: merged })
  }
}


/** A copy of `headers` whose values (and their trimmed forms) are registered as secrets. */
export function registeredHeaders(given: Record<string, string> | undefined): Record<string, string> {
  const headers: Record<string, string> = { ...given }
  for (const [k, v] of Object.entries(headers)) {
    SecretVault.registerHeader(k, v)
    SecretVault.registerHeader(k, v.trim())
  }
  return headers
}

/** The fetch of a URL server: its headers to its origin only (none: plain fetch). */
export function urlFetch(headers: Record<string, string>, endpoint: URL): FetchLike {
  return Object.keys(headers).length > 0 ? fetchWith(headers, endpoint.origin) : (url, init) => fetch(url, init)
}
