import { BusEvent } from './BusEvent'
import { ControllerEventTypes } from './ControllerEventTypes'
import { PendingElicitation } from '../state/PendingElicitation'

/** A server's question (or sampling request) waits for the user; published only after it was durably written. */
export class ElicitationRequiredEvent extends BusEvent {
  readonly elicitation: PendingElicitation

  constructor(sessionId: string, runId: string, elicitation: PendingElicitation) {
    super(sessionId, runId)
    this.elicitation = elicitation
  }

  eventType(): string {
    return ControllerEventTypes.elicitationRequired
  }
}

/** An elicitation was answered (by the user, after the answer was written) or closed without the user. */
export class ElicitationResolvedEvent extends BusEvent {
  readonly elicitation: PendingElicitation

  constructor(sessionId: string, runId: string, elicitation: PendingElicitation) {
    super(sessionId, runId)
    this.elicitation = elicitation
  }

  eventType(): string {
    return ControllerEventTypes.elicitationResolved
  }
}

/** How a server's sampling request ended. */
export enum SamplingOutcome {
  /** The model answered; the answer went to the server. */
  answered = 'answered',
  /** Refused before the model was called: the policy, the user, the run's limit, no active run. */
  denied = 'denied',
  /** The model call failed or a hook aborted it; the server got an error. */
  failed = 'failed'
}

/** A server's `sampling/createMessage` ended (never terminal; no llm.* events are published for it). */
export class SamplingCompletedEvent extends BusEvent {
  readonly server: string
  readonly toolCallId: string
  readonly outcome: SamplingOutcome
  /** Why it was denied or failed ('' when answered). */
  readonly reason: string
  /** The model that answered ('' unless answered). */
  readonly model: string

  constructor(sessionId: string, runId: string, server: string, toolCallId: string, outcome: SamplingOutcome,
    reason: string = '', model: string = '') {
    super(sessionId, runId)
    this.server = server
    this.toolCallId = toolCallId
    this.outcome = outcome
    this.reason = reason
    this.model = model
  }

  eventType(): string {
    return ControllerEventTypes.samplingCompleted
  }
}
