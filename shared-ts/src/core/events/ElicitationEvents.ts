import { BusEvent } from './BusEvent'
import { ControllerEventTypes } from './ControllerEventTypes'
import { PendingElicitation } from '../state/PendingElicitation'

/** A server's question (or sampling request) waits for the user; published only after it was durably written. */
export class ElicitationRequiredEvent extends BusEvent {
  /** A copy of the pending elicitation (server, message, requested schema), published after it was written. */
  readonly elicitation: PendingElicitation

  constructor(sessionId: string, runId: string, elicitation: PendingElicitation) {
    super(sessionId, runId)
    this.elicitation = elicitation
  }

  /** `ControllerEventTypes.elicitationRequired` ('elicitation.required'). */
  eventType(): string {
    return ControllerEventTypes.elicitationRequired
  }
}

/** An elicitation was answered (by the user, after the answer was written) or closed without the user. */
export class ElicitationResolvedEvent extends BusEvent {
  /** A copy of the elicitation as settled: its `action`, who closed it (`closedBy`) and any `reason`. */
  readonly elicitation: PendingElicitation

  constructor(sessionId: string, runId: string, elicitation: PendingElicitation) {
    super(sessionId, runId)
    this.elicitation = elicitation
  }

  /** `ControllerEventTypes.elicitationResolved` ('elicitation.resolved'). */
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
  /** The server's name (the tool prefix the app gave it). */
  readonly server: string
  /** The tool call during which the server asked ('' when the client cannot tell). */
  readonly toolCallId: string
  /** How it ended: `answered`, `denied` or `failed`. */
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

  /** `ControllerEventTypes.samplingCompleted` ('sampling.completed'). */
  eventType(): string {
    return ControllerEventTypes.samplingCompleted
  }
}
