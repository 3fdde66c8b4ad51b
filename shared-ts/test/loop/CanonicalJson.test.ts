import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { canonicalCallHash, canonicalJson } from '../../src/core/loop/CanonicalJson'
import { hash53, preview } from '../../src/core/loop/StringHash'

describe('canonicalJson', () => {
  it('ignores key order and whitespace', () => {
    expect(canonicalJson('{"a":1,"b":2}')).toBe(canonicalJson('{ "b": 2,\n  "a": 1 }'))
    expect(canonicalJson('{ "b": 2, "a": 1 }')).toBe('{"a":1,"b":2}')
  })

  it('sorts nested object keys recursively and keeps array order', () => {
    expect(canonicalJson('{"z":{"y":1,"x":[{"d":1,"c":2},3]},"a":null}'))
      .toBe('{"a":null,"z":{"x":[{"c":2,"d":1},3],"y":1}}')
    expect(canonicalJson('[2,1]')).not.toBe(canonicalJson('[1,2]'))
  })

  it('writes numbers in one canonical form', () => {
    expect(canonicalJson('{"n":1}')).toBe('{"n":1}')
    expect(canonicalJson('{"n":1.0}')).toBe('{"n":1}')
    expect(canonicalJson('{"n":1e0}')).toBe('{"n":1}')
    expect(canonicalJson('{"n":10E-1}')).toBe('{"n":1}')
    expect(canonicalJson('{"n":-0}')).toBe('{"n":0}')
    expect(canonicalJson('{"n":1.50}')).toBe('{"n":1.5}')
    expect(canonicalJson('{"n":1.5}')).not.toBe(canonicalJson('{"n":1}'))
  })

  it('keeps overflowing numbers distinct from null', () => {
    expect(canonicalJson('[1e400,-1e400,null]')).toBe('[1e999,-1e999,null]')
  })

  it('normalises string escapes', () => {
    expect(canonicalJson('{"s":"\\u0041\\/"}')).toBe(canonicalJson('{"s":"A/"}'))
  })

  it('returns invalid JSON as its raw text', () => {
    expect(canonicalJson('{a: 1')).toBe('{a: 1')
    expect(canonicalJson('not json')).not.toBe(canonicalJson('not  json'))
  })

  it('treats blank arguments as an empty object', () => {
    expect(canonicalJson('')).toBe('{}')
    expect(canonicalJson('  ')).toBe('{}')
    expect(canonicalJson('{ }')).toBe('{}')
  })

  it('falls back to raw text on nesting too deep to walk', () => {
    const deep = '['.repeat(200000) + ']'.repeat(200000)
    expect(() => canonicalJson(deep)).not.toThrow()
  })
})

describe('hash53', () => {
  it('is deterministic, within 53 bits, and separates near-identical strings', () => {
    expect(hash53('hello')).toBe(hash53('hello'))
    expect(hash53('hello')).not.toBe(hash53('hellp'))
    expect(hash53('')).not.toBe(hash53(' '))
    expect(Number.isSafeInteger(hash53('x'.repeat(1000)))).toBe(true)
  })

  it('has no collisions over many similar strings', () => {
    const seen = new Set<number>()
    for (let i = 0; i < 50000; i++) seen.add(hash53(`result line ${i}`))
    expect(seen.size).toBe(50000)
  })

  it('preview truncates long evidence', () => {
    expect(preview('abc', 5)).toBe('abc')
    expect(preview('abcdefgh', 5)).toBe('abcd…')
  })
})

describe('canonicalCallHash', () => {
  it('gives two calls the same hash exactly when their canonical signatures are equal', () => {
    const json = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc.constantFrom('{"a":1,"b":2}', '{ "b": 2, "a": 1 }', '{"a":1.0,"b":2e0}', '{"a":"1"}', '', '  ', '{}',
        'not json', '{"a":[1,2]}', '{"a":[2,1]}', '{"x":{"q":1,"p":2}}', '{"x":{"p":2,"q":1}}', '-0', '0',
        '{"s":"a\\",\\"b"}', '{"s":["a","b"]}'),
    )
    const name = fc.constantFrom('read', 'search', 'read:')
    fc.assert(
      fc.property(name, json, name, json, (n1, a1, n2, a2) => {
        const same = `${n1}:${canonicalJson(a1)}` === `${n2}:${canonicalJson(a2)}`
        expect(canonicalCallHash(n1, a1) === canonicalCallHash(n2, a2)).toBe(same)
      }),
      { seed: 20261130, numRuns: 3000 },
    )
  })
})
