// Load: 1,000 concurrent sessions (tools + approvals) in one process. Runs in a child process with
// --expose-gc so heap numbers are measured after real collections.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { flush, record } from './summary'

afterAll(() => flush('Load'))

const repoRoot = path.resolve(__dirname, '../../..')
const SESSIONS = 1000

describe('load', () => {
  it(`${SESSIONS} concurrent sessions with tools and approvals all complete; listeners return to baseline`, () => {
    const loader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href
    const r = spawnSync(process.execPath, ['--expose-gc', '--import', loader, path.join(__dirname, 'load-child.mts'),
      String(SESSIONS)], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })
    const line = r.stdout.trim().split('\n').pop() ?? ''
    expect(r.status, `${r.stderr}\n${line}`).toBe(0)
    const out = JSON.parse(line) as {
      sessions: number, completed: number, failures: string[], executions: number, baselineListeners: number,
      peakListeners: number, listenersAfter: number, gc: boolean, perSessionBytes: number, retainedAfterDropBytes: number,
      heapAfterRuns: number, heapBefore: number
    }
    console.log(`load: ${JSON.stringify(out)}`)
    expect(out.failures).toEqual([])
    expect(out.completed).toBe(SESSIONS)
    expect(out.executions).toBe(2 * SESSIONS)              // each approved call exactly once
    expect(out.peakListeners).toBeGreaterThan(out.baselineListeners)
    expect(out.listenersAfter).toBe(out.baselineListeners)  // no leaked subscriptions
    expect(out.gc).toBe(true)
    // Dropping the sessions gives their memory back (generous bound: a leak of the sessions' state would exceed it).
    expect(out.retainedAfterDropBytes).toBeLessThan(Math.max(out.heapAfterRuns - out.heapBefore, 1) * 0.5 + 2_000_000)
    record('load', 'concurrent sessions completed', out.completed, 'sessions',
      `heap ≈ ${(out.perSessionBytes / 1024).toFixed(1)} KiB/session live; listeners back to ${out.listenersAfter}`)
  })
})
