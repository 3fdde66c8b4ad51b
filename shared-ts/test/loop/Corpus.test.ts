// The labelled corpus (corpus/corpus.jsonl, written by corpus/generate.mjs and corpus/cases-v3.mjs),
// fed to the detector directly (corpus/runCorpus.ts): no false alarm on any legitimate output or
// trace, at least 95 % of the loops caught, none reported before it starts, whatever the chunking of
// the stream. CorpusRuntime.test.ts plays the same corpus through a real AgentRuntime.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { LoopDetector } from '../../src/core/loop/LoopDetector'
import { loadCorpus, scoreCorpus } from './corpus/runCorpus'

const corpus = loadCorpus()
const here = path.dirname(new URL(import.meta.url).pathname)

describe('loop detection corpus', () => {
  it('is what the generator writes, with enough cases of each kind in both languages', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-corpus-')), 'corpus.jsonl')
    execFileSync(process.execPath, [path.join(here, 'corpus', 'generate.mjs'), out])
    expect(fs.readFileSync(out, 'utf8')).toBe(fs.readFileSync(path.join(here, 'corpus', 'corpus.jsonl'), 'utf8'))
    const legit = corpus.filter((c) => c.label === 'legit')
    const loops = corpus.filter((c) => c.label === 'loop')
    expect(legit.length).toBeGreaterThanOrEqual(200)
    expect(loops.length).toBeGreaterThanOrEqual(100)
    for (const set of [legit, loops]) {
      expect(set.filter((c) => c.lang === 'zh').length).toBeGreaterThanOrEqual(set.length / 3)
      expect(set.filter((c) => c.lang === 'en').length).toBeGreaterThanOrEqual(set.length / 3)
    }
    expect(new Set(corpus.map((c) => c.id)).size).toBe(corpus.length)
  })

  it('holds every v3 class (issue 28), legitimate and looping, in English and in Chinese', () => {
    const V3_LEGIT = ['fence-nested', 'quoted-input', 'data-inline', 'asked-repeat', 'asked-repeat-text', 'paced-poll',
      'volatile-progress', 'stock-among-varied', 'same-heading-varied', 'summary-twice', 'revisit-files']
    const V3_LOOPS = ['volatile-result', 'volatile-args', 'clock-cycle', 'cycle-7', 'cycle-8', 'stock-random', 'long-block',
      'heading-paragraph', 'beyond-asked', 'after-fence-chant', 'chant-beside-quote']
    const v3 = corpus.filter((c) => V3_LEGIT.includes(c.family) || V3_LOOPS.includes(c.family))
    expect(v3.length).toBeGreaterThanOrEqual(150)
    for (const [label, families] of [['legit', V3_LEGIT], ['loop', V3_LOOPS]] as const) {
      for (const family of families) {
        for (const lang of ['en', 'zh']) {
          expect([family, lang, corpus.some((c) => c.label === label && c.family === family && c.lang === lang)]).toEqual([family, lang, true])
        }
      }
    }
    // The new format: user messages and call times.
    expect(v3.filter((c) => c.events.some((e) => e.t === 'user')).length).toBe(v3.length)
    expect(v3.some((c) => c.events.some((e) => e.t === 'call' && e.atMs !== undefined))).toBe(true)
  })

  for (const seed of [1, 2, 3]) {
    it(`default options, chunking seed ${seed}: 0 false alarms, ≥ 95 % of loops caught, none early`, async () => {
      const score = await scoreCorpus(() => new LoopDetector(), corpus, seed)
      expect(score.falseAlarms.map((r) => `${r.id}: ${r.verdict?.kind} ${r.verdict?.signature}`)).toEqual([])
      expect(score.early.map((r) => r.id)).toEqual([])
      expect(score.caught.length / score.loops).toBeGreaterThanOrEqual(0.95)
    }, 600_000)
  }

  it('catches every loop family in English and in Chinese, except the documented gap (chanting inside list items)', async () => {
    const KNOWN_GAPS = ['list-chant']
    const score = await scoreCorpus(() => new LoopDetector(), corpus, 7)
    const langOf = (id: string): string => corpus.find((c) => c.id === id)?.lang ?? ''
    const families = new Set(corpus.filter((c) => c.label === 'loop' && !KNOWN_GAPS.includes(c.family)).map((c) => `${c.family}/${c.lang}`))
    const caught = new Set(score.caught.map((r) => `${r.family}/${langOf(r.id)}`))
    expect([...families].filter((f) => !caught.has(f))).toEqual([])
    // If the gap closes, docs/loop-detection.md must say so.
    expect(score.missed.every((r) => KNOWN_GAPS.includes(r.family))).toBe(true)
    expect(score.missed.length).toBe(corpus.filter((c) => KNOWN_GAPS.includes(c.family)).length)
  }, 600_000)
})
