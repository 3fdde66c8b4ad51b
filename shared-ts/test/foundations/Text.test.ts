import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fnv1a, splitByUtf8Bytes, utf8IncompleteTail, utf8Length } from '../../src/core/util/Text'

/** Strings over every kind of UTF-16 content: ASCII, 2- and 3-byte BMP, astral pairs, and lone surrogates. */
const anyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: fc.constantFrom('a', 'é', '中', '😀', '\uD800', '\uDC00', '\u0000', '\u07FF', '\u0800', '\uFFFF'), maxLength: 40 })
)

describe('util/Text', () => {
  it('utf8Length matches Buffer.byteLength for random strings (lone surrogates count as U+FFFD, 3 bytes)', () => {
    fc.assert(fc.property(anyString, (s) => {
      expect(utf8Length(s)).toBe(Buffer.byteLength(s, 'utf8'))
    }), { numRuns: 3000, seed: 99 })
  })

  it('utf8Length of known strings', () => {
    expect(utf8Length('')).toBe(0)
    expect(utf8Length('abc')).toBe(3)
    expect(utf8Length('é')).toBe(2)
    expect(utf8Length('中文')).toBe(6)
    expect(utf8Length('😀')).toBe(4)
    expect(utf8Length('\uD800')).toBe(3)
    expect(utf8Length('\uD800x')).toBe(4)
    expect(utf8Length('\uD800\u4E2D')).toBe(6)
  })

  it('splitByUtf8Bytes parts join back to the original and each is within the limit', () => {
    fc.assert(fc.property(anyString, fc.integer({ min: 4, max: 40 }), (s, max) => {
      const parts = splitByUtf8Bytes(s, max)
      expect(parts.join('')).toBe(s)
      for (const p of parts) {
        expect(Buffer.byteLength(p, 'utf8')).toBeLessThanOrEqual(max)
      }
      if (s.length > 0) {
        for (const p of parts) expect(p.length).toBeGreaterThan(0)
      }
    }), { numRuns: 3000, seed: 7 })
  })

  it('splitByUtf8Bytes never splits a surrogate pair and makes parts as large as allowed', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.integer({ min: 4, max: 30 }), (s, max) => {
      const parts = splitByUtf8Bytes(s, max)
      for (let i = 0; i < parts.length; i++) {
        const p = parts[i]
        expect(/^[\uDC00-\uDFFF]/.test(p)).toBe(false)
        expect(/[\uD800-\uDBFF]$/.test(p)).toBe(false)
        if (i + 1 < parts.length) {
          // Greedy: the next code point would not have fitted.
          const next = String.fromCodePoint(parts[i + 1].codePointAt(0)!)
          expect(Buffer.byteLength(p + next, 'utf8')).toBeGreaterThan(max)
        }
      }
    }), { numRuns: 2000, seed: 8 })
  })

  it('splitByUtf8Bytes keeps the string whole without a limit or when it fits', () => {
    expect(splitByUtf8Bytes('hello', 0)).toEqual(['hello'])
    expect(splitByUtf8Bytes('hello', 5)).toEqual(['hello'])
    expect(splitByUtf8Bytes('', 3)).toEqual([''])
    expect(splitByUtf8Bytes('中中中', 6)).toEqual(['中中', '中'])
    expect(splitByUtf8Bytes('a😀b', 4)).toEqual(['a', '😀', 'b'])
  })

  it('splitByUtf8Bytes counts a lone high surrogate as its own 3-byte unit, not as a pair with the next character', () => {
    const s = '\uD800\u4E2D\u4E2D'
    expect(splitByUtf8Bytes(s, 5)).toEqual(['\uD800', '\u4E2D', '\u4E2D'])
    expect(splitByUtf8Bytes('\uD800\uFFFF', 4)).toEqual(['\uD800', '\uFFFF'])
    expect(splitByUtf8Bytes('\uD800\uDC00\uD800', 4)).toEqual(['\uD800\uDC00', '\uD800'])
  })

  it('fnv1a is a stable 8-hex-digit fingerprint', () => {
    expect(fnv1a('')).toBe('811c9dc5')
    expect(fnv1a('a')).toBe('e40c292c')
    expect(fnv1a('abc')).toMatch(/^[0-9a-f]{8}$/)
    expect(fnv1a('abc')).not.toBe(fnv1a('abd'))
  })
})

/** Decodes network reads the way a transport does with utf8IncompleteTail: complete characters only. */
function decodeReads(reads: Uint8Array[]): string {
  let pending = new Uint8Array(0)
  let out = ''
  for (const read of reads) {
    const all = new Uint8Array(pending.length + read.length)
    all.set(pending, 0)
    all.set(read, pending.length)
    const keep = utf8IncompleteTail(all, all.length)
    out += new TextDecoder().decode(all.subarray(0, all.length - keep))
    pending = all.slice(all.length - keep)
  }
  return out + (pending.length > 0 ? '\uFFFD' : '')
}

describe('utf8IncompleteTail', () => {
  it('decoding reads cut anywhere gives exactly what one decode of all bytes gives (valid and broken UTF-8)', () => {
    const bytesArb = fc.oneof(
      anyString.map((s) => new TextEncoder().encode(s)),
      fc.uint8Array({ maxLength: 40 }),
      fc.tuple(anyString, fc.nat({ max: 3 })).map(([s, cut]) => {
        const b = new TextEncoder().encode(s)
        return b.slice(0, Math.max(0, b.length - cut))
      })
    )
    fc.assert(fc.property(bytesArb, fc.array(fc.nat(), { maxLength: 6 }), (bytes, cuts) => {
      const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
      const reads: Uint8Array[] = []
      let from = 0
      for (const p of points) { reads.push(bytes.slice(from, p)); from = p }
      reads.push(bytes.slice(from))
      expect(decodeReads(reads)).toBe(new TextDecoder().decode(bytes))
    }), { numRuns: 5000, seed: 1201 })
  })

  it('counts the bytes of a character still arriving, and nothing else', () => {
    const e = (s: string): Uint8Array => new TextEncoder().encode(s)
    const tail = (b: Uint8Array, drop: number): number => utf8IncompleteTail(b, b.length - drop)
    expect(tail(e('abc'), 0)).toBe(0)
    expect(tail(e('aé'), 1)).toBe(1)
    expect(tail(e('a中'), 1)).toBe(2)
    expect(tail(e('a中'), 2)).toBe(1)
    expect(tail(e('a😀'), 1)).toBe(3)
    expect(tail(e('a😀'), 3)).toBe(1)
    expect(tail(e('😀'), 0)).toBe(0)
    expect(utf8IncompleteTail(new Uint8Array([0x80, 0x80, 0x80, 0x80]), 4)).toBe(0)
    expect(utf8IncompleteTail(new Uint8Array([0xff]), 1)).toBe(0)
  })
})
