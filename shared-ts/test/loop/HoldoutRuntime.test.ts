// The holdout corpus (holdout/holdout.jsonl: written apart from the detector, see holdout/README.md)
// played through a real AgentRuntime with default options, the way an independent corpus is scored:
// no legitimate run warned or stopped, at least 95 % of the loops warned about, none before it starts.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadCorpus } from './corpus/runCorpus'
import { scoreThroughRuntime } from './corpus/runtimePlayer'

const holdout = loadCorpus(path.join(path.dirname(fileURLToPath(import.meta.url)), 'holdout', 'holdout.jsonl'))

describe('loop detection on the holdout corpus, through the runtime', () => {
  it('default options: no legitimate run warned or stopped, ≥ 95 % of loops warned about, none early', async () => {
    const score = await scoreThroughRuntime(holdout, 1)
    expect([score.legit, score.loops]).toEqual([208, 150])
    expect(score.problems.map((r) => `${r.id}: ${r.problem}`)).toEqual([])
    expect(score.warned.map((r) => `${r.id}: ${r.warnKind} at event ${r.warnedAt}`)).toEqual([])
    expect(score.stopped.map((r) => r.id)).toEqual([])
    expect(score.early.map((r) => r.id)).toEqual([])
    expect(score.caught.length / score.loops).toBeGreaterThanOrEqual(0.95)
  }, 600_000)
})
