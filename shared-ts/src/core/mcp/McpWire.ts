import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { SseEvent, SseParser } from '../provider/SseParser'
import { McpContent } from './McpContent'
import { HttpResponseHead, HttpStreamHandler } from '../transport/HttpTransport'

/** JSON-RPC messages as MCP's Streamable HTTP carries them: reading one, and finding the answer to a request. */
export class McpWire {
  /** Whether `message` is the response to request `id` (or an error the server could not tie to one). */
  static answers(message: Record<string, Object>, id: number): boolean {
    if (id < 0 || (message['result'] === undefined && message['error'] === undefined)) {
      return false
    }
    return message['id'] === id || (message['id'] === null && message['error'] !== undefined)
  }

  /** A `result` that must be an object (initialize, tools/list): anything else fails the request. */
  static resultObject(method: string, result: Object | null): Record<string, Object> {
    if (result === null || typeof result !== 'object' || result instanceof Array) {
      throw McpWire.failure(`MCP ${method}: the server answered with ${McpContent.kindOf(result)} instead of a result object`,
        ErrorRetryability.never)
    }
    return result as Record<string, Object>
  }

  /** A failed request of the core client (tool / tool_execution_failed). */
  static failure(message: string, retry: ErrorRetryability): ArkAgentError {
    return new ArkAgentError(ErrorLayer.tool, ErrorCodes.toolExecutionFailed, message, retry)
  }

  /** A JSON message object, or undefined. */
  static parseMessage(text: string): Record<string, Object> | undefined {
    try {
      const value = JSON.parse(text) as Object | null
      return value !== null && typeof value === 'object' && !(value instanceof Array) ? value as Record<string, Object> : undefined
    } catch (e) {
      return undefined
    }
  }

  /** The response to `id` in a JSON body: one message, or a batch of them. */
  static findAnswer(body: string, id: number): Record<string, Object> | undefined {
    let value: Object | null
    try {
      value = JSON.parse(body) as Object | null
    } catch (e) {
      return undefined
    }
    const list: Object[] = value instanceof Array ? value as Object[] : [value as Object]
    for (let i = 0; i < list.length; i++) {
      const m = list[i]
      if (m !== null && typeof m === 'object' && !(m instanceof Array) && McpWire.answers(m as Record<string, Object>, id)) {
        return m as Record<string, Object>
      }
    }
    return undefined
  }
}

/**
 * One HTTP exchange. A JSON answer is collected whole; an SSE answer is parsed as it arrives and
 * the exchange is over as soon as the response to `wantId` is in (a server may keep the stream open).
 * Settles once: on that response, on the end of the body, on a transport error, or on cancellation.
 */
export class McpExchange implements HttpStreamHandler {
  status: number = 0
  headers: Map<string, string> = new Map<string, string>()
  body: string = ''
  answer?: Record<string, Object>
  /** The body ended (or failed) by itself: nothing left to abort. */
  ended: boolean = false
  private sse?: SseParser
  private settled: boolean = false
  private received: number = 0
  private readonly maxChars: number
  private readonly wantId: number
  private readonly notice?: (message: Record<string, Object>) => void
  private resolveDone: () => void = (): void => {}
  private rejectDone: (e: ArkAgentError) => void = (): void => {}
  readonly done: Promise<void>

  /** `notice` sees every other message of an SSE answer (a notification such as tools/list_changed). */
  constructor(wantId: number, maxChars: number, notice?: (message: Record<string, Object>) => void) {
    this.wantId = wantId
    this.maxChars = maxChars
    this.notice = notice
    this.done = new Promise<void>((resolve: () => void, reject: (e: ArkAgentError) => void): void => {
      this.resolveDone = resolve
      this.rejectDone = reject
    })
  }

  get isSse(): boolean {
    return this.sse !== undefined
  }

  onHead(head: HttpResponseHead): void {
    if (this.settled) {
      return
    }
    this.status = head.status
    this.headers = head.headers
    const type = head.header('content-type').toLowerCase()
    if (type.indexOf('text/event-stream') >= 0) {
      this.sse = new SseParser()
    }
  }

  onData(text: string): void {
    if (this.settled) {
      return
    }
    // A server may stream without end (or send one endless line): past the cap the exchange fails.
    this.received += text.length
    if (this.maxChars > 0 && this.received > this.maxChars) {
      this.settle(new ArkAgentError(ErrorLayer.tool, ErrorCodes.toolExecutionFailed,
        `MCP server's answer passed ${this.maxChars} characters without completing; it was abandoned`,
        ErrorRetryability.never))
      return
    }
    const sse = this.sse
    if (sse === undefined) {
      this.body += text
      return
    }
    sse.feed(text, (e: SseEvent): void => {
      this.consider(McpWire.parseMessage(e.data))
    })
  }

  onEnd(finalStatus?: number): void {
    this.ended = true
    if (this.settled) {
      return
    }
    if (finalStatus !== undefined && finalStatus > 0) {
      this.status = finalStatus
    }
    const sse = this.sse
    if (sse !== undefined) {
      // A last event without its blank line still counts.
      sse.feed('\n\n', (e: SseEvent): void => {
        this.consider(McpWire.parseMessage(e.data))
      })
    }
    this.settle(undefined)
  }

  onError(error: ArkAgentError): void {
    this.ended = true
    this.settle(error)
  }

  /** Ends the exchange from outside (cancellation). */
  fail(error: ArkAgentError): void {
    this.settle(error)
  }

  private consider(message: Record<string, Object> | undefined): void {
    if (message === undefined || this.settled) {
      return
    }
    if (McpWire.answers(message, this.wantId)) {
      this.answer = message
      this.settle(undefined)
      return
    }
    const notice = this.notice
    if (notice !== undefined) {
      notice(message)
    }
  }

  private settle(error: ArkAgentError | undefined): void {
    if (this.settled) {
      return
    }
    this.settled = true
    if (error !== undefined) {
      this.rejectDone(error)
    } else {
      this.resolveDone()
    }
  }
}

/** An HTTP error status from the MCP server. */
export class McpHttpError extends ArkAgentError {
  readonly status: number

  constructor(status: number, message: string) {
    super(ErrorLayer.tool, ErrorCodes.toolExecutionFailed, message, McpHttpError.retryabilityOf(status))
    this.status = status
  }

  /** 401/403 wait for a credential; 408, 429 and 5xx may pass; anything else is final (as in the Node client). */
  static retryabilityOf(status: number): ErrorRetryability {
    if (status === 401 || status === 403) {
      return ErrorRetryability.afterAction
    }
    return status >= 500 || status === 408 || status === 429 ? ErrorRetryability.retryable : ErrorRetryability.never
  }
}

