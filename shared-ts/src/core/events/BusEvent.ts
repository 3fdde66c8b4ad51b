import { Ids } from '../util/Ids'

/**
 * Base of every event on the bus. ArkTS has no reified generics, so events are dispatched by the
 * stable string key that `eventType()` returns (see ControllerEventTypes).
 */
export abstract class BusEvent {
  /** A process-unique id (`Ids.sequential('evt')`: `evt_`, a per-process epoch and a counter). */
  readonly eventId: string
  /** When the event was created (`Date.now()`, epoch milliseconds). */
  readonly timestampMs: number
  /** The session the event belongs to ('' when not given: a CustomEvent's default). */
  readonly sessionId: string
  /** The run it belongs to (for a decision: the suspended run's); '' when there is none, e.g. a write between runs. */
  readonly runId: string

  constructor(sessionId: string = '', runId: string = '') {
    this.eventId = Ids.sequential('evt')
    this.timestampMs = Date.now()
    this.sessionId = sessionId
    this.runId = runId
  }

  /** The type key the bus dispatches on: a `ControllerEventTypes` value, or a CustomEvent's own `type`. */
  abstract eventType(): string
}

/** An event with a caller-chosen type, for applications that use the bus for their own messages. */
export class CustomEvent extends BusEvent {
  /** The caller-chosen type key that `eventType()` returns. */
  readonly type: string
  /** The caller's data (an empty object by default). */
  readonly payload: Record<string, Object>

  constructor(type: string, payload: Record<string, Object> = {}, sessionId: string = '', runId: string = '') {
    super(sessionId, runId)
    this.type = type
    this.payload = payload
  }

  /** This event's own `type`, as given to the constructor. */
  eventType(): string {
    return this.type
  }
}
