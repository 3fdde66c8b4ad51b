import { ArkAgentError } from '../errors/ArkAgentError'
import { BusEvent } from '../events/BusEvent'
import { AgentMessage } from '../model/AgentMessage'

/** How a run ended: completed, suspended (waiting for the user), failed or cancelled. */
export enum RunStatus {
  completed = 'completed',
  suspended = 'suspended',
  cancelled = 'cancelled',
  failed = 'failed'
}

/** Why a run stopped; pairs with RunStatus (an error's code says more for failures). */
export class StopReason {
  static readonly complete: string = 'complete'
  static readonly toolStop: string = 'tool_stop'
  static readonly awaitingApproval: string = 'awaiting_approval'
  static readonly awaitingPlanReview: string = 'awaiting_plan_review'
  static readonly cancelled: string = 'cancelled'
  static readonly error: string = 'error'
  static readonly aborted: string = 'aborted'
  static readonly loopDetected: string = 'loop_detected'
  static readonly maxTurns: string = 'max_turns'
  static readonly outputInvalid: string = 'output_invalid'
}

/** The result of one runStream call, matching its single terminal event. */
export class RunOutcome {
  /** The run's id (the `runId` of every event it published). */
  readonly runId: string
  /** How the run ended: completed, suspended, cancelled or failed. */
  readonly status: RunStatus
  /** Why the run stopped: a `StopReason` value (`complete`, `awaiting_approval`, `max_turns`, ...). */
  readonly stopReason: string
  /** The error that ended a cancelled or failed run (secrets redacted); undefined otherwise. */
  readonly error?: ArkAgentError
  /** The model's final answer of a completed run; undefined for `tool_stop` and every other end. */
  readonly finalMessage?: AgentMessage
  /** False when the terminal write failed (the session was then marked not resumable). */
  readonly persisted: boolean
  /**
   * With an output schema: the final answer parsed and checked against it (for a zod schema, the
   * parsed value: defaults and transforms applied). Undefined when the run has no schema or did not
   * complete with an answer (see hasOutput: JSON `null` is a value).
   */
  readonly output?: Object | null
  /** True when `output` carries the checked answer (it may be `null`). */
  readonly hasOutput: boolean

  constructor(runId: string, status: RunStatus, stopReason: string, persisted: boolean, error?: ArkAgentError,
    finalMessage?: AgentMessage, output?: Object | null, hasOutput: boolean = false) {
    this.runId = runId
    this.status = status
    this.stopReason = stopReason
    this.persisted = persisted
    this.error = error
    this.finalMessage = finalMessage
    this.output = output
    this.hasOutput = hasOutput
  }
}

/** Receives every event of one run, in order; the last one is terminal. Exceptions are isolated. */
export interface AgentObserver {
  onEvent(event: BusEvent): void
}

/** A function that gets every event of a run (CallbackObserver wraps one). */
export type AgentEventCallback = (event: BusEvent) => void

/** An observer from an arrow function. */
export class CallbackObserver implements AgentObserver {
  private readonly callback: AgentEventCallback

  constructor(callback: AgentEventCallback) {
    this.callback = callback
  }

  onEvent(event: BusEvent): void {
    this.callback(event)
  }
}
