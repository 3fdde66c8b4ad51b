import { ApprovalDecision, ApprovalDecisionResult, PendingApprovalBatch } from '../state/PendingApproval'
import { PendingPlanReview, PlanReviewDecision, PlanReviewDecisionResult } from '../state/PendingPlanReview'

/** The one-way bridge from the controller to the runtime that owns the state. */
export interface ApprovalHost {
  getPendingApprovalBatch(): PendingApprovalBatch | undefined
  applyApprovalDecision(approvalId: string, decision: ApprovalDecision, denyReason?: string): Promise<ApprovalDecisionResult>
  getPendingPlanReview(): PendingPlanReview | undefined
  applyPlanReviewDecision(decision: PlanReviewDecision, reason?: string): Promise<PlanReviewDecisionResult>
}
