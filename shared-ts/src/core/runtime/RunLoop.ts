import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { HookDiagnosticEvent, LoopAction, LoopDetectedEvent } from '../events/AgentEvents'
import { TurnCompletionHookContext } from '../hook/HookContexts'
import { TurnCompletionHookAction } from '../hook/HookResults'
import { LoopVerdict } from '../loop/LoopDetectorPort'
import { AgentMessage, MessageRole } from '../model/AgentMessage'
import { ToolDefinition } from '../model/ToolDefinition'
import { ToolResult } from '../model/ToolResult'
import { ToolBatchEntry, ToolBatchProgress } from '../state/ToolBatchProgress'
import { Ids } from '../util/Ids'
import { ApprovalFlow } from './ApprovalFlow'
import { ContextCompactor } from './ContextCompactor'
import { ModelTurn } from './ModelTurn'
import { OutputFlow } from './OutputFlow'
import { PlanReviewFlow } from './PlanReviewFlow'
import { RunContext } from './RunContext'
import { StopReason } from './RunOutcome'
import { RuntimeServices } from './RuntimeServices'
import { PersistReason, StatePersister } from './StatePersister'
import { ToolBatchExecutor } from './ToolBatchExecutor'

/** How the loop ended when it did not throw. */
export class LoopEnd {
  readonly stopReason: string
  readonly suspended: boolean
  readonly finalMessage?: AgentMessage
  /** The checked answer of a run with an output schema (see RunOutcome.output). */
  readonly output?: Object | null
  readonly hasOutput: boolean

  constructor(stopReason: string, suspended: boolean, finalMessage?: AgentMessage, output?: Object | null,
    hasOutput: boolean = false) {
    this.stopReason = stopReason
    this.suspended = suspended
    this.finalMessage = finalMessage
    this.output = output
    this.hasOutput = hasOutput
  }
}

/**
 * The agent loop of spec 3.1, turn by turn: model call, then either the end of the turn
 * (onTurnCompletion) or a tool batch (gate all, freeze on any defer, else execute, commit).
 * Ends by returning a LoopEnd or throwing the ArkAgentError that ends the run.
 */
export class RunLoop {
  private readonly s: RuntimeServices
  private readonly persister: StatePersister
  private readonly modelTurn: ModelTurn
  private readonly executor: ToolBatchExecutor
  private readonly approvals: ApprovalFlow
  private readonly plans: PlanReviewFlow
  private readonly output: OutputFlow

  constructor(services: RuntimeServices, persister: StatePersister, executor: ToolBatchExecutor,
    approvals: ApprovalFlow, plans: PlanReviewFlow) {
    this.s = services
    this.persister = persister
    this.modelTurn = new ModelTurn(services, new ContextCompactor(services, persister))
    this.executor = executor
    this.approvals = approvals
    this.plans = plans
    this.output = new OutputFlow(services, persister)
  }

  /**
   * `resumingInterrupted`: this run continues one that was active when its process died. If that
   * run's history already ends with the model's complete answer (no tool calls), the model is not
   * asked again: the answer goes through onTurnCompletion (turn 0) and the run ends with it.
   */
  async run(run: RunContext, resumingInterrupted: boolean = false): Promise<LoopEnd> {
    const state = this.s.state
    // Work carried over (a decided batch, a reviewed plan, an interrupted batch) comes first.
    const carried = state.toolBatch
    if (carried !== undefined) {
      const end = await this.finishBatch(run, carried)
      if (end !== undefined) {
        return end
      }
    } else if (resumingInterrupted) {
      const last = state.history.length > 0 ? state.history[state.history.length - 1] : undefined
      if (last !== undefined && last.role === MessageRole.assistant && !last.hasToolCalls()) {
        const end = await this.completeTurn(run, last, 0)
        if (end !== undefined) {
          return end
        }
      }
    }
    for (let turn = 1; ; turn++) {
      if (turn > this.s.config.maxTurns) {
        throw new ArkAgentError(ErrorLayer.runtime, ErrorCodes.maxTurns,
          `The run reached its limit of ${this.s.config.maxTurns} model turns`, ErrorRetryability.never)
      }
      state.turn++
      const tools = this.availableTools()
      const result = await this.modelTurn.call(run, turn, tools)
      const message = result.response.message
      if (!message.hasToolCalls()) {
        state.append(message)
        await this.persister.autosave(run, PersistReason.afterModelText)
        if (result.loopVerdict !== undefined) {
          await this.onLoop(run, result.loopVerdict)
          continue
        }
        if (await this.checkLoopAfterTurn(run, turn)) {
          continue
        }
        const end = await this.completeTurn(run, message, turn)
        if (end !== undefined) {
          return end
        }
        continue
      }
      if (result.loopVerdict !== undefined) {
        // Chanting before tool calls: warn (or stop) before any of them runs.
        this.commitUnrun(run, message, 'Not executed: the agent was repeating itself')
        await this.onLoop(run, result.loopVerdict)
        continue
      }
      if (this.plans.active()) {
        const submission = this.plans.findSubmission(message)
        const refused = submission !== undefined ? PlanReviewFlow.check(submission) : undefined
        if (submission !== undefined && refused === undefined) {
          await this.plans.request(run, message, submission)
          return new LoopEnd(StopReason.awaitingPlanReview, true)
        }
        // No plan, or one without a plan in it: nothing runs, and the model is told what to do.
        this.commitUnrun(run, message, 'Plan mode: submit your plan with submit_plan before using other tools', refused)
        continue
      }
      const gated = await this.executor.gate(run, message, tools)
      let deferred = false
      for (let i = 0; i < gated.length; i++) {
        deferred = deferred || gated[i].freezes()
      }
      if (deferred) {
        await this.approvals.freeze(run, message, gated)
        return new LoopEnd(StopReason.awaitingApproval, true)
      }
      const batch = ToolBatchExecutor.progressFrom(Ids.next('batch'), run.runId, message, gated,
        this.approvals.recordGranted(run, gated))
      state.toolBatch = batch
      const warnedBefore = state.loopWarned
      const end = await this.finishBatch(run, batch)
      if (end !== undefined) {
        return end
      }
      // A warning given in this very batch must reach the model before anything may stop the run
      // (a due diagnosis would otherwise turn the same loop into a second detection at once).
      if (state.loopWarned === warnedBefore) {
        await this.checkLoopAfterTurn(run, turn)
      }
    }
  }

  /**
   * onTurnCompletion for an answer in history: the end of the run, or undefined to call the model
   * again. With an output schema the answer is checked first: an invalid one gets a repair turn
   * (onTurnCompletion sees only valid answers) or, past the bound, ends the run with output_invalid.
   */
  private async completeTurn(run: RunContext, message: AgentMessage, turn: number): Promise<LoopEnd | undefined> {
    const verdict = await this.output.review(run, message)
    if (verdict !== undefined && !verdict.ok) {
      return undefined
    }
    const completion = await this.s.hooks.onTurnCompletion(
      new TurnCompletionHookContext(this.s.sessionId, run.runId, this.s.view(), message, turn))
    if (completion.action === TurnCompletionHookAction.abort) {
      throw ModelTurn.abortError('onTurnCompletion', completion.reason, completion.error)
    }
    if (completion.action === TurnCompletionHookAction.continueRun) {
      for (let i = 0; i < completion.injectedMessages.length; i++) {
        this.s.state.append(completion.injectedMessages[i])
      }
      return undefined
    }
    return new LoopEnd(StopReason.complete, false, message, verdict !== undefined ? verdict.value : undefined,
      verdict !== undefined)
  }

  private async finishBatch(run: RunContext, batch: ToolBatchProgress): Promise<LoopEnd | undefined> {
    const outcome = await this.executor.execute(run, batch)
    ToolBatchExecutor.commit(this.s, batch, outcome.injected)
    await this.persister.autosave(run, PersistReason.afterToolBatch)
    if (outcome.abortError !== undefined) {
      throw outcome.abortError
    }
    if (outcome.loopVerdict !== undefined) {
      await this.onLoop(run, outcome.loopVerdict)
    }
    if (outcome.stop) {
      return new LoopEnd(StopReason.toolStop, false)
    }
    return undefined
  }

  /**
   * Pairs every call of `message` with an error result and commits them, without running any.
   * `answer` replaces the result of the call it answers.
   */
  private commitUnrun(run: RunContext, message: AgentMessage, why: string, answer?: ToolResult): void {
    const entries: ToolBatchEntry[] = []
    for (let i = 0; i < message.callCount(); i++) {
      const call = message.callAt(i)
      entries.push(new ToolBatchEntry(call, false, answer !== undefined && answer.callId === call.id ? answer :
        ToolResult.error(call.id, ErrorCodes.toolInterrupted, why)))
    }
    ToolBatchExecutor.commit(this.s, new ToolBatchProgress(Ids.next('batch'), run.runId, message, entries), [])
  }

  /** Returns true when a warning was injected and the loop should go on. */
  private async checkLoopAfterTurn(run: RunContext, turn: number): Promise<boolean> {
    const detector = this.s.config.loopDetector
    if (detector === undefined) {
      return false
    }
    const check = await detector.afterTurn(turn, this.s.state.history, run.token)
    for (let i = 0; i < check.diagnostics.length; i++) {
      this.s.publish(run, new HookDiagnosticEvent(this.s.sessionId, run.runId, 'loopDetector', check.diagnostics[i]))
    }
    run.token.throwIfCancelled()
    if (check.verdict !== undefined) {
      await this.onLoop(run, check.verdict)
      return true
    }
    return false
  }

  /** First detection warns the model; a detection after the warning ends the run. */
  private async onLoop(run: RunContext, verdict: LoopVerdict): Promise<void> {
    const state = this.s.state
    const detector = this.s.config.loopDetector
    if (!state.loopWarned) {
      state.loopWarned = true
      state.append(AgentMessage.system(this.s.config.loopWarning))
      this.s.publish(run, new LoopDetectedEvent(this.s.sessionId, run.runId, verdict, LoopAction.warned))
      if (detector !== undefined) {
        detector.reset()
      }
      await this.persister.autosave(run, PersistReason.afterToolBatch)
      return
    }
    this.s.publish(run, new LoopDetectedEvent(this.s.sessionId, run.runId, verdict, LoopAction.stopped))
    const cycle = verdict.cycle.length > 0 ? ` (cycle ${verdict.cycle.join(' -> ')})` : ''
    throw new ArkAgentError(ErrorLayer.runtime, ErrorCodes.loopDetected,
      `Stopped a loop after a warning: ${verdict.kind} of '${verdict.signature.slice(0, 120)}' x${verdict.count}${cycle}`,
      ErrorRetryability.never)
  }

  private availableTools(): ToolDefinition[] {
    const tools = this.s.config.tools.definitions()
    if (this.plans.active()) {
      tools.push(PlanReviewFlow.definition())
    }
    return tools
  }
}
