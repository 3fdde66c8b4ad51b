import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { PlanReviewRequiredEvent, PlanReviewResolvedEvent } from '../events/AgentEvents'
import { AgentMessage } from '../model/AgentMessage'
import { ToolCall } from '../model/ToolCall'
import { ToolDefinition, ToolRiskLevel } from '../model/ToolDefinition'
import { ToolResult } from '../model/ToolResult'
import { SessionStatus } from '../state/AgentState'
import { PendingPlanReview, PlanReviewDecision, PlanReviewDecisionResult } from '../state/PendingPlanReview'
import { ToolBatchEntry, ToolBatchProgress } from '../state/ToolBatchProgress'
import { Ids } from '../util/Ids'
import { SerialQueue } from '../util/SerialQueue'
import { ToolRegistry } from '../tools/ToolRegistry'
import { RunContext } from './RunContext'
import { StopReason } from './RunOutcome'
import { RuntimeServices } from './RuntimeServices'
import { PersistReason, StatePersister } from './StatePersister'

/** The name of the reserved tool a model submits its plan with in plan mode. */
export const SUBMIT_PLAN_TOOL: string = 'submit_plan'

/**
 * Plan mode: the model must submit its plan through the reserved `submit_plan` tool; the run
 * suspends until the user approves (the run continues) or rejects (the reason goes back to the
 * model as the tool result).
 */
export class PlanReviewFlow {
  private readonly s: RuntimeServices
  private readonly persister: StatePersister
  private readonly decisions: SerialQueue = new SerialQueue()
  private static made: ToolDefinition | undefined = undefined

  constructor(services: RuntimeServices, persister: StatePersister) {
    this.s = services
    this.persister = persister
  }

  /** submit_plan's definition (one instance: a ToolDefinition is immutable, its schema compiled once). */
  static definition(): ToolDefinition {
    const made = PlanReviewFlow.made
    if (made !== undefined) {
      return made
    }
    const plan: Record<string, Object> = { 'type': 'string', 'description': 'The step-by-step plan', 'minLength': 1 }
    const props: Record<string, Object> = { 'plan': plan }
    const schema: Record<string, Object> = {
      'type': 'object', 'properties': props, 'required': ['plan'], 'additionalProperties': false
    }
    const definition = new ToolDefinition(SUBMIT_PLAN_TOOL,
      'Submit your plan for the user to review before doing anything else. Wait for the review.', schema,
      ToolRiskLevel.safe)
    PlanReviewFlow.made = definition
    return definition
  }

  /** Whether plan mode still applies (it ends once a plan was approved). */
  active(): boolean {
    return this.s.config.planMode && this.s.state.plan.length === 0
  }

  /**
   * The error result for a submission whose arguments do not match submit_plan's schema (no plan,
   * an empty one), or undefined when it is a plan to review.
   */
  static check(call: ToolCall): ToolResult | undefined {
    const args = ToolRegistry.parseArguments(call.argumentsJson)
    const problem = typeof args === 'string' ? args as string :
      PlanReviewFlow.definition().validate(args as Record<string, Object>)
    return problem.length === 0 ? undefined : ToolResult.error(call.id, ErrorCodes.toolInvalidArguments,
      `Invalid arguments for '${SUBMIT_PLAN_TOOL}': ${problem}. Submit the plan as {"plan": "..."}`)
  }

  findSubmission(message: AgentMessage): ToolCall | undefined {
    for (let i = 0; i < message.callCount(); i++) {
      if (message.callAt(i).name === SUBMIT_PLAN_TOOL) {
        return message.callAt(i)
      }
    }
    return undefined
  }

  /** Suspends for review; the write is mandatory and happens before the event. */
  async request(run: RunContext, message: AgentMessage, call: ToolCall): Promise<PendingPlanReview> {
    // Checked by `check` before: the arguments are an object with a non-empty plan.
    const plan = (ToolRegistry.parseArguments(call.argumentsJson) as Record<string, Object>)['plan'] as string
    const review = new PendingPlanReview(Ids.next('plan'), run.runId, plan, call, message, Date.now())
    this.s.state.pendingPlanReview = review
    this.s.state.status = SessionStatus.awaitingPlanReview
    // Part of the same mandatory write, so a reload reports why the run stopped.
    this.s.state.lastStopReason = StopReason.awaitingPlanReview
    try {
      await this.persister.persistSuspension(run, PersistReason.awaitingPlanReview, 'The plan review')
    } catch (e) {
      this.s.state.pendingPlanReview = undefined
      throw e as Error
    }
    this.s.publish(run, new PlanReviewRequiredEvent(this.s.sessionId, run.runId, review.clone()))
    return review
  }

  /** Decisions are applied one at a time (see ApprovalFlow.decide). */
  decide(decision: PlanReviewDecision, reason?: string): Promise<PlanReviewDecisionResult> {
    return this.decisions.run<PlanReviewDecisionResult>(
      (): Promise<PlanReviewDecisionResult> => this.decideNow(decision, reason))
  }

  private async decideNow(decision: PlanReviewDecision, reason?: string): Promise<PlanReviewDecisionResult> {
    if (reason !== undefined && reason !== null && typeof reason !== 'string') {
      return PlanReviewDecisionResult.failure('', new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidInput,
        'A plan review reason must be a string', ErrorRetryability.never))
    }
    const review = this.s.state.pendingPlanReview
    if (review === undefined) {
      return PlanReviewDecisionResult.failure('', new ArkAgentError(ErrorLayer.runtime, ErrorCodes.planReviewMissing,
        'No plan is waiting for review', ErrorRetryability.never))
    }
    if (decision === PlanReviewDecision.pending) {
      return PlanReviewDecisionResult.failure(review.reviewId, new ArkAgentError(ErrorLayer.config,
        ErrorCodes.invalidConfig, 'A plan decision must be approved or rejected', ErrorRetryability.never))
    }
    if (review.decision !== PlanReviewDecision.pending) {
      return PlanReviewDecisionResult.success(review.reviewId, review.decision)
    }
    review.decision = decision
    const given = typeof reason === 'string' && reason.length > 0 ? reason : undefined
    review.reason = decision === PlanReviewDecision.rejected ? (given ?? 'rejected by the user') : given
    const saved = await this.persister.persist(undefined, PersistReason.planReviewDecision, true)
    if (!saved.ok) {
      review.decision = PlanReviewDecision.pending
      review.reason = undefined
      const own = saved.ownError
      return PlanReviewDecisionResult.failure(review.reviewId, own !== undefined && !saved.refused ? own :
        new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateSaveFailed, 'The plan decision could not be saved',
          ErrorRetryability.retryable))
    }
    this.s.publish(undefined, new PlanReviewResolvedEvent(this.s.sessionId, review.runId, review.clone()))
    return PlanReviewDecisionResult.success(review.reviewId, decision)
  }

  /** Turns a decided review into a finished batch: the plan's verdict, and the other calls unrun. */
  consume(review: PendingPlanReview, runId: string): ToolBatchProgress {
    const entries: ToolBatchEntry[] = []
    const calls = review.modelMessage.toolCalls
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]
      let result: ToolResult
      if (call.id === review.toolCall.id) {
        result = review.decision === PlanReviewDecision.approved ?
          ToolResult.text(call.id, 'The user approved the plan. Carry it out.') :
          ToolResult.text(call.id, `The user rejected the plan: ${review.reason ?? 'no reason given'}. ` +
            'Revise the plan and submit it again.')
      } else {
        result = ToolResult.error(call.id, ErrorCodes.toolInterrupted,
          'Not executed: tools run only after the plan is approved')
      }
      entries.push(new ToolBatchEntry(call, false, result))
    }
    if (review.decision === PlanReviewDecision.approved) {
      this.s.state.plan = review.plan.length > 0 ? review.plan : '(approved)'
    }
    this.s.state.pendingPlanReview = undefined
    return new ToolBatchProgress(review.reviewId, runId, review.modelMessage, entries)
  }
}
