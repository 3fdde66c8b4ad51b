import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { ApprovalDecidedEvent, ApprovalRequiredEvent, ApprovalResolvedEvent } from '../events/AgentEvents'
import { ToolCallHookAction } from '../hook/HookResults'
import { AgentMessage } from '../model/AgentMessage'
import { ToolResult } from '../model/ToolResult'
import { SessionStatus } from '../state/AgentState'
import {
  ApprovalDecision,
  ApprovalDecisionResult,
  PendingApprovalBatch,
  PendingApprovalItem
} from '../state/PendingApproval'
import { ToolBatchEntry, ToolBatchProgress } from '../state/ToolBatchProgress'
import { Ids } from '../util/Ids'
import { SerialQueue } from '../util/SerialQueue'
import { RunContext } from './RunContext'
import { StopReason } from './RunOutcome'
import { RuntimeServices } from './RuntimeServices'
import { PersistReason, StatePersister } from './StatePersister'
import { GatedCall } from './ToolBatchExecutor'

/** How many ids of consumed batches are remembered for precise late-decision errors. */
const CONSUMED_MEMORY: number = 256

/**
 * Freezing a batch for the user, recording decisions (first wins, each durably), and turning a
 * fully decided batch back into executable work.
 */
export class ApprovalFlow {
  private readonly s: RuntimeServices
  private readonly persister: StatePersister
  private readonly decisions: SerialQueue = new SerialQueue()

  constructor(services: RuntimeServices, persister: StatePersister) {
    this.s = services
    this.persister = persister
  }

  /**
   * Freezes the whole batch: an item per call in model order; calls a hook denied are recorded
   * as decided with their synthetic result. Written (mandatory) before approval.required is
   * published; throws state_save_failed if the write fails.
   */
  async freeze(run: RunContext, message: AgentMessage, gated: GatedCall[]): Promise<PendingApprovalBatch> {
    const now = Date.now()
    const items: PendingApprovalItem[] = []
    for (let i = 0; i < gated.length; i++) {
      const g = gated[i]
      // The level the gate saw: what the user approves, and what execution compares the tool with.
      const risk = g.risk
      // A hook's deny wins over the registry's refusal (the hook decided first).
      const refusal = g.action !== ToolCallHookAction.deny ? g.refusal : undefined
      const reason = refusal !== undefined ? refusal.textContent() :
        (g.action === ToolCallHookAction.proceed ? 'part of a batch that needs approval' : g.reason)
      const item = new PendingApprovalItem(Ids.next('apr'), g.call, risk, reason, now)
      if (!g.needsDecision()) {
        // Denied by a hook, or refused by the registry: decided now, never put to the user.
        item.decision = ApprovalDecision.denied
        item.denyReason = reason
        item.decidedAtMs = now
        item.syntheticResult = refusal ?? g.syntheticResult
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
   * Records one decision. Idempotent: a decided item returns its current decision with ok.
   * Decisions are applied one at a time, so a concurrent call never reports a decision whose
   * write has not completed (and may still fail and be rolled back).
   */
  decide(approvalId: string, decision: ApprovalDecision, denyReason?: string): Promise<ApprovalDecisionResult> {
    return this.decisions.run<ApprovalDecisionResult>(
      (): Promise<ApprovalDecisionResult> => this.decideNow(approvalId, decision, denyReason))
  }

  private async decideNow(approvalId: string, decision: ApprovalDecision,
    denyReason?: string): Promise<ApprovalDecisionResult> {
    // Decisions come from UI code, plain JavaScript included: what is stored must be text.
    if (typeof approvalId !== 'string' || (denyReason !== undefined && denyReason !== null &&
      typeof denyReason !== 'string')) {
      return ApprovalDecisionResult.failure(typeof approvalId === 'string' ? approvalId : '',
        new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidInput,
          'An approval decision needs a string approval id and, when given, a string deny reason',
          ErrorRetryability.never))
    }
    const batch = this.s.state.pendingApproval
    const item = batch !== undefined ? batch.find(approvalId) : undefined
    if (batch === undefined || item === undefined) {
      if (this.s.state.consumedApprovalIds.indexOf(approvalId) >= 0) {
        return ApprovalDecisionResult.failure(approvalId, new ArkAgentError(ErrorLayer.runtime,
          ErrorCodes.approvalConsumed, `Approval '${approvalId}' belongs to a batch that was already resumed`,
          ErrorRetryability.never))
      }
      return ApprovalDecisionResult.failure(approvalId, new ArkAgentError(ErrorLayer.runtime,
        ErrorCodes.approvalUnknown, `No pending approval has id '${approvalId}'`, ErrorRetryability.never))
    }
    if (decision === ApprovalDecision.pending) {
      return ApprovalDecisionResult.failure(approvalId, new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig,
        'A decision must be approved or denied', ErrorRetryability.never))
    }
    if (!item.isPending()) {
      return ApprovalDecisionResult.success(approvalId, item.decision, batch.allDecided())
    }
    item.decision = decision
    item.decidedAtMs = Date.now()
    item.denyReason = decision === ApprovalDecision.denied ? (typeof denyReason === 'string' && denyReason.length > 0 ?
      denyReason : 'denied by the user') : undefined
    const saved = await this.persister.persist(undefined, PersistReason.approvalDecision, true)
    if (!saved.ok) {
      // Not durable, so not decided: the user can decide again.
      item.decision = ApprovalDecision.pending
      item.decidedAtMs = undefined
      item.denyReason = undefined
      const own = saved.ownError
      return ApprovalDecisionResult.failure(approvalId, own !== undefined && !saved.refused ? own :
        new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateSaveFailed, `The decision could not be saved: ${saved.error !== undefined ?
          saved.error.message : 'unknown error'}`, ErrorRetryability.retryable))
    }
    this.s.publish(undefined, new ApprovalDecidedEvent(this.s.sessionId, batch.runId, item.clone()))
    const all = batch.allDecided()
    if (all) {
      this.s.publish(undefined, new ApprovalResolvedEvent(this.s.sessionId, batch.runId, batch.clone()))
    }
    return ApprovalDecisionResult.success(approvalId, decision, all)
  }

  /**
   * Consumes a fully decided batch into executable progress: approved calls will run (they
   * already passed beforeToolCall), cleared at the risk level the user approved — a tool that is
   * riskier when it runs is not run on that approval (ToolBatchExecutor's admission) — and denied
   * ones get an error-flagged tool_denied result.
   */
  consume(batch: PendingApprovalBatch, runId: string): ToolBatchProgress {
    const entries: ToolBatchEntry[] = []
    const consumed = this.s.state.consumedApprovalIds
    for (let i = 0; i < batch.items.length; i++) {
      const item = batch.items[i]
      let result: ToolResult | undefined
      if (item.decision !== ApprovalDecision.approved) {
        result = item.syntheticResult !== undefined ? item.syntheticResult.forCall(item.toolCall.id) :
          ToolResult.error(item.toolCall.id, ErrorCodes.toolDenied,
            `The user denied '${item.toolCall.name}'${item.denyReason !== undefined ? ': ' + item.denyReason : ''}`)
      }
      entries.push(new ToolBatchEntry(item.toolCall, false, result, item.riskLevel))
      consumed.push(item.approvalId)
    }
    if (consumed.length > CONSUMED_MEMORY) {
      consumed.splice(0, consumed.length - CONSUMED_MEMORY)
    }
    this.s.state.pendingApproval = undefined
    return new ToolBatchProgress(batch.batchId, runId, batch.modelMessage, entries)
  }
}
