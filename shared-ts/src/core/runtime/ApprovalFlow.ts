import { ArkAgentError, ErrorCodes } from '../errors/ArkAgentError'
import { ApprovalDecidedEvent, ApprovalRequiredEvent } from '../events/ApprovalEvents'
import { ToolCallHookAction } from '../hook/HookResults'
import { AgentMessage } from '../model/AgentMessage'
import { ToolResult } from '../model/ToolResult'
import { Redactor } from '../redaction/Redactor'
import { SessionStatus } from '../state/AgentState'
import { ApprovalDecisionOptions } from '../state/ApprovalDecisionOptions'
import { ApprovalGrant, GrantVerdict } from '../state/ApprovalGrant'
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
import { ApprovalDecider } from './ApprovalDecider'
import { ApprovalExpiry, ExpirySweep } from './ApprovalExpiry'
import { ApprovalLog } from './ApprovalLog'
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
  private readonly decider: ApprovalDecider

  constructor(services: RuntimeServices, persister: StatePersister) {
    this.s = services
    this.persister = persister
    this.grants = new GrantBook(services)
    this.decider = new ApprovalDecider(services, persister, this.grants)
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
      (): Promise<ApprovalDecisionResult> => this.decider.decide(approvalId, decision, details))
  }

  /** Denies every pending item past its deadline (one at a time with decisions). */
  expire(): Promise<ExpirySweep> {
    return this.decisions.run<ExpirySweep>((): Promise<ExpirySweep> => ApprovalExpiry.sweep(this.s, this.persister))
  }

  /** Revokes a remembered grant (session or app); written before it counts. */
  revoke(grantId: string): Promise<ArkAgentError | undefined> {
    return this.decisions.run<ArkAgentError | undefined>(
      (): Promise<ArkAgentError | undefined> => this.decider.revoke(grantId))
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
    }
    ApprovalLog.record(this.s.state, batch.items.map((item: PendingApprovalItem): PendingApprovalItem => item.clone()),
      this.s.config.decisionLogChars)
    if (consumed.length > CONSUMED_MEMORY) {
      consumed.splice(0, consumed.length - CONSUMED_MEMORY)
    }
    this.s.state.pendingApproval = undefined
    return new ToolBatchProgress(batch.batchId, runId, batch.modelMessage, entries)
  }

  /**
   * Records the calls of an unfrozen batch that a remembered grant decided (each published as
   * `approval.decided`); their approval ids, by position.
   */
  recordGranted(run: RunContext, gated: GatedCall[]): (string | undefined)[] {
    const ids: (string | undefined)[] = []
    const now = this.s.config.clock.now()
    const items: PendingApprovalItem[] = []
    for (let i = 0; i < gated.length; i++) {
      const g = gated[i]
      if (g.grant === undefined || g.refusal !== undefined) {
        ids.push(undefined)
        continue
      }
      const item = new PendingApprovalItem(Ids.next('apr'), g.call, g.risk, 'decided by a remembered grant', now)
      ApprovalLog.decideByGrant(item, g.grant, now, g.syntheticResult)
      items.push(item)
      ids.push(item.decision === ApprovalDecision.approved ? item.approvalId : undefined)
    }
    ApprovalLog.record(this.s.state, items, this.s.config.decisionLogChars)
    for (let i = 0; i < items.length; i++) {
      this.s.publish(run, new ApprovalDecidedEvent(this.s.sessionId, run.runId, items[i].clone()))
    }
    return ids
  }

  /**
   * Before a decided batch resumes: an item a remembered "always allow" approved runs only if that grant
   * still applies to it now (not revoked, the tool's definition unchanged); otherwise it is denied with a
   * reason the model sees (nobody is there to ask). Part of the resume's write.
   */
  async recheckGrants(batch: PendingApprovalBatch): Promise<void> {
    let grants: ApprovalGrant[] | undefined
    for (let i = 0; i < batch.items.length; i++) {
      const item = batch.items[i]
      if (item.channel !== DecisionChannel.grant || item.decision !== ApprovalDecision.approved) {
        continue
      }
      if (grants === undefined) {
        grants = await this.grants.all()
      }
      const grant = this.grants.find(grants, item.toolCall)
      if (grant === undefined || grant.grantId !== item.grantId || grant.verdict !== GrantVerdict.allow) {
        item.decision = ApprovalDecision.denied
        item.channel = DecisionChannel.policy
        item.actor = 'runtime'
        item.decidedAtMs = this.s.config.clock.now()
        item.denyReason = 'the remembered decision no longer applies'
        item.messageToModel = `Not run: the remembered approval of '${item.toolCall.name}' no longer applies (it was ` +
          'revoked, or the tool changed). Call it again to ask the user.'
        this.s.publish(undefined, new ApprovalDecidedEvent(this.s.sessionId, batch.runId, item.clone()))
      }
    }
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
}
