// LinearRegex: ECMAScript `u`-flag semantics, refusals, and linear-time matching.
import { describe, expect, it } from 'vitest'
import { LinearRegex, RegexSyntaxError } from '../../src/core/schema/regex/LinearRegex'
import { RegexCompiler } from '../../src/core/schema/regex/RegexProgram'
import { RegexVm } from '../../src/core/schema/regex/RegexVm'

function compileError(source: string): RegexSyntaxError {
  try {
    LinearRegex.compile(source)
  } catch (e) {
    expect(e).toBeInstanceOf(RegexSyntaxError)
    return e as RegexSyntaxError
  }
  throw new Error(`expected /${source}/ to be rejected`)
}

/** Runs `source` over `input` on the internal VM and returns the answer and the work done. */
function measured(source: string, input: string): { result: boolean; steps: number; size: number } {
  const program = RegexCompiler.compile(source)
  const vm = new RegexVm(program)
  const result = vm.run(input)
  return { result, steps: vm.steps, size: program.size }
}

describe('LinearRegex semantics (ECMAScript with the u flag)', () => {
  const cases: Array<[string, string, boolean]> = [
    // unanchored search, anchors without the multiline flag
    ['b', 'abc', true],
    ['^b', 'abc', false],
    ['c$', 'abc', true],
    ['^a$', 'a\nb', false],
    ['', '', true],
    // code points: a surrogate pair is one character, a lone surrogate is one character
    ['^.$', '😀', true],
    ['^..$', '😀', false],
    ['^.$', '\ud83d', true],
    ['\ude00', '😀', false],
    ['^🐲*$', '🐲🐲🐲', true],
    ['^🐲*$', '🐲\ud83d', false],
    ['^[😀-😂]$', '😁', true],
    ['^\\uD83D\\uDE00$', '😀', true],
    ['^\\u{1F600}$', '😀', true],
    ['^[\\uD800-\\uDFFF]$', '😀', false],
    ['^[\\uD800-\\uDFFF]$', '\udc00', true],
    // escapes
    ['^\\t\\n\\v\\f\\r\\0$', '\t\n\v\f\r\0', true],
    ['^\\cC\\cc$', '\u0003\u0003', true],
    ['^\\x41\\u0042\\u{43}$', 'ABC', true],
    ['^\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/$', '^$\\.*+?()[]{}|/', true],
    // dot excludes exactly the line terminators
    ['^.$', '\n', false],
    ['^.$', '\r', false],
    ['^.$', '\u2028', false],
    ['^.$', '\u2029', false],
    ['^.$', '\u0085', true],
    // predefined classes
    ['^\\d$', '\u07c0', false],
    ['^\\D$', '\u07c0', true],
    ['^\\w$', 'é', false],
    ['^\\W$', 'é', true],
    ['^\\s+$', ' \t\n\v\f\r\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff', true],
    ['^\\s$', '\u180e', false],
    ['^\\S$', '\u200b', true],
    // classes
    ['^[a-c]+$', 'abcba', true],
    ['^[^a-c]$', 'd', true],
    ['^[^a-c]$', 'b', false],
    ['^[]$', 'a', false],
    ['^[^]$', '\n', true],
    ['^[\\d-]+$', '1-2', true],
    ['^[a\\-z]+$', '-az', true],
    ['^[a\\-z]$', 'b', false],
    ['^[\\b]$', '\b', true],
    ['^[\\w\\s]+$', 'a b', true],
    ['^[^\\W]$', 'a', true],
    ['^[.]$', 'x', false],
    // property escapes (decided per code point by the host RegExp)
    ['^\\p{Letter}+$', 'héllo', true],
    ['^\\p{L}$', '1', false],
    ['^\\P{L}$', '1', true],
    ['^[\\p{Script=Greek}\\d]+$', 'αβ1', true],
    ['^[^\\p{Lu}]$', 'A', false],
    // word boundaries use ASCII word characters
    ['\\bfoo\\b', 'a foo.', true],
    ['\\bfoo\\b', 'afoo', false],
    ['\\Boo', 'foo', true],
    ['é\\b', 'é', false],
    // groups, alternation, quantifiers (laziness does not change test())
    ['^(?:ab|cd)+$', 'abcdab', true],
    ['^(?<word>\\w+)-(\\d)$', 'abc-1', true],
    ['^a{3}$', 'aaa', true],
    ['^a{3}$', 'aa', false],
    ['^a{2,}$', 'aaaa', true],
    ['^a{2,3}$', 'aaaa', false],
    ['^a{0}$', '', true],
    ['^a+?$', 'aaa', true],
    ['^a{1,2}?b$', 'aab', true],
    ['^(?:a|)*b$', 'aab', true],
    // empty loops terminate and agree with RegExp
    ['(a*)*b', 'aaaa', false],
    ['(a*)*b', 'aaab', true],
    ['(|a)*', 'x', true],
    ['^(|a)*$', 'aaa', true],
    ['(?:)*', '', true],
    ['^(?:\\b)*a', 'a', true],
    ['^(?:a*|b)+c$', 'abac', true],
    ['^(?:$)*x', 'x', true],
  ]
  it.each(cases)('/%s/u.test(%j) is %s, as with native RegExp', (source, input, expected) => {
    expect(new RegExp(source, 'u').test(input)).toBe(expected)
    expect(LinearRegex.compile(source).test(input)).toBe(expected)
  })

  it('keeps the source and can be reused for many inputs', () => {
    const re = LinearRegex.compile('^x+$')
    expect(re.source).toBe('^x+$')
    expect([re.test('xx'), re.test('xy'), re.test('x')]).toEqual([true, false, true])
  })

  it('matches like V8 between the halves of a surrogate pair: an empty match through \\B succeeds there', () => {
    // Node's RegExp also starts a match inside a surrogate pair (ECMA-262 would not).
    expect(new RegExp('\\B', 'u').test('d😀d')).toBe(true)
    expect(LinearRegex.compile('\\B').test('d😀d')).toBe(true)
    expect(LinearRegex.compile('\\B.').test('d😀d')).toBe(new RegExp('\\B.', 'u').test('d😀d'))
    expect(LinearRegex.compile('\\b').test('😀')).toBe(false)
  })
})

describe('LinearRegex rejects invalid patterns with RegexSyntaxError', () => {
  const invalid = ['[z-a]', 'a{2,1}', '{', 'a{', 'a{,5}', '}', ']', '\\c', '\\c1', '\\a', '\\-', '\\00', '\\x4',
    '\\u{110000}', '\\u{}', '\\u12', '(', '(?:a', 'a)', '*a', 'a**', '+', '?', '^*', '\\b+', '[a', '[\\d-a]',
    '[a-\\d]', '[\\B]', '[\\c_]', '(?<a>x)(?<a>y)', '(?<>a)', '(?<1a>x)', '(?i:a)', '(?x)', 'a|*', '\\',
    '\\p', '\\p{}', '\\p{L', '\\p{NotAProperty}', '\\p{RGI_Emoji}', '\\8']
  it.each(invalid)('rejects %j, as native RegExp does', (source) => {
    expect(() => new RegExp(source, 'u')).toThrow(SyntaxError)
    const error = compileError(source)
    expect(error.name).toBe('RegexSyntaxError')
    expect(error.message).toContain(source)
    expect(error.message).toMatch(/position \d+/)
  })

  it('says what is wrong and where', () => {
    expect(compileError('ab[z-a]').message).toMatch(/range out of order.*position 3/)
    expect(compileError('a{3,2}').message).toMatch(/numbers out of order/)
    expect(compileError('x\\q').message).toMatch(/invalid escape '\\q' at position 1/)
  })
})

describe('LinearRegex refuses what a linear engine cannot do', () => {
  const refused: Array<[string, RegExp]> = [
    ['(a)\\1', /backreferences \(\\1\)/],
    ['(?<n>a)\\k<n>', /named backreferences/],
    ['a(?=b)', /lookahead/],
    ['a(?!b)', /lookahead/],
    ['(?<=a)b', /lookbehind/],
    ['(?<!a)b', /lookbehind/],
  ]
  it.each(refused)('refuses %j (valid for native RegExp) naming the feature', (source, feature) => {
    expect(() => new RegExp(source, 'u')).not.toThrow()
    const error = compileError(source)
    expect(error.message).toMatch(feature)
    expect(error.message).toContain('not supported')
  })

  it('refuses (a{1000}){1000} as too large instead of expanding a million instructions', () => {
    expect(compileError('(a{1000}){1000}').message).toMatch(/pattern too large/)
    expect(compileError('a{99999999999}').message).toMatch(/pattern too large/)
    expect(compileError('x{1,40000}').message).toMatch(/pattern too large/)
  })

  it('accepts bounded repetition up to the program-size cap, and repetition of nothing at any count', () => {
    expect(LinearRegex.compile('^(?:ab){1,1000}$').test('ab'.repeat(1000))).toBe(true)
    expect(LinearRegex.compile('^(?:ab){1,1000}$').test('ab'.repeat(1001))).toBe(false)
    expect(LinearRegex.compile('^(?:){99999999999}$').test('')).toBe(true)
    expect(LinearRegex.compile('^a(?:|(?:)){99999999999}$').test('a')).toBe(true)
  })

  it('refuses group nesting deeper than 256 rather than risking the stack', () => {
    expect(LinearRegex.compile('('.repeat(256) + 'a' + ')'.repeat(256)).test('a')).toBe(true)
    expect(compileError('('.repeat(300) + 'a' + ')'.repeat(300)).message).toMatch(/nesting/)
  })
})

describe('LinearRegex matches catastrophic-backtracking patterns in linear time', () => {
  const n = 30000
  const a = 'a'.repeat(n)
  const catastrophic: Array<[string, string, boolean]> = [
    ['^(a+)+$', a + '!', false],
    ['^(a+)+$', a, true],
    ['(a|a)*b', a, false],
    ['(a|a)*b', a + 'b', true],
    ['(a|aa)+$', a + '!', false],
    ['(a|aa)+$', 'b' + a, true],
    ['^(\\w+\\s?)*$', 'ab '.repeat(n / 3) + '!', false],
    ['^(\\w+\\s?)*$', 'ab '.repeat(n / 3), true],
    ['(x+x+)+y', 'x'.repeat(n), false],
    ['(x+x+)+y', 'x'.repeat(n) + 'y', true],
    ['\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*x', '1'.repeat(n), false],
    ['\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*\\d*x', '1'.repeat(n) + 'x', true],
    ['^(a|a?)+$', a + '!', false],
    ['^(.*a){12}$', a + '!', false],
  ]
  it.each(catastrophic)('/%s/ on a 30,000-character input gives the right answer with bounded work', (source, input, expected) => {
    const run = measured(source, input)
    expect(run.result).toBe(expected)
    // The Pike VM visits each instruction at most once per position.
    expect(run.steps).toBeLessThanOrEqual((input.length + 1) * (4 * run.size + 2))
  })

  it('does work proportional to the input length (doubling the input at most doubles the work)', () => {
    for (const source of ['^(a+)+$', '(a|aa)+$', '(x+x+)+y', '^(\\w+\\s?)*$']) {
      const small = measured(source, 'a'.repeat(50000) + '!')
      const large = measured(source, 'a'.repeat(100000) + '!')
      expect(large.steps).toBeLessThanOrEqual(2 * small.steps + 10)
    }
  })

  it('answers ^(a+)+$ against 100,000 characters through the public API', () => {
    expect(LinearRegex.compile('^(a+)+$').test('a'.repeat(100000) + '!')).toBe(false)
    expect(LinearRegex.compile('^(a+)+$').test('a'.repeat(100000))).toBe(true)
  })
})
