import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { ApprovalDecidedEvent, ApprovalGrantEvent, ApprovalResolvedEvent, GrantChange } from '../events/ApprovalEvents'
import { ApprovalDecisionOptions } from '../state/ApprovalDecisionOptions'
import { ApprovalGrant, GrantScope, GrantVerdict } from '../state/ApprovalGrant'
import { ApprovalDecision, ApprovalDecisionResult, PendingApprovalBatch, PendingApprovalItem } from '../state/PendingApproval'
import { ApprovalEdits, EditedCall } from './ApprovalEdits'
import { ApprovalExpiry } from './ApprovalExpiry'
import { ApprovalLog } from './ApprovalLog'
import { DecisionInput, DecisionRequest } from './DecisionInput'
import { GrantBook } from './GrantBook'
import { RuntimeServices } from './RuntimeServices'
import { PersistReason, StatePersister } from './StatePersister'

/**
 * One decision or revocation, applied (ApprovalFlow queues them one at a time): checked, written before
 * it counts, then published. A session grant is part of the decision's write; an app grant is written
 * to the app's store only after the decision is durable, so a decision that did not count never leaves
 * a grant behind.
 */
export class ApprovalDecider {
  private readonly s: RuntimeServices
  private readonly persister: StatePersister
  private readonly grants: GrantBook

  constructor(services: RuntimeServices, persister: StatePersister, grants: GrantBook) {
    this.s = services
    this.persister = persister
    this.grants = grants
  }

  async decide(approvalId: string, decision: ApprovalDecision,
    details?: string | ApprovalDecisionOptions): Promise<ApprovalDecisionResult> {
    // Decisions come from UI code, plain JavaScript included: what is stored must be text.
    if (typeof approvalId !== 'string') {
      return ApprovalDecisionResult.failure('', new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidInput,
        'An approval decision needs a string approval id', ErrorRetryability.never))
    }
    let request: DecisionRequest
    try {
      request = DecisionInput.check(decision, details, this.s.config.grantMatchers, this.s.config.appGrants !== undefined)
    } catch (e) {
      return ApprovalDecisionResult.failure(approvalId, ArkAgentError.from(e as Object, ErrorLayer.config,
        ErrorCodes.invalidInput, 'Approval decision refused'))
    }
    const found = await this.pendingItem(approvalId, request)
    if (found instanceof ApprovalDecisionResult) {
      return found as ApprovalDecisionResult
    }
    const batch = this.s.state.pendingApproval as PendingApprovalBatch
    const item = found as PendingApprovalItem
    let edit: EditedCall | undefined
    let grant: ApprovalGrant | undefined
    try {
      edit = await ApprovalEdits.check(this.s, this.grants, batch, item, request)
      if (request.remember !== undefined) {
        grant = this.grants.make(edit !== undefined ? edit.call : item.toolCall,
          decision === ApprovalDecision.approved ? GrantVerdict.allow : GrantVerdict.deny, request, approvalId,
          this.s.config.clock.now(), item.riskLevel)
      }
    } catch (e) {
      return ApprovalDecisionResult.failure(approvalId, ArkAgentError.from(e as Object, ErrorLayer.runtime,
        ErrorCodes.invalidInput, 'Approval decision refused'))
    }
    // The edit's hooks may have taken a while: a deadline that passed meanwhile wins over this decision.
    const again = await this.pendingItem(approvalId, request)
    if (again instanceof ApprovalDecisionResult) {
      return again as ApprovalDecisionResult
    }
    return await this.record(batch, item, request, edit, grant)
  }

  /** The pending item, after a sweep of passed deadlines; or the result to answer with instead. */
  private async pendingItem(approvalId: string, request: DecisionRequest): Promise<PendingApprovalItem | ApprovalDecisionResult> {
    const swept = await ApprovalExpiry.sweep(this.s, this.persister)
    if (swept.failed) {
      return ApprovalDecisionResult.failure(approvalId, ApprovalDecider.notSaved(undefined))
    }
    const batch = this.s.state.pendingApproval
    const item = batch !== undefined ? batch.find(approvalId) : undefined
    if (batch === undefined || item === undefined) {
      const recorded = ApprovalLog.find(this.s.state.decisions, approvalId)
      if (recorded !== undefined || this.s.state.consumedApprovalIds.indexOf(approvalId) >= 0) {
        return ApprovalDecisionResult.failure(approvalId, new ArkAgentError(ErrorLayer.runtime,
          ErrorCodes.approvalConsumed, `Approval '${approvalId}' belongs to a batch that was already resumed`,
          ErrorRetryability.never), recorded)
      }
      return ApprovalDecisionResult.failure(approvalId, new ArkAgentError(ErrorLayer.runtime,
        ErrorCodes.approvalUnknown, `No pending approval has id '${approvalId}'`, ErrorRetryability.never))
    }
    if (!item.isPending()) {
      return ApprovalDecisionResult.success(approvalId, item.decision, batch.allDecided(), ApprovalLog.same(item, request), item)
    }
    return item
  }

  private async record(batch: PendingApprovalBatch, item: PendingApprovalItem, request: DecisionRequest,
    edit: EditedCall | undefined, grant: ApprovalGrant | undefined): Promise<ApprovalDecisionResult> {
    const approvalId = item.approvalId
    const before = item.clone()
    const session = grant !== undefined && grant.scope === GrantScope.session ? grant : undefined
    // The item names the grant it asked for (an app grant is in force only if the result has no grantError).
    ApprovalLog.apply(item, request, edit, this.s.config.clock.now(), grant)
    if (session !== undefined) {
      this.s.state.grants.push(session)
    }
    const saved = await this.persister.persist(undefined, PersistReason.approvalDecision, true)
    if (!saved.ok) {
      // Not durable, so not decided: the user can decide again.
      item.restoreFrom(before)
      if (session !== undefined) {
        this.s.state.grants.splice(this.s.state.grants.indexOf(session), 1)
      }
      const own = saved.ownError
      return ApprovalDecisionResult.failure(approvalId, own !== undefined && !saved.refused ? own :
        ApprovalDecider.notSaved(saved.error))
    }
    this.s.publish(undefined, new ApprovalDecidedEvent(this.s.sessionId, batch.runId, item.clone()))
    let grantError: ArkAgentError | undefined
    if (grant !== undefined && grant.scope === GrantScope.app) {
      try {
        await this.grants.changeApp(grant, '')
      } catch (e) {
        // The decision counts; the "always" it asked for does not (later calls are asked about as before).
        grantError = ArkAgentError.from(e as Object, ErrorLayer.storage, ErrorCodes.stateSaveFailed,
          'The decision counts, but the app grant could not be saved')
      }
    }
    if (grant !== undefined && grantError === undefined) {
      this.s.publish(undefined, new ApprovalGrantEvent(this.s.sessionId, batch.runId, grant, GrantChange.added))
    }
    const all = batch.allDecided()
    if (all) {
      this.s.publish(undefined, new ApprovalResolvedEvent(this.s.sessionId, batch.runId, batch.clone()))
    }
    return ApprovalDecisionResult.success(approvalId, item.decision, all, true, item, grantError)
  }

  async revoke(grantId: string): Promise<ArkAgentError | undefined> {
    if (typeof grantId !== 'string' || grantId.length === 0) {
      return new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidInput, 'revokeGrant needs a grant id (a string)',
        ErrorRetryability.never)
    }
    const grants = this.s.state.grants
    for (let i = 0; i < grants.length; i++) {
      if (grants[i].grantId === grantId) {
        const grant = grants[i]
        grants.splice(i, 1)
        const saved = await this.persister.persist(undefined, PersistReason.approvalDecision, true)
        if (!saved.ok) {
          grants.splice(i, 0, grant)
          return saved.ownError ?? ApprovalDecider.notSaved(saved.error)
        }
        this.s.publish(undefined, new ApprovalGrantEvent(this.s.sessionId, this.s.state.activeRunId, grant,
          GrantChange.revoked))
        return undefined
      }
    }
    let removed: ApprovalGrant | undefined
    try {
      removed = await this.grants.changeApp(undefined, grantId)
    } catch (e) {
      return ArkAgentError.from(e as Object, ErrorLayer.storage, ErrorCodes.stateSaveFailed, 'The grant could not be revoked')
    }
    if (removed !== undefined) {
      this.s.publish(undefined, new ApprovalGrantEvent(this.s.sessionId, this.s.state.activeRunId, removed,
        GrantChange.revoked))
      return undefined
    }
    return new ArkAgentError(ErrorLayer.runtime, ErrorCodes.grantUnknown, `No remembered grant has id '${grantId}'`,
      ErrorRetryability.never)
  }

  static notSaved(cause: ArkAgentError | undefined): ArkAgentError {
    return new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateSaveFailed, `The decision could not be saved: ${
      cause !== undefined ? cause.message : 'unknown error'}`, ErrorRetryability.retryable)
  }
}
