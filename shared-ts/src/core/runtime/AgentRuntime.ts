import { SessionGenerations } from '../storage/SessionGenerations'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { AgentResumedEvent, AgentStartedEvent, HookDiagnosticEvent } from '../events/AgentEvents'
import { ApprovalHost, GrantRevokeResult } from '../controller/ApprovalHost'
import { ApprovalGrant } from '../state/ApprovalGrant'
import { ApprovalDecisionOptions } from '../state/ApprovalDecisionOptions'
import { PendingApprovalItem } from '../state/PendingApproval'
import { ApprovalDesk } from './ApprovalDesk'
import { AgentController } from '../controller/AgentController'
import { BeforeRunHookContext } from '../hook/HookContexts'
import { BeforeRunHookAction } from '../hook/HookResults'
import { AgentMessage, MessageRole } from '../model/AgentMessage'
import { AgentState, SessionStatus } from '../state/AgentState'
import { ApprovalDecision, ApprovalDecisionResult, PendingApprovalBatch } from '../state/PendingApproval'
import { PendingPlanReview, PlanReviewDecision, PlanReviewDecisionResult } from '../state/PendingPlanReview'
import { CancellationToken } from '../util/Cancellation'
import { Ids } from '../util/Ids'
import { AgentRuntimeConfig } from './AgentRuntimeConfig'
import { ApprovalFlow } from './ApprovalFlow'
import { ModelTurn } from './ModelTurn'
import { OutputFlow } from './OutputFlow'
import { PlanReviewFlow } from './PlanReviewFlow'
import { RunContext } from './RunContext'
import { RunFinisher } from './RunFinisher'
import { LoopEnd, RunLoop } from './RunLoop'
import { AgentObserver, RunOutcome } from './RunOutcome'
import { RuntimeServices } from './RuntimeServices'
import { RestoreReport, SessionRestorer } from './SessionRestorer'
import { PersistReason, StatePersister } from './StatePersister'
import { ToolBatchExecutor } from './ToolBatchExecutor'
import { RunEntry } from './RunEntry'
import { ServerRequestFlow } from './ServerRequestFlow'

/**
 * The agent runtime of one session: the only owner of its state. Runs go through `runStream`;
 * approvals and plan reviews come back through the ApprovalHost methods (via AgentController).
 */
export class AgentRuntime implements ApprovalHost {
  private readonly s: RuntimeServices
  private readonly persister: StatePersister
  private readonly finisher: RunFinisher
  private readonly approvals: ApprovalFlow
  private readonly plans: PlanReviewFlow
  private readonly restorer: SessionRestorer
  private readonly loop: RunLoop
  /** MCP servers' elicitation and sampling requests (bound to controller.serverRequests). */
  private readonly serverRequests: ServerRequestFlow
  private running: boolean = false
  private restoring?: Promise<RestoreReport>
  private lastRestore?: RestoreReport
  private continuation: Promise<void> = Promise.resolve()
  /** The outcome of the automatic continuation while it is queued or running. */
  private autoResumed?: Promise<RunOutcome | undefined>
  /** Grants, revocations and the expiry timer (ApprovalDesk). */
  private readonly desk: ApprovalDesk

  constructor(config: AgentRuntimeConfig) {
    config.settle()
    this.s = new RuntimeServices(config)
    this.persister = new StatePersister(this.s)
    this.finisher = new RunFinisher(this.s, this.persister)
    this.approvals = new ApprovalFlow(this.s, this.persister)
    this.plans = new PlanReviewFlow(this.s, this.persister)
    this.restorer = new SessionRestorer(this.s, this.persister)
    const executor = new ToolBatchExecutor(this.s, this.persister, this.approvals.grants)
    this.loop = new RunLoop(this.s, this.persister, executor, this.approvals, this.plans)
    this.desk = new ApprovalDesk(this.s, this.approvals, (): Promise<RestoreReport> => this.restore(),
      (): void => this.scheduleContinuation())
    config.controller.bindApprovalHost(this)
    this.serverRequests = new ServerRequestFlow(this.s, this.persister)
    config.controller.serverRequests.bindHost(this.serverRequests)
  }

  get sessionId(): string {
    return this.s.sessionId
  }

  get controller(): AgentController {
    return this.s.config.controller
  }

  get isRunning(): boolean {
    return this.running
  }

  /** A copy of the current state. */
  snapshot(): AgentState {
    return this.s.state.snapshot()
  }

  /**
   * Loads the session from storage (once; later calls return the same report) and settles what a
   * dead process left: started tool calls without a result get tool_interrupted.
   */
  async restore(): Promise<RestoreReport> {
    if (this.lastRestore !== undefined) {
      return this.lastRestore
    }
    if (this.restoring === undefined) {
      this.restoring = this.restorer.restore()
    }
    try {
      const report = await this.restoring
      this.lastRestore = report
      this.desk.arm()
      // Decisions made before the process died: continue by itself, as after a decision made here.
      if (SessionRestorer.decidedWork(this.s.state)) {
        this.scheduleContinuation()
      }
      return report
    } finally {
      this.restoring = undefined
    }
  }

  /**
   * Starts (non-empty input) or resumes (empty input) a run. Resolves with its single outcome. A
   * resume asked for while the automatic continuation (after the last decision, or after a restore
   * that found every decision in) is queued or running resolves with that continuation's outcome.
   */
  async runStream(messages: AgentMessage[], observer?: AgentObserver,
    token: CancellationToken = CancellationToken.none): Promise<RunOutcome> {
    const resumed = this.autoResumed
    if (resumed !== undefined && messages instanceof Array && messages.length === 0) {
      const outcome = await resumed
      if (outcome !== undefined) {
        return outcome
      }
    }
    return this.startRun(messages, observer, token)
  }

  private async startRun(messages: AgentMessage[], observer?: AgentObserver,
    token: CancellationToken = CancellationToken.none): Promise<RunOutcome> {
    if (this.running) {
      throw new ArkAgentError(ErrorLayer.runtime, ErrorCodes.runInProgress,
        'A run is already in progress for this session', ErrorRetryability.afterAction)
    }
    const input = RunEntry.checkInput(messages, token)
    this.running = true
    let run: RunContext | undefined
    try {
      await this.restore()
      const storage = this.s.config.storage
      if (storage !== undefined && SessionGenerations.runBy(storage, this.s.sessionId, this.s)) {
        throw SessionGenerations.busyError(this.s.sessionId)
      }
      if (storage !== undefined && !SessionGenerations.isCurrent(storage, this.s.sessionId, this.s.generation)) {
        // Another runtime of this process wrote the session since this one read it: nothing may run on
        // this copy (not even a model call), whatever its status says.
        throw SessionGenerations.staleError(this.s.sessionId)
      }
      const resumeReason = RunEntry.checkEntry(this.s.state, input)
      if (resumeReason.length > 0) {
        OutputFlow.checkResume(this.s)
      }
      run = new RunContext(Ids.next('run'), token, observer)
      if (storage === undefined) {
        return await this.execute(run, input, resumeReason)
      }
      SessionGenerations.beginRun(storage, this.s.sessionId, this.s, run)
      try {
        return await this.execute(run, input, resumeReason)
      } finally {
        SessionGenerations.endRun(storage, this.s.sessionId, run)
      }
    } catch (e) {
      this.running = false
      throw e as Error
    }
  }

  /** Convenience: one user message. */
  async run(text: string, observer?: AgentObserver, token?: CancellationToken): Promise<RunOutcome> {
    return this.runStream([AgentMessage.user(text)], observer, token)
  }

  /**
   * A mandatory checkpoint, callable at any time (HarmonyOS calls it from onBackground). Safe
   * while a run streams: it writes the last consistent state. Resolves false if the write failed.
   */
  async suspend(): Promise<boolean> {
    try {
      // Never write before the stored session was read: that would replace it with an empty one.
      await this.restore()
      const saved = await this.persister.persist(undefined, PersistReason.suspend, true)
      return saved.ok
    } catch (e) {
      // Resolves false on every failure (a session that cannot be read or locked included), as
      // documented: it is called from lifecycle callbacks that must not throw.
      const error = ArkAgentError.from(e as Object, ErrorLayer.storage, ErrorCodes.stateSaveFailed, 'Suspend failed')
      this.s.publish(undefined, new HookDiagnosticEvent(this.s.sessionId, this.s.state.activeRunId, 'suspend',
        error.message))
      return false
    }
  }

  /** Resolves once an automatic continuation (after the last decision) has finished. */
  whenIdle(): Promise<void> {
    return this.continuation
  }

  /** Unbinds from the controller and stops using the session (a release may give it up); the runtime must not be used afterwards. */
  dispose(): void {
    this.desk.dispose()
    this.s.config.controller.unbindApprovalHost(this)
    this.s.config.controller.serverRequests.unbindHost(this.serverRequests)
    const storage = this.s.config.storage
    if (storage !== undefined) {
      // An automatic continuation already under way (after a decision, or started by restore()) finishes
      // first: the session is in use until then, and a release asked for meanwhile waits for it.
      const services = this.s
      if (this.autoResumed === undefined && !this.running) {
        SessionGenerations.unhold(storage, services.sessionId, services)
      } else {
        this.continuation.then((): void => {
          SessionGenerations.unhold(storage, services.sessionId, services)
        })
      }
    }
  }

  // ---- ApprovalHost ----

  getPendingApprovalBatch(): PendingApprovalBatch | undefined {
    const batch = this.s.state.pendingApproval
    return batch !== undefined ? batch.clone() : undefined
  }

  async applyApprovalDecision(approvalId: string, decision: ApprovalDecision,
    details?: string | ApprovalDecisionOptions): Promise<ApprovalDecisionResult> {
    try {
      await this.restore()
    } catch (e) {
      // The session cannot be read here now (another runtime runs it, storage failed): a failed
      // decision the caller can show, never a rejection a UI handler would have to catch.
      return ApprovalDecisionResult.failure(typeof approvalId === 'string' ? approvalId : '',
        ArkAgentError.from(e as Object, ErrorLayer.storage, ErrorCodes.stateLoadFailed, 'The session could not be restored'))
    }
    const result = await this.approvals.decide(approvalId, decision, details)
    if (result.ok && result.allDecided) {
      this.scheduleContinuation()
    }
    this.desk.arm()
    return result
  }

  listDecisions(): PendingApprovalItem[] {
    return this.approvals.list()
  }

  listGrants(): Promise<ApprovalGrant[]> {
    return this.desk.listGrants()
  }

  revokeGrant(grantId: string): Promise<GrantRevokeResult> {
    return this.desk.revokeGrant(grantId)
  }

  expireApprovals(): Promise<number> {
    return this.desk.expire()
  }

  getPendingPlanReview(): PendingPlanReview | undefined {
    const review = this.s.state.pendingPlanReview
    return review !== undefined ? review.clone() : undefined
  }

  async applyPlanReviewDecision(decision: PlanReviewDecision, reason?: string): Promise<PlanReviewDecisionResult> {
    try {
      await this.restore()
    } catch (e) {
      // As for approvals: a failed decision to show, not a rejection.
      const review = this.s.state.pendingPlanReview
      return PlanReviewDecisionResult.failure(review !== undefined ? review.reviewId : '',
        ArkAgentError.from(e as Object, ErrorLayer.storage, ErrorCodes.stateLoadFailed, 'The session could not be restored'))
    }
    const result = await this.plans.decide(decision, reason)
    if (result.ok) {
      this.scheduleContinuation()
    }
    return result
  }

  // ---- internals ----

  private async execute(run: RunContext, messages: AgentMessage[], resumeReason: string): Promise<RunOutcome> {
    const state = this.s.state
    let outcome: RunOutcome
    let runInputFrom = state.history.length
    try {
      state.status = SessionStatus.running
      state.activeRunId = run.runId
      this.s.currentRun = run
      state.runCount++
      // The last error belongs to the run that ended with it: no later header carries it.
      state.lastError = undefined
      if (resumeReason.length > 0) {
        this.s.publish(run, new AgentResumedEvent(this.s.sessionId, run.runId, resumeReason))
        await this.prepareResume(run)
        const resumed = await this.persister.persist(run, PersistReason.resume, true)
        const lost = resumed.ownError
        if (lost !== undefined && (resumed.refused || lost.code === ErrorCodes.sessionLocked)) {
          // A hook refused (or failed on) the mandatory write, or another owner wrote the session in
          // the meantime: the resume goes no further, and no approved call runs.
          throw lost
        }
      } else {
        state.loopWarned = false
        OutputFlow.begin(this.s)
        this.s.publish(run, new AgentStartedEvent(this.s.sessionId, run.runId, messages))
        const before = await this.s.hooks.beforeRun(
          new BeforeRunHookContext(this.s.sessionId, run.runId, this.s.view(), messages))
        if (before.action === BeforeRunHookAction.abort) {
          throw ModelTurn.abortError('beforeRun', before.reason, before.error)
        }
        this.closeInterruptedBatch()
        runInputFrom = state.history.length
        const input = before.input ?? messages
        for (let i = 0; i < input.length; i++) {
          state.append(input[i])
        }
        await this.persister.autosave(run, PersistReason.afterUserInput)
      }
      const detector = this.s.config.loopDetector
      if (detector !== undefined && resumeReason.length === 0) {
        detector.reset()
        // The run's request: asked-for repetition and the user's own words are no loop.
        for (let i = runInputFrom; detector.recordUserMessage !== undefined && i < state.history.length; i++) {
          if (state.history[i].role === MessageRole.user) {
            detector.recordUserMessage(state.history[i].text())
          }
        }
      }
      const end: LoopEnd = await this.loop.run(run, resumeReason === RunEntry.interruptedRun)
      outcome = end.suspended ? await this.finisher.suspended(run, end.stopReason) :
        await this.finisher.completed(run, end.stopReason, end.finalMessage, end.output, end.hasOutput)
    } catch (e) {
      const error = ArkAgentError.from(e as Object, ErrorLayer.runtime, ErrorCodes.providerError, 'Run failed')
      outcome = await this.finisher.failed(run, run.token.isCancelled && error.layer !== ErrorLayer.security ?
        CancellationToken.cancelledError(run.token.reason) : error)
    }
    this.running = false
    this.s.currentRun = undefined
    const storage = this.s.config.storage
    if (storage !== undefined) {
      // Before the terminal event: an observer may start the next run from it.
      SessionGenerations.endRun(storage, this.s.sessionId, run)
    }
    this.s.publish(run, this.finisher.terminalEvent(outcome))
    this.desk.arm()
    return outcome
  }

  /** Turns a decided batch or reviewed plan into carried-over work for the loop. */
  private async prepareResume(run: RunContext): Promise<void> {
    const state = this.s.state
    if (state.pendingApproval !== undefined) {
      // Items an "always allow" decided run only if that grant still applies now.
      await this.approvals.recheckGrants(state.pendingApproval)
      state.toolBatch = this.approvals.consume(state.pendingApproval, run.runId)
    } else if (state.pendingPlanReview !== undefined) {
      state.toolBatch = this.plans.consume(state.pendingPlanReview, run.runId)
    }
  }

  /** New input after an interrupted run: what was left of its batch is closed out, unrun. */
  private closeInterruptedBatch(): void {
    const batch = this.s.state.toolBatch
    if (batch !== undefined) {
      ToolBatchExecutor.closeOut(batch, ErrorCodes.toolInterrupted, 'Not executed: the run was interrupted')
      ToolBatchExecutor.commit(this.s, batch, [])
    }
  }

  /**
   * Continues the run once its last decision is in. Queued behind earlier continuations; one that
   * finds nothing to resume (someone resumed first) or a run in progress changes nothing.
   */
  private scheduleContinuation(): void {
    if (!this.s.config.autoResume) {
      return
    }
    const resumed: Promise<RunOutcome | undefined> = this.continuation.then(async (): Promise<RunOutcome | undefined> => {
      try {
        return await this.startRun([])
      } catch (e) {
        // nothing_to_resume or run_in_progress: the run was resumed another way
        return undefined
      }
    })
    this.autoResumed = resumed
    this.continuation = resumed.then((): void => {
      if (this.autoResumed === resumed) {
        this.autoResumed = undefined
      }
    })
  }
}
