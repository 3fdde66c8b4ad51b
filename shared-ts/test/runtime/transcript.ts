// A run as plain data: every event with the fields a UI or an audit log reads, the outcome, the
// history and what was stored. Ids are normalised to their kind (`run_#`), timestamps dropped,
// byte counts reduced to "some". Transcript tests compare this with a committed file, so a change
// to any event, message, reason, error text or stored field shows up as a diff to review.
import {
  AgentCancelledEvent,
  AgentFailedEvent,
  AgentMessage,
  AgentResumedEvent,
  AgentRuntime,
  AgentStartedEvent,
  AgentState,
  AgentSuccessEvent,
  AgentSuspendedEvent,
  ApprovalDecidedEvent,
  ApprovalRequiredEvent,
  ApprovalResolvedEvent,
  ArkAgentError,
  BusEvent,
  HookDiagnosticEvent,
  LlmAfterEvent,
  LlmBeforeEvent,
  LlmChunkEvent,
  LoopDetectedEvent,
  PendingApprovalItem,
  PersistEvent,
  PlanReviewRequiredEvent,
  PlanReviewResolvedEvent,
  RunOutcome,
  SessionRestoredEvent,
  ToolAfterEvent,
  ToolBeforeEvent
} from '../../src/index'

type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain }

/** Ids made by Ids.next: `<kind>_<base36 time, counter, random>` (8+ characters, some of them digits). */
export function normalizeIds(text: string): string {
  return text.replace(/\b([a-z]*)_(?=[0-9a-z]*[0-9])[0-9a-z]{8,}\b/g, '$1_#')
}

/** An approval or plan decision result as plain data (an Error's message is not enumerable). */
export function decision(r: { ok: boolean, decision: string, error?: ArkAgentError, allDecided?: boolean }): Plain {
  const out: Record<string, Plain> = { ok: r.ok, decision: r.decision, error: error(r.error) }
  if (r.allDecided !== undefined) out.allDecided = r.allDecided
  return out
}

function error(e: ArkAgentError | undefined): Plain {
  if (e === undefined) return null
  return { layer: e.layer, code: e.code, retryable: e.retryability, message: e.message }
}

function message(m: AgentMessage): Plain {
  const out: Record<string, Plain> = { role: m.role, text: m.text() }
  if (m.reasoning().length > 0) out.reasoning = m.reasoning()
  if (m.hasToolCalls()) out.calls = m.toolCalls.map((c) => `${c.id} ${c.name} ${c.argumentsJson}`)
  if (m.toolCallId !== undefined) out.answers = m.toolCallId
  if (m.isError) out.isError = true
  if (m.errorCode !== undefined) out.errorCode = m.errorCode
  return out
}

function item(i: PendingApprovalItem): Plain {
  const out: Record<string, Plain> = { id: i.approvalId, call: `${i.toolCall.id} ${i.toolCall.name} ${i.toolCall.argumentsJson}`,
    risk: i.riskLevel, reason: i.reason, decision: i.decision }
  if (i.denyReason !== undefined) out.denyReason = i.denyReason
  if (i.syntheticResult !== undefined) {
    out.synthetic = `${i.syntheticResult.errorCode ?? 'ok'}: ${i.syntheticResult.textContent()}`
  }
  return out
}

export function event(e: BusEvent): Plain {
  const base: Record<string, Plain> = { type: e.eventType(), run: e.runId }
  if (e instanceof AgentStartedEvent) base.input = e.input.map((m) => m.text())
  else if (e instanceof AgentResumedEvent) base.reason = e.reason
  else if (e instanceof LlmBeforeEvent) { base.turn = e.turn; base.messages = e.request.messages.length; base.tools = e.request.tools.map((t) => t.name) }
  else if (e instanceof LlmChunkEvent) { base.text = e.text; if (e.reasoning) base.reasoning = true }
  else if (e instanceof LlmAfterEvent) { base.turn = e.turn; base.message = message(e.response.message); base.finish = e.response.finishReason }
  else if (e instanceof ToolBeforeEvent) base.call = `${e.call.id} ${e.call.name} ${e.call.argumentsJson}`
  else if (e instanceof ToolAfterEvent) base.result = `${e.call.id} ${e.result.errorCode ?? 'ok'}: ${e.result.textContent()}`
  else if (e instanceof ApprovalRequiredEvent) base.items = e.batch.items.map(item)
  else if (e instanceof ApprovalDecidedEvent) base.item = item(e.item)
  else if (e instanceof ApprovalResolvedEvent) base.decisions = e.batch.items.map((i) => i.decision)
  else if (e instanceof PlanReviewRequiredEvent) base.plan = e.review.plan
  else if (e instanceof PlanReviewResolvedEvent) { base.decision = e.review.decision; base.reason = e.review.reason ?? null }
  else if (e instanceof LoopDetectedEvent) { base.action = e.action; base.kind = e.verdict.kind; base.count = e.verdict.count }
  else if (e instanceof PersistEvent) {
    base.reason = e.reason
    base.mandatory = e.mandatory
    base.skipped = e.skipped
    base.ok = e.ok
    base.bytes = e.bytesWritten > 0 ? 'some' : 0
    if (e.error !== undefined) base.error = error(e.error)
  } else if (e instanceof HookDiagnosticEvent) { base.slot = e.slot; base.message = e.message }
  else if (e instanceof AgentSuccessEvent) { base.stopReason = e.stopReason; base.persisted = e.persisted; base.final = e.finalMessage?.text() ?? null }
  else if (e instanceof AgentSuspendedEvent) base.stopReason = e.stopReason
  else if (e instanceof AgentCancelledEvent) { base.error = error(e.error); base.persisted = e.persisted }
  else if (e instanceof AgentFailedEvent) { base.error = error(e.error); base.persisted = e.persisted }
  else if (e instanceof SessionRestoredEvent) {
    base.kind = e.kind
    base.lastStatus = e.lastStatus
    base.history = e.historyLength
    base.pending = e.pendingApprovals.map(item)
    base.batch = e.batch === undefined ? null : e.batch.items.map((i) => i.decision)
    base.allDecided = e.allDecided
    base.plan = e.planReview === undefined ? null : { plan: e.planReview.plan, decision: e.planReview.decision }
    base.interrupted = e.interruptedCalls
    base.reason = e.reason
  }
  return base
}

export function outcome(o: RunOutcome): Plain {
  return { status: o.status, stopReason: o.stopReason, persisted: o.persisted, error: error(o.error),
    final: o.finalMessage?.text() ?? null }
}

export function state(s: AgentState): Plain {
  return {
    status: s.status, activeRun: s.activeRunId, runCount: s.runCount, turn: s.turn, lastStopReason: s.lastStopReason,
    lastError: s.lastError === undefined ? null : `${s.lastError.layer}/${s.lastError.code}: ${s.lastError.message}`,
    history: s.history.map(message),
    pending: s.pendingApproval === undefined ? null : s.pendingApproval.items.map(item),
    plan: s.pendingPlanReview === undefined ? null : { plan: s.pendingPlanReview.plan, decision: s.pendingPlanReview.decision },
    toolBatch: s.toolBatch === undefined ? null : s.toolBatch.entries.map((e) => `${e.call.id} started=${e.started} ${e.result?.errorCode ?? (e.result === undefined ? 'none' : 'ok')}`),
    consumed: s.consumedApprovalIds.length, loopWarned: s.loopWarned, approvedPlan: s.plan
  }
}

/** Collects the bus events of a runtime (subscribe before running). */
export class Transcript {
  readonly entries: Plain[] = []

  constructor(rt: AgentRuntime) {
    rt.controller.subscribeAll((e) => this.entries.push(event(e)))
  }

  note(label: string, value: Plain): void {
    this.entries.push({ note: label, value })
  }

  /** The whole transcript as stable JSON text. */
  text(): string {
    // Clock readings differ on every run: only that there is one is kept.
    return normalizeIds(JSON.stringify(this.entries, null, 1)).replace(/"(\w+AtMs)": -?[0-9.e+]+/g, '"$1": "time"')
  }
}
