// Parser for ECMAScript patterns under the `u` flag, producing the AST of the linear-time engine.
import { AssertionKind, isAsciiLetter, isDigit, NodeKind, RegexNode } from './RegexAst'
import { CharClasses, CharSet } from './CharSet'
import { RegexReader } from './RegexReader'

const MAX_DEPTH: number = 256
/** Counts above this are all "very large" (the program-size cap refuses them anyway). */
const MAX_COUNT: number = 0x7fffffff

/** Parses the structure of a pattern: alternatives, terms, quantifiers and groups. */
export class RegexParser extends RegexReader {
  private depth: number = 0
  private readonly groupNames: Map<string, boolean> = new Map<string, boolean>()

  private constructor(source: string) {
    super(source)
  }

  static parse(source: string): RegexNode {
    const parser = new RegexParser(source)
    const node = parser.parseDisjunction()
    if (!parser.atEnd()) {
      throw parser.fail('unmatched \')\'', parser.pos)
    }
    return node
  }

  private parseDisjunction(): RegexNode {
    const alternatives: RegexNode[] = [this.parseAlternative()]
    while (this.isAt('|')) {
      this.pos++
      alternatives.push(this.parseAlternative())
    }
    return RegexNode.list(NodeKind.alternation, alternatives)
  }

  private parseAlternative(): RegexNode {
    const terms: RegexNode[] = []
    while (!this.atEnd() && !this.isAt('|') && !this.isAt(')')) {
      const term = this.parseTerm()
      if (term.kind !== NodeKind.empty) {
        terms.push(term)
      }
    }
    return RegexNode.list(NodeKind.concat, terms)
  }

  private parseTerm(): RegexNode {
    const start = this.pos
    const c = this.cps[this.pos]
    if (c === 0x5e || c === 0x24) { // ^ $
      this.pos++
      return this.assertion(c === 0x5e ? AssertionKind.start : AssertionKind.end)
    }
    if (c === 0x5c && (this.peek(1) === 0x62 || this.peek(1) === 0x42)) { // \b \B
      this.pos += 2
      return this.assertion(this.peek(-1) === 0x62 ? AssertionKind.wordBoundary : AssertionKind.notWordBoundary)
    }
    let atom: RegexNode
    if (c === 0x28) { // (
      atom = this.parseGroup()
    } else if (c === 0x5b) { // [
      atom = this.parseClass()
    } else if (c === 0x2e) { // .
      this.pos++
      atom = RegexNode.ofSet(new CharSet(CharClasses.lineTerminator, [], true))
    } else if (c === 0x5c) { // \
      this.pos++
      atom = this.parseAtomEscape()
    } else if (c === 0x2a || c === 0x2b || c === 0x3f || c === 0x7b) { // * + ? {
      throw this.fail(c === 0x7b && !this.quantifierAhead() ? 'lone quantifier bracket \'{\'' : 'nothing to repeat', start)
    } else if (c === 0x7d || c === 0x5d) { // } ]
      throw this.fail(`lone quantifier bracket '${String.fromCodePoint(c)}'`, start)
    } else {
      this.pos++
      atom = RegexNode.leaf(NodeKind.char, c)
    }
    return this.parseQuantifier(atom)
  }

  private assertion(kind: number): RegexNode {
    const next = this.peek(0)
    if (next === 0x2a || next === 0x2b || next === 0x3f || next === 0x7b) {
      throw this.fail('nothing to repeat (an assertion cannot be quantified)', this.pos)
    }
    return RegexNode.leaf(NodeKind.assertion, kind)
  }

  /** Whether a well-formed `{n}`, `{n,}` or `{n,m}` starts at the current position. */
  private quantifierAhead(): boolean {
    let i = this.pos + 1
    const digitsFrom = i
    while (i < this.cps.length && isDigit(this.cps[i])) {
      i++
    }
    if (i === digitsFrom) {
      return false
    }
    if (i < this.cps.length && this.cps[i] === 0x2c) { // ,
      i++
      while (i < this.cps.length && isDigit(this.cps[i])) {
        i++
      }
    }
    return i < this.cps.length && this.cps[i] === 0x7d
  }

  private parseQuantifier(atom: RegexNode): RegexNode {
    const c = this.peek(0)
    let min = 0
    let max = -1
    if (c === 0x2a) {
      this.pos++
    } else if (c === 0x2b) {
      this.pos++
      min = 1
    } else if (c === 0x3f) {
      this.pos++
      max = 1
    } else if (c === 0x7b) {
      if (!this.quantifierAhead()) {
        throw this.fail('incomplete quantifier (a lone \'{\' is not allowed with the u flag)', this.pos)
      }
      const open = this.pos
      this.pos++
      const low = this.readDigits()
      min = RegexParser.countValue(low)
      if (this.isAt(',')) {
        this.pos++
        if (!this.isAt('}')) {
          const high = this.readDigits()
          max = RegexParser.countValue(high)
          if (RegexParser.compareDigits(low, high) > 0) {
            throw this.fail('numbers out of order in {} quantifier', open)
          }
        }
      } else {
        max = min
      }
      this.pos++ // }
    } else {
      return atom
    }
    if (this.isAt('?')) {
      this.pos++ // lazy: same language, so the same test() result
    }
    const node = new RegexNode(NodeKind.repeat)
    node.children = [atom]
    node.min = min
    node.max = max
    return node
  }

  private readDigits(): string {
    let text = ''
    while (!this.atEnd() && isDigit(this.peek(0))) {
      text += String.fromCodePoint(this.cps[this.pos])
      this.pos++
    }
    return text
  }

  private static countValue(digits: string): number {
    let value = 0
    for (let i = 0; i < digits.length && value <= MAX_COUNT; i++) {
      value = value * 10 + (digits.charCodeAt(i) - 0x30)
    }
    return Math.min(value, MAX_COUNT)
  }

  /** Compares two decimal digit strings exactly (any length). */
  private static compareDigits(a: string, b: string): number {
    let i = 0
    while (i < a.length - 1 && a.charCodeAt(i) === 0x30) {
      i++
    }
    let j = 0
    while (j < b.length - 1 && b.charCodeAt(j) === 0x30) {
      j++
    }
    const x = a.substring(i)
    const y = b.substring(j)
    if (x.length !== y.length) {
      return x.length - y.length
    }
    return x < y ? -1 : x > y ? 1 : 0
  }

  private parseGroup(): RegexNode {
    const start = this.pos
    this.pos++
    if (this.isAt('?')) {
      const kind = this.peek(1)
      if (kind === 0x3a) { // (?:
        this.pos += 2
      } else if (kind === 0x3d || kind === 0x21) { // (?= (?!
        throw this.refuse('lookahead \'(?' + String.fromCodePoint(kind) + '\' is', start)
      } else if (kind === 0x3c && (this.peek(2) === 0x3d || this.peek(2) === 0x21)) { // (?<= (?<!
        throw this.refuse('lookbehind \'(?<' + String.fromCodePoint(this.peek(2)) + '\' is', start)
      } else if (kind === 0x3c) { // (?<name>
        this.pos += 2
        this.parseGroupName()
      } else {
        throw this.fail('invalid group', start)
      }
    }
    this.depth++
    if (this.depth > MAX_DEPTH) {
      throw this.refuse(`nesting groups more than ${MAX_DEPTH} deep is`, start)
    }
    const inner = this.parseDisjunction()
    this.depth--
    if (!this.isAt(')')) {
      throw this.fail('unterminated group', start)
    }
    this.pos++
    return inner
  }

  private parseGroupName(): void {
    const start = this.pos
    let name = ''
    while (!this.isAt('>')) {
      if (this.atEnd()) {
        throw this.fail('invalid capture group name', start)
      }
      let cp = this.cps[this.pos]
      const at = this.pos
      this.pos++
      if (cp === 0x5c) {
        if (!this.isAt('u')) {
          throw this.fail('invalid capture group name', at)
        }
        cp = this.parseUnicodeEscape()
      }
      if (!RegexParser.isIdentifierChar(cp, name.length === 0)) {
        throw this.fail('invalid capture group name', at)
      }
      name += String.fromCodePoint(cp)
    }
    if (name.length === 0) {
      throw this.fail('invalid capture group name', start)
    }
    if (this.groupNames.has(name)) {
      throw this.fail(`duplicate capture group name '${name}'`, start)
    }
    this.groupNames.set(name, true)
    this.pos++ // >
  }

  private static isIdentifierChar(cp: number, first: boolean): boolean {
    if (cp < 128) {
      return isAsciiLetter(cp) || cp === 0x24 || cp === 0x5f || (!first && isDigit(cp))
    }
    if (!first && (cp === 0x200c || cp === 0x200d)) {
      return true
    }
    return RegexReader.property(first ? 'ID_Start' : 'ID_Continue', false, null).has(cp)
  }
}
