// Several Node processes on one PostgreSQL database (pg-instance.mts is one "instance"): a session
// suspended on one is approved on another; two deciding at once give one decision and one
// continuation — with different edits, one edit wins, runs once byte for byte, and the other process
// is told the winner's edit and actor; an owner SIGKILLed mid-tool or mid-save is taken over once its lease expires, with
// every tool executed at most once and nothing committed lost. The database is real (support/postgres.ts).
import { spawn } from 'node:child_process'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { migratePostgres } from '../../src/index'
import { freshSchema } from '../support/postgres'

const url = inject('pgUrl')
const skip = url === undefined || url === ''
const repoRoot = path.resolve(__dirname, '../../..')
const loader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href
const child = path.join(__dirname, 'pg-instance.mts')

interface Result {
  sessionId: string
  status?: string
  restored?: string
  decided?: number
  refused?: number
  lockedTries?: number
  results?: string[]
  takeovers?: number
  error?: string
  /** suspend: the ids of the items waiting for a decision. */
  pending?: string[]
  /** approve-edit: what the decision returned, and the arguments each execution of the session received. */
  approvalId?: string
  pendingFound?: number
  applied?: boolean
  ok?: boolean
  errorCode?: string
  winnerArgs?: string
  winnerActor?: string
  executedArgs?: string[]
  executedBy?: number[]
  pid?: number
  /** decisions: the session's decision log as a fresh process reads it. */
  decisions?: Record<string, unknown>[]
}
interface Report { pid: number, results: Result[], saves: number, p50: number, p99: number }

interface Running { done: Promise<Report>, kill(): void, pid: number }

function start(command: Record<string, unknown>): Running {
  const p = spawn(process.execPath, ['--import', loader, child, JSON.stringify(command)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  p.stdout.on('data', (d) => { out += String(d) })
  p.stderr.on('data', (d) => { err += String(d) })
  // 'close', not 'exit': only then has all of the child's stdout been read (on a loaded machine 'exit'
  // can come first, and the report would be missing).
  const done = new Promise<Report>((resolve, reject) => {
    p.on('close', (code, sig) => {
      if (code !== 0) return reject(new Error(`instance exited ${code ?? sig}: ${err.slice(-2000)}`))
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as Report)
      } catch {
        reject(new Error(`instance exited 0 without a report: stdout ${JSON.stringify(out.slice(-500))}, stderr ${err.slice(-1000)}`))
      }
    })
  })
  return { done, kill: () => p.kill('SIGKILL'), pid: p.pid ?? 0 }
}

describe.skipIf(skip)('PostgreSQL: instances in separate processes', () => {
  let pool: pg.Pool
  let schema = ''
  let drop = async (): Promise<void> => {}
  const base = () => ({ url, schema })

  beforeAll(async () => {
    const fresh = await freshSchema(url, 'inst')
    schema = fresh.schema
    drop = fresh.drop
    pool = new pg.Pool({ connectionString: url, max: 4 })
    await migratePostgres(pool, schema)
    await pool.query(`CREATE TABLE "${schema}".tool_runs (session_id text, call_id text, pid int, args text, parsed text, at timestamptz DEFAULT clock_timestamp())`)
    await pool.query(`CREATE TABLE "${schema}".signals (what text, session_id text, pid int)`)
  })
  afterAll(async () => {
    await pool.end()
    await drop()
  })

  const runs = async (sessionId: string): Promise<number> =>
    Number((await pool.query(`SELECT count(*) FROM "${schema}".tool_runs WHERE session_id = $1`, [sessionId])).rows[0].count)

  async function waitForSignal(what: string, sessionId: string, timeoutMs: number = 600_000): Promise<void> {
    const until = Date.now() + timeoutMs
    while (Date.now() < until) {
      const r = await pool.query(`SELECT 1 FROM "${schema}".signals WHERE what = $1 AND session_id = $2`, [what, sessionId])
      if (r.rows.length > 0) return
      await new Promise((r2) => setTimeout(r2, 20))
    }
    throw new Error(`no '${what}' signal for ${sessionId}`)
  }

  it('suspended in process A, approved in process B: B restores, decides, continues; the tool ran once, in B', async () => {
    const a = await start({ ...base(), role: 'suspend', sessions: ['wipe-ab'] }).done
    expect(a.results[0]).toMatchObject({ status: 'suspended' })
    const b = await start({ ...base(), role: 'approve', sessions: ['wipe-ab'] }).done
    expect(b.results[0]).toMatchObject({ restored: 'awaiting_approval', decided: 1, status: 'completed', results: ['ok'] })
    expect(await runs('wipe-ab')).toBe(1)
    const where = await pool.query(`SELECT pid FROM "${schema}".tool_runs WHERE session_id = 'wipe-ab'`)
    expect(where.rows[0].pid).toBe(b.pid)
  }, 600_000)

  it('two processes approving the same item at once: one decision, one continuation, one execution', async () => {
    await start({ ...base(), role: 'suspend', sessions: ['wipe-race'] }).done
    const [b, c] = await Promise.all([
      start({ ...base(), role: 'approve', sessions: ['wipe-race'], patienceMs: 600_000 }).done,
      start({ ...base(), role: 'approve', sessions: ['wipe-race'], patienceMs: 600_000 }).done,
    ])
    const both = [b.results[0], c.results[0]]
    const seen = JSON.stringify(both)
    expect(both.map((r) => r.error), seen).toEqual([undefined, undefined])
    expect(both.map((r) => r.decided).sort(), seen).toEqual([0, 1])
    expect(both.map((r) => r.status), seen).toEqual(['completed', 'completed'])
    // The one that waited found the work done: nothing pending, nothing run again.
    expect(both.find((r) => r.decided === 0)?.restored, seen).toBe('idle')
    expect(await runs('wipe-race')).toBe(1)
  }, 600_000)

  it('two processes approving the same item at once with different edits: one edit wins and runs once, exactly; the other is told the winner', async () => {
    const id = 'edit-race'
    const asked = '{"path":"/var/log/app.log"}'
    const a = (await start({ ...base(), role: 'suspend', sessions: [id] }).done).results[0]
    expect(a).toMatchObject({ status: 'suspended' })
    expect(a.pending).toHaveLength(1)
    const approvalId = (a.pending ?? [])[0]
    // Both edits satisfy trim's schema; they differ in every field, and so do the actors.
    const edits = [
      { args: '{"path":"/var/log/b-only.log","keep":1}', actor: 'alice (process B)' },
      { args: '{"path":"/var/log/c-only.log","keep":2}', actor: 'bob (process C)' },
    ]
    // Ordered by a handshake: the process that restores the pending item decides only after the other
    // has found the session held (signal 'locked'), so both really go for the item at once.
    const procs = edits.map((e) => start({ ...base(), role: 'approve-edit', sessions: [id], approvalId, args: e.args,
      actor: e.actor, patienceMs: 600_000, signalLocked: true, awaitRival: true }))
    const reports = await Promise.all(procs.map((p) => p.done))
    const both = reports.map((r) => r.results[0])
    const seen = JSON.stringify(both)
    expect(both.map((r) => r.error), seen).toEqual([undefined, undefined])
    expect(both.filter((r) => r.applied === true), seen).toHaveLength(1)
    const w = both.findIndex((r) => r.applied === true)
    const winner = both[w]
    const loser = both[1 - w]
    const won = edits[w]
    expect(winner, seen).toMatchObject({ approvalId, pendingFound: 1, ok: true, winnerArgs: won.args, winnerActor: won.actor,
      status: 'completed', results: ['ok'], executedArgs: [won.args] })
    expect(winner.errorCode, seen).toBeUndefined()
    expect(loser.lockedTries, seen).toBeGreaterThan(0)
    // The loser lost, and is told what won: the winner's edit and actor, not its own.
    expect(loser, seen).toMatchObject({ approvalId, applied: false, winnerArgs: won.args, winnerActor: won.actor,
      status: 'completed', executedArgs: [won.args] })
    if (loser.ok === true) {
      // It saw the item decided but its batch not yet resumed (not expected across processes, which
      // the lease orders, but a correct answer).
      expect(loser.errorCode, seen).toBeUndefined()
    } else {
      // It restored after the winner's continuation: the batch was resumed; the decision log answers.
      expect(loser, seen).toMatchObject({ ok: false, errorCode: 'approval_consumed', restored: 'idle', pendingFound: 0 })
    }
    // The tool ran exactly once, in the winner's process, with exactly the winner's edit.
    const ran = await pool.query(`SELECT args, parsed, pid FROM "${schema}".tool_runs WHERE session_id = $1`, [id])
    expect(ran.rows, seen).toEqual([{ args: won.args, parsed: won.args, pid: procs[w].pid }])
    // A fresh process reads the decision log: approved as edited, executed as approved, by the winner.
    const d = (await start({ ...base(), role: 'decisions', sessions: [id] }).done).results[0]
    expect(d.error).toBeUndefined()
    expect(d.decisions).toEqual([{ approvalId, decision: 'approved', actor: won.actor, channel: 'ui', asked,
      approved: won.args, executed: won.args }])
  }, 600_000)

  it('an owner SIGKILLed inside a tool: after its lease expires another process takes over; the call is tool_interrupted, run once', async () => {
    // Ordered by handshakes, not by time: A is inside the tool; B has found the session locked (A's
    // lease is honoured); then A is killed and its lease made to run out (the row's expiry set to the
    // past, as the clock would) — a lease long enough that no load can make it lapse while A lives.
    const a = start({ ...base(), role: 'run-hang-tool', sessions: ['slow-kill'], leaseMs: 600_000 })
    await waitForSignal('in-tool', 'slow-kill')
    const b = start({ ...base(), role: 'resume', sessions: ['slow-kill'], patienceMs: 600_000, signalLocked: true })
    const first = await Promise.race([waitForSignal('locked', 'slow-kill', 600_000).then(() => 'locked'),
      b.done.then((r) => `B finished without finding the session locked: ${JSON.stringify(r)}`)])
    expect(first).toBe('locked')
    a.kill()
    await a.done.catch(() => {})
    await pool.query(`UPDATE "${schema}".arkagent_leases SET expires_at = clock_timestamp() - interval '1 millisecond'
      WHERE session_id = 'slow-kill'`)
    const r = (await b.done).results[0]
    expect(r).toMatchObject({ restored: 'interrupted', status: 'completed', results: ['tool_interrupted'] })
    expect(r.takeovers).toBe(1)
    expect(r.lockedTries).toBeGreaterThan(0)
    expect(await runs('slow-kill')).toBe(1)
  }, 600_000)

  for (const n of [1, 2, 3, 4, 5, 6]) {
    it(`an owner SIGKILLed in its save #${n} (header commit): the next process finds the previous commit and finishes; the tool ran at most once`, async () => {
      const id = `slow-save-${n}`
      const a = start({ ...base(), role: 'run-hang-save', sessions: [id], leaseMs: 800, hangOnHeaderCommit: n })
      const finishedFirst = await Promise.race([waitForSignal('in-save', id).then(() => false), a.done.then(() => true)])
      expect(finishedFirst, `save #${n} was never reached`).toBe(false)
      a.kill()
      await a.done.catch(() => {})
      const b = await start({ ...base(), role: 'resume', sessions: [id], patienceMs: 600_000 }).done
      const r = b.results[0]
      expect(r.error).toBeUndefined()
      if (r.restored === 'fresh') {
        // The input itself never committed: nothing to lose, nothing ran.
        expect(await runs(id)).toBe(0)
      } else {
        expect(r.status).toBe('completed')
        expect(await runs(id)).toBeLessThanOrEqual(1)
        // A call that started in A and has no committed result is reported, never run again.
        expect(r.results?.every((c) => c === 'ok' || c === 'tool_interrupted')).toBe(true)
        expect(r.results?.length).toBe(1)
      }
    }, 600_000)
  }
})
