// Lexical layer of the pattern parser: position and errors, escapes, character classes.
import { CharClasses, CharSet, UnicodeProperty } from './CharSet'
import { codePointsOf, hexValue, isAsciiLetter, isDigit, isLead, isTrail, NodeKind, RegexNode } from './RegexAst'
import { RegexSyntaxError } from './RegexSyntaxError'

/** One item of a character class: a single code point, or a set (\d, \p{…}, …). */
class ClassAtom {
  cp: number = -1
  ranges: number[] | null = null
  property: UnicodeProperty | null = null
}

const PROPERTY_CACHE: Map<string, UnicodeProperty> = new Map<string, UnicodeProperty>()
const SYNTAX_CHARS: string = '^$\\.*+?()[]{}|/'

/** Reads escapes and character classes of an ECMAScript `u`-flag pattern (RegexParser adds the rest). */
export class RegexReader {
  protected readonly source: string
  protected readonly cps: number[]
  /** UTF-16 offset of each code point, plus the source length (for error positions). */
  private readonly offsets: number[] = []
  protected pos: number = 0

  protected constructor(source: string) {
    this.source = source
    this.cps = codePointsOf(source)
    let offset = 0
    for (let i = 0; i < this.cps.length; i++) {
      this.offsets.push(offset)
      offset += this.cps[i] > 0xffff ? 2 : 1
    }
    this.offsets.push(offset)
  }

  /** A RegexSyntaxError for a problem at code point index `at`. */
  protected fail(what: string, at: number): RegexSyntaxError {
    const where = this.offsets[Math.min(at, this.cps.length)]
    return new RegexSyntaxError(`Invalid regular expression /${this.source}/u: ${what} at position ${where}`)
  }

  /** A RegexSyntaxError for a valid pattern that uses a feature this engine refuses. */
  protected refuse(feature: string, at: number): RegexSyntaxError {
    const where = this.offsets[Math.min(at, this.cps.length)]
    return new RegexSyntaxError(`Unsupported regular expression /${this.source}/u: ${feature} ` +
      `not supported by the linear-time engine (position ${where})`)
  }

  protected atEnd(): boolean {
    return this.pos >= this.cps.length
  }

  protected peek(offset: number): number {
    const i = this.pos + offset
    return i < this.cps.length ? this.cps[i] : -1
  }

  protected isAt(ch: string): boolean {
    return this.peek(0) === ch.charCodeAt(0)
  }

  /**
   * `\p{body}` / `\P{body}` as a host-RegExp-backed property (cached per escape). `at` is the
   * reader and position to blame when the host RegExp rejects it.
   */
  protected static property(body: string, negated: boolean, at: RegexReader | null): UnicodeProperty {
    const text = (negated ? '\\P{' : '\\p{') + body + '}'
    const cached = PROPERTY_CACHE.get(text)
    if (cached !== undefined) {
      return cached
    }
    let matcher: RegExp
    try {
      matcher = new RegExp('^' + text + '$', 'u')
    } catch (e) {
      if (!RegexReader.hostHasProperties()) {
        const feature = `Unicode property escapes (${text}) are`
        throw at !== null ? at.refuse(feature, at.pos) : new RegexSyntaxError(`${feature} not supported by this host`)
      }
      const what = `invalid Unicode property escape ${text}`
      throw at !== null ? at.fail(what, at.pos) : new RegexSyntaxError(what)
    }
    const made = new UnicodeProperty(text, matcher)
    PROPERTY_CACHE.set(text, made)
    return made
  }

  /** Whether the host RegExp understands property escapes at all (it is asked to decide them). */
  private static hostHasProperties(): boolean {
    try {
      return new RegExp('^\\p{L}$', 'u').test('a')
    } catch (e) {
      return false
    }
  }

  /** After `\p` or `\P` (the letter not yet consumed). */
  private parsePropertyEscape(): UnicodeProperty {
    const start = this.pos
    const negated = this.peek(0) === 0x50
    this.pos++
    if (!this.isAt('{')) {
      throw this.fail('invalid property name (\\p needs {…} with the u flag)', start)
    }
    this.pos++
    let body = ''
    let equals = 0
    while (!this.isAt('}')) {
      const cp = this.peek(0)
      const ok = isAsciiLetter(cp) || isDigit(cp) || cp === 0x5f || cp === 0x3d
      if (!ok) {
        throw this.fail('invalid property name', start)
      }
      if (cp === 0x3d) {
        equals++
      }
      body += String.fromCodePoint(cp)
      this.pos++
    }
    this.pos++ // }
    if (body.length === 0 || equals > 1 || body.startsWith('=') || body.endsWith('=')) {
      throw this.fail('invalid property name', start)
    }
    return RegexReader.property(body, negated, this)
  }

  /** After a `\` outside a class. */
  protected parseAtomEscape(): RegexNode {
    const start = this.pos - 1
    if (this.atEnd()) {
      throw this.fail('\\ at end of pattern', start)
    }
    const c = this.peek(0)
    if (c >= 0x31 && c <= 0x39) {
      throw this.refuse('backreferences (\\' + String.fromCodePoint(c) + ') are', start)
    }
    if (c === 0x6b) {
      throw this.refuse('named backreferences (\\k) are', start)
    }
    if (c === 0x70 || c === 0x50) {
      return RegexNode.ofSet(new CharSet([], [this.parsePropertyEscape()], false))
    }
    if ('dDsSwW'.indexOf(String.fromCodePoint(c)) >= 0) {
      this.pos++
      return RegexNode.ofSet(new CharSet(CharClasses.escapeRanges(c), [], false))
    }
    return RegexNode.leaf(NodeKind.char, this.parseCharacterEscape(false))
  }

  /** A CharacterEscape after `\` (current position at the escape letter); returns its code point. */
  private parseCharacterEscape(inClass: boolean): number {
    const start = this.pos - 1
    const c = this.cps[this.pos]
    this.pos++
    switch (c) {
      case 0x66: return 0x0c // \f
      case 0x6e: return 0x0a // \n
      case 0x72: return 0x0d // \r
      case 0x74: return 0x09 // \t
      case 0x76: return 0x0b // \v
      case 0x63: { // \cX
        const letter = this.peek(0)
        if (!isAsciiLetter(letter)) {
          throw this.fail('invalid control escape (\\c needs an ASCII letter)', start)
        }
        this.pos++
        return letter % 32
      }
      case 0x30: // \0
        if (isDigit(this.peek(0))) {
          throw this.fail('invalid decimal escape', start)
        }
        return 0
      case 0x78: { // \xHH
        const hi = hexValue(this.peek(0))
        const lo = hexValue(this.peek(1))
        if (hi < 0 || lo < 0) {
          throw this.fail('invalid \\x escape', start)
        }
        this.pos += 2
        return hi * 16 + lo
      }
      case 0x75: // \u
        this.pos--
        return this.parseUnicodeEscape()
      default:
        if (c < 128 && SYNTAX_CHARS.indexOf(String.fromCodePoint(c)) >= 0) {
          return c
        }
        if (inClass && c === 0x2d) {
          return c
        }
        throw this.fail(`invalid escape '\\${String.fromCodePoint(c)}'`, start)
    }
  }

  /** At the `u` of `\u`: \uHHHH (a lead+trail pair of escapes is one code point) or \u{H…}. */
  protected parseUnicodeEscape(): number {
    const start = this.pos - 1
    this.pos++
    if (this.isAt('{')) {
      this.pos++
      let value = 0
      let digits = 0
      while (hexValue(this.peek(0)) >= 0) {
        value = value * 16 + hexValue(this.peek(0))
        if (value > 0x10ffff) {
          throw this.fail('invalid Unicode escape (above U+10FFFF)', start)
        }
        digits++
        this.pos++
      }
      if (digits === 0 || !this.isAt('}')) {
        throw this.fail('invalid Unicode escape', start)
      }
      this.pos++
      return value
    }
    const value = this.readHex4(this.pos)
    if (value < 0) {
      throw this.fail('invalid Unicode escape', start)
    }
    this.pos += 4
    if (isLead(value) && this.isAt('\\') && this.peek(1) === 0x75) {
      const trail = this.readHex4(this.pos + 2)
      if (isTrail(trail)) {
        this.pos += 6
        return (value - 0xd800) * 0x400 + (trail - 0xdc00) + 0x10000
      }
    }
    return value
  }

  private readHex4(at: number): number {
    let value = 0
    for (let i = 0; i < 4; i++) {
      const h = at + i < this.cps.length ? hexValue(this.cps[at + i]) : -1
      if (h < 0) {
        return -1
      }
      value = value * 16 + h
    }
    return value
  }

  protected parseClass(): RegexNode {
    const start = this.pos
    this.pos++
    const negated = this.isAt('^')
    if (negated) {
      this.pos++
    }
    const pairs: number[] = []
    const properties: UnicodeProperty[] = []
    while (!this.isAt(']')) {
      if (this.atEnd()) {
        throw this.fail('unterminated character class', start)
      }
      const atomStart = this.pos
      const a = this.parseClassAtom(start)
      if (this.isAt('-') && this.peek(1) !== 0x5d && this.peek(1) !== -1) {
        this.pos++
        const b = this.parseClassAtom(start)
        if (a.cp < 0 || b.cp < 0) {
          throw this.fail('invalid character class (a range bound is a class escape)', atomStart)
        }
        if (a.cp > b.cp) {
          throw this.fail('range out of order in character class', atomStart)
        }
        pairs.push(a.cp)
        pairs.push(b.cp)
      } else if (a.cp >= 0) {
        pairs.push(a.cp)
        pairs.push(a.cp)
      } else {
        const ranges = a.ranges
        if (ranges !== null) {
          for (let i = 0; i < ranges.length; i++) {
            pairs.push(ranges[i])
          }
        }
        const property = a.property
        if (property !== null) {
          properties.push(property)
        }
      }
    }
    this.pos++ // ]
    return RegexNode.ofSet(new CharSet(CharSet.normalize(pairs), properties, negated))
  }

  private parseClassAtom(classStart: number): ClassAtom {
    if (this.atEnd()) {
      throw this.fail('unterminated character class', classStart)
    }
    const atom = new ClassAtom()
    const c = this.cps[this.pos]
    this.pos++
    if (c !== 0x5c) {
      atom.cp = c
      return atom
    }
    if (this.atEnd()) {
      throw this.fail('\\ at end of pattern', this.pos - 1)
    }
    const e = this.peek(0)
    if (e === 0x62) { // \b is backspace in a class
      this.pos++
      atom.cp = 0x08
    } else if (e === 0x2d) {
      this.pos++
      atom.cp = 0x2d
    } else if (e === 0x70 || e === 0x50) {
      atom.property = this.parsePropertyEscape()
    } else if ('dDsSwW'.indexOf(String.fromCodePoint(e)) >= 0) {
      this.pos++
      atom.ranges = CharClasses.escapeRanges(e)
    } else {
      atom.cp = this.parseCharacterEscape(true)
    }
    return atom
  }
}

