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
 * Who or what decided an item: the user through the app's UI (or app code calling the controller),
 * a hook or the runtime's policy, a remembered grant, or the deadline passing.
 */
export enum DecisionChannel {
  ui = 'ui',
  policy = 'policy',
  grant = 'grant',
  expiry = 'expiry'
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
  /** Past this time (ms since the epoch, the runtime's clock) the item resolves as denied; absent: no deadline. */
  expiresAtMs?: number
  /** How the decision was made (absent while pending). */
  channel?: DecisionChannel
  /** Who decided: the identity string the app gave, or `runtime` / `policy` for the other channels. */
  actor?: string
  /** The reason the decider gave, for either decision (a deny's is also its `denyReason`). */
  decisionReason?: string
  /** What the model is told when the item is denied; absent: it is told `denyReason`. */
  messageToModel?: string
  /**
   * The call as the user approved it, when they edited it (arguments, or a name the app allows to be
   * replaced): what executes, byte for byte. Absent: `toolCall` as asked.
   */
  approvedCall?: ToolCall
  /** The risk level the approved call was cleared at (the edited call's tool when it was renamed); absent: `riskLevel`. */
  approvedRisk?: ToolRiskLevel
  /** The remembered grant that decided the item (channel `grant`), or that the decision created. */
  grantId?: string
  /** The call handed to the tool, recorded with the durable mark written before it ran; absent until then. */
  executedCall?: ToolCall
  executedAtMs?: number

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

  /** The call that runs if the item is approved: the edit when there is one. */
  callToRun(): ToolCall {
    return this.approvedCall ?? this.toolCall
  }

  /** The risk level the call to run is cleared at. */
  clearance(): ToolRiskLevel {
    return this.approvedRisk ?? this.riskLevel
  }

  /** Puts back every decision field from `copy` (a clone taken before a decision whose write failed). */
  restoreFrom(copy: PendingApprovalItem): void {
    this.decision = copy.decision
    this.denyReason = copy.denyReason
    this.decidedAtMs = copy.decidedAtMs
    this.decisionReason = copy.decisionReason
    this.channel = copy.channel
    this.actor = copy.actor
    this.messageToModel = copy.messageToModel
    this.approvedCall = copy.approvedCall
    this.approvedRisk = copy.approvedRisk
    this.grantId = copy.grantId
    this.executedCall = copy.executedCall
    this.executedAtMs = copy.executedAtMs
  }

  clone(): PendingApprovalItem {
    const copy = new PendingApprovalItem(this.approvalId, this.toolCall, this.riskLevel, this.reason,
      this.createdAtMs, this.decision)
    copy.denyReason = this.denyReason
    copy.decidedAtMs = this.decidedAtMs
    copy.syntheticResult = this.syntheticResult
    copy.expiresAtMs = this.expiresAtMs
    copy.decisionReason = this.decisionReason
    copy.channel = this.channel
    copy.actor = this.actor
    copy.messageToModel = this.messageToModel
    copy.approvedCall = this.approvedCall
    copy.approvedRisk = this.approvedRisk
    copy.grantId = this.grantId
    copy.executedCall = this.executedCall
    copy.executedAtMs = this.executedAtMs
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

/**
 * What an approve/deny call did. `ok` with the item's current decision also for a repeated or late
 * call: the first decision wins, and `applied` says whether it was this call's. `item` is the decision
 * as recorded (the winner's, with its edit, actor and channel) whenever one is known — also with
 * approval_consumed for an item whose batch already resumed.
 */
export class ApprovalDecisionResult {
  readonly ok: boolean
  readonly approvalId: string
  readonly decision: string
  readonly allDecided: boolean
  readonly error?: ArkAgentError
  /** This call's decision is the one recorded (false: an earlier one won, or the call failed). */
  readonly applied: boolean
  /** A copy of the item as decided; undefined while it is still pending or when it is unknown. */
  readonly item?: PendingApprovalItem
  /**
   * With `ok`: the decision counts, but the app grant it asked for (`remember: 'app'`) could not be
   * written to the app's store, so it is not in force (later calls are asked about as before).
   */
  readonly grantError?: ArkAgentError

  private constructor(ok: boolean, approvalId: string, decision: string, allDecided: boolean, applied: boolean,
    error?: ArkAgentError, item?: PendingApprovalItem, grantError?: ArkAgentError) {
    this.ok = ok
    this.approvalId = approvalId
    this.decision = decision
    this.allDecided = allDecided
    this.applied = applied
    this.error = error
    this.item = item
    this.grantError = grantError
  }

  static success(approvalId: string, decision: string, allDecided: boolean, applied: boolean = true,
    item?: PendingApprovalItem, grantError?: ArkAgentError): ApprovalDecisionResult {
    return new ApprovalDecisionResult(true, approvalId, decision, allDecided, applied, undefined,
      item !== undefined ? item.clone() : undefined, grantError)
  }

  static failure(approvalId: string, error: ArkAgentError, item?: PendingApprovalItem): ApprovalDecisionResult {
    return new ApprovalDecisionResult(false, approvalId, 'error', false, false, error,
      item !== undefined ? item.clone() : undefined)
  }
}
