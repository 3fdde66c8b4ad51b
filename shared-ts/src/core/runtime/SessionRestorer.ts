import { SessionGenerations } from '../storage/SessionGenerations'
import { ArkAgentError, ErrorCodes } from '../errors/ArkAgentError'
import { SessionRestoredEvent } from '../events/AgentEvents'
import { AgentState, SessionStatus, StoredError } from '../state/AgentState'
import { PendingApprovalItem } from '../state/PendingApproval'
import { PendingPlanReview, PlanReviewDecision } from '../state/PendingPlanReview'
import { RuntimeServices } from './RuntimeServices'
import { PersistReason, StatePersister } from './StatePersister'
import { ToolBatchExecutor } from './ToolBatchExecutor'
import { ApprovalExpiry } from './ApprovalExpiry'
import { ElicitationFlow } from './ElicitationFlow'
import { ElicitationResolvedEvent } from '../events/ElicitationEvents'
import { PendingElicitation } from '../state/PendingElicitation'

/** What `restore()` found: a fresh session, an idle one, one awaiting approval or a plan review, an interrupted run, or one not resumable. */
export enum RestoreKind {
  fresh = 'fresh',
  idle = 'idle',
  awaitingApproval = 'awaiting_approval',
  awaitingPlanReview = 'awaiting_plan_review',
  interrupted = 'interrupted',
  notResumable = 'not_resumable'
}

/** What restore() found. */
export class RestoreReport {
  /** What was found: `fresh` (nothing stored), `idle`, `awaiting_approval`, ... (see `RestoreKind`). */
  readonly kind: RestoreKind
  /** The stored status (completed, failed, ... for idle sessions). */
  readonly lastStatus: string
  /** The stored `lastStopReason` (a `StopReason` value); '' when the session has none. */
  readonly lastStopReason: string
  /** How many messages the restored history holds. */
  readonly historyLength: number
  /** Copies of the undecided items of a restored approval batch, in model order; empty when none. */
  readonly pendingApprovals: PendingApprovalItem[]
  /** For awaiting_approval: every item decided, so runStream([]) continues the run. */
  readonly allDecided: boolean
  /** A copy of the restored plan review (any decision); undefined when none. */
  readonly planReview?: PendingPlanReview
  /** Tool calls found started without a result, now answered with tool_interrupted. */
  readonly interruptedCalls: number
  /** Why the run was interrupted or the session is not resumable; '' otherwise. */
  readonly reason: string

  constructor(kind: RestoreKind, lastStatus: string, lastStopReason: string, historyLength: number,
    pendingApprovals: PendingApprovalItem[], allDecided: boolean, interruptedCalls: number, reason: string,
    planReview?: PendingPlanReview) {
    this.kind = kind
    this.lastStatus = lastStatus
    this.lastStopReason = lastStopReason
    this.historyLength = historyLength
    this.pendingApprovals = pendingApprovals
    this.allDecided = allDecided
    this.interruptedCalls = interruptedCalls
    this.reason = reason
    this.planReview = planReview
  }
}

/** Loads a session and settles what a dead process left behind. */
export class SessionRestorer {
  private readonly s: RuntimeServices
  private readonly persister: StatePersister
  /** Elicitations the restore closed (their server requests died with the process). */
  private closedElicitations: PendingElicitation[] = []

  constructor(services: RuntimeServices, persister: StatePersister) {
    this.s = services
    this.persister = persister
  }

  /**
   * Loads and settles the session, then publishes what it found (`session.restored`): a UI that
   * subscribed before the restore resolved learns of a restored batch or plan review from it. Not
   * published for `fresh` (nothing was stored: the state is still the empty one every listener
   * already saw) nor when the restore fails (it rejects instead).
   */
  async restore(): Promise<RestoreReport> {
    const report = await this.settle()
    if (report.kind === RestoreKind.fresh) {
      return report
    }
    const state = this.s.state
    const batch = state.pendingApproval
    const review = state.pendingPlanReview
    const runId = batch !== undefined ? batch.runId : review !== undefined ? review.runId : state.activeRunId
    const items = report.pendingApprovals.map((item: PendingApprovalItem): PendingApprovalItem => item.clone())
    this.s.publish(undefined, new SessionRestoredEvent(this.s.sessionId, runId, report.kind, report.lastStatus,
      report.historyLength, items, report.allDecided, report.interruptedCalls, report.reason,
      batch !== undefined ? batch.clone() : undefined, review !== undefined ? review.clone() : undefined))
    for (let i = 0; i < this.closedElicitations.length; i++) {
      const closed = this.closedElicitations[i]
      this.s.publish(undefined, new ElicitationResolvedEvent(this.s.sessionId, closed.runId, closed))
    }
    return report
  }

  /** A stored approval batch or plan review whose decisions are all in, waiting only to resume. */
  static decidedWork(state: AgentState): boolean {
    if (state.status === SessionStatus.awaitingApproval && state.pendingApproval !== undefined) {
      return state.pendingApproval.allDecided()
    }
    if (state.status === SessionStatus.awaitingPlanReview && state.pendingPlanReview !== undefined) {
      return state.pendingPlanReview.decision !== PlanReviewDecision.pending
    }
    return false
  }

  private async settle(): Promise<RestoreReport> {
    const storage = this.s.config.storage
    if (storage === undefined) {
      return this.report(RestoreKind.fresh, 0, '')
    }
    if (SessionGenerations.runBy(storage, this.s.sessionId, this.s)) {
      // Its state is changing under another runtime of this process: a restore now would settle that
      // run's calls as interrupted. As with a lease held by another instance: try again later.
      throw SessionGenerations.busyError(this.s.sessionId)
    }
    // From now until dispose(), a release by another request of this process gives nothing up.
    SessionGenerations.hold(storage, this.s.sessionId, this.s)
    // Read and queued together: the load sees every write queued before it, and only those.
    this.s.generation = SessionGenerations.current(storage, this.s.sessionId)
    const loaded = await storage.load(this.s.sessionId)
    if (loaded === undefined) {
      return this.report(RestoreKind.fresh, 0, '')
    }
    const state = loaded.state
    this.s.state = state
    const lastStatus = state.status
    // A pending elicitation cannot be answered any more: closed as cancel, written with the restore below.
    this.closedElicitations = ElicitationFlow.closeOnRestore(state)
    if (!loaded.resumable) {
      // The stored snapshot is not trustworthy as a point to resume from: keep the conversation,
      // drop anything in flight (its calls are not in history, so nothing is left unpaired).
      state.pendingApproval = undefined
      state.pendingPlanReview = undefined
      state.toolBatch = undefined
      state.activeRunId = ''
      state.status = SessionStatus.failed
      state.lastError = new StoredError('storage', ErrorCodes.sessionNotResumable, loaded.notResumableReason)
      return this.report(RestoreKind.notResumable, 0, loaded.notResumableReason, lastStatus)
    }
    if (state.status === SessionStatus.awaitingApproval && state.pendingApproval !== undefined) {
      // Deadlines that passed while the app was not running: denied now, before anyone is asked. A
      // failed write leaves them pending; every decision sweeps again first, so none can approve them.
      await ApprovalExpiry.sweep(this.s, this.persister)
      return this.report(RestoreKind.awaitingApproval, 0, '', lastStatus)
    }
    if (state.status === SessionStatus.awaitingPlanReview && state.pendingPlanReview !== undefined) {
      return this.report(RestoreKind.awaitingPlanReview, 0, '', lastStatus)
    }
    if (state.status === SessionStatus.running) {
      let interrupted = 0
      const batch = state.toolBatch
      if (batch !== undefined) {
        for (let i = 0; i < batch.entries.length; i++) {
          const e = batch.entries[i]
          if (e.started && e.result === undefined) {
            e.result = ToolBatchExecutor.interrupted(e.call)
            interrupted++
          }
        }
      }
      if (interrupted > 0 || this.closedElicitations.length > 0) {
        const saved = await this.persister.persist(undefined, PersistReason.restore, true)
        if (!saved.ok && saved.error !== undefined) {
          throw saved.error as ArkAgentError
        }
      }
      return this.report(RestoreKind.interrupted, interrupted, 'the process stopped while a run was active',
        lastStatus)
    }
    return this.report(RestoreKind.idle, 0, '', lastStatus)
  }

  private report(kind: RestoreKind, interrupted: number, reason: string, lastStatus: string = ''): RestoreReport {
    const state = this.s.state
    const batch = state.pendingApproval
    return new RestoreReport(kind, lastStatus, state.lastStopReason, state.history.length,
      batch !== undefined ? batch.pendingItems() : [], batch !== undefined && batch.allDecided(), interrupted, reason,
      state.pendingPlanReview !== undefined ? state.pendingPlanReview.clone() : undefined)
  }
}
