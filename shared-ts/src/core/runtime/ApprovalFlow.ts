import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import {
  ApprovalDecidedEvent,
  ApprovalGrantEvent,
  ApprovalRequiredEvent,
  ApprovalResolvedEvent,
  GrantChange
} from '../events/ApprovalEvents'
import { ToolCallHookAction } from '../hook/HookResults'
import { AgentMessage } from '../model/AgentMessage'
import { ToolCall } from '../model/ToolCall'
import { ToolResult } from '../model/ToolResult'
import { Redactor } from '../redaction/Redactor'
import { SessionStatus } from '../state/AgentState'
import { ApprovalDecisionOptions } from '../state/ApprovalDecisionOptions'
import { ApprovalGrant, GrantScope, GrantVerdict } from '../state/ApprovalGrant'
import {
  ApprovalDecision,
  ApprovalDecisionResult,
  DecisionChannel,
  PendingApprovalBatch,
  PendingApprovalItem
} from '../state/PendingApproval'
import { ToolBatchEntry, ToolBatchProgress } from '../state/ToolBatchProgress'
import { Ids } from '../util/Ids'
import { SerialQueue } from '../util/SerialQueue'
import { ApprovalEdits, EditedCall } from './ApprovalEdits'
import { ApprovalExpiry, ExpirySweep } from './ApprovalExpiry'
import { ApprovalLog } from './ApprovalLog'
import { DecisionInput, DecisionRequest } from './DecisionInput'
import { GrantBook } from './GrantBook'
import { RunContext } from './RunContext'
import { StopReason } from './RunOutcome'
import { RuntimeServices } from './RuntimeServices'
import { PersistReason, StatePersister } from './StatePersister'
import { GatedCall } from './ToolBatchExecutor'

/** How many ids of consumed batches are remembered for precise late-decision errors. */
const CONSUMED_MEMORY: number = 256

/**
 * Freezing a batch for the user, recording decisions (first wins, each durably, with its actor,
 * channel, reason and any edit or grant), expiring them, and turning a fully decided batch back into
 * executable work. Decisions, expiries and grant revocations are applied one at a time.
 */
export class ApprovalFlow {
  private readonly s: RuntimeServices
  private readonly persister: StatePersister
  private readonly decisions: SerialQueue = new SerialQueue()
  readonly grants: GrantBook

  constructor(services: RuntimeServices, persister: StatePersister) {
    this.s = services
    this.persister = persister
    this.grants = new GrantBook(services)
  }

  /**
   * Freezes the whole batch: an item per call in model order. Calls a hook denied, the registry refused
   * or a remembered grant decided are recorded as decided (channel policy or grant); the others wait,
   * each with its deadline when one is configured. Written (mandatory) before approval.required is
   * published; throws state_save_failed if the write fails.
   */
  async freeze(run: RunContext, message: AgentMessage, gated: GatedCall[]): Promise<PendingApprovalBatch> {
    const now = this.s.config.clock.now()
    const items: PendingApprovalItem[] = []
    for (let i = 0; i < gated.length; i++) {
      const g = gated[i]
      // A hook's deny wins over the registry's refusal (the hook decided first).
      const refusal = g.action !== ToolCallHookAction.deny ? g.refusal : undefined
      const reason = refusal !== undefined ? refusal.textContent() :
        (g.action === ToolCallHookAction.proceed ? 'part of a batch that needs approval' : g.reason)
      // The level the gate saw: what the user approves, and what execution compares the tool with.
      const item = new PendingApprovalItem(Ids.next('apr'), g.call, g.risk, reason, now)
      if (g.grant !== undefined && refusal === undefined) {
        ApprovalLog.decideByGrant(item, g.grant, now, g.syntheticResult)
      } else if (!g.needsDecision()) {
        // Denied by a hook, or refused by the registry: decided now, never put to the user.
        item.decision = ApprovalDecision.denied
        item.denyReason = reason
        item.decidedAtMs = now
        item.channel = DecisionChannel.policy
        item.actor = 'policy'
        item.syntheticResult = refusal ?? g.syntheticResult
      } else {
        item.expiresAtMs = ApprovalExpiry.deadline(this.s, g.call.name, now)
      }
      items.push(item)
    }
    const batch = new PendingApprovalBatch(Ids.next('batch'), run.runId, items, message, now)
    this.s.state.pendingApproval = batch
    this.s.state.status = SessionStatus.awaitingApproval
    // Part of the same mandatory write, so a reload reports why the run stopped.
    this.s.state.lastStopReason = StopReason.awaitingApproval
    try {
      await this.persister.persistSuspension(run, PersistReason.awaitingApproval, 'The approval batch')
    } catch (e) {
      this.s.state.pendingApproval = undefined
      throw e as Error
    }
    this.s.publish(run, new ApprovalRequiredEvent(this.s.sessionId, run.runId, batch.clone()))
    return batch
  }

  /**
   * Records one decision. Idempotent: a decided item returns its current decision with ok (and
   * `applied` false when it was not this call's). Decisions are applied one at a time, so a concurrent
   * call never reports a decision whose write has not completed (and may still fail and be rolled back).
   */
  decide(approvalId: string, decision: ApprovalDecision,
    details?: string | ApprovalDecisionOptions): Promise<ApprovalDecisionResult> {
    return this.decisions.run<ApprovalDecisionResult>(
      (): Promise<ApprovalDecisionResult> => this.decideNow(approvalId, decision, details))
  }

  /** Denies every pending item past its deadline (one at a time with decisions). */
  expire(): Promise<ExpirySweep> {
    return this.decisions.run<ExpirySweep>((): Promise<ExpirySweep> => ApprovalExpiry.sweep(this.s, this.persister))
  }

  /** Revokes a remembered grant (session or app); written before it counts. */
  revoke(grantId: string): Promise<ArkAgentError | undefined> {
    return this.decisions.run<ArkAgentError | undefined>(
      (): Promise<ArkAgentError | undefined> => this.revokeNow(grantId))
  }

  private async decideNow(approvalId: string, decision: ApprovalDecision,
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
      return ApprovalDecisionResult.failure(approvalId, e as ArkAgentError)
    }
    // A deadline that passed counts before any decision: a late approve gets the expiry's denial.
    const swept = await ApprovalExpiry.sweep(this.s, this.persister)
    if (swept.failed) {
      return ApprovalDecisionResult.failure(approvalId, ApprovalFlow.notSaved(undefined))
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
      return ApprovalDecisionResult.success(approvalId, item.decision, batch.allDecided(),
        ApprovalLog.same(item, request), item)
    }
    let edit: EditedCall | undefined
    let grant: ApprovalGrant | undefined
    const now = this.s.config.clock.now()
    try {
      edit = await ApprovalEdits.check(this.s, batch, item, request)
      if (!item.isPending()) {
        // Unreachable while decisions are queued; kept so an edit's hooks can never decide twice.
        return ApprovalDecisionResult.success(approvalId, item.decision, batch.allDecided(), false, item)
      }
      if (request.remember !== undefined) {
        grant = this.grants.make(edit !== undefined ? edit.call : item.toolCall,
          decision === ApprovalDecision.approved ? GrantVerdict.allow : GrantVerdict.deny, request, approvalId, now)
        if (grant.scope === GrantScope.app) {
          await this.grants.changeApp(grant, '')
        }
      }
    } catch (e) {
      return ApprovalDecisionResult.failure(approvalId, ArkAgentError.from(e as Object, ErrorLayer.runtime,
        ErrorCodes.invalidInput, 'Approval decision refused'))
    }
    const before = item.clone()
    ApprovalLog.apply(item, request, edit, now, grant)
    if (grant !== undefined && grant.scope === GrantScope.session) {
      this.s.state.grants.push(grant)
    }
    const saved = await this.persister.persist(undefined, PersistReason.approvalDecision, true)
    if (!saved.ok) {
      // Not durable, so not decided: the user can decide again.
      item.restoreFrom(before)
      if (grant !== undefined) {
        await this.forget(grant)
      }
      const own = saved.ownError
      return ApprovalDecisionResult.failure(approvalId, own !== undefined && !saved.refused ? own :
        ApprovalFlow.notSaved(saved.error))
    }
    this.s.publish(undefined, new ApprovalDecidedEvent(this.s.sessionId, batch.runId, item.clone()))
    if (grant !== undefined) {
      this.s.publish(undefined, new ApprovalGrantEvent(this.s.sessionId, batch.runId, grant, GrantChange.added))
    }
    const all = batch.allDecided()
    if (all) {
      this.s.publish(undefined, new ApprovalResolvedEvent(this.s.sessionId, batch.runId, batch.clone()))
    }
    return ApprovalDecisionResult.success(approvalId, decision, all, true, item)
  }

  /** Takes a grant of a decision that did not count out again (the session's in memory; the app's, best effort). */
  private async forget(grant: ApprovalGrant): Promise<void> {
    const own = this.s.state.grants.indexOf(grant)
    if (own >= 0) {
      this.s.state.grants.splice(own, 1)
    }
    if (grant.scope === GrantScope.app) {
      try {
        await this.grants.changeApp(undefined, grant.grantId)
      } catch (e) {
        // It stays in the app's store; listGrants() shows it and revokeGrant() removes it.
      }
    }
  }

  private async revokeNow(grantId: string): Promise<ArkAgentError | undefined> {
    if (typeof grantId !== 'string') {
      return new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidInput, 'revokeGrant needs a string grant id',
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
          return saved.ownError ?? ApprovalFlow.notSaved(saved.error)
        }
        this.s.publish(undefined, new ApprovalGrantEvent(this.s.sessionId, this.s.state.activeRunId, grant,
          GrantChange.revoked))
        return undefined
      }
    }
    try {
      const app = await this.grants.all()
      const found = app.filter((g: ApprovalGrant): boolean => g.grantId === grantId)
      if (found.length > 0 && await this.grants.changeApp(undefined, grantId)) {
        this.s.publish(undefined, new ApprovalGrantEvent(this.s.sessionId, this.s.state.activeRunId, found[0],
          GrantChange.revoked))
        return undefined
      }
    } catch (e) {
      return ArkAgentError.from(e as Object, ErrorLayer.storage, ErrorCodes.stateSaveFailed, 'The grant could not be revoked')
    }
    return new ArkAgentError(ErrorLayer.runtime, ErrorCodes.grantUnknown, `No remembered grant has id '${grantId}'`,
      ErrorRetryability.never)
  }

  /**
   * Consumes a fully decided batch into executable progress: approved calls will run — the edit when
   * the user edited the call, byte for byte — cleared at the risk level the user approved (a tool that
   * is riskier when it runs is not run on that approval: ToolBatchExecutor's admission); denied ones
   * get an error-flagged tool_denied result with the message meant for the model. The decided items
   * move to the decision log.
   */
  consume(batch: PendingApprovalBatch, runId: string): ToolBatchProgress {
    const entries: ToolBatchEntry[] = []
    const consumed = this.s.state.consumedApprovalIds
    for (let i = 0; i < batch.items.length; i++) {
      const item = batch.items[i]
      if (item.decision !== ApprovalDecision.approved) {
        entries.push(new ToolBatchEntry(item.toolCall, false, ApprovalFlow.denial(item), item.riskLevel))
      } else {
        entries.push(new ToolBatchEntry(item.callToRun(), false, undefined, item.clearance(), item.approvalId))
      }
      consumed.push(item.approvalId)
      ApprovalLog.record(this.s.state, item.clone())
    }
    if (consumed.length > CONSUMED_MEMORY) {
      consumed.splice(0, consumed.length - CONSUMED_MEMORY)
    }
    this.s.state.pendingApproval = undefined
    return new ToolBatchProgress(batch.batchId, runId, batch.modelMessage, entries)
  }

  /** Records the calls of an unfrozen batch that a remembered grant decided; their approval ids, by position. */
  recordGranted(gated: GatedCall[]): (string | undefined)[] {
    const ids: (string | undefined)[] = []
    const now = this.s.config.clock.now()
    for (let i = 0; i < gated.length; i++) {
      const g = gated[i]
      if (g.grant === undefined || g.refusal !== undefined) {
        ids.push(undefined)
        continue
      }
      const item = new PendingApprovalItem(Ids.next('apr'), g.call, g.risk, 'decided by a remembered grant', now)
      ApprovalLog.decideByGrant(item, g.grant, now, g.syntheticResult)
      ApprovalLog.record(this.s.state, item)
      ids.push(item.decision === ApprovalDecision.approved ? item.approvalId : undefined)
    }
    return ids
  }

  /** Decided items: the decision log, then the decided items of the frozen batch; copies. */
  list(): PendingApprovalItem[] {
    const out = this.s.state.decisions.map((d: PendingApprovalItem): PendingApprovalItem => d.clone())
    const batch = this.s.state.pendingApproval
    for (let i = 0; batch !== undefined && i < batch.items.length; i++) {
      if (!batch.items[i].isPending()) {
        out.push(batch.items[i].clone())
      }
    }
    return out
  }

  private static denial(item: PendingApprovalItem): ToolResult {
    if (item.syntheticResult !== undefined) {
      return item.syntheticResult.forCall(item.toolCall.id)
    }
    const said = item.messageToModel !== undefined ? item.messageToModel :
      `The user denied '${item.toolCall.name}'${item.denyReason !== undefined ? ': ' + item.denyReason : ''}`
    return ToolResult.error(item.toolCall.id, ErrorCodes.toolDenied, Redactor.text(said))
  }

  private static notSaved(cause: ArkAgentError | undefined): ArkAgentError {
    return new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateSaveFailed, `The decision could not be saved: ${
      cause !== undefined ? cause.message : 'unknown error'}`, ErrorRetryability.retryable)
  }

  /** Whether two calls are the same call, byte for byte. */
  static sameCall(a: ToolCall, b: ToolCall): boolean {
    return a.id === b.id && a.name === b.name && a.argumentsJson === b.argumentsJson
  }
}
