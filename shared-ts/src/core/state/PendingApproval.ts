import { ArkAgentError } from '../errors/ArkAgentError'
import { AgentMessage } from '../model/AgentMessage'
import { ToolCall } from '../model/ToolCall'
import { ToolRiskLevel } from '../model/ToolDefinition'
import { ToolResult } from '../model/ToolResult'

/** An approval item's state: pending, approved or denied. */
export enum ApprovalDecision {
  pending = 'pending',
  approved = 'approved',
  denied = 'denied'
}

/**
 * One call of a frozen batch. Pure data (no callbacks, executors or secrets) so it can be
 * persisted and restored after the app is killed.
 */
export class PendingApprovalItem {
  readonly approvalId: string
  readonly toolCall: ToolCall
  readonly riskLevel: ToolRiskLevel
  readonly reason: string
  readonly createdAtMs: number
  decision: ApprovalDecision
  denyReason?: string
  decidedAtMs?: number
  /** Set when a hook already denied the call: the result the model gets instead of running it. */
  syntheticResult?: ToolResult

  constructor(approvalId: string, toolCall: ToolCall, riskLevel: ToolRiskLevel, reason: string,
    createdAtMs: number, decision: ApprovalDecision = ApprovalDecision.pending) {
    this.approvalId = approvalId
    this.toolCall = toolCall
    this.riskLevel = riskLevel
    this.reason = reason
    this.createdAtMs = createdAtMs
    this.decision = decision
  }

  isPending(): boolean {
    return this.decision === ApprovalDecision.pending
  }

  clone(): PendingApprovalItem {
    const copy = new PendingApprovalItem(this.approvalId, this.toolCall, this.riskLevel, this.reason,
      this.createdAtMs, this.decision)
    copy.denyReason = this.denyReason
    copy.decidedAtMs = this.decidedAtMs
    copy.syntheticResult = this.syntheticResult
    return copy
  }
}

/** A whole tool batch frozen until every item is decided. */
export class PendingApprovalBatch {
  readonly batchId: string
  readonly runId: string
  readonly items: PendingApprovalItem[]
  /** The assistant message that requested the calls; needed to resume after a reload. */
  readonly modelMessage: AgentMessage
  readonly createdAtMs: number

  constructor(batchId: string, runId: string, items: PendingApprovalItem[], modelMessage: AgentMessage,
    createdAtMs: number) {
    this.batchId = batchId
    this.runId = runId
    this.items = items
    this.modelMessage = modelMessage
    this.createdAtMs = createdAtMs
  }

  allDecided(): boolean {
    for (let i = 0; i < this.items.length; i++) {
      if (this.items[i].isPending()) {
        return false
      }
    }
    return this.items.length > 0
  }

  find(approvalId: string): PendingApprovalItem | undefined {
    for (let i = 0; i < this.items.length; i++) {
      if (this.items[i].approvalId === approvalId) {
        return this.items[i]
      }
    }
    return undefined
  }

  pendingItems(): PendingApprovalItem[] {
    const out: PendingApprovalItem[] = []
    for (let i = 0; i < this.items.length; i++) {
      if (this.items[i].isPending()) {
        out.push(this.items[i].clone())
      }
    }
    return out
  }

  clone(): PendingApprovalBatch {
    const items: PendingApprovalItem[] = []
    for (let i = 0; i < this.items.length; i++) {
      items.push(this.items[i].clone())
    }
    return new PendingApprovalBatch(this.batchId, this.runId, items, this.modelMessage, this.createdAtMs)
  }
}

/** What an approve/deny call did. `ok` with the current decision also for a repeated call. */
export class ApprovalDecisionResult {
  readonly ok: boolean
  readonly approvalId: string
  readonly decision: string
  readonly allDecided: boolean
  readonly error?: ArkAgentError

  private constructor(ok: boolean, approvalId: string, decision: string, allDecided: boolean, error?: ArkAgentError) {
    this.ok = ok
    this.approvalId = approvalId
    this.decision = decision
    this.allDecided = allDecided
    this.error = error
  }

  static success(approvalId: string, decision: string, allDecided: boolean): ApprovalDecisionResult {
    return new ApprovalDecisionResult(true, approvalId, decision, allDecided)
  }

  static failure(approvalId: string, error: ArkAgentError): ApprovalDecisionResult {
    return new ApprovalDecisionResult(false, approvalId, 'error', false, error)
  }
}
