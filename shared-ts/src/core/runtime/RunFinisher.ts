import { ArkAgentError, ErrorCodes, ErrorLayer } from '../errors/ArkAgentError'
import {
  AgentCancelledEvent,
  AgentFailedEvent,
  AgentSuccessEvent,
  AgentSuspendedEvent,
  HookDiagnosticEvent
} from '../events/AgentEvents'
import { BusEvent } from '../events/BusEvent'
import { AfterRunHookContext } from '../hook/HookContexts'
import { AgentMessage } from '../model/AgentMessage'
import { SessionStatus, StoredError } from '../state/AgentState'
import { OutputFlow } from './OutputFlow'
import { RunContext } from './RunContext'
import { RunOutcome, RunStatus, StopReason } from './RunOutcome'
import { RuntimeServices } from './RuntimeServices'
import { PersistReason, StatePersister } from './StatePersister'
import { ToolBatchExecutor } from './ToolBatchExecutor'

/**
 * Every way a run ends goes through `finish`: the state is settled (no unpaired tool call), the
 * terminal write is mandatory (a failed one marks the session not resumable), afterRun runs
 * exactly once, and the single terminal event is published last.
 */
export class RunFinisher {
  private readonly s: RuntimeServices
  private readonly persister: StatePersister

  constructor(services: RuntimeServices, persister: StatePersister) {
    this.s = services
    this.persister = persister
  }

  async completed(run: RunContext, stopReason: string, finalMessage?: AgentMessage, output?: Object | null,
    hasOutput: boolean = false): Promise<RunOutcome> {
    this.s.state.status = SessionStatus.completed
    this.s.state.lastError = undefined
    return this.finish(run, RunStatus.completed, stopReason, undefined, finalMessage, output, hasOutput)
  }

  /** Awaiting approval or plan review: already written (mandatory) by the flow that suspended. */
  async suspended(run: RunContext, stopReason: string): Promise<RunOutcome> {
    return this.finish(run, RunStatus.suspended, stopReason, undefined, undefined)
  }

  async failed(run: RunContext, error: ArkAgentError): Promise<RunOutcome> {
    if (error.layer === ErrorLayer.cancelled) {
      this.s.state.status = SessionStatus.cancelled
      return this.finish(run, RunStatus.cancelled, StopReason.cancelled, error, undefined)
    }
    this.s.state.status = SessionStatus.failed
    return this.finish(run, RunStatus.failed, RunFinisher.stopReasonOf(error), error, undefined)
  }

  static stopReasonOf(error: ArkAgentError): string {
    if (error.code === ErrorCodes.hookAbort) {
      return StopReason.aborted
    }
    if (error.code === ErrorCodes.loopDetected) {
      return StopReason.loopDetected
    }
    if (error.code === ErrorCodes.maxTurns) {
      return StopReason.maxTurns
    }
    if (error.code === ErrorCodes.outputInvalid) {
      return StopReason.outputInvalid
    }
    return StopReason.error
  }

  private async finish(run: RunContext, status: RunStatus, stopReason: string, error: ArkAgentError | undefined,
    finalMessage: AgentMessage | undefined, output?: Object | null, hasOutput: boolean = false): Promise<RunOutcome> {
    const state = this.s.state
    state.lastStopReason = stopReason
    let persisted = true
    if (status !== RunStatus.suspended) {
      const batch = state.toolBatch
      if (batch !== undefined) {
        const cancelled = status === RunStatus.cancelled
        ToolBatchExecutor.closeOut(batch, cancelled ? ErrorCodes.cancelled : ErrorCodes.toolInterrupted,
          cancelled ? 'Not executed: the run was cancelled' : 'Not executed: the run ended')
        ToolBatchExecutor.commit(this.s, batch, [])
      }
      if (error !== undefined) {
        state.lastError = new StoredError(error.layer, error.code, error.message)
      }
      state.activeRunId = ''
      OutputFlow.end(this.s)
      const saved = await this.persister.persist(run, PersistReason.terminal, true, error)
      if (!saved.ok) {
        persisted = false
        const own = saved.ownError
        if (own !== undefined && own.code === ErrorCodes.sessionLocked) {
          // Another owner has the session: this run's end is not the session's, and nothing here may
          // mark what that owner stored. The outcome says why.
          if (error === undefined) {
            error = own
            status = RunStatus.failed
            stopReason = StopReason.error
          }
        } else {
          await this.persister.markNotResumable(`terminal write failed: ${saved.error !== undefined ?
            saved.error.message : 'unknown'}`)
        }
      }
    }
    // Exactly once per run: each run reaches the finisher once (nothing after this point throws,
    // so the runtime's catch never finishes a run a second time).
    const diagnostics = await this.s.hooks.afterRun(
      new AfterRunHookContext(this.s.sessionId, run.runId, this.s.view(), stopReason, error, finalMessage))
    for (let i = 0; i < diagnostics.length; i++) {
      this.s.publish(run, new HookDiagnosticEvent(this.s.sessionId, run.runId, 'afterRun', diagnostics[i]))
    }
    const outcome = new RunOutcome(run.runId, status, stopReason, persisted, error, finalMessage, output, hasOutput)
    return outcome
  }

  /** The terminal event matching an outcome; published by the runtime after it releases the run. */
  terminalEvent(outcome: RunOutcome): BusEvent {
    const sid = this.s.sessionId
    if (outcome.status === RunStatus.completed) {
      return new AgentSuccessEvent(sid, outcome.runId, outcome.stopReason, outcome.finalMessage, outcome.persisted)
    }
    if (outcome.status === RunStatus.suspended) {
      return new AgentSuspendedEvent(sid, outcome.runId, outcome.stopReason)
    }
    const err = outcome.error as ArkAgentError
    if (outcome.status === RunStatus.cancelled) {
      return new AgentCancelledEvent(sid, outcome.runId, err, outcome.persisted)
    }
    return new AgentFailedEvent(sid, outcome.runId, err, outcome.persisted)
  }
}
