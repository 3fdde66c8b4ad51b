// Load on PostgreSQL: 1,000 concurrent sessions across 4 processes on one database, each with an
// approval. Phase 1: every process runs 250 sessions until they wait for approval, and lets them go.
// Phase 2: every process approves the sessions another process suspended (taking their leases over),
// and the continuations run. Reported: save latency p50/p99, lease handovers, lost or duplicated
// decisions and executions (must be 0).
import { spawn } from 'node:child_process'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { migratePostgres } from '../../src/index'
import { freshSchema } from '../support/postgres'
import { flush, record } from './summary'

afterAll(() => flush('PostgresLoad'))

const url = inject('pgUrl')
const skip = url === undefined || url === ''
const repoRoot = path.resolve(__dirname, '../../..')
const loader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href
const child = path.join(repoRoot, 'shared-ts/test/node/pg-instance.mts')
const PROCESSES = 4
const PER_PROCESS = 250

interface Report {
  pid: number, saves: number, p50: number, p99: number,
  results: { sessionId: string, status?: string, decided?: number, refused?: number, takeovers?: number, handovers?: number, error?: string }[]
}

function run(command: Record<string, unknown>): Promise<Report> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', loader, child, JSON.stringify(command)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    p.stdout.on('data', (d) => { out += String(d) })
    p.stderr.on('data', (d) => { err += String(d) })
    // 'close', not 'exit': only then has all of the child's stdout been read.
    p.on('close', (code) => {
      if (code !== 0) return reject(new Error(`instance exited ${code}: ${err.slice(-2000)}`))
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as Report)
      } catch {
        reject(new Error(`instance exited 0 without a report: ${JSON.stringify(out.slice(-500))}`))
      }
    })
  })
}

function percentile(values: number[], q: number): number {
  const s = values.slice().sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]
}

describe.skipIf(skip)('load on PostgreSQL', () => {
  it(`${PROCESSES * PER_PROCESS} sessions across ${PROCESSES} processes: every approval decided once, every tool run once`, async () => {
    const fresh = await freshSchema(url, 'load')
    const pool = new pg.Pool({ connectionString: url, max: 2 })
    try {
      await migratePostgres(pool, fresh.schema)
      await pool.query(`CREATE TABLE "${fresh.schema}".tool_runs (session_id text, call_id text, pid int)`)
      await pool.query(`CREATE TABLE "${fresh.schema}".signals (what text, session_id text, pid int)`)
      const ids = (p: number) => Array.from({ length: PER_PROCESS }, (_, i) => `wipe-p${p}-${i}`)
      const base = { url, schema: fresh.schema, timeSaves: true, patienceMs: 600_000, poolMax: 8 }
      const t0 = Date.now()
      const phase1 = await Promise.all(Array.from({ length: PROCESSES }, (_, p) => run({ ...base, role: 'suspend', sessions: ids(p) })))
      const t1 = Date.now()
      const phase2 = await Promise.all(Array.from({ length: PROCESSES }, (_, p) =>
        run({ ...base, role: 'approve', sessions: ids((p + 1) % PROCESSES) })))
      const t2 = Date.now()
      const suspended = phase1.flatMap((r) => r.results)
      const approved = phase2.flatMap((r) => r.results)
      expect(suspended.filter((r) => r.status !== 'suspended')).toEqual([])
      expect(approved.filter((r) => r.error !== undefined || r.status !== 'completed')).toEqual([])
      const decisions = approved.reduce((n, r) => n + (r.decided ?? 0), 0)
      const refused = approved.reduce((n, r) => n + (r.refused ?? 0), 0)
      const handovers = approved.reduce((n, r) => n + (r.handovers ?? 0), 0)
      const takeovers = approved.reduce((n, r) => n + (r.takeovers ?? 0), 0)
      expect([handovers, takeovers]).toEqual([PROCESSES * PER_PROCESS, 0])
      expect([decisions, refused]).toEqual([PROCESSES * PER_PROCESS, 0])
      const executions = await pool.query(`SELECT session_id, count(*)::int AS n FROM "${fresh.schema}".tool_runs GROUP BY session_id`)
      expect(executions.rows.length).toBe(PROCESSES * PER_PROCESS)
      expect(executions.rows.filter((r) => r.n !== 1)).toEqual([])
      // Every decided batch ran in the process that took the session over, never in the one that suspended it.
      const strays = await pool.query(`SELECT count(*)::int AS n FROM "${fresh.schema}".tool_runs WHERE pid = ANY($1)`,
        [phase1.map((r) => r.pid)])
      expect(strays.rows[0].n).toBe(0)
      const saveSamples = [...phase1, ...phase2]
      const p50 = percentile(saveSamples.map((r) => r.p50), 0.5)
      const p99 = Math.max(...saveSamples.map((r) => r.p99))
      const saves = saveSamples.reduce((n, r) => n + r.saves, 0)
      console.log(`postgres load: ${saves} saves, per-process p50 median ${p50.toFixed(2)} ms, worst p99 ${p99.toFixed(2)} ms; ` +
        `phase 1 ${t1 - t0} ms, phase 2 ${t2 - t1} ms; ${handovers} lease handovers`)
      record('postgres load', 'sessions completed across 4 processes', approved.length, 'sessions',
        `${decisions} decisions, 0 lost, 0 duplicated; every tool run once`)
      record('postgres load', 'saves', saves, 'saves', `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; ` +
        `${Math.round(saves / ((t2 - t0) / 1000))} saves/s (250 sessions at once per process, 8 connections each, 2 cores shared with the server)`)
      record('postgres load', 'lease handovers (another process took the session)', handovers, 'sessions', 'released leases taken over')
    } finally {
      await pool.end()
      await fresh.drop()
    }
  }, 600_000)
})
