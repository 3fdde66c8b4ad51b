// One "instance" of a Node backend for the multi-process Postgres tests: a process with its own
// pool, storage and runtimes on the shared database. The parent passes a JSON command as argv[2]
// and reads one JSON line from stdout. Tools record each execution in the table tool_runs, so the
// parent can count executions across processes (a killed process included); 'trim' (the edit
// sessions' tool) also records the arguments it received (the call's JSON text, and what the parsed
// arguments re-encode to) in the columns args and parsed, which only the tables of those tests have.
import pg from 'pg'
import {
  AgentHookPipeline, AgentRuntime, AgentRuntimeConfig, ApprovalPolicyHook, ErrorCodes, FunctionTool, ModelRequest,
  PgQueryable, PostgresStateStorage, ScriptedProvider, ScriptedTurn, ToolDefinition, ToolRegistry, ToolRiskLevel,
} from '../../src/index'

interface Command {
  url: string
  schema: string
  role: 'suspend' | 'approve' | 'approve-edit' | 'decisions' | 'run-hang-tool' | 'run-hang-save' | 'resume'
  sessions: string[]
  leaseMs?: number
  /** run-hang-save: hang on this (1-based) header commit of the process. */
  hangOnHeaderCommit?: number
  /** How long 'approve' / 'resume' keep trying a session another owner holds, ms. */
  patienceMs?: number
  /** Connections of this process's pool (default 8). */
  poolMax?: number
  /** Signal 'locked' (once) when a restore first finds the session held by another owner. */
  signalLocked?: boolean
  /** Report the latency of each whole save (load test). */
  timeSaves?: boolean
  /** approve-edit: the item to decide when none is pending after the restore (the id suspend reported). */
  approvalId?: string
  /** approve-edit: the edited arguments (JSON text) and who decides. */
  args?: string
  actor?: string
  /**
   * approve-edit: a process that restored the item pending decides only once another process has
   * signalled 'locked' on the session (with signalLocked), so the two really compete for the item.
   */
  awaitRival?: boolean
}

const cmd = JSON.parse(process.argv[2]) as Command
const pool = new pg.Pool({ connectionString: cmd.url, max: cmd.poolMax ?? 8 })
const t = (name: string) => `"${cmd.schema}".${name}`

/** Signals to the parent through the database (it polls signals). */
async function signal(what: string, sessionId: string): Promise<void> {
  await pool.query(`INSERT INTO ${t('signals')} (what, session_id, pid) VALUES ($1, $2, $3)`, [what, sessionId, process.pid])
}

/** Waits until another process has signalled `what` for the session (a handshake, polled in the database). */
async function rivalSignalled(what: string, sessionId: string): Promise<void> {
  for (;;) {
    const r = await pool.query(`SELECT 1 FROM ${t('signals')} WHERE what = $1 AND session_id = $2 AND pid <> $3`,
      [what, sessionId, process.pid])
    if (r.rows.length > 0) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** A client that hangs forever on the n-th header commit, after signalling it: a kill mid-save. */
function hangingOn(n: number): PgQueryable {
  let commits = 0
  return {
    query: async (text: string, values?: unknown[]) => {
      if (values !== undefined && values[2] === 'header' && text.includes('INSERT')) {
        commits++
        if (commits === n) {
          await signal('in-save', String(values[0]))
          return new Promise(() => {})
        }
      }
      return pool.query(text, values) as never
    },
  }
}

const saveTimes: number[] = []

function tools(): ToolRegistry {
  const record = async (sessionId: string, call: { id: string, argumentsJson: string }, args?: unknown): Promise<void> => {
    if (args === undefined) {
      await pool.query(`INSERT INTO ${t('tool_runs')} (session_id, call_id, pid) VALUES ($1, $2, $3)`, [sessionId, call.id, process.pid])
      return
    }
    await pool.query(`INSERT INTO ${t('tool_runs')} (session_id, call_id, pid, args, parsed) VALUES ($1, $2, $3, $4, $5)`,
      [sessionId, call.id, process.pid, call.argumentsJson, JSON.stringify(args)])
  }
  // The tool the edit sessions ask for: a schema every edit in the tests satisfies (and the request too).
  const trimSchema = {
    type: 'object',
    properties: { path: { type: 'string' }, keep: { type: 'integer', minimum: 0 } },
    required: ['path'],
    additionalProperties: false,
  }
  return new ToolRegistry([
    new FunctionTool(new ToolDefinition('wipe', 'Wipes a cache', { type: 'object' }, ToolRiskLevel.dangerous), async (_a, ctx) => {
      await record(ctx.sessionId, ctx.call)
      return 'wiped'
    }),
    new FunctionTool(new ToolDefinition('trim', 'Trims a log', trimSchema, ToolRiskLevel.dangerous), async (a, ctx) => {
      await record(ctx.sessionId, ctx.call, a)
      return 'trimmed'
    }),
    new FunctionTool(new ToolDefinition('slow', 'Takes forever', { type: 'object' }, ToolRiskLevel.safe), async (_a, ctx) => {
      await record(ctx.sessionId, ctx.call)
      if (cmd.role === 'run-hang-tool') {
        await signal('in-tool', ctx.sessionId)
        return new Promise<string>(() => {})
      }
      return 'slow done'
    }),
  ], 0)
}

/** The arguments the model asks 'trim' with (the edits replace them). */
const ASKED_TRIM = '{"path":"/var/log/app.log"}'

/** The model: the session id says which tool it wants; after a tool result it is done. */
function model(sessionId: string): ScriptedProvider {
  return ScriptedProvider.fromFunction((request: ModelRequest) => {
    const last = request.messages[request.messages.length - 1]
    if (last.role === 'tool') return ScriptedTurn.text('done')
    if (sessionId.startsWith('edit')) return ScriptedTurn.text('I will trim it').call('t1', 'trim', ASKED_TRIM)
    return sessionId.startsWith('slow') ? ScriptedTurn.text('working').call('s1', 'slow', '{}') :
      ScriptedTurn.text('I will wipe it').call('w1', 'wipe', '{}')
  })
}

function instance(sessionId: string, db: PgQueryable): { runtime: AgentRuntime, storage: PostgresStateStorage } {
  const cfg = new AgentRuntimeConfig(sessionId, model(sessionId))
  cfg.tools = tools()
  cfg.hooks = new AgentHookPipeline([new ApprovalPolicyHook()])
  const storage = new PostgresStateStorage(db, { schema: cmd.schema, leaseMs: cmd.leaseMs ?? 15000, owner: `pid ${process.pid}` })
  if (cmd.timeSaves === true) {
    const save = storage.save.bind(storage)
    storage.save = async (state) => {
      const t0 = performance.now()
      try {
        return await save(state)
      } finally {
        saveTimes.push(performance.now() - t0)
      }
    }
  }
  cfg.storage = storage
  return { runtime: new AgentRuntime(cfg), storage }
}

/** Restores, retrying while another owner holds the session (until patienceMs). */
async function restoreWhenFree(runtime: AgentRuntime, sessionId: string): Promise<{ kind: string, waitedMs: number, lockedTries: number }> {
  const start = Date.now()
  let lockedTries = 0
  for (;;) {
    try {
      const report = await runtime.restore()
      return { kind: report.kind, waitedMs: Date.now() - start, lockedTries }
    } catch (e) {
      const code = (e as { code?: string }).code
      if (code !== ErrorCodes.sessionLocked || Date.now() - start > (cmd.patienceMs ?? 10000)) throw e
      lockedTries++
      if (lockedTries === 1 && cmd.signalLocked === true) await signal('locked', sessionId)
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 50))
    }
  }
}

/**
 * Approves the pending item (or, when none is pending any more, the one the command names) with the
 * command's edit and actor, waits for the continuation, and reports what the decision said and what
 * the tool received (every execution of the session recorded so far).
 */
async function approveEdit(runtime: AgentRuntime, sessionId: string): Promise<Record<string, unknown>> {
  const pending = runtime.controller.listPendingApprovals()
  const approvalId = pending.length > 0 ? pending[0].approvalId : cmd.approvalId ?? ''
  if (pending.length > 0 && cmd.awaitRival === true) await rivalSignalled('locked', sessionId)
  const r = await runtime.controller.approve(approvalId, { arguments: cmd.args, actor: cmd.actor })
  await runtime.whenIdle()
  const ran = await pool.query(`SELECT args, pid FROM ${t('tool_runs')} WHERE session_id = $1 ORDER BY at`, [sessionId])
  return {
    approvalId, pendingFound: pending.length, applied: r.applied, ok: r.ok, errorCode: r.error?.code,
    winnerArgs: r.item?.approvedCall?.argumentsJson, winnerActor: r.item?.actor,
    executedArgs: ran.rows.map((row: { args: string }) => row.args),
    executedBy: ran.rows.map((row: { pid: number }) => row.pid), pid: process.pid,
  }
}

async function one(sessionId: string): Promise<Record<string, unknown>> {
  const db: PgQueryable = cmd.role === 'run-hang-save' ? hangingOn(cmd.hangOnHeaderCommit ?? 1) : pool
  const { runtime, storage } = instance(sessionId, db)
  try {
    if (cmd.role === 'suspend' || cmd.role === 'run-hang-tool' || cmd.role === 'run-hang-save') {
      const outcome = await runtime.run('please do it')
      const pending = runtime.controller.listPendingApprovals().map((i) => i.approvalId)
      return { sessionId, status: outcome.status, stopReason: outcome.stopReason, pending }
    }
    const restored = await restoreWhenFree(runtime, sessionId)
    const out: Record<string, unknown> = { sessionId, restored: restored.kind, lockedTries: restored.lockedTries }
    if (cmd.role === 'approve') {
      let decided = 0
      let refused = 0
      for (const item of runtime.controller.listPendingApprovals()) {
        const r = await runtime.controller.approve(item.approvalId)
        if (r.ok) decided++
        else refused++
      }
      await runtime.whenIdle()
      Object.assign(out, { decided, refused })
    } else if (cmd.role === 'approve-edit') {
      Object.assign(out, await approveEdit(runtime, sessionId))
    } else if (cmd.role === 'decisions') {
      out.decisions = runtime.controller.listDecisions().map((d) => ({
        approvalId: d.approvalId, decision: d.decision, actor: d.actor, channel: d.channel,
        asked: d.toolCall.argumentsJson, approved: d.approvedCall?.argumentsJson, executed: d.executedCall?.argumentsJson,
      }))
    } else if (restored.kind === 'interrupted') {
      out.outcome = (await runtime.runStream([])).status
    } else if (restored.kind === 'awaiting_approval') {
      for (const item of runtime.controller.listPendingApprovals()) await runtime.controller.approve(item.approvalId)
      await runtime.whenIdle()
    }
    const s = runtime.snapshot()
    out.status = s.status
    out.results = s.history.filter((m) => m.role === 'tool').map((m) => m.errorCode ?? 'ok')
    out.takeovers = storage.pg.takeovers
    out.handovers = storage.pg.handovers
    return out
  } finally {
    runtime.dispose()
    await storage.close().catch(() => {})
  }
}

async function main(): Promise<void> {
  const results = await Promise.all(cmd.sessions.map((id) => one(id).catch((e: unknown) =>
    ({ sessionId: id, error: `${(e as { code?: string }).code ?? ''} ${(e as Error).message}` }))))
  const sorted = saveTimes.slice().sort((a, b) => a - b)
  const pct = (q: number) => sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
  process.stdout.write(`${JSON.stringify({ pid: process.pid, results, saves: sorted.length, p50: pct(0.5), p99: pct(0.99) })}\n`)
  await pool.end()
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`)
  process.exit(1)
})
