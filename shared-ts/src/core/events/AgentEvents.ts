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
  readonly input: AgentMessage[]

  constructor(sessionId: string, runId: string, input: AgentMessage[]) {
    super(sessionId, runId)
    this.input = input
  }

  eventType(): string {
    return ControllerEventTypes.agentStarted
  }
}

/** A run continued from persisted state (decided approvals, a reviewed plan, an interrupted run). */
export class AgentResumedEvent extends BusEvent {
  readonly reason: string

  constructor(sessionId: string, runId: string, reason: string) {
    super(sessionId, runId)
    this.reason = reason
  }

  eventType(): string {
    return ControllerEventTypes.agentResumed
  }
}

export class AgentSuccessEvent extends BusEvent {
  readonly stopReason: string
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

  eventType(): string {
    return ControllerEventTypes.agentSuccess
  }
}

/** The run stopped in a resumable state: awaiting approval or plan review. */
export class AgentSuspendedEvent extends BusEvent {
  readonly stopReason: string

  constructor(sessionId: string, runId: string, stopReason: string) {
    super(sessionId, runId)
    this.stopReason = stopReason
  }

  eventType(): string {
    return ControllerEventTypes.agentSuspended
  }
}

export class AgentCancelledEvent extends BusEvent {
  readonly error: ArkAgentError
  readonly persisted: boolean

  constructor(sessionId: string, runId: string, error: ArkAgentError, persisted: boolean = true) {
    super(sessionId, runId)
    this.error = error
    this.persisted = persisted
  }

  eventType(): string {
    return ControllerEventTypes.agentCancelled
  }
}

export class AgentFailedEvent extends BusEvent {
  readonly error: ArkAgentError
  /** False when even the terminal write failed and the session was marked not resumable. */
  readonly persisted: boolean

  constructor(sessionId: string, runId: string, error: ArkAgentError, persisted: boolean) {
    super(sessionId, runId)
    this.error = error
    this.persisted = persisted
  }

  eventType(): string {
    return ControllerEventTypes.agentFailed
  }
}

export class LlmBeforeEvent extends BusEvent {
  readonly turn: number
  readonly request: ModelRequest

  constructor(sessionId: string, runId: string, turn: number, request: ModelRequest) {
    super(sessionId, runId)
    this.turn = turn
    this.request = request
  }

  eventType(): string {
    return ControllerEventTypes.beforeCallLlm
  }
}

export class LlmAfterEvent extends BusEvent {
  readonly turn: number
  readonly response: ModelResponse

  constructor(sessionId: string, runId: string, turn: number, response: ModelResponse) {
    super(sessionId, runId)
    this.turn = turn
    this.response = response
  }

  eventType(): string {
    return ControllerEventTypes.afterCallLlm
  }
}

/** A streamed chunk after chunk hooks: exactly what the user may see. */
export class LlmChunkEvent extends BusEvent {
  readonly text: string
  readonly reasoning: boolean

  constructor(sessionId: string, runId: string, text: string, reasoning: boolean) {
    super(sessionId, runId)
    this.text = text
    this.reasoning = reasoning
  }

  eventType(): string {
    return ControllerEventTypes.llmChunk
  }
}

export class ToolBeforeEvent extends BusEvent {
  readonly call: ToolCall

  constructor(sessionId: string, runId: string, call: ToolCall) {
    super(sessionId, runId)
    this.call = call
  }

  eventType(): string {
    return ControllerEventTypes.beforeToolCall
  }
}

export class ToolAfterEvent extends BusEvent {
  readonly call: ToolCall
  readonly result: ToolResult

  constructor(sessionId: string, runId: string, call: ToolCall, result: ToolResult) {
    super(sessionId, runId)
    this.call = call
    this.result = result
  }

  eventType(): string {
    return ControllerEventTypes.afterToolCall
  }
}

/** Published only after the batch was durably written. */
export class ApprovalRequiredEvent extends BusEvent {
  readonly batch: PendingApprovalBatch

  constructor(sessionId: string, runId: string, batch: PendingApprovalBatch) {
    super(sessionId, runId)
    this.batch = batch
  }

  eventType(): string {
    return ControllerEventTypes.approvalRequired
  }
}

export class ApprovalDecidedEvent extends BusEvent {
  readonly item: PendingApprovalItem

  constructor(sessionId: string, runId: string, item: PendingApprovalItem) {
    super(sessionId, runId)
    this.item = item
  }

  eventType(): string {
    return ControllerEventTypes.approvalDecided
  }
}

export class ApprovalResolvedEvent extends BusEvent {
  readonly batch: PendingApprovalBatch

  constructor(sessionId: string, runId: string, batch: PendingApprovalBatch) {
    super(sessionId, runId)
    this.batch = batch
  }

  eventType(): string {
    return ControllerEventTypes.approvalResolved
  }
}

export class PlanReviewRequiredEvent extends BusEvent {
  readonly review: PendingPlanReview

  constructor(sessionId: string, runId: string, review: PendingPlanReview) {
    super(sessionId, runId)
    this.review = review
  }

  eventType(): string {
    return ControllerEventTypes.planReviewRequired
  }
}

export class PlanReviewResolvedEvent extends BusEvent {
  readonly review: PendingPlanReview

  constructor(sessionId: string, runId: string, review: PendingPlanReview) {
    super(sessionId, runId)
    this.review = review
  }

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
  readonly verdict: LoopVerdict
  readonly action: LoopAction

  constructor(sessionId: string, runId: string, verdict: LoopVerdict, action: LoopAction) {
    super(sessionId, runId)
    this.verdict = verdict
    this.action = action
  }

  eventType(): string {
    return ControllerEventTypes.loopDetected
  }
}

export class PersistEvent extends BusEvent {
  readonly reason: string
  readonly mandatory: boolean
  readonly skipped: boolean
  readonly ok: boolean
  readonly bytesWritten: number
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

  eventType(): string {
    return ControllerEventTypes.persist
  }
}

export class HookDiagnosticEvent extends BusEvent {
  readonly slot: string
  readonly message: string

  constructor(sessionId: string, runId: string, slot: string, message: string) {
    super(sessionId, runId)
    this.slot = slot
    this.message = message
  }

  eventType(): string {
    return ControllerEventTypes.hookDiagnostic
  }
}

/**
 * `restore()` loaded a stored session: what it found, published once per runtime (a later `restore()`
 * returns the same report and publishes nothing), after the restored state is in place and before
 * an automatic continuation of decided work starts — whichever call restored (`restore()` itself, or
 * the first run, decision or `suspend()`). A UI that subscribed before the restore resolved rebuilds
 * from it: a restored approval batch or plan review is shown again. `kind` is a `RestoreKind` value
 * (`idle`, `awaiting_approval`, `awaiting_plan_review`, `interrupted`, `not_resumable`); nothing is
 * published for `fresh` (nothing stored) or a failed restore. Items, batch and review are copies.
 */
export class SessionRestoredEvent extends BusEvent {
  readonly kind: string
  /** The stored status before the restore settled it (completed, failed, running, ...). */
  readonly lastStatus: string
  readonly historyLength: number
  /** The undecided items of a restored approval batch, in model order; empty when none. */
  readonly pendingApprovals: PendingApprovalItem[]
  /** The whole restored batch, decided items included; undefined when none. */
  readonly batch?: PendingApprovalBatch
  /** A restored batch whose every item was decided before the process died (it continues by itself). */
  readonly allDecided: boolean
  /** The restored plan review (any decision); undefined when none. */
  readonly planReview?: PendingPlanReview
  /** Tool calls found started without a result, now answered with tool_interrupted. */
  readonly interruptedCalls: number
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

  eventType(): string {
    return ControllerEventTypes.sessionRestored
  }
}
