import { ArkAgentError } from '../errors/ArkAgentError'
import { ApprovalGrant } from '../state/ApprovalGrant'
import { ApprovalDecisionOptions } from '../state/ApprovalDecisionOptions'
import { ApprovalDecision, ApprovalDecisionResult, PendingApprovalBatch, PendingApprovalItem } from '../state/PendingApproval'
import { PendingPlanReview, PlanReviewDecision, PlanReviewDecisionResult } from '../state/PendingPlanReview'

/** What revokeGrant did: ok, or why not (grant_unknown, state_save_failed, ...). */
export class GrantRevokeResult {
  readonly ok: boolean
  readonly grantId: string
  readonly error?: ArkAgentError

  constructor(ok: boolean, grantId: string, error?: ArkAgentError) {
    this.ok = ok
    this.grantId = grantId
    this.error = error
  }
}

/** The one-way bridge from the controller to the runtime that owns the state. */
export interface ApprovalHost {
  getPendingApprovalBatch(): PendingApprovalBatch | undefined
  /** `details`: a deny's reason as text, or ApprovalDecisionOptions (docs/approvals.md). */
  applyApprovalDecision(approvalId: string, decision: ApprovalDecision,
    details?: string | ApprovalDecisionOptions): Promise<ApprovalDecisionResult>
  /** Decided items (the session's decision log, then the frozen batch's decided items), as copies. */
  listDecisions(): PendingApprovalItem[]
  /** The remembered decisions in force: the session's, then the app's. */
  listGrants(): Promise<ApprovalGrant[]>
  revokeGrant(grantId: string): Promise<GrantRevokeResult>
  /** Denies the pending items whose deadline has passed now; resolves with how many. */
  expireApprovals(): Promise<number>
  getPendingPlanReview(): PendingPlanReview | undefined
  applyPlanReviewDecision(decision: PlanReviewDecision, reason?: string): Promise<PlanReviewDecisionResult>
}
