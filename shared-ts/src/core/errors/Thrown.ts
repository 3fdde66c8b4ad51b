import { SecretVault } from '../secrets/SecretVault'

/** Longest description kept of a thrown value (a tool can throw a megabyte string). */
const MAX_DESCRIPTION: number = 2000

/**
 * Turns anything a tool or hook throws into text without ever throwing itself. Plain JavaScript
 * can throw values whose conversion throws: `Object.create(null)` has no toString, an object's
 * toString or message getter can throw, a Proxy can throw from every trap (instanceof included).
 */
export class Thrown {
  /** A readable one-line description: an Error's message, a string, JSON of plain data, or a fallback. */
  static describe(thrown: Object | null | undefined): string {
    // Redacted before it is cut: a cut must never leave a piece of a secret the vault cannot recognise.
    return Thrown.cut(SecretVault.redact(Thrown.describeUncut(thrown, 0)))
  }

  /** The description before redaction and cutting (to tell whether a value carries a secret). */
  static describeRaw(thrown: Object | null | undefined): string {
    return Thrown.describeUncut(thrown, 0)
  }

  /** `thrown` as an Error when it safely is one (a throwing instanceof counts as no). */
  static asError(thrown: Object | null | undefined): Error | undefined {
    try {
      return thrown instanceof Error ? thrown as Error : undefined
    } catch (e) {
      return undefined
    }
  }

  private static describeUncut(thrown: Object | null | undefined, depth: number): string {
    if (thrown === undefined) {
      return 'undefined'
    }
    if (thrown === null) {
      return 'null'
    }
    const kind = typeof thrown
    if (kind === 'string') {
      return (thrown as string).length > 0 ? thrown as string : 'an empty string'
    }
    if (kind === 'number' || kind === 'boolean' || kind === 'bigint') {
      return Thrown.tryString(thrown)
    }
    const error = Thrown.asError(thrown)
    if (error !== undefined) {
      const message = Thrown.tryMessage(error)
      if (typeof message === 'string') {
        return message.length > 0 ? message : Thrown.tryString(error)
      }
      if (message !== undefined && message !== null && depth < 2) {
        // An Error whose message is not text (plain JS allows it): describe that value instead.
        return Thrown.describeUncut(message, depth + 1)
      }
    }
    if (kind === 'object') {
      const json = Thrown.tryJson(thrown)
      if (json !== undefined && json !== '{}') {
        return json
      }
    }
    const text = Thrown.tryString(thrown)
    if (text.length > 0 && text !== '[object Object]') {
      return text
    }
    const keys = kind === 'object' ? Thrown.tryKeys(thrown) : ''
    return keys.length > 0 ? `a thrown object with keys ${keys}` : `a thrown ${kind}`
  }

  private static tryKeys(value: Object): string {
    try {
      const keys = Object.keys(value)
      return keys.slice(0, 10).join(', ')
    } catch (e) {
      return ''
    }
  }

  /** The error's message as it is (any type), or undefined when reading it throws. */
  private static tryMessage(error: Error): Object | null | undefined {
    try {
      return error.message as Object | null | undefined
    } catch (e) {
      return undefined
    }
  }

  private static tryJson(value: Object): string | undefined {
    try {
      const text = JSON.stringify(value)
      return typeof text === 'string' ? text : undefined
    } catch (e) {
      return undefined
    }
  }

  private static tryString(value: Object): string {
    try {
      const text = String(value)
      return typeof text === 'string' ? text : ''
    } catch (e) {
      return ''
    }
  }

  private static cut(text: string): string {
    return text.length > MAX_DESCRIPTION ? text.substring(0, MAX_DESCRIPTION) + '…' : text
  }
}
