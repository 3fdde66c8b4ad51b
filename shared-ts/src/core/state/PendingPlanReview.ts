import { ArkAgentError } from '../errors/ArkAgentError'
import { AgentMessage } from '../model/AgentMessage'
import { ToolCall } from '../model/ToolCall'

/** A submitted plan's state: pending, approved or rejected. */
export enum PlanReviewDecision {
  pending = 'pending',
  approved = 'approved',
  rejected = 'rejected'
}

/** A plan submitted through the reserved `submit_plan` tool, waiting for the user. Pure data. */
export class PendingPlanReview {
  readonly reviewId: string
  readonly runId: string
  readonly plan: string
  readonly toolCall: ToolCall
  readonly modelMessage: AgentMessage
  readonly createdAtMs: number
  decision: PlanReviewDecision
  reason?: string

  constructor(reviewId: string, runId: string, plan: string, toolCall: ToolCall, modelMessage: AgentMessage,
    createdAtMs: number, decision: PlanReviewDecision = PlanReviewDecision.pending) {
    this.reviewId = reviewId
    this.runId = runId
    this.plan = plan
    this.toolCall = toolCall
    this.modelMessage = modelMessage
    this.createdAtMs = createdAtMs
    this.decision = decision
  }

  clone(): PendingPlanReview {
    const copy = new PendingPlanReview(this.reviewId, this.runId, this.plan, this.toolCall, this.modelMessage,
      this.createdAtMs, this.decision)
    copy.reason = this.reason
    return copy
  }
}

/** What `approvePlan()` / `rejectPlan()` returned: whether the decision was taken, or the error that refused it. */
export class PlanReviewDecisionResult {
  readonly ok: boolean
  readonly reviewId: string
  readonly decision: string
  readonly error?: ArkAgentError

  private constructor(ok: boolean, reviewId: string, decision: string, error?: ArkAgentError) {
    this.ok = ok
    this.reviewId = reviewId
    this.decision = decision
    this.error = error
  }

  static success(reviewId: string, decision: string): PlanReviewDecisionResult {
    return new PlanReviewDecisionResult(true, reviewId, decision)
  }

  static failure(reviewId: string, error: ArkAgentError): PlanReviewDecisionResult {
    return new PlanReviewDecisionResult(false, reviewId, 'error', error)
  }
}
