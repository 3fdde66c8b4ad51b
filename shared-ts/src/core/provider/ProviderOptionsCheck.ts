import { SecretVault } from '../secrets/SecretVault'
import { ConfigCheck } from '../util/ConfigCheck'
import { RetryPolicy } from './RetryPolicy'
import { ErrorRule } from './VendorErrors'
import { ModelFamily, WireProfile } from './WireProfile'

/** Headers the provider or the HTTP stack owns; an app setting one would break framing or routing. */
const RESERVED_HEADERS: string[] = ['content-length', 'transfer-encoding', 'host', 'connection', 'content-type']

/** RFC 9110 token characters (header names). */
const TOKEN: RegExp = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/**
 * Checks of an OpenAI-compatible endpoint's settings, made where they are given (the provider's
 * constructor). Every error is invalid_config naming the option; none echoes a key, a header value
 * or a URL's credentials.
 */
export class ProviderOptionsCheck {
  /**
   * The base URL without trailing slashes: http(s), a host, an optional port and path; no
   * credentials (`user:pass@`: pass the key as apiKey), query, fragment, whitespace or control characters.
   */
  static baseUrl(value: string): string {
    if (typeof value !== 'string') {
      throw ConfigCheck.invalid(`baseUrl must be an http(s) URL string; got ${ConfigCheck.show(value)}`)
    }
    const base = value.trim().replace(/\/+$/, '')
    const m = /^(https?):\/\/([^/?#]*)(.*)$/i.exec(base)
    if (m === null) {
      throw ConfigCheck.invalid('baseUrl must be an http(s) URL such as https://api.deepseek.com (it did not start with http:// or https://)')
    }
    const authority = m[2]
    if (authority.indexOf('@') >= 0) {
      throw ConfigCheck.invalid('baseUrl must not carry credentials (user:password@host); pass the key as apiKey or a header')
    }
    if (!/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.\-_~%]+)(:[0-9]{1,5})?$/.test(authority)) {
      throw ConfigCheck.invalid(`baseUrl has no valid host after ${m[1].toLowerCase()}://`)
    }
    const port = /:([0-9]{1,5})$/.exec(authority)
    if (port !== null && !authority.endsWith(']') && (Number(port[1]) < 1 || Number(port[1]) > 65535)) {
      throw ConfigCheck.invalid(`baseUrl port must be 1 to 65535; got ${port[1]}`)
    }
    const rest = m[3]
    if (rest.indexOf('?') >= 0 || rest.indexOf('#') >= 0) {
      throw ConfigCheck.invalid('baseUrl must not have a query or fragment: /chat/completions is appended to it')
    }
    if (/[\u0000-\u0020\u007f-\u009f]/.test(base)) {
      throw ConfigCheck.invalid('baseUrl must not contain whitespace or control characters')
    }
    return base
  }

  /** The key goes into a header: printable Latin-1 only (no CR/LF that could add headers), at most 4,096 characters. */
  static apiKey(value: string | undefined): string {
    if (value === undefined) {
      return ''
    }
    if (typeof value !== 'string') {
      throw ConfigCheck.invalid(`apiKey must be a string; got ${ConfigCheck.show(value)}`)
    }
    if (value.length > 4096) {
      throw ConfigCheck.invalid(`apiKey must be at most 4096 characters; got ${value.length}`)
    }
    if (!/^[\u0021-\u007e\u00a0-\u00ff]*$/.test(value)) {
      throw ConfigCheck.invalid('apiKey must be printable ASCII or Latin-1 without spaces or control characters ' +
        '(it is sent in the Authorization header); the value given is not shown')
    }
    return value
  }

  static headers(headers: Record<string, string> | undefined, hasApiKey: boolean): Map<string, string> {
    const out = new Map<string, string>()
    if (headers === undefined) {
      return out
    }
    if (headers === null || typeof headers !== 'object' || headers instanceof Array) {
      throw ConfigCheck.invalid(`headers must be an object of header names to string values; got ${ConfigCheck.show(headers)}`)
    }
    const names = Object.keys(headers)
    for (let i = 0; i < names.length; i++) {
      const name = names[i].toLowerCase()
      const shown = JSON.stringify(names[i].slice(0, 64))
      if (!TOKEN.test(name) || name.length > 256) {
        throw ConfigCheck.invalid(`headers: ${shown} is not a valid header name`)
      }
      if (RESERVED_HEADERS.indexOf(name) >= 0) {
        throw ConfigCheck.invalid(`headers: ${shown} is set by the provider or the HTTP stack and cannot be overridden`)
      }
      if (name === 'authorization' && hasApiKey) {
        throw ConfigCheck.invalid('headers: authorization is set from apiKey; give one or the other')
      }
      if (out.has(name)) {
        throw ConfigCheck.invalid(`headers: ${shown} is given twice (names are case-insensitive)`)
      }
      const value = headers[names[i]]
      if (typeof value !== 'string' || !/^[\u0020-\u007e\u0080-\u00ff\t]*$/.test(value) || value.length > 8192) {
        throw ConfigCheck.invalid(`headers: the value of ${shown} must be a string of printable Latin-1 without ` +
          'CR, LF or NUL, at most 8192 characters; the value given is not shown')
      }
      out.set(name, value)
      // Any header but a few known ones may carry a credential (api-key, cookie, a tenant token).
      SecretVault.registerHeader(name, value)
    }
    return out
  }

  static extraBody(body: Record<string, Object> | undefined): Record<string, Object> {
    if (body === undefined) {
      const empty: Record<string, Object> = {}
      return empty
    }
    if (body === null || typeof body !== 'object' || body instanceof Array) {
      throw ConfigCheck.invalid(`extraBody must be an object of top-level body fields; got ${ConfigCheck.show(body)}`)
    }
    let text = ''
    try {
      text = JSON.stringify(body)
    } catch (e) {
      throw ConfigCheck.invalid('extraBody must be JSON (it could not be serialised: a cycle or a BigInt)')
    }
    // A copy: later changes to the caller's object do not reach requests.
    return JSON.parse(text) as Record<string, Object>
  }

  static retry(retry: RetryPolicy | undefined): RetryPolicy {
    if (retry === undefined) {
      return new RetryPolicy()
    }
    if (!(retry instanceof RetryPolicy)) {
      throw ConfigCheck.invalid(`retry must be a RetryPolicy; got ${ConfigCheck.show(retry)}`)
    }
    return retry
  }

  static profile(profile: WireProfile | undefined): WireProfile {
    if (profile === undefined) {
      return WireProfile.generic
    }
    if (!(profile instanceof WireProfile)) {
      throw ConfigCheck.invalid(`profile must be a WireProfile; got ${ConfigCheck.show(profile)}`)
    }
    for (let i = 0; i < profile.families.length; i++) {
      const family = profile.families[i]
      if (!(family instanceof ModelFamily) || !(family.profile instanceof WireProfile)) {
        throw ConfigCheck.invalid(`profile.families[${i}] must be a ModelFamily with a WireProfile; got ${ConfigCheck.show(family)}`)
      }
    }
    return profile
  }

  static errorRules(rules: ErrorRule[] | undefined): ErrorRule[] {
    if (rules === undefined) {
      return []
    }
    if (!(rules instanceof Array)) {
      throw ConfigCheck.invalid(`errorRules must be an array of ErrorRule; got ${ConfigCheck.show(rules)}`)
    }
    for (let i = 0; i < rules.length; i++) {
      if (!(rules[i] instanceof ErrorRule)) {
        throw ConfigCheck.invalid(`errorRules[${i}] must be an ErrorRule; got ${ConfigCheck.show(rules[i])}`)
      }
    }
    return rules.slice()
  }

  /** An object given where an interface is expected (transport, clock): present and an object. */
  static present(value: Object | null | undefined, what: string): void {
    if (value === undefined || value === null || (typeof value !== 'object' && typeof value !== 'function')) {
      throw ConfigCheck.invalid(`${what} is required (an object); got ${ConfigCheck.show(value)}`)
    }
  }
}
