// PostgresStateStorage on a real PostgreSQL server (started by the test run: support/postgres.ts):
// the storage contract every storage keeps, the lease and its fencing token, and two runtimes on
// two storages (two "instances") sharing one database.
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  AgentHook, PgQueryable, AgentRuntime, AgentRuntimeConfig, AgentState, AgentMessage, ApprovalPolicyHook, AgentHookPipeline, ErrorCodes,
  ToolCallHookContext, ToolCallHookResult,
  FunctionTool, migratePostgres, POSTGRES_SCHEMA_VERSION, PostgresSegmentBackend, PostgresStateStorage, RestoreKind,
  RunStatus, ScriptedProvider, ScriptedTurn, SegmentedStateStorage, SegmentedStorageOptions, SessionStatus, ToolDefinition,
  ToolRegistry, ToolRiskLevel,
} from '../../src/index'
import { HarnessFactory, storageContract } from '../foundations/storageContract'
import { freshSchema, leaseRunsOut } from '../support/postgres'
import { utf8Length } from '../../src/core/util/Text'

const url = inject('pgUrl')
const skip = url === undefined || url === ''
if (skip) console.log(`Postgres suites skipped: ${inject('pgSkipReason') ?? 'no server'}`)

function pgFactory(): HarnessFactory {
  let pool: pg.Pool | undefined
  let drop = async (): Promise<void> => {}
  return {
    name: 'PostgresStateStorage',
    setup: async () => {
      const fresh = await freshSchema(url, 'contract')
      drop = fresh.drop
      const schema = fresh.schema
      const p = new pg.Pool({ connectionString: url, max: 6 })
      pool = p
      await migratePostgres(p, schema)
      const backend = new PostgresSegmentBackend(p, { schema, lease: false })
      return {
        inner: () => backend,
        storage: (o?: SegmentedStorageOptions) => new PostgresStateStorage(p, { schema, lease: false }, o ?? new SegmentedStorageOptions()),
        over: (b, o?: SegmentedStorageOptions) => new SegmentedStateStorage(b, o ?? new SegmentedStorageOptions()),
        storedSizes: async (sid: string) => {
          const r = await p.query(`SELECT key, value FROM "${schema}".arkagent_values WHERE session_id = $1`, [sid])
          return new Map(r.rows.map((row) => [row.key === 'header' ? '#header' : String(row.key), utf8Length(String(row.value))]))
        },
      }
    },
    teardown: async () => {
      await pool?.end()
      await drop()
    },
  }
}

describe.skipIf(skip)('PostgreSQL', () => {
  storageContract(pgFactory())

  let pool: pg.Pool
  let schema = ''
  let drop = async (): Promise<void> => {}
  beforeAll(async () => {
    const fresh = await freshSchema(url, 'lease')
    schema = fresh.schema
    drop = fresh.drop
    pool = new pg.Pool({ connectionString: url, max: 10 })
    expect(await migratePostgres(pool, schema)).toBe(POSTGRES_SCHEMA_VERSION)
  })
  afterAll(async () => {
    await pool.end()
    await drop()
  })

  const state = (id: string, n: number): AgentState => {
    const s = new AgentState(id)
    for (let i = 0; i < n; i++) s.history.push(AgentMessage.user(`message ${i} 北京`))
    return s
  }

  describe('migrations', () => {
    it('are idempotent and safe to run from several instances at once', async () => {
      const runs = await Promise.all([1, 2, 3, 4].map(() => migratePostgres(pool, schema)))
      expect(runs).toEqual([1, 1, 1, 1])
      const v = await pool.query(`SELECT version FROM "${schema}".arkagent_schema`)
      expect(v.rows).toEqual([{ version: 1 }])
    })

    it('refuse a schema name that is not a plain identifier', async () => {
      await expect(migratePostgres(pool, 'x"; DROP TABLE y; --')).rejects.toMatchObject({ code: ErrorCodes.invalidConfig })
      expect(() => new PostgresStateStorage(pool, { schema: 'Bad-Name' })).toThrow(/schema name/)
    })
  })

  describe('the lease', () => {
    it('a second owner is refused with session_locked naming the holder, and gets the session once it is released', async () => {
      const a = new PostgresStateStorage(pool, { schema, owner: 'instance-a' })
      const b = new PostgresStateStorage(pool, { schema, owner: 'instance-b' })
      await a.save(state('lease-1', 3))
      const refused = await b.load('lease-1').then(() => undefined, (e) => e)
      expect(refused).toMatchObject({ code: ErrorCodes.sessionLocked })
      expect(String(refused.message)).toContain('instance-a holds it until')
      await a.release('lease-1')
      expect((await b.load('lease-1'))?.state.history.length).toBe(3)
      await b.close()
      await a.close()
    })

    it('a stalled owner\'s lease expires; the next owner takes over and the stale owner\'s writes are refused, nothing interleaved', async () => {
      const a = new PostgresStateStorage(pool, { schema, owner: 'stalled', leaseMs: 300 })
      await a.save(state('lease-2', 2))
      await a.pg.stallRenewals()
      await leaseRunsOut(pool, schema, 'lease-2')
      const b = new PostgresStateStorage(pool, { schema, owner: 'next', leaseMs: 5000 })
      expect((await b.load('lease-2'))?.state.history.length).toBe(2)
      expect(b.pg.takeovers).toBe(1)
      await b.save(state('lease-2', 5))
      // The stalled owner wakes up and writes: refused, and the session is still the new owner's.
      await expect(a.save(state('lease-2', 9))).rejects.toMatchObject({ code: ErrorCodes.sessionLocked })
      await expect(a.markNotResumable('lease-2', 'stale')).rejects.toMatchObject({ code: ErrorCodes.sessionLocked })
      const check = new PostgresStateStorage(pool, { schema, lease: false })
      const loaded = await check.load('lease-2')
      expect([loaded?.state.history.length, loaded?.resumable]).toEqual([5, true])
      await b.close()
      await a.close()
    })

    it('fencing tokens only grow: released, taken, released, taken again', async () => {
      const fences: number[] = []
      for (let i = 0; i < 4; i++) {
        const s = new PostgresStateStorage(pool, { schema, owner: `o${i}` })
        await s.load('lease-3')
        await s.save(state('lease-3', i + 1))
        const r = await pool.query(`SELECT fence FROM "${schema}".arkagent_leases WHERE session_id = 'lease-3'`)
        fences.push(Number(r.rows[0].fence))
        await s.close()
      }
      expect(fences).toEqual([1, 2, 3, 4])
    })

    it('an instance that takes a session back reads the other owner\'s segments, not its own memory of them', async () => {
      const a = new PostgresStateStorage(pool, { schema, owner: 'a' }, Object.assign(new SegmentedStorageOptions(), { segmentSize: 2 }))
      const b = new PostgresStateStorage(pool, { schema, owner: 'b' }, Object.assign(new SegmentedStorageOptions(), { segmentSize: 2 }))
      await a.save(state('lease-4', 6))
      await a.release('lease-4')
      await b.load('lease-4')
      const other = state('lease-4', 3)
      other.history[0] = AgentMessage.user('rewritten by b')
      await b.save(other)
      await b.release('lease-4')
      expect((await a.load('lease-4'))?.state.history[0].text()).toBe('rewritten by b')
      await a.save(state('lease-4', 7))
      await a.release('lease-4')
      const loaded = await new PostgresStateStorage(pool, { schema, lease: false }).load('lease-4')
      expect(loaded?.state.history.map((m) => m.text())).toEqual(state('lease-4', 7).history.map((m) => m.text()))
      await a.close()
      await b.close()
    })

    it('an instance that gave a session up cannot write its old state over the next owner\'s: it must load again', async () => {
      const a = new PostgresStateStorage(pool, { schema, owner: 'a' })
      const b = new PostgresStateStorage(pool, { schema, owner: 'b' })
      await a.save(state('lease-5', 2))
      await a.release('lease-5')
      await b.load('lease-5')
      await b.save(state('lease-5', 4))
      await b.release('lease-5')
      // A's runtime still holds its 2-message state: saving it would undo B's work.
      await expect(a.save(state('lease-5', 3))).rejects.toMatchObject({ code: ErrorCodes.sessionLocked })
      await expect(a.markNotResumable('lease-5', 'old')).rejects.toMatchObject({ code: ErrorCodes.sessionLocked })
      expect(a.pg.leasedSessions()).toEqual([])
      const loaded = await b.load('lease-5')
      expect([loaded?.state.history.length, loaded?.resumable]).toEqual([4, true])
      await b.close()
      await a.close()
    })

    it('a save in progress when its instance releases the session finishes first; nothing of it lands after the release', async () => {
      let unblock = (): void => {}
      const gate = new Promise<void>((r) => { unblock = r })
      let held = false
      const slow: PgQueryable = {
        query: async (text: string, values?: unknown[]) => {
          if (!held && text.includes('INSERT INTO') && values !== undefined && String(values[2]).startsWith('seg-')) {
            held = true
            await gate
          }
          return pool.query(text, values as unknown[]) as never
        },
      }
      const a = new PostgresStateStorage(slow, { schema, owner: 'a' })
      await a.load('lease-6')
      const saving = a.save(state('lease-6', 3))
      await new Promise((r) => setTimeout(r, 50))
      const releasing = a.release('lease-6')
      const b = new PostgresStateStorage(pool, { schema, owner: 'b' })
      // The release waits for the save: B is refused until then.
      await expect(b.load('lease-6')).rejects.toMatchObject({ code: ErrorCodes.sessionLocked })
      unblock()
      await saving
      await releasing
      expect((await b.load('lease-6'))?.state.history.length).toBe(3)
      await b.save(state('lease-6', 5))
      expect(a.pg.leasedSessions()).toEqual([])
      expect((await new PostgresStateStorage(pool, { schema, lease: false }).load('lease-6'))?.state.history.length).toBe(5)
      await b.close()
    })

    it('a renewal on its way never revives a released lease', async () => {
      // A renewal is held on its way (sent, not yet executed) while the lease is released, then let through.
      let holdRenewal = false
      let renewalHeld = (): void => {}
      const held = new Promise<void>((r) => { renewalHeld = r })
      let letThrough = (): void => {}
      const gate = new Promise<void>((r) => { letThrough = r })
      let landed = (): void => {}
      const renewalLanded = new Promise<void>((r) => { landed = r })
      const laggy: PgQueryable = {
        query: async (text: string, values?: unknown[]) => {
          if (holdRenewal && text.startsWith('UPDATE') && text.includes('clock_timestamp() +')) {
            holdRenewal = false
            renewalHeld()
            await gate
            try {
              return await pool.query(text, values as unknown[]) as never
            } finally {
              landed()
            }
          }
          return pool.query(text, values as unknown[]) as never
        },
      }
      const a = new PostgresStateStorage(laggy, { schema, owner: 'a', leaseMs: 300 })
      await a.save(state('lease-7', 1))
      holdRenewal = true
      await held
      await a.release('lease-7')
      letThrough()
      await renewalLanded
      const b = new PostgresStateStorage(pool, { schema, owner: 'b' })
      expect((await b.load('lease-7'))?.state.history.length).toBe(1)
      expect(b.pg.handovers).toBe(1)
      expect(b.pg.takeovers).toBe(0)
      await b.close()
      await a.close()
    })

    it('counts a crashed owner\'s expired lease as a takeover and a released one as a handover', async () => {
      const a = new PostgresStateStorage(pool, { schema, owner: 'a', leaseMs: 200 })
      await a.save(state('lease-8', 1))
      await a.pg.stallRenewals()
      await leaseRunsOut(pool, schema, 'lease-8')
      const b = new PostgresStateStorage(pool, { schema, owner: 'b' })
      await b.load('lease-8')
      await b.release('lease-8')
      const c = new PostgresStateStorage(pool, { schema, owner: 'c' })
      await c.load('lease-8')
      expect([b.pg.takeovers, b.pg.handovers, c.pg.takeovers, c.pg.handovers]).toEqual([1, 0, 0, 1])
      await c.close()
    })
  })

  describe('an unreachable database', () => {
    it('fails loads with state_load_failed and saves with state_save_failed (retryable), naming the session', async () => {
      const dead = new pg.Pool({ connectionString: 'postgres://nobody:x@127.0.0.1:1/none', connectionTimeoutMillis: 500 })
      const storage = new PostgresStateStorage(dead, { schema })
      await expect(storage.load('gone')).rejects.toMatchObject({ code: ErrorCodes.stateLoadFailed, retryability: 'retryable' })
      const saved = await storage.save(state('gone', 1)).then(() => undefined, (e) => e)
      expect(saved).toMatchObject({ code: ErrorCodes.stateSaveFailed, retryability: 'retryable' })
      expect(String(saved.message)).toContain("session 'gone'")
      await dead.end()
    })
  })

  describe('two instances, one database', () => {
    const danger = (runs: string[]) => new FunctionTool(new ToolDefinition('wipe', 'Wipes', { type: 'object' }, ToolRiskLevel.dangerous),
      async (_a, ctx) => { runs.push(ctx.call.id); return 'wiped' })
    const instance = (sessionId: string, runs: string[], owner: string): { runtime: AgentRuntime, storage: PostgresStateStorage } => {
      const cfg = new AgentRuntimeConfig(sessionId, ScriptedProvider.fromFunction((r) =>
        r.messages[r.messages.length - 1].role === 'tool' ? ScriptedTurn.text('done') : ScriptedTurn.text('').call('w1', 'wipe', '{}')))
      cfg.tools = new ToolRegistry([danger(runs)])
      cfg.hooks = new AgentHookPipeline([new ApprovalPolicyHook()])
      const storage = new PostgresStateStorage(pool, { schema, owner })
      cfg.storage = storage
      return { runtime: new AgentRuntime(cfg), storage }
    }

    it('an owner that stalls before a tool and loses its lease never runs the tool: its write-ahead mark is refused', async () => {
      const runs: string[] = []
      let resume = (): void => {}
      const paused = new Promise<void>((r) => { resume = r })
      let storageA: PostgresStateStorage | undefined
      let stalled = (): void => {}
      const hasStalled = new Promise<void>((r) => { stalled = r })
      class Stall extends AgentHook {
        async beforeToolCall(c: ToolCallHookContext): Promise<ToolCallHookResult> {
          await storageA!.pg.stallRenewals()
          stalled()
          await paused
          return ToolCallHookResult.proceed()
        }
      }
      const cfg = new AgentRuntimeConfig('stale-tool', ScriptedProvider.fromFunction((r) =>
        r.messages[r.messages.length - 1].role === 'tool' ? ScriptedTurn.text('done') : ScriptedTurn.text('').call('x1', 'step', '{}')))
      cfg.tools = new ToolRegistry([new FunctionTool(new ToolDefinition('step', 'A step', { type: 'object' }), async (_a, ctx) => {
        runs.push(ctx.call.id)
        return 'stepped'
      })])
      cfg.hooks = new AgentHookPipeline([new Stall()])
      cfg.hookTimeoutMs = 0
      storageA = new PostgresStateStorage(pool, { schema, owner: 'stalling', leaseMs: 300 })
      cfg.storage = storageA
      const a = new AgentRuntime(cfg)
      const running = a.run('take a step')
      await hasStalled
      await leaseRunsOut(pool, schema, 'stale-tool')
      const b = new PostgresStateStorage(pool, { schema, owner: 'successor' })
      expect((await b.load('stale-tool'))?.state.status).toBe(SessionStatus.running)
      resume()
      const outcome = await running
      expect([outcome.status, outcome.error?.code]).toEqual([RunStatus.failed, ErrorCodes.sessionLocked])
      expect(runs).toEqual([])
      await b.close()
      await storageA.close()
    })

    it('a session suspended on A is approved on B, which restores, decides and continues; the tool runs once', async () => {
      const runs: string[] = []
      const { runtime: a, storage: aStorage } = instance('two-1', runs, 'A')
      expect((await a.run('wipe it')).status).toBe(RunStatus.suspended)
      a.dispose()
      await aStorage.close()
      const { runtime: b, storage: bStorage } = instance('two-1', runs, 'B')
      const report = await b.restore()
      expect(report.kind).toBe(RestoreKind.awaitingApproval)
      const pending = b.controller.listPendingApprovals()
      expect((await b.controller.approve(pending[0].approvalId)).ok).toBe(true)
      await b.whenIdle()
      expect(b.snapshot().status).toBe(SessionStatus.completed)
      expect(runs).toEqual(['w1'])
      // While B holds the session, a third instance is refused at the storage: nothing runs twice.
      const { runtime: c } = instance('two-1', runs, 'C')
      await expect(c.restore()).rejects.toMatchObject({ code: ErrorCodes.sessionLocked })
      expect(runs).toEqual(['w1'])
      await bStorage.close()
    })
  })
})
