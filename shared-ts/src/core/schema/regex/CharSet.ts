// Code point sets for the linear-time regex engine: sorted ranges plus Unicode property escapes.

/** The largest Unicode code point. */
export const MAX_CODE_POINT: number = 0x10ffff

/**
 * A Unicode property escape (`\p{…}` / `\P{…}`), decided one code point at a time by the host's
 * own `RegExp` (`^\p{…}$` with the `u` flag against a single code point: constant time, so it
 * cannot backtrack). Its answers are therefore exactly the host RegExp's.
 */
export class UnicodeProperty {
  /** The escape as written in a pattern, e.g. `\p{Script=Greek}`. */
  readonly text: string
  private readonly matcher: RegExp
  /** 0 = unknown, 1 = member, 2 = not a member (ASCII only; the rest asks the matcher). */
  private readonly ascii: number[] = []

  constructor(text: string, matcher: RegExp) {
    this.text = text
    this.matcher = matcher
    for (let i = 0; i < 128; i++) {
      this.ascii.push(0)
    }
  }

  has(cp: number): boolean {
    if (cp < 128) {
      const known = this.ascii[cp]
      if (known !== 0) {
        return known === 1
      }
      const result = this.matcher.test(String.fromCodePoint(cp))
      this.ascii[cp] = result ? 1 : 2
      return result
    }
    return this.matcher.test(String.fromCodePoint(cp))
  }
}

/** An immutable set of code points: a union of ranges and property escapes, optionally negated. */
export class CharSet {
  /** Flat, sorted, non-overlapping, non-adjacent [lo0, hi0, lo1, hi1, …] (inclusive). */
  readonly ranges: number[]
  readonly properties: UnicodeProperty[]
  readonly negated: boolean

  constructor(ranges: number[], properties: UnicodeProperty[], negated: boolean) {
    this.ranges = ranges
    this.properties = properties
    this.negated = negated
  }

  has(cp: number): boolean {
    let member = CharSet.rangesContain(this.ranges, cp)
    for (let i = 0; !member && i < this.properties.length; i++) {
      member = this.properties[i].has(cp)
    }
    return member !== this.negated
  }

  static rangesContain(ranges: number[], cp: number): boolean {
    let lo = 0
    let hi = ranges.length / 2 - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (cp < ranges[2 * mid]) {
        hi = mid - 1
      } else if (cp > ranges[2 * mid + 1]) {
        lo = mid + 1
      } else {
        return true
      }
    }
    return false
  }

  /** Sorts and merges flat [lo, hi, …] pairs into canonical form. */
  static normalize(pairs: number[]): number[] {
    const order: number[] = []
    for (let i = 0; i < pairs.length; i += 2) {
      order.push(i)
    }
    order.sort((a: number, b: number): number => pairs[a] - pairs[b])
    const out: number[] = []
    for (let k = 0; k < order.length; k++) {
      const lo = pairs[order[k]]
      const hi = pairs[order[k] + 1]
      const n = out.length
      if (n > 0 && lo <= out[n - 1] + 1) {
        if (hi > out[n - 1]) {
          out[n - 1] = hi
        }
      } else {
        out.push(lo)
        out.push(hi)
      }
    }
    return out
  }

  /** The complement of canonical ranges within [0, MAX_CODE_POINT]. */
  static complement(ranges: number[]): number[] {
    const out: number[] = []
    let next = 0
    for (let i = 0; i < ranges.length; i += 2) {
      if (ranges[i] > next) {
        out.push(next)
        out.push(ranges[i] - 1)
      }
      next = ranges[i + 1] + 1
    }
    if (next <= MAX_CODE_POINT) {
      out.push(next)
      out.push(MAX_CODE_POINT)
    }
    return out
  }
}

/** The predefined classes of ECMAScript (no `i` flag, so \w is ASCII only). */
export class CharClasses {
  static readonly digit: number[] = [0x30, 0x39]
  static readonly word: number[] = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a]
  /** WhiteSpace (TAB VT FF SP NBSP ZWNBSP and Unicode Zs) plus LineTerminator. */
  static readonly space: number[] = [
    0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029,
    0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff,
  ]
  /** LineTerminator: what `.` does not match without the `s` flag. */
  static readonly lineTerminator: number[] = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029]

  static isWord(cp: number): boolean {
    return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x30 && cp <= 0x39) || cp === 0x5f
  }

  /** The ranges of \d \D \s \S \w \W for the escape letter `letter` (a code point). */
  static escapeRanges(letter: number): number[] {
    const lower = letter | 0x20
    const base = lower === 0x64 ? CharClasses.digit : lower === 0x73 ? CharClasses.space : CharClasses.word
    return letter === lower ? base : CharSet.complement(base)
  }
}
