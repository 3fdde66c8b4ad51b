// Crash-point harness: a storage backend and tools that "kill the process" at the k-th boundary.
// A killed incarnation is inert from then on: every later storage operation and every tool call
// of it never settles, its locks are abandoned as a dead process's would be, and a fresh runtime
// ("the next process") restores from the same underlying storage.
import { expect } from 'vitest'
import {
  AgentHook,
  AgentHookPipeline,
  AgentMessage,
  AgentRuntime,
  AgentRuntimeConfig,
  AgentState,
  ApprovalDecision,
  type ApprovalDecisionOptions,
  CancellationSource,
  ControllerEventTypes,
  FileSegmentBackend,
  FunctionTool,
  MemorySegmentBackend,
  MessageRole,
  PlanReviewDecision,
  RestoreKind,
  RestoreReport,
  ScriptedProvider,
  SegmentBackend,
  SegmentedStateStorage,
  SessionStatus,
  StateCodec,
  ToolDefinition,
  ToolExecutionContext,
  ToolRegistry,
  ToolConcurrency,
  ToolRiskLevel
} from '../../src/index'
import { expectPaired } from '../runtime/helpers'

/** A promise that never settles: what a dead process's pending operation looks like. */
export function never<T>(): Promise<T> {
  return new Promise<T>(() => {})
}

/** Counts boundaries; at boundary `k` the incarnation dies. `k = Infinity` counts without killing. */
export class KillSwitch {
  count = 0
  dead = false
  readonly labels: string[] = []
  private fire: () => void = () => {}
  readonly killed: Promise<void>
  onKill: () => void = () => {}

  constructor(readonly k: number) {
    this.killed = new Promise<void>((resolve) => { this.fire = resolve })
  }

  /** Passes a boundary; returns true when the process dies here (the caller then never returns). */
  tick(label: string): boolean {
    if (this.dead) return true
    this.count++
    this.labels.push(label)
    if (this.count === this.k) {
      this.dead = true
      this.onKill()
      this.fire()
      return true
    }
    return false
  }
}

/** What outlives every incarnation: the disk, the side effects of tools, and what was committed. */
export class World {
  readonly execs = new Map<string, number>()
  /** Every model request, by incarnation (1: the one that dies, 2: the next process). */
  readonly requests: { incarnation: number, messages: string[] }[] = []
  /** Tool executions, by incarnation. */
  readonly execsBy = new Map<number, number>()
  /** Status in the last header that reached the disk (undefined: nothing committed yet). */
  committedStatus?: string
  source = new CancellationSource()

  constructor(readonly makeInner: () => SegmentBackend) {}

  /** The argument text each execution of a call was given (ctx.call.argumentsJson), in order. */
  readonly execArgs = new Map<string, string[]>()

  executed(callId: string, incarnation: number, argumentsJson: string = ''): void {
    this.execArgs.set(callId, [...(this.execArgs.get(callId) ?? []), argumentsJson])
    this.execs.set(callId, (this.execs.get(callId) ?? 0) + 1)
    this.execsBy.set(incarnation, (this.execsBy.get(incarnation) ?? 0) + 1)
  }

  modelCalls(incarnation: number): number {
    return this.requests.filter((r) => r.incarnation === incarnation).length
  }
}

/** Delegates to a real backend, ticking the kill switch before every mutating operation and after each commit. */
export class KillableBackend implements SegmentBackend {
  constructor(readonly inner: SegmentBackend, readonly ks: KillSwitch, readonly world: World) {}

  read(s: string, k: string): Promise<string | undefined> {
    return this.ks.dead ? never() : this.inner.read(s, k)
  }

  readHeader(s: string): Promise<string | undefined> {
    return this.ks.dead ? never() : this.inner.readHeader(s)
  }

  list(s: string): Promise<string[]> {
    return this.ks.dead ? never() : this.inner.list(s)
  }

  async write(s: string, k: string, v: string): Promise<void> {
    if (this.ks.tick(`write ${k.slice(0, 12)}`)) return never()
    await this.inner.write(s, k, v)
  }

  async sync(s: string): Promise<void> {
    if (this.ks.tick('sync')) return never()
    await this.inner.sync(s)
  }

  async commitHeader(s: string, v: string): Promise<void> {
    if (this.ks.tick('before commit')) return never()
    await this.inner.commitHeader(s, v)
    const doc = JSON.parse(v.slice(v.indexOf('{'))) as { status?: string, genesis?: boolean }
    if (doc.genesis !== true) this.world.committedStatus = doc.status
    if (this.ks.tick(`after commit (${doc.genesis === true ? 'genesis' : this.world.committedStatus})`)) return never()
  }

  async remove(s: string, keys: string[]): Promise<void> {
    if (this.ks.tick('remove')) return never()
    await this.inner.remove(s, keys)
  }

  async removeSession(s: string): Promise<void> {
    if (this.ks.tick('removeSession')) return never()
    await this.inner.removeSession(s)
  }

  location(s: string): string {
    return this.inner.location(s)
  }
}

export type ToolBody = (ctx: ToolExecutionContext, world: World) => Promise<string>

export class ToolSpec {
  constructor(readonly name: string, readonly risk: ToolRiskLevel = ToolRiskLevel.safe, readonly body?: ToolBody,
    readonly concurrency: ToolConcurrency = ToolConcurrency.serial) {}
}

export interface Scenario {
  name: string
  input: string
  /** Deterministic in the request (the next process must get the same answers). */
  script: (messages: AgentMessage[]) => ScriptedTurnLike
  tools: ToolSpec[]
  hooks: () => AgentHook[]
  configure?: (cfg: AgentRuntimeConfig) => void
  approval?: (toolName: string) => ApprovalDecision
  /** Instead of `approval`: approve or deny with options (edits, remember), by the call as asked. */
  decide?: (name: string, argumentsJson: string) => [ApprovalDecision, ApprovalDecisionOptions | undefined]
  plan?: (plan: string) => PlanReviewDecision
  /** Final status of the crash-free run. */
  expectedStatus: SessionStatus
  /** Use memory instead of files (for long scenarios). */
  memory?: boolean
  /** Every request of the next process must be one the crash-free run made (same messages). */
  sameRequests?: boolean
}

export type ScriptedTurnLike = import('../../src/index').ScriptedTurn

/** One incarnation ("process"): a runtime over a killable backend, with killable tools. */
export class Incarnation {
  readonly ks: KillSwitch
  readonly backend: SegmentBackend
  readonly runtime: AgentRuntime
  readonly approvalEventsBeforeCommit: string[] = []

  constructor(readonly sc: Scenario, readonly world: World, readonly sessionId: string, k: number,
    readonly incarnation: number = 1) {
    this.ks = new KillSwitch(k)
    this.backend = world.makeInner()
    const killable = new KillableBackend(this.backend, this.ks, world)
    this.ks.onKill = () => {
      // The OS would drop a dead process's lock; here the lock file stays and must be found stale.
      if (this.backend instanceof FileSegmentBackend) this.backend.abandonLocks()
    }
    const cfg = new AgentRuntimeConfig(sessionId, ScriptedProvider.fromFunction((req) => {
      world.requests.push({ incarnation, messages: req.messages.map(messageKey) })
      return sc.script(req.messages)
    }))
    cfg.tools = new ToolRegistry(sc.tools.map((t) => this.tool(t)))
    cfg.hooks = new AgentHookPipeline(sc.hooks())
    cfg.storage = new SegmentedStateStorage(killable)
    cfg.toolTimeoutMs = 0
    cfg.hookTimeoutMs = 0
    if (sc.configure !== undefined) sc.configure(cfg)
    this.runtime = new AgentRuntime(cfg)
    // "reported awaiting_* only if its write committed": checked the moment the event is published.
    this.runtime.controller.subscribe(ControllerEventTypes.approvalRequired, () => {
      if (world.committedStatus !== SessionStatus.awaitingApproval) this.approvalEventsBeforeCommit.push('approval')
    })
    this.runtime.controller.subscribe(ControllerEventTypes.planReviewRequired, () => {
      if (world.committedStatus !== SessionStatus.awaitingPlanReview) this.approvalEventsBeforeCommit.push('plan')
    })
  }

  private tool(spec: ToolSpec): FunctionTool {
    return new FunctionTool(new ToolDefinition(spec.name, `${spec.name} tool`, { type: 'object' }, spec.risk, spec.concurrency),
      async (args, ctx) => {
        if (this.ks.tick(`tool ${ctx.call.id} start`)) return never<string>()
        this.world.executed(ctx.call.id, this.incarnation, ctx.call.argumentsJson)
        const out = spec.body !== undefined ? await spec.body(ctx, this.world) : `${spec.name} ok`
        if (this.ks.tick(`tool ${ctx.call.id} end`)) return never<string>()
        return out
      })
  }

  async close(): Promise<void> {
    this.runtime.dispose()
    if (this.backend instanceof FileSegmentBackend) await this.backend.releaseAll()
  }
}

function isTerminal(status: string): boolean {
  return status === SessionStatus.completed || status === SessionStatus.failed || status === SessionStatus.cancelled
}

/**
 * Drives an incarnation to a terminal state: new input if `fresh`, then decisions and runStream([])
 * as needed. Never returns if the incarnation dies on the way.
 */
export async function drive(inc: Incarnation, fresh: boolean): Promise<AgentState> {
  const rt = inc.runtime
  const sc = inc.sc
  if (fresh) {
    inc.world.source = new CancellationSource()
    await rt.runStream([AgentMessage.user(sc.input)], undefined, inc.world.source.token)
  }
  for (let step = 0; step < 60; step++) {
    const st = rt.snapshot()
    if (st.pendingApproval !== undefined) {
      for (const item of st.pendingApproval.items) {
        if (item.decision !== ApprovalDecision.pending) continue
        const chosen = sc.decide !== undefined ? sc.decide(item.toolCall.name, item.toolCall.argumentsJson) : undefined
        const d = chosen !== undefined ? chosen[0] : sc.approval !== undefined ? sc.approval(item.toolCall.name) :
          ApprovalDecision.approved
        const r = d === ApprovalDecision.approved ? await rt.controller.approve(item.approvalId, chosen?.[1]) :
          await rt.controller.deny(item.approvalId, chosen?.[1] ?? 'no')
        expect(r.ok, r.error?.message).toBe(true)
      }
      await rt.whenIdle()
      const after = rt.snapshot().pendingApproval
      if (after !== undefined && after.allDecided()) {
        inc.world.source = new CancellationSource()
        await rt.runStream([], undefined, inc.world.source.token)
      }
      continue
    }
    if (st.pendingPlanReview !== undefined) {
      if (st.pendingPlanReview.decision === PlanReviewDecision.pending) {
        const d = sc.plan !== undefined ? sc.plan(st.pendingPlanReview.plan) : PlanReviewDecision.approved
        const r = d === PlanReviewDecision.approved ? await rt.controller.approvePlan() :
          await rt.controller.rejectPlan('try again')
        expect(r.ok, r.error?.message).toBe(true)
        await rt.whenIdle()
      }
      const after = rt.snapshot().pendingPlanReview
      if (after !== undefined && after.decision !== PlanReviewDecision.pending) {
        inc.world.source = new CancellationSource()
        await rt.runStream([], undefined, inc.world.source.token)
      }
      continue
    }
    if (st.status === SessionStatus.running) {
      inc.world.source = new CancellationSource()
      await rt.runStream([], undefined, inc.world.source.token)
      continue
    }
    if (isTerminal(st.status)) return st
    throw new Error(`driver: unexpected status ${st.status}`)
  }
  throw new Error('driver: no terminal state after 60 steps')
}

/** Checks a restore report against what was committed when the previous incarnation died. */
export function checkRestore(report: RestoreReport, world: World): void {
  const committed = world.committedStatus
  if (committed === undefined) {
    expect(report.kind).toBe(RestoreKind.fresh)
    return
  }
  if (report.kind === RestoreKind.awaitingApproval) expect(committed).toBe(SessionStatus.awaitingApproval)
  if (report.kind === RestoreKind.awaitingPlanReview) expect(committed).toBe(SessionStatus.awaitingPlanReview)
  if (isTerminal(committed)) {
    // A terminal session is never resumable.
    expect([RestoreKind.idle, RestoreKind.notResumable]).toContain(report.kind)
  }
  if (committed === SessionStatus.running) expect(report.kind).toBe(RestoreKind.interrupted)
}

/** The final invariants: paired history, nothing in flight, each call executed at most once, no fabricated success. */
export function checkFinal(state: AgentState, world: World): void {
  expect(isTerminal(state.status)).toBe(true)
  expectPaired(state.history)
  expect(state.pendingApproval).toBeUndefined()
  expect(state.pendingPlanReview).toBeUndefined()
  expect(state.toolBatch).toBeUndefined()
  for (const [id, n] of world.execs) expect(n, `call ${id} executed ${n} times`).toBe(1)
  for (const m of state.history) {
    if (m.role === MessageRole.tool && !m.isError) {
      const id = m.toolCallId as string
      if (!id.startsWith('plan')) expect(world.execs.get(id), `success result for ${id} without an execution`).toBe(1)
    }
  }
}

export function memoryWorld(): World {
  const shared = new MemorySegmentBackend()
  return new World(() => shared)
}

export function fileWorld(root: string): World {
  return new World(() => new FileSegmentBackend(root, true))
}

/** A message as comparable text. */
export function messageKey(m: AgentMessage): string {
  return JSON.stringify(StateCodec.encodeMessage(m))
}

/**
 * Run-level at-most-once after a crash: no model request of the next process may ask a question
 * whose answer was already durable (the restored history holds that exact request followed by an
 * assistant answer), and the next process never calls the model or runs tools more often than the
 * whole crash-free run did.
 */
export function checkNoRepeatedWork(world: World, restored: AgentMessage[], ref: World, label: string): void {
  const history = restored.map(messageKey)
  for (const r of world.requests.filter((q) => q.incarnation === 2)) {
    const conversation = r.messages.filter((m) => !(JSON.parse(m).role === 'system' && history.indexOf(m) < 0))
    const n = conversation.length
    const durable = n <= history.length && conversation.every((m, i) => history[i] === m)
    // Either the stored history already holds the answer to exactly this request, or the request
    // ends with a stored final answer (no tool calls): both ask for something already answered.
    const answeredNext = durable && n < history.length && JSON.parse(history[n]).role === 'assistant'
    const last = n > 0 ? JSON.parse(conversation[n - 1]) as { role: string, toolCalls?: unknown[] } : undefined
    const afterFinal = durable && last !== undefined && last.role === 'assistant' && last.toolCalls === undefined
    expect(answeredNext || afterFinal, `${label}: the next process asked the model again for an answer it had stored`)
      .toBe(false)
  }
  expect(world.modelCalls(2), `${label}: model calls after recovery`).toBeLessThanOrEqual(ref.modelCalls(1))
  expect(world.execsBy.get(2) ?? 0, `${label}: tool runs after recovery`).toBeLessThanOrEqual(ref.execsBy.get(1) ?? 0)
}
