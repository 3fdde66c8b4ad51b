import { ErrorCodes } from '../errors/ArkAgentError'
import { ToolResult } from '../model/ToolResult'
import { Redactor } from '../redaction/Redactor'
import { AgentState } from '../state/AgentState'
import { ApprovalGrant, GrantVerdict } from '../state/ApprovalGrant'
import { ApprovalDecision, DecisionChannel, PendingApprovalItem } from '../state/PendingApproval'
import { EditedCall } from './ApprovalEdits'
import { DecisionRequest } from './DecisionInput'

/** How many decided items the session's decision log keeps at most (the latest). */
const LOG_SIZE: number = 64

/** Writing decisions into items, and the session's decision log (AgentState.decisions). */
export class ApprovalLog {
  /** A user's (or app code's) decision, as it will be stored: texts redacted, the edit as given. */
  static apply(item: PendingApprovalItem, request: DecisionRequest, edit: EditedCall | undefined, now: number,
    grant: ApprovalGrant | undefined): void {
    item.decision = request.decision
    item.decidedAtMs = now
    item.channel = DecisionChannel.ui
    item.actor = Redactor.text(request.actor)
    item.decisionReason = request.reason !== undefined ? Redactor.text(request.reason) : undefined
    if (request.decision === ApprovalDecision.denied) {
      item.denyReason = request.reason !== undefined && request.reason.length > 0 ? Redactor.text(request.reason) :
        'denied by the user'
      item.messageToModel = request.messageToModel !== undefined ? Redactor.text(request.messageToModel) : undefined
    } else {
      item.denyReason = undefined
      item.approvedCall = edit !== undefined ? edit.call : undefined
      item.approvedRisk = edit !== undefined ? edit.risk : undefined
    }
    item.grantId = grant !== undefined ? grant.grantId : undefined
  }

  /** A call a remembered grant decided: approved, or denied with the grant's answer. */
  static decideByGrant(item: PendingApprovalItem, grant: ApprovalGrant, now: number, synthetic?: ToolResult): void {
    item.decidedAtMs = now
    item.channel = DecisionChannel.grant
    item.actor = grant.actor
    item.grantId = grant.grantId
    if (grant.verdict === GrantVerdict.allow) {
      item.decision = ApprovalDecision.approved
      return
    }
    item.decision = ApprovalDecision.denied
    item.denyReason = 'denied by a remembered decision'
    item.syntheticResult = synthetic ?? ToolResult.error(item.toolCall.id, ErrorCodes.toolDenied,
      `Not run: the user chose to always deny '${item.toolCall.name}'`)
  }

  /** Whether a repeated request asks for exactly what the item records (verdict, and for approvals the call). */
  static same(item: PendingApprovalItem, request: DecisionRequest): boolean {
    if (item.decision !== request.decision) {
      return false
    }
    if (request.decision === ApprovalDecision.denied) {
      return true
    }
    const run = item.callToRun()
    const name = request.name ?? item.toolCall.name
    const args = request.argumentsText ?? item.toolCall.argumentsJson
    return run.name === name && run.argumentsJson === args
  }

  /**
   * Appends `items` (one batch's) to the session's decision log, their calls with every kept secret
   * removed (the log is stored, like history), then keeps the newest items that fit: at most LOG_SIZE,
   * within about `budgetChars` characters (AgentRuntimeConfig.decisionLogChars) — the header is written
   * with every save and must stay within the storage's value limit. A record dropped before its call ran
   * notes no execution.
   */
  static record(state: AgentState, items: PendingApprovalItem[], budgetChars: number): void {
    const log = state.decisions
    for (let i = 0; i < items.length; i++) {
      log.push(ApprovalLog.redacted(items[i]))
    }
    let chars = 0
    let keep = 0
    for (let i = log.length - 1; i >= 0 && keep < LOG_SIZE; i--) {
      chars += ApprovalLog.size(log[i])
      if (chars > budgetChars) {
        break
      }
      keep++
    }
    if (keep < log.length) {
      log.splice(0, log.length - keep)
    }
  }

  /** An item as the log keeps it: its calls and synthetic result without any secret the process keeps. */
  static redacted(item: PendingApprovalItem): PendingApprovalItem {
    const copy = new PendingApprovalItem(item.approvalId, Redactor.call(item.toolCall), item.riskLevel, Redactor.text(item.reason),
      item.createdAtMs, item.decision)
    copy.restoreFrom(item)
    copy.expiresAtMs = item.expiresAtMs
    copy.approvedCall = item.approvedCall !== undefined ? Redactor.call(item.approvedCall) : undefined
    copy.executedCall = item.executedCall !== undefined ? Redactor.call(item.executedCall) : undefined
    copy.syntheticResult = item.syntheticResult !== undefined ? Redactor.toolResult(item.syntheticResult) : undefined
    return copy
  }

  /** About how many characters an item takes in the stored header. */
  private static size(item: PendingApprovalItem): number {
    const approved = item.approvedCall !== undefined ? item.approvedCall.argumentsJson.length : 0
    const executed = item.executedCall !== undefined ? item.executedCall.argumentsJson.length : 0
    const texts = (item.denyReason ?? '').length + (item.decisionReason ?? '').length + (item.messageToModel ?? '').length +
      item.reason.length
    const synthetic = item.syntheticResult !== undefined ? item.syntheticResult.textContent().length : 0
    return 400 + item.toolCall.argumentsJson.length + approved + executed + texts + synthetic
  }

  static find(log: PendingApprovalItem[], approvalId: string): PendingApprovalItem | undefined {
    for (let i = log.length - 1; i >= 0; i--) {
      if (log[i].approvalId === approvalId) {
        return log[i]
      }
    }
    return undefined
  }
}
