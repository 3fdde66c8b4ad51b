import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { BusEvent } from '../events/BusEvent'
import { ControllerEventTypes } from '../events/ControllerEventTypes'
import { EventBus, EventListener } from '../events/EventBus'
import { ApprovalDecision, ApprovalDecisionResult, PendingApprovalBatch, PendingApprovalItem } from '../state/PendingApproval'
import { PendingPlanReview, PlanReviewDecision, PlanReviewDecisionResult } from '../state/PendingPlanReview'
import { ApprovalHost } from './ApprovalHost'
import { ServerRequests } from '../elicitation/ServerRequests'

/**
 * The control surface for UI and app code. Holds no runtime state: it observes (events, pending
 * approvals as clones), publishes, and routes decisions to the bound ApprovalHost.
 */
export class AgentController {
  readonly eventBus: EventBus
  /**
   * MCP servers' requests: give it to an MCP client as its `elicitation` / `sampling` handler; list and
   * answer what waits for the user here (`pending()`, `accept`, `decline`, `cancel`). docs/mcp.md.
   */
  readonly serverRequests: ServerRequests = new ServerRequests()
  private approvalHost?: ApprovalHost

  constructor(eventBus?: EventBus) {
    this.eventBus = eventBus ?? new EventBus()
  }

  /** Called by the runtime that owns the state. */
  bindApprovalHost(host: ApprovalHost): void {
    this.approvalHost = host
  }

  unbindApprovalHost(host: ApprovalHost): void {
    if (this.approvalHost === host) {
      this.approvalHost = undefined
    }
  }

  hasApprovalHost(): boolean {
    return this.approvalHost !== undefined
  }

  publish(event: BusEvent): void {
    this.eventBus.publish(event)
  }

  subscribe(eventType: string, listener: EventListener): () => void {
    return this.eventBus.subscribe(eventType, listener)
  }

  subscribeAll(listener: EventListener): () => void {
    return this.eventBus.subscribe(ControllerEventTypes.all, listener)
  }

  /** Undecided items of the frozen batch, as copies: changing them changes nothing. */
  listPendingApprovals(): PendingApprovalItem[] {
    const batch = this.pendingBatch()
    return batch === undefined ? [] : batch.pendingItems()
  }

  /** The whole frozen batch (decided items included), as a copy. */
  pendingBatch(): PendingApprovalBatch | undefined {
    if (this.approvalHost === undefined) {
      return undefined
    }
    const batch = this.approvalHost.getPendingApprovalBatch()
    return batch === undefined ? undefined : batch.clone()
  }

  async approve(approvalId: string): Promise<ApprovalDecisionResult> {
    if (this.approvalHost === undefined) {
      return ApprovalDecisionResult.failure(approvalId, AgentController.hostMissing())
    }
    return await this.approvalHost.applyApprovalDecision(approvalId, ApprovalDecision.approved)
  }

  async deny(approvalId: string, reason?: string): Promise<ApprovalDecisionResult> {
    if (this.approvalHost === undefined) {
      return ApprovalDecisionResult.failure(approvalId, AgentController.hostMissing())
    }
    return await this.approvalHost.applyApprovalDecision(approvalId, ApprovalDecision.denied, reason)
  }

  pendingPlanReview(): PendingPlanReview | undefined {
    if (this.approvalHost === undefined) {
      return undefined
    }
    const review = this.approvalHost.getPendingPlanReview()
    return review === undefined ? undefined : review.clone()
  }

  async approvePlan(): Promise<PlanReviewDecisionResult> {
    if (this.approvalHost === undefined) {
      return PlanReviewDecisionResult.failure('', AgentController.hostMissing())
    }
    return await this.approvalHost.applyPlanReviewDecision(PlanReviewDecision.approved)
  }

  async rejectPlan(reason: string): Promise<PlanReviewDecisionResult> {
    if (this.approvalHost === undefined) {
      return PlanReviewDecisionResult.failure('', AgentController.hostMissing())
    }
    return await this.approvalHost.applyPlanReviewDecision(PlanReviewDecision.rejected, reason)
  }

  private static hostMissing(): ArkAgentError {
    return new ArkAgentError(ErrorLayer.runtime, ErrorCodes.approvalHostMissing,
      'No runtime is bound to this controller for approval decisions', ErrorRetryability.never)
  }
}
