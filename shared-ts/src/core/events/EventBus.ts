import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { BusEvent } from './BusEvent'
import { ControllerEventTypes } from './ControllerEventTypes'

/** A subscriber of the event bus: called with each event of the types it subscribed to, in order. */
export type EventListener = (event: BusEvent) => void
/** The one handler of a request type on the event bus: answers a request event with a value. */
export type RequestHandler = (event: BusEvent) => Promise<Object>

class ListenerEntry {
  readonly id: number
  readonly eventType: string
  readonly listener: EventListener

  constructor(id: number, eventType: string, listener: EventListener) {
    this.id = id
    this.eventType = eventType
    this.listener = listener
  }
}

/**
 * Typed publish/subscribe plus one-to-one requests.
 * publish is a side channel: a listener that throws never affects the publisher or other
 * listeners. request is a call: its handler's failure reaches the requester.
 */
export class EventBus {
  private listeners: ListenerEntry[] = []
  private nextListenerId: number = 1
  private requestHandlers: Map<string, RequestHandler> = new Map<string, RequestHandler>()
  private closed: boolean = false
  private isolatedFailures: number = 0

  get isClosed(): boolean {
    return this.closed
  }

  /** Number of listener exceptions swallowed so far (for diagnostics). */
  get listenerFailures(): number {
    return this.isolatedFailures
  }

  listenerCount(eventType?: string): number {
    if (eventType === undefined) {
      return this.listeners.length
    }
    let n = 0
    for (let i = 0; i < this.listeners.length; i++) {
      if (this.listeners[i].eventType === eventType) {
        n++
      }
    }
    return n
  }

  /** Subscribes to one type, or to every event with ControllerEventTypes.all ('*'). Returns the unsubscribe. */
  subscribe(eventType: string, listener: EventListener): () => void {
    if (this.closed) {
      return (): void => {}
    }
    const id = this.nextListenerId++
    // Copy-on-write: publish iterates the array it started with, so (un)subscribing during a
    // publish never skips or repeats a listener of that publish.
    const next = this.listeners.slice()
    next.push(new ListenerEntry(id, eventType, listener))
    this.listeners = next
    return (): void => {
      this.unsubscribe(id)
    }
  }

  publish(event: BusEvent): void {
    if (this.closed) {
      return
    }
    const snapshot = this.listeners
    if (snapshot.length === 0) {
      return
    }
    const type = event.eventType()
    for (let i = 0; i < snapshot.length; i++) {
      const entry = snapshot[i]
      if (entry.eventType === type || entry.eventType === ControllerEventTypes.all) {
        try {
          entry.listener(event)
        } catch (e) {
          this.isolatedFailures++
        }
      }
    }
  }

  /** Registers the single handler for `eventType`; a second one is a config error. */
  registerRequestHandler(eventType: string, handler: RequestHandler): () => void {
    if (this.closed) {
      throw this.closedError()
    }
    if (this.requestHandlers.has(eventType)) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.requestHandlerDuplicate,
        `A request handler for '${eventType}' is already registered`, ErrorRetryability.never)
    }
    this.requestHandlers.set(eventType, handler)
    return (): void => {
      if (this.requestHandlers.get(eventType) === handler) {
        this.requestHandlers.delete(eventType)
      }
    }
  }

  /**
   * Sends `event` to its handler and returns the handler's answer; the handler's error propagates.
   * Without a handler, returns `defaultValue` when given, else fails with request_handler_missing.
   */
  async request(event: BusEvent, defaultValue?: Object): Promise<Object> {
    if (this.closed) {
      throw this.closedError()
    }
    const type = event.eventType()
    const handler = this.requestHandlers.get(type)
    if (handler !== undefined) {
      return await handler(event)
    }
    if (defaultValue !== undefined) {
      return defaultValue
    }
    throw new ArkAgentError(ErrorLayer.config, ErrorCodes.requestHandlerMissing,
      `No request handler registered for '${type}'`, ErrorRetryability.never)
  }

  /** After close: publish is a no-op, subscribe returns a no-op, request fails clearly. */
  close(): void {
    this.closed = true
    this.listeners = []
    this.requestHandlers.clear()
  }

  private unsubscribe(id: number): void {
    const next: ListenerEntry[] = []
    for (let i = 0; i < this.listeners.length; i++) {
      if (this.listeners[i].id !== id) {
        next.push(this.listeners[i])
      }
    }
    this.listeners = next
  }

  private closedError(): ArkAgentError {
    return new ArkAgentError(ErrorLayer.config, ErrorCodes.eventBusClosed,
      'The event bus is closed', ErrorRetryability.never)
  }
}
