// A regular-expression engine with linear-time matching, for patterns from untrusted sources
// (JSON Schema `pattern` / `patternProperties` of MCP servers and tools). The native RegExp
// backtracks, so `^(a+)+$` against "aaaa…!" can hang the process; this engine cannot.
import { RegexCompiler, RegexProgram } from './RegexProgram'
import { RegexVm } from './RegexVm'

export { RegexSyntaxError } from './RegexSyntaxError'

/**
 * An ECMAScript pattern with `u`-flag semantics (code points; no `i`, `m`, `s` flags), matched by
 * a Pike VM in O(input length × program size).
 *
 * Supported: literals and escapes (\t \n \v \f \r \0 \cX \xHH \uHHHH \u{H…}, identity escapes of
 * syntax characters and `/`), `.`, classes with ranges and negation, \d \D \w \W \s \S, \p{…} and
 * \P{…} (decided per code point by the host RegExp), ^ $ \b \B, capturing, non-capturing and named
 * groups, alternation, * + ? {n} {n,} {n,m} and their lazy forms.
 * Refused with RegexSyntaxError: backreferences (\1, \k<name>), lookahead and lookbehind, groups
 * nested over 256 deep, and patterns whose expanded program exceeds 30,000 instructions.
 * Like V8 (Node's RegExp, which ajv uses), an empty match through `\B` is also found between the
 * halves of a surrogate pair, e.g. `\B` matches "d😀d"; ECMA-262 itself would not look there.
 */
export class LinearRegex {
  readonly source: string
  private readonly vm: RegexVm

  private constructor(source: string, program: RegexProgram) {
    this.source = source
    this.vm = new RegexVm(program)
  }

  /** Parses an ECMA-262 pattern with the `u` flag semantics. Throws RegexSyntaxError for invalid patterns and for features it does not support (never silently weakens). */
  static compile(source: string): LinearRegex {
    return new LinearRegex(source, RegexCompiler.compile(source))
  }

  /** Unanchored search, exactly like `new RegExp(source, 'u').test(input)`; time O(len(input) * size(program)). */
  test(input: string): boolean {
    return this.vm.run(input)
  }
}
