import { ArkAgentError } from '../errors/ArkAgentError'
import { LoopVerdict } from '../loop/LoopDetectorPort'
import { AgentMessage } from '../model/AgentMessage'
import { ModelRequest } from '../model/ModelRequest'
import { ModelResponse } from '../model/ModelResponse'
import { ToolCall } from '../model/ToolCall'
import { ToolResult } from '../model/ToolResult'
import { PendingApprovalBatch, PendingApprovalItem } from '../state/PendingApproval'
import { PendingPlanReview } from '../state/PendingPlanReview'
import { BusEvent } from './BusEvent'
import { ControllerEventTypes } from './ControllerEventTypes'

export class AgentStartedEvent extends BusEvent {
  /** The run's new input as given to `runStream` (checked copies), before `beforeRun` hooks may rewrite it. */
  readonly input: AgentMessage[]

  constructor(sessionId: string, runId: string, input: AgentMessage[]) {
    super(sessionId, runId)
    this.input = input
  }

  /** `ControllerEventTypes.agentStarted` ('agent.started'). */
  eventType(): string {
    return ControllerEventTypes.agentStarted
  }
}

/** A run continued from persisted state (decided approvals, a reviewed plan, an interrupted run). */
export class AgentResumedEvent extends BusEvent {
  /** Why it resumed: 'approvals decided', 'plan reviewed' or 'interrupted run' (`RunEntry.checkEntry`). */
  readonly reason: string

  constructor(sessionId: string, runId: string, reason: string) {
    super(sessionId, runId)
    this.reason = reason
  }

  /** `ControllerEventTypes.agentResumed` ('agent.resumed'). */
  eventType(): string {
    return ControllerEventTypes.agentResumed
  }
}

export class AgentSuccessEvent extends BusEvent {
  /** `StopReason.complete`, or `StopReason.toolStop` when an `afterToolCall` hook stopped the run. */
  readonly stopReason: string
  /** The model's final answer (the assistant message that ended the run); undefined for `tool_stop`. */
  readonly finalMessage?: AgentMessage
  /** False when the terminal write failed (the session was then marked not resumable). */
  readonly persisted: boolean

  constructor(sessionId: string, runId: string, stopReason: string, finalMessage?: AgentMessage,
    persisted: boolean = true) {
    super(sessionId, runId)
    this.stopReason = stopReason
    this.finalMessage = finalMessage
    this.persisted = persisted
  }

  /** `ControllerEventTypes.agentSuccess` ('agent.success'). */
  eventType(): string {
    return ControllerEventTypes.agentSuccess
  }
}

/** The run stopped in a resumable state: awaiting approval or plan review. */
export class AgentSuspendedEvent extends BusEvent {
  /** `StopReason.awaitingApproval` or `StopReason.awaitingPlanReview`. */
  readonly stopReason: string

  constructor(sessionId: string, runId: string, stopReason: string) {
    super(sessionId, runId)
    this.stopReason = stopReason
  }

  /** `ControllerEventTypes.agentSuspended` ('agent.suspended'). */
  eventType(): string {
    return ControllerEventTypes.agentSuspended
  }
}

export class AgentCancelledEvent extends BusEvent {
  /** The cancellation error (layer `cancelled`) that ended the run. */
  readonly error: ArkAgentError
  /** False when the terminal write failed (then marked not resumable, unless another owner holds the session). */
  readonly persisted: boolean

  constructor(sessionId: string, runId: string, error: ArkAgentError, persisted: boolean = true) {
    super(sessionId, runId)
    this.error = error
    this.persisted = persisted
  }

  /** `ControllerEventTypes.agentCancelled` ('agent.cancelled'). */
  eventType(): string {
    return ControllerEventTypes.agentCancelled
  }
}

export class AgentFailedEvent extends BusEvent {
  /** The error that ended the run (secrets redacted); its code decides the stop reason (`RunFinisher.stopReasonOf`). */
  readonly error: ArkAgentError
  /** False when even the terminal write failed and the session was marked not resumable. */
  readonly persisted: boolean

  constructor(sessionId: string, runId: string, error: ArkAgentError, persisted: boolean) {
    super(sessionId, runId)
    this.error = error
    this.persisted = persisted
  }

  /** `ControllerEventTypes.agentFailed` ('agent.failed'). */
  eventType(): string {
    return ControllerEventTypes.agentFailed
  }
}

export class LlmBeforeEvent extends BusEvent {
  /** The model turn within this run, from 1 (an `afterModelCall` retry keeps the number). */
  readonly turn: number
  /** The request sent to the provider, as `beforeModelCall` hooks left it. */
  readonly request: ModelRequest

  constructor(sessionId: string, runId: string, turn: number, request: ModelRequest) {
    super(sessionId, runId)
    this.turn = turn
    this.request = request
  }

  /** `ControllerEventTypes.beforeCallLlm` ('llm.before'). */
  eventType(): string {
    return ControllerEventTypes.beforeCallLlm
  }
}

export class LlmAfterEvent extends BusEvent {
  /** The model turn within this run, from 1. */
  readonly turn: number
  /** The response the run continues with (as `afterModelCall` left it), its tool call ids made unique. */
  readonly response: ModelResponse

  constructor(sessionId: string, runId: string, turn: number, response: ModelResponse) {
    super(sessionId, runId)
    this.turn = turn
    this.response = response
  }

  /** `ControllerEventTypes.afterCallLlm` ('llm.after'). */
  eventType(): string {
    return ControllerEventTypes.afterCallLlm
  }
}

/** A streamed chunk after chunk hooks: exactly what the user may see. */
export class LlmChunkEvent extends BusEvent {
  /** The chunk's text as chunk hooks left it (never empty; dropped chunks are not published). */
  readonly text: string
  /** True for a reasoning (thinking) chunk, false for answer text. */
  readonly reasoning: boolean

  constructor(sessionId: string, runId: string, text: string, reasoning: boolean) {
    super(sessionId, runId)
    this.text = text
    this.reasoning = reasoning
  }

  /** `ControllerEventTypes.llmChunk` ('llm.chunk'). */
  eventType(): string {
    return ControllerEventTypes.llmChunk
  }
}

export class ToolBeforeEvent extends BusEvent {
  /** The call about to run, as `beforeToolCall` hooks left it; published after its `tool_started` write. */
  readonly call: ToolCall
  /**
   * The call starts while other calls of its batch run, or together with them (docs/tools.md): start
   * events of such calls may come before earlier calls' `tool.after`; `tool.after` events always come
   * in model order.
   */
  readonly concurrent: boolean

  constructor(sessionId: string, runId: string, call: ToolCall, concurrent: boolean = false) {
    super(sessionId, runId)
    this.call = call
    this.concurrent = concurrent
  }

  /** `ControllerEventTypes.beforeToolCall` ('tool.before'). */
  eventType(): string {
    return ControllerEventTypes.beforeToolCall
  }
}

export class ToolAfterEvent extends BusEvent {
  /** The call that ran (the same as on its `tool.before`). */
  readonly call: ToolCall
  /** The result stored and sent to the model: the tool's (or the registry's error), or an `afterToolCall` rewrite. */
  readonly result: ToolResult

  constructor(sessionId: string, runId: string, call: ToolCall, result: ToolResult) {
    super(sessionId, runId)
    this.call = call
    this.result = result
  }

  /** `ControllerEventTypes.afterToolCall` ('tool.after'). */
  eventType(): string {
    return ControllerEventTypes.afterToolCall
  }
}

export class PlanReviewRequiredEvent extends BusEvent {
  /** A copy of the review now pending (the plan from the `submit_plan` call), published after it was written. */
  readonly review: PendingPlanReview

  constructor(sessionId: string, runId: string, review: PendingPlanReview) {
    super(sessionId, runId)
    this.review = review
  }

  /** `ControllerEventTypes.planReviewRequired` ('plan_review.required'). */
  eventType(): string {
    return ControllerEventTypes.planReviewRequired
  }
}

export class PlanReviewResolvedEvent extends BusEvent {
  /** A copy of the review with its decision (approved or rejected) and any reason, published after it was written. */
  readonly review: PendingPlanReview

  constructor(sessionId: string, runId: string, review: PendingPlanReview) {
    super(sessionId, runId)
    this.review = review
  }

  /** `ControllerEventTypes.planReviewResolved` ('plan_review.resolved'). */
  eventType(): string {
    return ControllerEventTypes.planReviewResolved
  }
}

/** What the runtime did about a detected loop: warned the model, or stopped the run. */
export enum LoopAction {
  warned = 'warned',
  stopped = 'stopped'
}

export class LoopDetectedEvent extends BusEvent {
  /** The detector's evidence: the kind of loop, the repeated signature, its count and any cycle of tools. */
  readonly verdict: LoopVerdict
  /** `warned` (first detection: a warning was added to history) or `stopped` (the run fails with loop_detected). */
  readonly action: LoopAction

  constructor(sessionId: string, runId: string, verdict: LoopVerdict, action: LoopAction) {
    super(sessionId, runId)
    this.verdict = verdict
    this.action = action
  }

  /** `ControllerEventTypes.loopDetected` ('loop.detected'). */
  eventType(): string {
    return ControllerEventTypes.loopDetected
  }
}

export class PersistEvent extends BusEvent {
  /** Why the write happened: a `PersistReason` (or `ElicitationPersistReason`) value such as `tool_started`. */
  readonly reason: string
  /** True for a write `beforePersistState` cannot skip (a hook's abort still refuses it). */
  readonly mandatory: boolean
  /** True when `beforePersistState` skipped this optional write (nothing was saved; `ok` is still true). */
  readonly skipped: boolean
  /** True when the state was saved or the write skipped; false on a hook's refusal or a storage failure. */
  readonly ok: boolean
  /** Bytes the storage reported writing (`SaveReport.bytesWritten`); 0 when skipped or failed. */
  readonly bytesWritten: number
  /** Why the write failed: the refusing hook's error or the storage's (e.g. `state_save_failed`); undefined when ok. */
  readonly error?: ArkAgentError

  constructor(sessionId: string, runId: string, reason: string, mandatory: boolean, skipped: boolean, ok: boolean,
    bytesWritten: number, error?: ArkAgentError) {
    super(sessionId, runId)
    this.reason = reason
    this.mandatory = mandatory
    this.skipped = skipped
    this.ok = ok
    this.bytesWritten = bytesWritten
    this.error = error
  }

  /** `ControllerEventTypes.persist` ('state.persist'). */
  eventType(): string {
    return ControllerEventTypes.persist
  }
}

export class HookDiagnosticEvent extends BusEvent {
  /** Where it arose: a hook slot (`afterRun`, `afterCompaction`, ...) or a runtime step (`persist`, `suspend`, ...). */
  readonly slot: string
  /** What happened: a hook's isolated error, a failed optional write, or a runtime note (e.g. compaction numbers). */
  readonly message: string

  constructor(sessionId: string, runId: string, slot: string, message: string) {
    super(sessionId, runId)
    this.slot = slot
    this.message = message
  }

  /** `ControllerEventTypes.hookDiagnostic` ('hook.diagnostic'). */
  eventType(): string {
    return ControllerEventTypes.hookDiagnostic
  }
}

/**
 * `restore()` loaded a stored session: published once per runtime (a later `restore()` returns the same report and
 * publishes nothing), after the restored state is in place and before an automatic continuation of decided work starts,
 * whichever call restored (`restore()`, or the first run, decision or `suspend()`). A UI that subscribed before the
 * restore resolved rebuilds from it: a restored batch or plan review is shown again. Never for a failed restore.
 */
export class SessionRestoredEvent extends BusEvent {
  /** A `RestoreKind`: idle, awaiting_approval, awaiting_plan_review, interrupted or not_resumable (never fresh). */
  readonly kind: string
  /** The stored status before the restore settled it (completed, failed, running, ...). */
  readonly lastStatus: string
  /** How many messages the restored history holds. */
  readonly historyLength: number
  /** Copies of the undecided items of a restored approval batch, in model order; empty when none. */
  readonly pendingApprovals: PendingApprovalItem[]
  /** A copy of the whole restored batch, decided items included; undefined when none. */
  readonly batch?: PendingApprovalBatch
  /** A restored batch whose every item was decided before the process died (it continues by itself). */
  readonly allDecided: boolean
  /** A copy of the restored plan review (any decision); undefined when none. */
  readonly planReview?: PendingPlanReview
  /** Tool calls found started without a result, now answered with tool_interrupted. */
  readonly interruptedCalls: number
  /** Why the run was interrupted or the session is not resumable; '' otherwise. */
  readonly reason: string

  constructor(sessionId: string, runId: string, kind: string, lastStatus: string, historyLength: number,
    pendingApprovals: PendingApprovalItem[], allDecided: boolean, interruptedCalls: number, reason: string,
    batch?: PendingApprovalBatch, planReview?: PendingPlanReview) {
    super(sessionId, runId)
    this.kind = kind
    this.lastStatus = lastStatus
    this.historyLength = historyLength
    this.pendingApprovals = pendingApprovals
    this.allDecided = allDecided
    this.interruptedCalls = interruptedCalls
    this.reason = reason
    this.batch = batch
    this.planReview = planReview
  }

  /** `ControllerEventTypes.sessionRestored` ('session.restored'). */
  eventType(): string {
    return ControllerEventTypes.sessionRestored
  }
}
