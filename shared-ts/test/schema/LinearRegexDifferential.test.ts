// Differential property tests: LinearRegex against the native `new RegExp(source, 'u')`.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LinearRegex, RegexSyntaxError } from '../../src/core/schema/regex/LinearRegex'

const SEED = 20260417

/** Literal pattern characters (none is a syntax character): ASCII, Latin-1, line/space
 *  separators, astral characters and lone surrogates. */
const LITERALS = ['a', 'b', 'c', 'x', 'A', 'Z', '0', '1', '_', ' ', '-', ',', ':', '=', '!', '<', '>', '\n', '\r',
  '\t', 'é', 'α', '\u00a0', '\u2028', '\u2029', '\u3000', '\ufeff', '😀', '🐲', '\ud83d', '\ude00', '\udbff']

/** Atom escapes valid under `u` (outside a class). */
const ESCAPES = ['\\t', '\\n', '\\v', '\\f', '\\r', '\\cJ', '\\ca', '\\cZ', '(?:\\0)', '\\x41', '\\x61', '\\xe9',
  '\\u0061', '\\u00E9', '\\u{1F600}', '\\u{61}', '\\u{000041}', '\\uD83D\\uDE00', '\\uD83D', '\\uDE00', '\\u{D83D}',
  '\\.', '\\*', '\\+', '\\?', '\\(', '\\)', '\\[', '\\]', '\\{', '\\}', '\\|', '\\^', '\\$', '\\\\', '\\/',
  '\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '\\p{L}', '\\P{L}', '\\p{Lu}', '\\p{N}', '\\p{Script=Greek}',
  '\\p{ASCII_Hex_Digit}', '\\P{Any}']

/** Single class members (escaped where a class needs it). */
const CLASS_ITEMS = ['a', 'b', 'c', 'x', 'Z', '0', '_', ' ', '\n', 'é', '😀', '🐲', '\ud83d', '\ude00', '(', '.', '*',
  '\\-', '\\]', '\\[', '\\\\', '\\^', '\\b', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '\\n', '\\t', '\\x41',
  '\\u0062', '\\u{1F600}', '\\uD83D\\uDE00', '\\uDE00', '\\cJ', '\\p{L}', '\\P{Lu}', '\\p{Script=Greek}', '\\/']

/** Range bounds, in increasing code point order (a range takes two of them, low first). */
const RANGE_BOUNDS = ['\\x00', '\\t', ' ', '0', '9', 'A', 'Z', '_', 'a', 'c', 'x', 'z', '\\x7f', 'é', 'α',
  '\\u2028', '\\ud7ff', '\\ud800', '\\udbff', '\\udc00', '\\udfff', '\\ue000', '\\uffff', '🐲', '😀', '\\u{1F64F}',
  '\\u{10FFFF}']

/** Characters inputs are made of, besides the pattern's own code points. */
const INPUT_EXTRA = ['a', 'b', 'c', 'x', 'A', 'Z', 'z', '0', '9', '_', ' ', '\n', '\r', '\t', '\v', '\f', '\0', '\u0001',
  '\u001a', '\b', 'é', 'α', 'Ω', '٣', '\u00a0', '\u2028', '\u3000', '\ufeff', '😀', '🐲', '😃', '\ud83d', '\ude00',
  '\udbff', '.', '*', '(', '-', ']', '\\', '/', '!']

const literal = fc.constantFrom(...LITERALS)
const escape = fc.constantFrom(...ESCAPES)
const range = fc.tuple(fc.nat(RANGE_BOUNDS.length - 1), fc.nat(RANGE_BOUNDS.length - 1))
  .map(([i, j]) => `${RANGE_BOUNDS[Math.min(i, j)]}-${RANGE_BOUNDS[Math.max(i, j)]}`)
const charClass = fc.tuple(fc.boolean(), fc.array(fc.oneof(fc.constantFrom(...CLASS_ITEMS), range), { maxLength: 4 }))
  .map(([negated, items]) => `[${negated ? '^' : ''}${items.join('')}]`)
const assertion = fc.constantFrom('^', '$', '\\b', '\\B')
const quantifier = fc.tuple(
  fc.oneof(fc.constantFrom('*', '+', '?'), fc.nat(3).map((n) => `{${n}}`), fc.nat(3).map((n) => `{${n},}`),
    fc.tuple(fc.nat(3), fc.nat(3)).map(([a, b]) => `{${Math.min(a, b)},${Math.max(a, b)}}`)),
  fc.boolean(),
).map(([q, lazy]) => (lazy ? `${q}?` : q))

const { pattern } = fc.letrec<{ pattern: string; alternative: string; term: string; atom: string }>((tie) => ({
  pattern: fc.array(tie('alternative'), { minLength: 1, maxLength: 3 }).map((alts) => alts.join('|')),
  alternative: fc.array(tie('term'), { maxLength: 4 }).map((terms) => terms.join('')),
  term: fc.oneof(
    { arbitrary: tie('atom'), weight: 3 },
    { arbitrary: fc.tuple(tie('atom'), quantifier).map(([a, q]) => a + q), weight: 3 },
    { arbitrary: assertion, weight: 1 },
  ),
  atom: fc.oneof(
    { depthSize: 'small' },
    { arbitrary: literal, weight: 6 },
    { arbitrary: escape, weight: 3 },
    { arbitrary: fc.constant('.'), weight: 1 },
    { arbitrary: charClass, weight: 3 },
    {
      arbitrary: fc.tuple(fc.constantFrom('(', '(?:', '(?<>'), tie('pattern')).map(([open, body]) => `${open}${body})`),
      weight: 2,
    },
  ),
}))

/** Gives each `(?<>` placeholder a distinct name (duplicates are a syntax error). */
const namedPattern = pattern.map((p) => {
  let n = 0
  return p.replace(/\(\?<>/g, () => `(?<g${n++}>`)
})

/** A pattern with inputs drawn mostly from its own code points. */
const patternWithInputs = namedPattern.chain((p) => {
  const alphabet = [...Array.from(p).filter((ch) => ch !== '\\'), ...INPUT_EXTRA]
  const input = fc.array(fc.constantFrom(...alphabet), { maxLength: 12 }).map((cs) => cs.join(''))
  return fc.tuple(fc.constant(p), fc.array(input, { minLength: 8, maxLength: 8 }))
})

function nativeCompile(source: string): RegExp | null {
  try {
    return new RegExp(source, 'u')
  } catch {
    return null
  }
}

function linearCompile(source: string): LinearRegex | RegexSyntaxError {
  try {
    return LinearRegex.compile(source)
  } catch (e) {
    if (e instanceof RegexSyntaxError) return e
    throw e
  }
}

/** A refusal the engine documents: backreferences, lookaround, or an oversized program. */
function isDocumentedRefusal(source: string, error: RegexSyntaxError): boolean {
  if (/pattern too large/.test(error.message)) return true
  if (!/not supported by the linear-time engine/.test(error.message)) return false
  return /\(\?<?[=!]|\\[1-9k]/.test(source)
}

describe('LinearRegex agrees with native RegExp (u flag)', () => {
  it('gives the same test() result as native RegExp for generated patterns over every supported construct', () => {
    let patterns = 0
    let cases = 0
    let matches = 0
    let invalid = 0
    fc.assert(fc.property(patternWithInputs, ([source, inputs]) => {
      patterns++
      const native = nativeCompile(source)
      const linear = linearCompile(source)
      if (native === null) {
        // Only accidental combinations (none expected); both must reject them.
        invalid++
        return linear instanceof RegexSyntaxError
      }
      if (linear instanceof RegexSyntaxError) return false
      for (const input of inputs) {
        cases++
        const expected = native.test(input)
        if (expected) matches++
        if (linear.test(input) !== expected) return false
      }
      return true
    }), { seed: SEED, numRuns: 4000 })
    console.log(`[LinearRegex differential] ${patterns} generated patterns, ${cases} (pattern, input) cases ` +
      `(${matches} matching), ${invalid} patterns invalid for both, 0 disagreements`)
    expect(cases).toBeGreaterThanOrEqual(30000)
    expect(invalid).toBe(0)
    // The inputs are biased towards the pattern's alphabet: both outcomes are well represented.
    expect(matches / cases).toBeGreaterThan(0.25)
    expect(matches / cases).toBeLessThan(0.75)
  })

  it('rejects a random string as a pattern exactly when native RegExp does, unless it uses a refused feature', () => {
    const units = fc.constantFrom(...'()[]{}|\\^$.*+?-,:=!<>0123456789abcdkpPuxBbDdSsWwLnt/_é\ud83d😀')
    // Syntax fragments, so that escapes, group names, property names and counts are exercised too.
    const tokens = fc.constantFrom('(?<', '(?<=', '(?<!', '(?=', '(?!', '(?:', '(', ')', '>', '\\k<', '\\k', '\\1',
      '\\u{', '\\u', '\\x', '\\c', '\\p{', '\\P{', '\\p', 'L', 'Lu', 'Script=', 'Greek', '=', 'ID_Start', '}',
      '{', '{2', '{1,', '2}', ',}', '}?', '[', '[^', ']', '-', '\\', '\\-', '\\0', '\\b', '\\B', 'a', 'é', '😀',
      '\ud83d', '0', '1', '4', 'F', 'D83D', 'DE00', '\\uD83D', '\\uDE00', '|', '*', '+', '?', '^', '$', '.', 'name')
    const tokenString = fc.array(tokens, { maxLength: 7 }).map((ts) => ts.join(''))
    const sources = fc.oneof(fc.string({ unit: units, maxLength: 10 }), tokenString)
    let total = 0
    let bothInvalid = 0
    let bothValid = 0
    let refused = 0
    let comparedInputs = 0
    const refusedExamples: string[] = []
    fc.assert(fc.property(sources, fc.array(fc.string({ unit: units, maxLength: 8 }),
      { minLength: 3, maxLength: 3 }), (source, inputs) => {
      total++
      const native = nativeCompile(source)
      const linear = linearCompile(source)
      if (native === null) {
        bothInvalid++
        return linear instanceof RegexSyntaxError
      }
      if (linear instanceof RegexSyntaxError) {
        refused++
        if (refusedExamples.length < 6) refusedExamples.push(source)
        return isDocumentedRefusal(source, linear)
      }
      bothValid++
      for (const input of inputs) {
        comparedInputs++
        if (linear.test(input) !== native.test(input)) return false
      }
      return true
    }), { seed: SEED, numRuns: 30000 })
    console.log(`[LinearRegex syntax] ${total} random patterns: ${bothInvalid} rejected by both, ${bothValid} accepted ` +
      `by both (${comparedInputs} inputs compared, 0 disagreements), ${refused} refused as unsupported ` +
      `(e.g. ${refusedExamples.map((s) => JSON.stringify(s)).join(', ')})`)
    expect(bothValid).toBeGreaterThan(3000)
    expect(bothInvalid).toBeGreaterThan(3000)
  })
})
