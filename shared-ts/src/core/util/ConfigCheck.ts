import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'

/**
 * Settings are checked where they are given: a bad value is an invalid_config error naming the
 * setting, never a silent default, a clamp or a failure later. Values from plain JavaScript may be
 * of any type, so every check starts with `typeof`.
 */
export class ConfigCheck {
  /**
   * The longest delay a timer can hold on both platforms (2^31 − 1 ms, about 24.8 days): Node runs a
   * longer one after 1 ms, so a timeout past it would fire at once, or an interval every millisecond.
   */
  static readonly maxTimerMs: number = 2147483647

  /** A timeout: a whole or fractional number of ms from 0 (disables the bound) to maxTimerMs. */
  static timeoutMs(ms: number, what: string): number {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > ConfigCheck.maxTimerMs) {
      throw ConfigCheck.invalid(`${what} must be a number of milliseconds from 0 (disables it) to ` +
        `${ConfigCheck.maxTimerMs} (what a timer can hold); got ${ConfigCheck.show(ms)}`)
    }
    return ms
  }

  /** A delay or period that a timer will wait: a number of ms from `min` to maxTimerMs. */
  static delayMs(ms: number, min: number, what: string): number {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < min || ms > ConfigCheck.maxTimerMs) {
      throw ConfigCheck.invalid(`${what} must be a number of milliseconds from ${min} to ${ConfigCheck.maxTimerMs} ` +
        `(what a timer can hold); got ${ConfigCheck.show(ms)}`)
    }
    return ms
  }

  /** A count such as maxTurns: a safe integer of at least `min` (and at most `max` when given). */
  static count(n: number, min: number, what: string, max: number = Number.MAX_SAFE_INTEGER): number {
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min || n > max) {
      const range = max < Number.MAX_SAFE_INTEGER ? `from ${min} to ${max}` : `of at least ${min}`
      throw ConfigCheck.invalid(`${what} must be an integer ${range}; got ${ConfigCheck.show(n)}`)
    }
    return n
  }

  /** A finite number in [min, max]; `openMin` excludes min itself. */
  static number(n: number, min: number, max: number, what: string, openMin: boolean = false): number {
    const ok = typeof n === 'number' && Number.isFinite(n) && (openMin ? n > min : n >= min) && n <= max
    if (!ok) {
      throw ConfigCheck.invalid(`${what} must be a number in ${openMin ? '(' : '['}${min}, ${max}]; got ${ConfigCheck.show(n)}`)
    }
    return n
  }

  static bool(b: boolean, what: string): boolean {
    if (typeof b !== 'boolean') {
      throw ConfigCheck.invalid(`${what} must be true or false; got ${ConfigCheck.show(b)}`)
    }
    return b
  }

  /**
   * Text: a string of well-formed UTF-16 (no lone surrogate) without NUL, at most `maxChars` long,
   * and not empty when `minChars` is 1. Such text survives every store, header and log it goes to.
   */
  static text(s: string, what: string, minChars: number = 0, maxChars: number = 1000000): string {
    if (typeof s !== 'string') {
      throw ConfigCheck.invalid(`${what} must be a string; got ${ConfigCheck.show(s)}`)
    }
    if (s.length < minChars || s.length > maxChars) {
      throw ConfigCheck.invalid(`${what} must be ${minChars > 0 ? `${minChars} to ` : 'at most '}${maxChars} characters long; ` +
        `got ${s.length}`)
    }
    const bad = ConfigCheck.badCharAt(s)
    if (bad >= 0) {
      throw ConfigCheck.invalid(`${what} has ${s.charCodeAt(bad) === 0 ? 'a NUL character' : 'a lone surrogate'} at ` +
        `index ${bad}; it must be well-formed text without NUL`)
    }
    return s
  }

  /**
   * An object given where an interface is expected (a provider, a storage, a transport): present,
   * an object, and answering each of `methods` with a function. Plain JavaScript can pass anything here.
   */
  static implementing(value: Object | null | undefined, methods: string[], what: string): void {
    if (value === undefined || value === null || typeof value !== 'object' || value instanceof Array) {
      throw ConfigCheck.invalid(`${what} must be an object with ${methods.join(', ')}; got ${ConfigCheck.show(value)}`)
    }
    for (let i = 0; i < methods.length; i++) {
      const m = Reflect.get(value, methods[i]) as Object | undefined
      if (typeof m !== 'function') {
        throw ConfigCheck.invalid(`${what} must be an object with ${methods.join(', ')}; it has no ${methods[i]}()`)
      }
    }
  }

  /** Index of the first NUL or lone surrogate, or -1. */
  static badCharAt(s: string): number {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i)
      if (c === 0) {
        return i
      }
      if (c >= 0xD800 && c <= 0xDBFF) {
        const next = i + 1 < s.length ? s.charCodeAt(i + 1) : 0
        if (next < 0xDC00 || next > 0xDFFF) {
          return i
        }
        i++
      } else if (c >= 0xDC00 && c <= 0xDFFF) {
        return i
      }
    }
    return -1
  }

  /**
   * Refuses a name in `options` that is not in `known`: from plain JavaScript (or a cast) a misspelt
   * option (`baseURL`, `approvalPolicyy`) would otherwise be ignored and its setting silently lost.
   */
  static knownNames(options: Object, known: string[], what: string): void {
    const names = Object.keys(options)
    for (let i = 0; i < names.length; i++) {
      if (known.indexOf(names[i]) < 0) {
        throw ConfigCheck.invalid(`${what}: unknown option ${JSON.stringify(names[i].slice(0, 64))}; known options are ` +
          known.join(', '))
      }
    }
  }

  /** What a bad value was, short and without echoing long text (it may hold a secret). */
  static show(v: Object | null | undefined): string {
    if (v === undefined) {
      return 'undefined'
    }
    if (v === null) {
      return 'null'
    }
    if (typeof v === 'number') {
      return String(v)
    }
    if (typeof v === 'boolean') {
      return String(v)
    }
    if (typeof v === 'string') {
      return `a string of ${(v as string).length} characters`
    }
    if (v instanceof Array) {
      return 'an array'
    }
    return `a value of type ${typeof v}`
  }

  static invalid(message: string): ArkAgentError {
    return new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, message, ErrorRetryability.never)
  }
}
