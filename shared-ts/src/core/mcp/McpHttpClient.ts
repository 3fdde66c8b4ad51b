import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { Thrown } from '../errors/Thrown'
import { ContentPart } from '../model/ContentPart'
import { ToolDefinition, ToolRiskLevel } from '../model/ToolDefinition'
import { ToolResult } from '../model/ToolResult'
import { SseEvent, SseParser } from '../provider/SseParser'
import { JsonSchema } from '../schema/JsonSchema'
import { JsonSchemaError } from '../schema/JsonSchemaError'
import { AgentTool, ToolExecutionContext } from '../tools/AgentTool'
import { McpContent } from './McpContent'
import { McpSkippedTool } from './McpSkippedTool'
import { McpNames } from './McpNames'
import { HttpRequest, HttpResponseHead, HttpStreamHandler, HttpTransport } from '../transport/HttpTransport'
import { CancellationSource, CancellationToken } from '../util/Cancellation'
import { startTimer, stopTimer } from '../util/Timers'
import { ConfigCheck } from '../util/ConfigCheck'
import { SecretVault } from '../secrets/SecretVault'

/** Protocol versions this client speaks, newest first (the first is what it asks for). */
const PROTOCOL_VERSIONS: string[] = ['2025-06-18', '2025-03-26', '2024-11-05']
/** Pages of tools/list followed at most: a server that keeps handing out cursors is cut off there. */
const MAX_LIST_PAGES: number = 100

/** One tool a server lists. */
export class McpToolInfo {
  readonly name: string
  readonly description: string
  readonly inputSchema: Record<string, Object>
  readonly risk: ToolRiskLevel
  /** `inputSchema` compiled (what the tool's arguments are validated with). */
  readonly schema?: JsonSchema

  constructor(name: string, description: string, inputSchema: Record<string, Object>, risk: ToolRiskLevel,
    schema?: JsonSchema) {
    this.name = name
    this.description = description
    this.inputSchema = inputSchema
    this.risk = risk
    this.schema = schema
  }

  /**
   * A listed tool, or undefined for one that cannot be offered to a model (see `read`).
   */
  static from(raw: Object | null | undefined): McpToolInfo | undefined {
    const read = McpToolInfo.read(raw)
    return read instanceof McpToolInfo ? read as McpToolInfo : undefined
  }

  /**
   * A listed tool, or why it cannot be offered to a model: no name, an input schema that is not a
   * JSON-Schema object (a missing schema means "no arguments"), or one the validator refuses (an
   * unsupported keyword, a remote `$ref`, a pattern the regex engine refuses...): left out, never
   * offered with a schema checked weaker than it says.
   */
  static read(raw: Object | null | undefined): McpToolInfo | McpSkippedTool {
    if (raw === null || raw === undefined || typeof raw !== 'object' || raw instanceof Array) {
      return new McpSkippedTool('', 'the listing entry is not an object')
    }
    const t = raw as Record<string, Object>
    const name: Object | undefined = t['name']
    if (typeof name !== 'string' || (name as string).length === 0) {
      return new McpSkippedTool('', 'it has no name')
    }
    const schema: Object | undefined = t['inputSchema']
    let inputSchema: Record<string, Object>
    if (schema === undefined || schema === null) {
      inputSchema = McpToolInfo.emptySchema()
    } else if (typeof schema === 'object' && !(schema instanceof Array) &&
      ((schema as Record<string, Object>)['type'] === 'object' || (schema as Record<string, Object>)['type'] === undefined)) {
      inputSchema = schema as Record<string, Object>
      if (inputSchema['type'] === undefined) {
        inputSchema['type'] = 'object'
      }
    } else {
      return new McpSkippedTool(name as string, 'its inputSchema is not a JSON-Schema object (type "object")')
    }
    let compiled: JsonSchema
    try {
      compiled = JsonSchema.compile(inputSchema)
    } catch (e) {
      if (e instanceof JsonSchemaError) {
        const refused = e as JsonSchemaError
        return new McpSkippedTool(name as string, refused.about('its inputSchema').message, refused.keyword)
      }
      return new McpSkippedTool(name as string, `its inputSchema could not be compiled: ${Thrown.describe(e as Object)}`)
    }
    const description: Object | undefined = t['description']
    return new McpToolInfo(name as string, typeof description === 'string' ? description as string : name as string,
      inputSchema, McpToolInfo.riskOf(t['annotations']), compiled)
  }

  /** readOnlyHint → safe; destructiveHint or no hint → dangerous; explicitly neither → sensitive. */
  static riskOf(annotations: Object | null | undefined): ToolRiskLevel {
    if (annotations === undefined || annotations === null || typeof annotations !== 'object') {
      return ToolRiskLevel.dangerous
    }
    const a = annotations as Record<string, Object>
    if (a['readOnlyHint'] === true) {
      return ToolRiskLevel.safe
    }
    if (a['destructiveHint'] === false) {
      return ToolRiskLevel.sensitive
    }
    return ToolRiskLevel.dangerous
  }

  private static emptySchema(): Record<string, Object> {
    const schema: Record<string, Object> = { 'type': 'object' }
    return schema
  }
}

/** A tool call's answer: its content as typed parts, and whether the server flagged it an error. */
export class McpCallResult {
  readonly parts: ContentPart[]
  readonly isError: boolean
  /** The raw `result` object, for McpContent.toResult. */
  readonly raw: Record<string, Object>

  constructor(parts: ContentPart[], isError: boolean, raw: Record<string, Object> = new Object() as Record<string, Object>) {
    this.parts = parts
    this.isError = isError
    this.raw = raw
  }

  /** What a text-only model is sent (images and resources described). */
  get text(): string {
    return ContentPart.modelTextOf(this.parts)
  }
}

/**
 * One HTTP exchange. A JSON answer is collected whole; an SSE answer is parsed as it arrives and
 * the exchange is over as soon as the response to `wantId` is in (a server may keep the stream open).
 * Settles once: on that response, on the end of the body, on a transport error, or on cancellation.
 */
class Exchange implements HttpStreamHandler {
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
  private resolveDone: () => void = (): void => {}
  private rejectDone: (e: ArkAgentError) => void = (): void => {}
  readonly done: Promise<void>

  constructor(wantId: number, maxChars: number) {
    this.wantId = wantId
    this.maxChars = maxChars
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
      this.consider(McpHttpClient.parseMessage(e.data))
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
        this.consider(McpHttpClient.parseMessage(e.data))
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
    if (message !== undefined && !this.settled && McpHttpClient.answers(message, this.wantId)) {
      this.answer = message
      this.settle(undefined)
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

/** Options of McpHttpClient. */
export interface McpHttpClientOptions {
  /** Extra request headers (an API key: `authorization`). */
  headers?: Map<string, string>
  /** How long the shared initialize handshake may take, in ms (default 30,000). */
  initializeTimeoutMs?: number
  /**
   * How long one request (a listing, a call) may take, in ms, whatever its caller's token says
   * (default 60,000; 0: only the caller's token). A tool registry's own timeout is usually shorter.
   */
  requestTimeoutMs?: number
  /** Longest answer read, in characters (default 16 Mi); a longer one fails its request. */
  maxAnswerChars?: number
}

/**
 * A minimal MCP client over Streamable HTTP, written in the core's subset so the HAR can use remote
 * MCP servers through OhosHttpTransport (Node apps use the official SDK: McpToolSource). JSON-RPC
 * requests are POSTed with `Accept: application/json, text/event-stream`; an answer in either form is
 * read; after initialize, the `mcp-session-id` the server gave and the negotiated
 * `mcp-protocol-version` go on every request. A 404 to a request carrying a session id means the
 * session is gone: the client initializes again and retries that request once. A cancelled request
 * is abandoned at once (and the server told with notifications/cancelled); the shared handshake runs
 * on its own deadline, so one caller's cancellation never leaves the others waiting.
 */
export class McpHttpClient {
  private readonly url: string
  private readonly transport: HttpTransport
  private readonly extraHeaders: Map<string, string>
  private readonly initializeTimeoutMs: number
  private readonly requestTimeoutMs: number
  private readonly maxAnswerChars: number
  private sessionId: string = ''
  private protocolVersion: string = ''
  private nextId: number = 1
  private initialized?: Promise<void>
  private skipped: McpSkippedTool[] = []

  constructor(url: string, transport: HttpTransport, headers: Map<string, string> = new Map<string, string>(),
    options?: McpHttpClientOptions) {
    if (typeof url !== 'string') {
      throw ConfigCheck.invalid(`MCP server URL must be a string; got ${ConfigCheck.show(url)}`)
    }
    McpHttpClient.checkUrl(url)
    ConfigCheck.implementing(transport, ['send'], 'McpHttpClient transport (an HttpTransport)')
    if (!(headers instanceof Map) || (options !== undefined && options.headers !== undefined && !(options.headers instanceof Map))) {
      throw ConfigCheck.invalid('McpHttpClient headers must be a Map of header names to values')
    }
    this.url = url
    this.transport = transport
    this.extraHeaders = options !== undefined && options.headers !== undefined ? options.headers : headers
    McpHttpClient.checkHeaders(this.extraHeaders)
    // A header may carry the server's credential: no piece of it leaves in a result, an error or a log.
    this.extraHeaders.forEach((value: string, name: string): void => {
      SecretVault.registerHeader(name, value)
    })
    // Each option checked where it is given (invalid_config naming it), never replaced by a default.
    const timeout = options !== undefined ? options.initializeTimeoutMs : undefined
    this.initializeTimeoutMs = timeout !== undefined ? ConfigCheck.delayMs(timeout, 1, 'McpHttpClient initializeTimeoutMs') : 30000
    const perRequest = options !== undefined ? options.requestTimeoutMs : undefined
    this.requestTimeoutMs = perRequest !== undefined ? ConfigCheck.timeoutMs(perRequest, 'McpHttpClient requestTimeoutMs') : 60000
    const maxChars = options !== undefined ? options.maxAnswerChars : undefined
    this.maxAnswerChars = maxChars !== undefined ? ConfigCheck.count(maxChars, 1, 'McpHttpClient maxAnswerChars', 1073741824) :
      16 * 1024 * 1024
  }

  /** The protocol version the server agreed to ('' before initialize). */
  get negotiatedVersion(): string {
    return this.protocolVersion
  }

  /** initialize + notifications/initialized (once; again after a failure or a lost session). */
  initialize(token: CancellationToken = CancellationToken.none): Promise<void> {
    if (this.initialized === undefined) {
      const started = this.handshake()
      this.initialized = started
      started.catch((): void => {
        if (this.initialized === started) {
          this.initialized = undefined
        }
      })
    }
    return McpHttpClient.until(this.initialized, token)
  }

  /** The tools the latest complete listing left out, and why (McpToolInfo.read). */
  get skippedTools(): McpSkippedTool[] {
    return this.skipped.slice()
  }

  /**
   * Every tool the server lists (following pages), except those that cannot be offered
   * (McpToolInfo.read): those are reported in `skippedTools`.
   */
  async listTools(token: CancellationToken = CancellationToken.none): Promise<McpToolInfo[]> {
    const out: McpToolInfo[] = []
    const skipped: McpSkippedTool[] = []
    let cursor = ''
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const params: Record<string, Object> = {}
      if (cursor.length > 0) {
        params['cursor'] = cursor
      }
      const result = await this.call('tools/list', params, token)
      const tools: Object | undefined = result['tools']
      if (tools instanceof Array) {
        for (let i = 0; i < tools.length; i++) {
          const read = McpToolInfo.read(tools[i] as Object)
          if (read instanceof McpToolInfo) {
            out.push(read as McpToolInfo)
          } else {
            skipped.push(read as McpSkippedTool)
          }
        }
      }
      const next: Object | undefined = result['nextCursor']
      if (typeof next !== 'string' || (next as string).length === 0) {
        break
      }
      cursor = next as string
    }
    this.skipped = skipped
    return out
  }

  async callTool(name: string, args: Record<string, Object>, token: CancellationToken = CancellationToken.none): Promise<McpCallResult> {
    const params: Record<string, Object> = { 'name': name, 'arguments': args }
    const result = await this.call('tools/call', params, token)
    const content: Object | undefined = result['content']
    const structured: Object | undefined = result['structuredContent']
    return new McpCallResult(McpContent.toParts(content, structured), result['isError'] === true, result)
  }

  /** A request after the handshake; a lost session (404) is re-initialized and the request retried once. */
  private async call(method: string, params: Record<string, Object>, caller: CancellationToken): Promise<Record<string, Object>> {
    // The request's own deadline, on top of the caller's token (a listing has no registry timeout).
    const source = CancellationSource.linked([caller])
    const limit = this.requestTimeoutMs
    const timer = limit > 0 ? startTimer((): void => source.cancel(`no answer to ${method} within ${limit} ms`), limit) : -1
    try {
      return await this.callOnce(method, params, source.token)
    } catch (e) {
      if (source.token.isCancelled && !caller.isCancelled) {
        throw new ArkAgentError(ErrorLayer.tool, ErrorCodes.toolTimeout, `MCP server gave no answer to ${method} within ${limit} ms`,
          ErrorRetryability.retryable)
      }
      throw e as Error
    } finally {
      if (timer !== -1) {
        stopTimer(timer)
      }
      source.dispose()
    }
  }

  private async callOnce(method: string, params: Record<string, Object>, token: CancellationToken): Promise<Record<string, Object>> {
    await this.initialize(token)
    const session = this.sessionId
    try {
      return await this.request(method, params, token)
    } catch (e) {
      const err = e as ArkAgentError
      if (!(err instanceof McpHttpError) || (err as McpHttpError).status !== 404 || session.length === 0) {
        throw err
      }
      if (this.sessionId === session) {
        this.sessionId = ''
        this.protocolVersion = ''
        this.initialized = undefined
      }
      await this.initialize(token)
      return this.request(method, params, token)
    }
  }

  private async handshake(): Promise<void> {
    // A new session: nothing of an earlier (failed or lost) one is sent again.
    this.sessionId = ''
    this.protocolVersion = ''
    // Its own deadline, not a caller's token: callers come and go, the handshake is shared.
    const source = new CancellationSource()
    const timer = startTimer((): void => source.cancel('the MCP initialize handshake timed out'), this.initializeTimeoutMs)
    try {
      const client: Record<string, Object> = { 'name': 'arkagent', 'version': '0.1.0' }
      const params: Record<string, Object> = { 'protocolVersion': PROTOCOL_VERSIONS[0], 'capabilities': new Object(),
        'clientInfo': client }
      const result = await this.request('initialize', params, source.token)
      const version: Object | undefined = result['protocolVersion']
      if (typeof version !== 'string' || PROTOCOL_VERSIONS.indexOf(version as string) < 0) {
        throw McpHttpClient.failure(`MCP server answered protocol version ${JSON.stringify(version ?? null)}; ` +
          `this client speaks ${PROTOCOL_VERSIONS.join(', ')}`, ErrorRetryability.never)
      }
      this.protocolVersion = version as string
      const note: Record<string, Object> = { 'jsonrpc': '2.0', 'method': 'notifications/initialized' }
      await this.post(JSON.stringify(note), -1, source.token)
    } catch (e) {
      this.sessionId = ''
      this.protocolVersion = ''
      if (source.token.isCancelled) {
        throw new ArkAgentError(ErrorLayer.tool, ErrorCodes.toolTimeout,
          `MCP server did not complete initialize within ${this.initializeTimeoutMs} ms`, ErrorRetryability.retryable)
      }
      throw e as Error
    } finally {
      stopTimer(timer)
      source.dispose()
    }
  }

  /** One JSON-RPC request; resolves with its `result`, rejects with the server's error or a bad answer. */
  private async request(method: string, params: Record<string, Object>, token: CancellationToken): Promise<Record<string, Object>> {
    const id = this.nextId++
    const message: Record<string, Object> = { 'jsonrpc': '2.0', 'id': id, 'method': method, 'params': params }
    let exchange: Exchange
    try {
      exchange = await this.post(JSON.stringify(message), id, token)
      if (method === 'initialize') {
        // The session id comes from the initialize answer only: a late answer of an older session
        // must not bring its id back.
        const session = exchange.headers.get('mcp-session-id')
        this.sessionId = session !== undefined ? session : ''
      }
    } catch (e) {
      if (token.isCancelled && method !== 'initialize') {
        this.notifyCancelled(id, token.reason)
      }
      throw e as Error
    }
    let answer = exchange.answer
    if (answer === undefined && !exchange.isSse) {
      answer = McpHttpClient.findAnswer(exchange.body, id)
    }
    if (answer === undefined) {
      throw McpHttpClient.failure(`MCP ${method}: no answer for request ${id} (HTTP ${exchange.status})`,
        ErrorRetryability.retryable)
    }
    const error: Object | undefined = answer['error']
    if (error !== undefined && error !== null) {
      const e = typeof error === 'object' ? error as Record<string, Object> : new Object() as Record<string, Object>
      const text: Object | undefined = e['message']
      const code: Object | undefined = e['code']
      throw McpHttpClient.failure(`MCP ${method} failed${typeof code === 'number' ? ` (${code as number})` : ''}: ${
        typeof text === 'string' ? (text as string).substring(0, 500) : 'error'}`, ErrorRetryability.never)
    }
    const result: Object | undefined = answer['result']
    return result !== undefined && result !== null && typeof result === 'object' && !(result instanceof Array) ?
      result as Record<string, Object> : new Object() as Record<string, Object>
  }

  /** Tells the server a request was abandoned; best effort, on its own short deadline. */
  private notifyCancelled(id: number, reason: string): void {
    const params: Record<string, Object> = { 'requestId': id, 'reason': reason.length > 0 ? reason : 'cancelled' }
    const note: Record<string, Object> = { 'jsonrpc': '2.0', 'method': 'notifications/cancelled', 'params': params }
    const source = new CancellationSource()
    const timer = startTimer((): void => source.cancel('timeout'), 5000)
    this.post(JSON.stringify(note), -1, source.token).then((): void => {}, (): void => {}).finally((): void => {
      stopTimer(timer)
      source.dispose()
    })
  }

  private async post(body: string, wantId: number, token: CancellationToken): Promise<Exchange> {
    const headers = new Map<string, string>()
    this.extraHeaders.forEach((v: string, k: string): void => {
      headers.set(k.toLowerCase(), v)
    })
    headers.set('content-type', 'application/json')
    headers.set('accept', 'application/json, text/event-stream')
    if (this.protocolVersion.length > 0) {
      headers.set('mcp-protocol-version', this.protocolVersion)
    }
    if (this.sessionId.length > 0) {
      headers.set('mcp-session-id', this.sessionId)
    }
    token.throwIfCancelled()
    const exchange = new Exchange(wantId, this.maxAnswerChars)
    const source = CancellationSource.linked([token])
    const off = token.onCancel((reason: string): void => exchange.fail(CancellationToken.cancelledError(reason)))
    try {
      this.transport.send(new HttpRequest('POST', this.url, headers, body), exchange, source.token)
      await exchange.done
    } finally {
      off()
      if (!exchange.ended) {
        // Answered before the stream ended (or abandoned): stop the request.
        source.cancel('answered')
      }
      source.dispose()
    }
    if (exchange.status >= 400) {
      throw new McpHttpError(exchange.status, `MCP server answered HTTP ${exchange.status}: ${exchange.body.substring(0, 200)}`)
    }
    return exchange
  }

  /** A URL with user:password@ would carry a secret into every error a transport writes: refused. */
  private static checkUrl(url: string): void {
    const m = new RegExp('^https?://([^/?#]*)', 'i').exec(url)
    if (m === null) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, 'MCP server URL must be absolute (http:// or https://)',
        ErrorRetryability.never)
    }
    if (m[1].indexOf('@') >= 0) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig,
        'MCP server URL must not carry credentials (user:password@): give them as a header', ErrorRetryability.never)
    }
  }

  /** Header values with CR, LF or NUL are refused here, without echoing them (they are often keys). */
  private static checkHeaders(headers: Map<string, string>): void {
    headers.forEach((value: string, name: string): void => {
      if (typeof value !== 'string' || new RegExp('[\r\n\u0000]').test(value) || !new RegExp('^[!#$%&\'*+.^_`|~0-9A-Za-z-]+$').test(name)) {
        throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig,
          `MCP header '${name.replace(new RegExp('[^!#$%&\'*+.^_`|~0-9A-Za-z-]', 'g'), '?')}' has an invalid name or value ` +
          '(a value may not contain CR, LF or NUL)', ErrorRetryability.never)
      }
    })
  }

  /** Whether `message` is the response to request `id` (or an error the server could not tie to one). */
  static answers(message: Record<string, Object>, id: number): boolean {
    if (id < 0 || (message['result'] === undefined && message['error'] === undefined)) {
      return false
    }
    return message['id'] === id || (message['id'] === null && message['error'] !== undefined)
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
  private static findAnswer(body: string, id: number): Record<string, Object> | undefined {
    let value: Object | null
    try {
      value = JSON.parse(body) as Object | null
    } catch (e) {
      return undefined
    }
    const list: Object[] = value instanceof Array ? value as Object[] : [value as Object]
    for (let i = 0; i < list.length; i++) {
      const m = list[i]
      if (m !== null && typeof m === 'object' && !(m instanceof Array) && McpHttpClient.answers(m as Record<string, Object>, id)) {
        return m as Record<string, Object>
      }
    }
    return undefined
  }

  /** `work`, or a cancellation error as soon as `token` fires (the work itself goes on). */
  private static until(work: Promise<void>, token: CancellationToken): Promise<void> {
    if (token === CancellationToken.none) {
      return work
    }
    return new Promise<void>((resolve, reject) => {
      const off = token.onCancel((reason: string): void => reject(CancellationToken.cancelledError(reason)))
      work.then((): void => {
        off()
        resolve()
      }, (e: Object): void => {
        off()
        reject(e)
      })
    })
  }

  private static failure(message: string, retry: ErrorRetryability): ArkAgentError {
    return new ArkAgentError(ErrorLayer.tool, ErrorCodes.toolExecutionFailed, message, retry)
  }

  /** readOnlyHint → safe; destructiveHint or no hint → dangerous; explicitly neither → sensitive. */
  static riskOf(annotations: Object | undefined): ToolRiskLevel {
    return McpToolInfo.riskOf(annotations)
  }
}

/** An HTTP error status from the MCP server. */
class McpHttpError extends ArkAgentError {
  readonly status: number

  constructor(status: number, message: string) {
    super(ErrorLayer.tool, ErrorCodes.toolExecutionFailed, message,
      status >= 500 || status === 429 ? ErrorRetryability.retryable : ErrorRetryability.never)
    this.status = status
  }
}

/** A server's tool as an AgentTool named `<server>__<tool>` (McpNames). */
export class McpHttpTool extends AgentTool {
  private readonly client: McpHttpClient
  private readonly mcpName: string
  private readonly def: ToolDefinition

  /** Named `<server>__<tool>` by McpNames; `registryName` is how `all` passes names it made unique. */
  constructor(client: McpHttpClient, serverName: string, info: McpToolInfo, registryName?: string) {
    super()
    this.client = client
    this.mcpName = info.name
    const schema = info.schema
    this.def = new ToolDefinition(registryName !== undefined ? registryName :
      McpNames.assign(McpNames.checkServer(serverName), [info.name])[0], info.description,
      schema !== undefined ? schema : info.inputSchema, info.risk)
  }

  get definition(): ToolDefinition {
    return this.def
  }

  /** The server's content as typed parts; an `isError` answer is an error-flagged result with them. */
  async execute(args: Record<string, Object>, context: ToolExecutionContext): Promise<string | ToolResult> {
    const result = await this.client.callTool(this.mcpName, args, context.token)
    return McpContent.toResult(context.call.id, this.mcpName, result.raw)
  }

  /** Every tool of a server, ready to register (names from McpNames: stable, unique, valid). */
  static async all(client: McpHttpClient, serverName: string, token: CancellationToken = CancellationToken.none): Promise<AgentTool[]> {
    McpNames.checkServer(serverName)
    const infos = await client.listTools(token)
    const names: string[] = []
    for (let i = 0; i < infos.length; i++) {
      names.push(infos[i].name)
    }
    const assigned = McpNames.assign(serverName, names)
    const out: AgentTool[] = []
    for (let i = 0; i < infos.length; i++) {
      if (assigned[i].length > 0) {
        out.push(new McpHttpTool(client, serverName, infos[i], assigned[i]))
      }
    }
    return out
  }
}
