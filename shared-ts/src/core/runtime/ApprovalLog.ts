import { ErrorCodes } from '../errors/ArkAgentError'
import { ToolResult } from '../model/ToolResult'
import { Redactor } from '../redaction/Redactor'
import { AgentState } from '../state/AgentState'
import { ApprovalGrant, GrantVerdict } from '../state/ApprovalGrant'
import { ApprovalDecision, DecisionChannel, PendingApprovalItem } from '../state/PendingApproval'
import { EditedCall } from './ApprovalEdits'
import { DecisionRequest } from './DecisionInput'

/** How many decided items the session's decision log keeps (the latest). */
const LOG_SIZE: number = 256

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

  /** Appends to the session's decision log, keeping the latest LOG_SIZE. */
  static record(state: AgentState, item: PendingApprovalItem): void {
    state.decisions.push(item)
    if (state.decisions.length > LOG_SIZE) {
      state.decisions.splice(0, state.decisions.length - LOG_SIZE)
    }
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
