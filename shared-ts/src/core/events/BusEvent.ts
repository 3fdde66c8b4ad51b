import { Ids } from '../util/Ids'

/**
 * Base of every event on the bus. ArkTS has no reified generics, so events are dispatched by the
 * stable string key that `eventType()` returns (see ControllerEventTypes).
 */
export abstract class BusEvent {
  readonly eventId: string
  readonly timestampMs: number
  readonly sessionId: string
  readonly runId: string

  constructor(sessionId: string = '', runId: string = '') {
    this.eventId = Ids.sequential('evt')
    this.timestampMs = Date.now()
    this.sessionId = sessionId
    this.runId = runId
  }

  abstract eventType(): string
}

/** An event with a caller-chosen type, for applications that use the bus for their own messages. */
export class CustomEvent extends BusEvent {
  readonly type: string
  readonly payload: Record<string, Object>

  constructor(type: string, payload: Record<string, Object> = {}, sessionId: string = '', runId: string = '') {
    super(sessionId, runId)
    this.type = type
    this.payload = payload
  }

  eventType(): string {
    return this.type
  }
}
