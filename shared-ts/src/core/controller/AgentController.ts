import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { BusEvent } from '../events/BusEvent'
import { ControllerEventTypes } from '../events/ControllerEventTypes'
import { EventBus, EventListener } from '../events/EventBus'
import { ApprovalDecision, ApprovalDecisionResult, PendingApprovalBatch, PendingApprovalItem } from '../state/PendingApproval'
import { PendingPlanReview, PlanReviewDecision, PlanReviewDecisionResult } from '../state/PendingPlanReview'
import { ApprovalGrant } from '../state/ApprovalGrant'
import { ApprovalDecisionOptions } from '../state/ApprovalDecisionOptions'
import { ApprovalHost, GrantRevokeResult } from './ApprovalHost'
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

  /**
   * Approves one item. `options` (docs/approvals.md): edited `arguments` (checked against the tool's
   * schema and put through the beforeToolCall hooks again; what runs is exactly the edit), the `actor`
   * deciding, a `reason`, and `remember` ('session' or 'app') to always allow the tool from now on.
   * Never rejects: a refused decision is `ok: false` with the error, and the item stays pending.
   */
  async approve(approvalId: string, options?: ApprovalDecisionOptions): Promise<ApprovalDecisionResult> {
    if (this.approvalHost === undefined) {
      return ApprovalDecisionResult.failure(approvalId, AgentController.hostMissing())
    }
    return await this.approvalHost.applyApprovalDecision(approvalId, ApprovalDecision.approved, options)
  }

  /**
   * Denies one item. `reason` as text, or options: `reason` (recorded and shown), `messageToModel`
   * (what the model is told instead), `actor`, and `remember` to always deny the tool from now on.
   */
  async deny(approvalId: string, reason?: string | ApprovalDecisionOptions): Promise<ApprovalDecisionResult> {
    if (this.approvalHost === undefined) {
      return ApprovalDecisionResult.failure(approvalId, AgentController.hostMissing())
    }
    return await this.approvalHost.applyApprovalDecision(approvalId, ApprovalDecision.denied, reason)
  }

  /**
   * Every decision the session remembers, oldest first, as copies: who decided (`actor`), when, through
   * which `channel` (ui, policy, grant, expiry), why, and the call as proposed (`toolCall`), approved
   * (`approvedCall` when edited) and executed (`executedCall`, once it ran). The latest 64 decisions
   * (within about 32 K characters) of resumed batches, then the decided items of the batch waiting now.
   */
  listDecisions(): PendingApprovalItem[] {
    return this.approvalHost === undefined ? [] : this.approvalHost.listDecisions()
  }

  /** The remembered decisions in force ("always allow / deny"): the session's, then the app's. */
  async listGrants(): Promise<ApprovalGrant[]> {
    return this.approvalHost === undefined ? [] : await this.approvalHost.listGrants()
  }

  /** Revokes a remembered decision; it no longer applies from the next gate on. Never rejects. */
  async revokeGrant(grantId: string): Promise<GrantRevokeResult> {
    if (this.approvalHost === undefined) {
      return new GrantRevokeResult(false, typeof grantId === 'string' ? grantId : '', AgentController.hostMissing())
    }
    return await this.approvalHost.revokeGrant(grantId)
  }

  /**
   * Denies now the pending items whose deadline has passed (the runtime also does it by itself with a
   * timer, before every decision, and on restore); resolves with how many.
   */
  async expireApprovals(): Promise<number> {
    return this.approvalHost === undefined ? 0 : await this.approvalHost.expireApprovals()
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
