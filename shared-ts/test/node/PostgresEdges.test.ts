// PostgresStateStorage at its edges, on the real server: migrations through any queryable, by a
// least-privilege role, on a database that cannot hold Unicode; session ids the driver would merge;
// a stale owner reading while a new owner writes; closing with the database gone.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  AgentMessage, AgentState, createAgent, ErrorCodes, FunctionTool, migratePostgres, ModelRequest, PgQueryable,
  PostgresStateStorage, ScriptedProvider, ScriptedTurn, SegmentedStorageOptions, ToolDefinition, ToolRiskLevel,
} from '../../src/index'
import { freshSchema, leaseRunsOut } from '../support/postgres'
import { heldRun } from '../runtime/helpers'

const url = inject('pgUrl')
const skip = url === undefined || url === ''
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const segments2 = () => Object.assign(new SegmentedStorageOptions(), { segmentSize: 2 })
const state = (id: string, n: number, tag = ''): AgentState => {
  const s = new AgentState(id)
  for (let i = 0; i < n; i++) s.history.push(AgentMessage.user(`message ${i}${tag} 北京`))
  return s
}
const name = (prefix: string) => `${prefix}_${Math.random().toString(36).slice(2, 8)}`

describe.skipIf(skip)('PostgreSQL edges', () => {
  let pool: pg.Pool
  let schema = ''
  let drop = async (): Promise<void> => {}
  beforeAll(async () => {
    const fresh = await freshSchema(url, 'edges')
    schema = fresh.schema
    drop = fresh.drop
    pool = new pg.Pool({ connectionString: url, max: 12 })
    pool.on('error', () => {})
    await migratePostgres(pool, schema)
  })
  afterAll(async () => {
    await pool.end()
    await drop()
  })

  describe('migrations', () => {
    it('are one transaction through any queryable: eight concurrent runs through a plain wrapper create a new schema once', async () => {
      const wrapper: PgQueryable = { query: (text, values) => pool.query(text, values as unknown[]) as never }
      for (let round = 0; round < 5; round++) {
        const fresh = name('mig')
        const versions = await Promise.all(Array.from({ length: 8 }, () => migratePostgres(wrapper, fresh)))
        expect(versions).toEqual(Array(8).fill(1))
        expect((await pool.query(`SELECT version FROM "${fresh}".arkagent_schema`)).rows).toEqual([{ version: 1 }])
        await pool.query(`DROP SCHEMA "${fresh}" CASCADE`)
      }
    })

    it('a role that owns its schema and may not create schemas migrates it', async () => {
      const role = name('app')
      await pool.query(`CREATE ROLE ${role} LOGIN PASSWORD 'pw' NOCREATEDB`)
      await pool.query(`CREATE SCHEMA ${role} AUTHORIZATION ${role}`)
      const u = new URL(url)
      u.username = role
      u.password = 'pw'
      const own = new pg.Pool({ connectionString: u.toString(), max: 2 })
      try {
        // It may not create a schema of its own: the migration must not try.
        await expect(own.query(`CREATE SCHEMA ${role}_other`)).rejects.toThrow(/permission denied/)
        expect(await migratePostgres(own, role)).toBe(1)
        const storage = new PostgresStateStorage(own, { schema: role })
        await storage.save(state('priv', 2))
        expect((await storage.load('priv'))?.state.history.length).toBe(2)
        await storage.close()
        // A schema it does not own and cannot create: a typed error, not a raw driver error.
        await expect(migratePostgres(own, `${role}_other`)).rejects.toMatchObject({ code: ErrorCodes.stateSaveFailed })
      } finally {
        await own.end()
        await pool.query(`DROP SCHEMA ${role} CASCADE`)
        await pool.query(`DROP ROLE ${role}`)
      }
    })

    it('a database that cannot store Unicode text is refused before anything is created (invalid_config)', async () => {
      const db = name('latin')
      await pool.query(`CREATE DATABASE ${db} ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0`)
      const u = new URL(url)
      u.pathname = `/${db}`
      const latin = new pg.Pool({ connectionString: u.toString(), max: 1 })
      try {
        await expect(migratePostgres(latin)).rejects.toMatchObject({ code: ErrorCodes.invalidConfig, message: expect.stringMatching(/LATIN1/) })
        expect((await latin.query(`SELECT to_regclass('public.arkagent_values') AS t`)).rows[0].t).toBeNull()
      } finally {
        await latin.end()
        await pool.query(`DROP DATABASE ${db}`)
      }
    })

    it('a schema newer than this build is state_version_unsupported', async () => {
      const fresh = name('newer')
      await migratePostgres(pool, fresh)
      await pool.query(`UPDATE "${fresh}".arkagent_schema SET version = 99`)
      await expect(migratePostgres(pool, fresh)).rejects.toMatchObject({ code: ErrorCodes.stateVersionUnsupported })
      await pool.query(`DROP SCHEMA "${fresh}" CASCADE`)
    })
  })

  describe('session ids', () => {
    it('ids the driver would merge or cannot send are refused (invalid_config) and nothing is written', async () => {
      const storage = new PostgresStateStorage(pool, { schema, owner: 'ids' })
      for (const bad of ['x\uD800', 'x\uDC00y', 'nul\u0000', '', 'x'.repeat(257)]) {
        await expect(storage.save(state(bad, 1))).rejects.toMatchObject({ code: ErrorCodes.invalidConfig })
        await expect(storage.load(bad)).rejects.toMatchObject({ code: ErrorCodes.invalidConfig })
      }
      await storage.save(state('x\uFFFD', 1))
      await storage.save(state('😀'.repeat(128), 1))
      expect((await storage.load('😀'.repeat(128)))?.state.history.length).toBe(1)
      const rows = await pool.query(`SELECT DISTINCT session_id FROM "${schema}".arkagent_values WHERE session_id LIKE 'x%' OR session_id LIKE '😀%'`)
      expect(rows.rows.map((r) => r.session_id).sort()).toEqual(['x\uFFFD', '😀'.repeat(128)].sort())
      await storage.close()
    })
  })

  describe('a stale owner', () => {
    it('reading while a new owner writes gets session_locked, never state_corrupt for a healthy session', async () => {
      let pauseSegments = false
      let resume = (): void => {}
      const gate = new Promise<void>((r) => { resume = r })
      let paused = (): void => {}
      const reached = new Promise<void>((r) => { paused = r })
      const slow: PgQueryable = {
        query: async (text, values) => {
          if (pauseSegments && text.startsWith('SELECT value') && values !== undefined && String(values[1]).startsWith('seg-')) {
            paused()
            await gate
          }
          return pool.query(text, values as unknown[]) as never
        },
      }
      const a = new PostgresStateStorage(slow, { schema, owner: 'A', leaseMs: 300 }, segments2())
      await a.save(state('stale', 3))
      await a.pg.stallRenewals()
      await leaseRunsOut(pool, schema, 'stale')
      const b = new PostgresStateStorage(pool, { schema, owner: 'B' }, segments2())
      await b.load('stale')
      pauseSegments = true
      const loading = a.load('stale').then(() => 'loaded', (e) => e.code)
      await reached
      await b.save(state('stale', 4, 'b'))
      pauseSegments = false
      resume()
      expect(await loading).toBe(ErrorCodes.sessionLocked)
      expect((await b.load('stale'))?.state.history.length).toBe(4)
      await b.close()
      await a.close()
    })
  })

  describe('one instance, two requests', () => {
    it('two runtimes on one storage approving the same item at once: one decision, the tool runs once', async () => {
      const storage = new PostgresStateStorage(pool, { schema, owner: 'one-instance' })
      const runs: string[] = []
      const agent = () => createAgent({ sessionId: 'twice', storage,
        model: ScriptedProvider.fromFunction((r: ModelRequest) => r.messages[r.messages.length - 1].role === 'tool' ? ScriptedTurn.text('done') : ScriptedTurn.text('').call('w1', 'wipe', '{}')),
        tools: [new FunctionTool(new ToolDefinition('wipe', 'wipe', { type: 'object' }, ToolRiskLevel.dangerous), async () => { runs.push('wipe'); return 'wiped' })] })
      const first = agent()
      await first.runtime.run('wipe')
      const id = first.controller.listPendingApprovals()[0].approvalId
      const [a, b] = [agent(), agent()]
      await Promise.all([a.runtime.restore(), b.runtime.restore()])
      const results = await Promise.all([a.controller.approve(id), b.controller.approve(id)])
      await Promise.all([a.runtime.whenIdle(), b.runtime.whenIdle()])
      expect(results.map((r) => r.ok).sort()).toEqual([false, true])
      expect(results.find((r) => !r.ok)?.error?.code).toBe(ErrorCodes.sessionLocked)
      expect(runs).toEqual(['wipe'])
      await storage.close()
    })
  })

  describe('a runtime holding a copy from before the session changed hands', () => {
    it('cannot write it back over another instance\'s turn after its lease was lost, even once a newer request on its instance loaded the session', async () => {
      const a = new PostgresStateStorage(pool, { schema, owner: 'A-g1', leaseMs: 300 })
      const b = new PostgresStateStorage(pool, { schema, owner: 'B-g1' })
      const model = (tag: string) => ScriptedProvider.fromFunction(() => ScriptedTurn.text(`ok ${tag}`))
      const first = createAgent({ sessionId: 'g1', model: model('first'), storage: a })
      await first.runtime.run('first')
      first.runtime.dispose()
      const stale = createAgent({ sessionId: 'g1', model: model('stale'), storage: a })
      await stale.runtime.restore()
      // A's lease is lost (a stalled instance): B takes the session over and runs a turn.
      await a.pg.stallRenewals()
      await leaseRunsOut(pool, schema, 'g1')
      const other = createAgent({ sessionId: 'g1', model: model('B'), storage: b })
      expect((await other.runtime.run('B turn')).status).toBe('completed')
      other.runtime.dispose()
      await b.release('g1')
      const newer = createAgent({ sessionId: 'g1', model: model('newer'), storage: a })
      await newer.runtime.restore()
      const outcome = await stale.runtime.run('stale turn').then((o) => o.error?.code, (e) => e.code)
      expect(outcome).toBe(ErrorCodes.sessionLocked)
      const texts = (await b.load('g1').catch(() => undefined))?.state.history.map((m) => m.text()) ??
        (await a.load('g1'))?.state.history.map((m) => m.text())
      expect(texts).toEqual(['first', 'ok first', 'B turn', 'ok B'])
      await a.close()
      await b.close()
    })
  })

  describe('two requests of one instance on one session', () => {
    it('a request that restores and releases in finally while another runs the session does not take the lease from it', async () => {
      const storage = new PostgresStateStorage(pool, { schema, owner: 'P1' })
      const held = heldRun(storage, 'p1')
      const r2 = held.agent
      const running = r2.runtime.run('go')
      await held.started
      const r1 = createAgent({ sessionId: 'p1', storage, model: ScriptedProvider.fromFunction(() => ScriptedTurn.text('x')) })
      // r1 is a status request: it cannot restore while r2 runs, and its release in finally gives nothing up.
      try {
        await expect(r1.runtime.restore()).rejects.toMatchObject({ code: ErrorCodes.sessionLocked })
      } finally {
        r1.runtime.dispose()
        await storage.release('p1')
      }
      held.release()
      const outcome = await running
      expect([outcome.status, outcome.persisted]).toEqual(['completed', true])
      expect(storage.pg.leasedSessions()).toEqual(['p1'])
      r2.runtime.dispose()
      await storage.release('p1')
      expect(storage.pg.leasedSessions()).toEqual([])
      await storage.close()
    })
  })

  describe('writes of a state not loaded under the current lease', () => {
    it('a load that failed under a new lease does not let an old copy be saved over another owner\'s work', async () => {
      let failSegment = false
      const db: PgQueryable = {
        query: async (text, values) => {
          if (failSegment && text.startsWith('SELECT value') && values !== undefined && String(values[1]).startsWith('seg-')) {
            failSegment = false
            throw new Error('connection terminated unexpectedly')
          }
          return pool.query(text, values as unknown[]) as never
        },
      }
      const a = new PostgresStateStorage(db, { schema, owner: 'A-f2' }, segments2())
      await a.save(state('f2', 2, 'a'))
      const mine = (await a.load('f2'))!.state
      await a.release('f2')
      const b = new PostgresStateStorage(pool, { schema, owner: 'B-f2' }, segments2())
      const theirs = (await b.load('f2'))!.state
      theirs.history.push(AgentMessage.user('B work'))
      await b.save(theirs)
      await b.release('f2')
      failSegment = true
      await expect(a.load('f2')).rejects.toMatchObject({ code: ErrorCodes.stateLoadFailed })
      await expect(a.save(mine)).rejects.toMatchObject({ code: ErrorCodes.sessionLocked })
      expect((await b.load('f2'))?.state.history.map((m) => m.text()).at(-1)).toBe('B work')
      await a.close()
      await b.close()
    })

    it('a failed check under a new lease is made again on the retry (never skipped)', async () => {
      let failCheck = false
      const db: PgQueryable = {
        query: async (text, values) => {
          if (failCheck && text.startsWith('SELECT 1 FROM') && text.includes('arkagent_values')) {
            failCheck = false
            throw new Error('connection reset')
          }
          return pool.query(text, values as unknown[]) as never
        },
      }
      const a = new PostgresStateStorage(db, { schema, owner: 'A-f1' }, segments2())
      await a.save(state('f1', 2, 'a'))
      const mine = (await a.load('f1'))!.state
      await a.release('f1')
      const b = new PostgresStateStorage(pool, { schema, owner: 'B-f1' }, segments2())
      const theirs = (await b.load('f1'))!.state
      theirs.history.push(AgentMessage.user('B work'))
      await b.save(theirs)
      await b.release('f1')
      failCheck = true
      await expect(a.save(mine)).rejects.toMatchObject({ code: ErrorCodes.stateSaveFailed })
      await expect(a.save(mine)).rejects.toMatchObject({ code: ErrorCodes.sessionLocked })
      expect((await b.load('f1'))?.state.history.length).toBe(3)
      await a.close()
      await b.close()
    })

    it('genuine damage under an expired lease nobody took is state_corrupt, not session_locked', async () => {
      const a = new PostgresStateStorage(pool, { schema, owner: 'A-s1', leaseMs: 300 }, segments2())
      await a.save(state('damaged', 3))
      await pool.query(`UPDATE "${schema}".arkagent_values SET value = value || 'x' WHERE session_id = 'damaged' AND key LIKE 'seg-0-%'`)
      await a.pg.stallRenewals()
      await leaseRunsOut(pool, schema, 'damaged')
      await expect(a.load('damaged')).rejects.toMatchObject({ code: ErrorCodes.stateCorrupt })
      await a.close()
    })
  })

  describe('memory', () => {
    it('a released session keeps nothing in the storage (its history included); using it again reads it afresh', async () => {
      class Counting extends PostgresStateStorage {
        held(): number { return this.knownSessions().length }
      }
      const storage = new Counting(pool, { schema, owner: 'mem' })
      for (let i = 0; i < 50; i++) {
        await storage.save(state(`mem-${i}`, 3))
        await storage.release(`mem-${i}`)
      }
      expect(storage.held()).toBe(0)
      const again = (await storage.load('mem-7'))!.state
      again.history.push(AgentMessage.user('more'))
      await storage.save(again)
      expect((await storage.load('mem-7'))?.state.history.length).toBe(4)
      expect(storage.held()).toBe(1)
      await storage.close()
    })
  })

  describe('close', () => {
    it('waits for the operations queued before it, leaves no lease held or renewed, and refuses what comes after', async () => {
      const a = new PostgresStateStorage(pool, { schema, owner: 'A-close', leaseMs: 300 })
      const loading = a.load('closing')
      await a.close()
      await loading
      expect(a.pg.leasedSessions()).toEqual([])
      await sleep(400)
      const b = new PostgresStateStorage(pool, { schema, owner: 'B-close' })
      await b.load('closing')
      await expect(a.load('after-close')).rejects.toMatchObject({ code: ErrorCodes.invalidConfig })
      await expect(a.release('x\uD800')).rejects.toThrow(/not usable/)
      await b.close()
    })

    it('refuses system schemas', async () => {
      for (const system of ['information_schema', 'pg_catalog', 'pg_toast']) {
        await expect(migratePostgres(pool, system)).rejects.toMatchObject({ code: ErrorCodes.invalidConfig })
      }
    })

    it('with the database gone, tries every release, stops renewing, and says what failed', async () => {
      let down = false
      let renewals = 0
      const flaky: PgQueryable = {
        query: async (text, values) => {
          if (text.startsWith('UPDATE') && text.includes('SET expires_at = clock_timestamp()')) renewals++
          if (down) throw new Error('connection terminated')
          return pool.query(text, values as unknown[]) as never
        },
      }
      const storage = new PostgresStateStorage(flaky, { schema, owner: 'closing', leaseMs: 300 })
      for (const id of ['c1', 'c2', 'c3']) await storage.save(state(id, 1))
      down = true
      const releases: string[] = []
      const original = storage.pg.release.bind(storage.pg)
      storage.pg.release = async (id: string) => { releases.push(id); return original(id) }
      await expect(storage.close()).rejects.toMatchObject({ code: ErrorCodes.stateSaveFailed })
      expect(releases.sort()).toEqual(['c1', 'c2', 'c3'])
      const before = renewals
      await sleep(400)
      expect(renewals).toBe(before)
      down = false
    })
  })
})
