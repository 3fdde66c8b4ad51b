// The labelled corpus played through a real AgentRuntime with the default LoopDetector
// (corpus/runtimePlayer.ts), the way the held-out corpus is scored: no legitimate run warned or
// stopped, at least 95 % of the loops warned about (and none before it starts), every loop family
// caught in both languages except the documented gap.
import { describe, expect, it } from 'vitest'
import { loadCorpus } from './corpus/runCorpus'
import { playThroughRuntime, scoreThroughRuntime } from './corpus/runtimePlayer'

const corpus = loadCorpus()
const KNOWN_GAPS = ['list-chant']

describe('loop detection corpus through the runtime', () => {
  it('default options: no legitimate run warned or stopped, ≥ 95 % of loops warned about, none early, every family caught', async () => {
    const score = await scoreThroughRuntime(corpus, 1)
    expect(score.problems.map((r) => `${r.id}: ${r.problem}`)).toEqual([])
    expect(score.warned.map((r) => `${r.id}: ${r.warnKind} at event ${r.warnedAt}`)).toEqual([])
    expect(score.stopped.map((r) => r.id)).toEqual([])
    expect(score.early.map((r) => r.id)).toEqual([])
    expect(score.caught.length / score.loops).toBeGreaterThanOrEqual(0.95)
    expect(score.missed.filter((r) => !KNOWN_GAPS.includes(r.family)).map((r) => r.id)).toEqual([])
    const families = new Set(corpus.filter((c) => c.label === 'loop' && !KNOWN_GAPS.includes(c.family)).map((c) => `${c.family}/${c.lang}`))
    const caught = new Set(score.caught.map((r) => `${r.family}/${r.lang}`))
    expect([...families].filter((f) => !caught.has(f))).toEqual([])
  }, 600_000)

  it('a loop the runtime warned about and that goes on is stopped with loop_detected', async () => {
    const loop = corpus.find((c) => c.family === 'volatile-result')!
    const r = await playThroughRuntime(loop, 2)
    expect(r.warnedAt).toBeGreaterThanOrEqual(loop.loopFrom ?? 0)
    expect(r.stopped).toBe(true)
  }, 600_000)
})
