// The redactor's sliced scan (FragmentIndex.rangesAsync, SecretVault.redactAsync/leaksAsync,
// Redactor.toolResultAsync) gives the (UI) thread back between slices of a long text. The rule must
// hold exactly across every slice boundary: secrets (as given, JSON-escaped, URL-encoded, base64 at
// each alignment) and 8-character runs of them are put across every boundary, for every slice size
// from 1 to past the longest form, and the sliced result must equal the one-pass result; the texts
// the vault lets out are scanned independently for any 8-character run of any form.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FragmentIndex } from '../../src/core/secrets/FragmentIndex'
import { Redactor } from '../../src/core/redaction/Redactor'
import { SecretForms } from '../../src/core/secrets/SecretForms'
import { SecretVault } from '../../src/core/secrets/SecretVault'
import { ContentPart } from '../../src/core/model/ContentPart'
import { ToolResult } from '../../src/core/model/ToolResult'
import { HostYield } from '../../src/core/host/HostYield'

const SECRETS = ['sk-live-5c1b0f6e9d2a47b8a3e1', 'pw/ü+秘密=x?&y', 'k9Zq2']
const FRAGMENT = 8

function indexOf(secrets: string[]): FragmentIndex {
  const index = new FragmentIndex(FRAGMENT)
  for (const s of secrets) for (const f of SecretForms.of(s)) index.add(f)
  return index
}

/** Every form of every secret, computed with Node's own encoders (independent of SecretForms). */
function forms(secret: string): string[] {
  const out = new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])
  for (const align of [0, 1, 2]) {
    const bytes = Buffer.concat([Buffer.alloc(align), Buffer.from(secret, 'utf8')])
    const b64 = bytes.subarray(0, bytes.length - bytes.length % 3).toString('base64')
    const inner = align > 0 ? b64.slice(4) : b64
    out.add(inner)
    out.add(inner.replace(/\+/g, '-').replace(/\//g, '_'))
  }
  return [...out].filter((f) => f.length > 0)
}

/** Pieces of a secret that must not leave: every 8-run of a long form, a short form whole. */
function leaks(text: string, secrets: string[]): string[] {
  const found: string[] = []
  for (const s of secrets) {
    for (const f of forms(s)) {
      if (f.length < FRAGMENT) {
        if (text.includes(f)) found.push(f)
        continue
      }
      for (let i = 0; i + FRAGMENT <= f.length; i++) {
        if (text.includes(f.slice(i, i + FRAGMENT))) found.push(f.slice(i, i + FRAGMENT))
      }
    }
  }
  return found
}

const allForms = SECRETS.flatMap((s) => SecretForms.of(s))
const longest = Math.max(...allForms.map((f) => f.length))
const filler = fc.string({ unit: fc.constantFrom('a', 'b', '-', '/', '+', '=', '%', '2', 'k', ' ', '\n', '秘', 'ü'), maxLength: 40 })
/** Text made of filler and whole forms or 8+ runs of them, in any order. */
const mixed = fc.array(fc.oneof(filler, fc.constantFrom(...allForms),
  fc.tuple(fc.constantFrom(...allForms), fc.nat(), fc.nat()).map(([f, a, b]) => {
    const start = a % Math.max(1, f.length - FRAGMENT + 1)
    return f.slice(start, start + FRAGMENT + (b % (f.length - start - FRAGMENT + 1 || 1)))
  })), { maxLength: 12 }).map((p) => p.join(''))

describe('sliced redaction', () => {
  const index = indexOf(SECRETS)

  it('finds what one pass finds, for every slice size and every boundary inside every form', async () => {
    for (const form of allForms) {
      for (let lead = 0; lead <= form.length + 1; lead++) {
        const text = 'x'.repeat(lead) + form + 'y'.repeat(3)
        const expected = index.ranges(text)
        expect(expected.length).toBeGreaterThan(0)
        for (let slice = 1; slice <= longest + 2; slice++) {
          expect(await index.rangesAsync(text, slice)).toEqual(expected)
        }
      }
    }
  })

  it('equals the one-pass scan on random texts and slices (property)', async () => {
    await fc.assert(fc.asyncProperty(mixed, fc.integer({ min: 1, max: 64 }), async (text, slice) => {
      expect(await index.rangesAsync(text, slice)).toEqual(index.ranges(text))
    }), { numRuns: 400, seed: 20261203 })
  })

  it('redactAsync lets out no fragment and equals redact on long texts, giving the thread back', async () => {
    for (const s of SECRETS) SecretVault.register(s)
    await fc.assert(fc.asyncProperty(mixed, fc.integer({ min: 1, max: 97 }), async (middle, slice) => {
      // Long enough for the sliced path; the secrets sit across slice boundaries all along the text.
      let text = ''
      while (text.length < SecretVault.ASYNC_MIN_LENGTH) text += middle + allForms[text.length % allForms.length] + '.'
      const before = HostYield.yields
      const sliced = await SecretVault.redactAsync(text, slice)
      expect(sliced).toBe(SecretVault.redact(text))
      expect(leaks(sliced, SECRETS)).toEqual([])
      expect(await SecretVault.leaksAsync(text, slice)).toBe(true)
      expect(await SecretVault.leaksAsync(sliced, slice)).toBe(false)
      expect(HostYield.yields).toBeGreaterThan(before)
    }), { numRuns: 25, seed: 20261204 })
  })

  it('a tool result is redacted asynchronously exactly as synchronously, every part type', async () => {
    for (const s of SECRETS) SecretVault.register(s)
    const long = (tail: string): string => `${'log line ok\n'.repeat(7000)}${tail}${'.'.repeat(100)}`
    const parts = [
      ContentPart.text(long(SECRETS[0])),
      ContentPart.reasoning(long(encodeURIComponent(SECRETS[1]))),
      ContentPart.json(JSON.stringify({ log: long(SECRETS[2]) })),
      ContentPart.json(JSON.stringify({ log: long('clean') })),
      ContentPart.text('short ' + SECRETS[0]),
    ]
    const result = new ToolResult('call-1', parts, false)
    const sync = Redactor.toolResult(result)
    const async = await Redactor.toolResultAsync(result)
    expect(async.content.map((p) => [p.type, p.text, p.data])).toEqual(sync.content.map((p) => [p.type, p.text, p.data]))
    for (const p of async.content) expect(leaks(p.text, SECRETS)).toEqual([])
    expect(async.content[3]).toBe(parts[3])
  })
})
