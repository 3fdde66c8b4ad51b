import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { ToolRiskLevel } from '../model/ToolDefinition'
import { HttpRequest, HttpTransport } from '../transport/HttpTransport'
import { CancellationSource, CancellationToken } from '../util/Cancellation'
import { ConfigCheck } from '../util/ConfigCheck'
import { startTimer, stopTimer } from '../host/Timers'
import { McpHeaders } from './McpHeaders'
import { McpHeaderProvider, McpHttpClientOptions } from './McpHttpClientOptions'
import { McpHttpClientSettings } from './McpHttpClientSettings'
import { McpListingCache } from './McpListingCache'
import { McpServerRequests } from './McpServerRequests'
import { McpSkippedTool } from './McpSkippedTool'
import { McpCallResult, McpToolInfo } from './McpToolInfo'
import { McpToolRules } from './McpToolRules'
import { McpExchange, McpHttpError, McpWire } from './McpWire'

/** Protocol versions this client speaks, newest first (the first is what it asks for). */
const PROTOCOL_VERSIONS: string[] = ['2025-06-18', '2025-03-26', '2024-11-05']
/** Pages of tools/list followed at most: a server that keeps handing out cursors is cut off there. */
const MAX_LIST_PAGES: number = 100
/**
 * What servers answer a request whose session they no longer know: 404 (the spec), 400 (the SDK's
 * usual server and the reference servers: "No valid session ID"), 410 (gone).
 */
const LOST_SESSION_STATUSES: number[] = [400, 404, 410]

/**
 * A minimal MCP client over Streamable HTTP, written in the core's subset so the HAR can use remote
 * MCP servers through OhosHttpTransport (Node apps use the official SDK: McpToolSource). JSON-RPC
 * requests are POSTed with `Accept: application/json, text/event-stream`; an answer in either form is
 * read; after initialize, the `mcp-session-id` the server gave and the negotiated
 * `mcp-protocol-version` go on every request. A lost session — HTTP 404, 400 or 410 to a request that
 * carried a session id (and a 401 when a header provider may have a new credential) — is
 * re-initialized once and that request retried once. A cancelled request is abandoned at once (and
 * the server told with notifications/cancelled); the shared handshake runs on its own deadline, so
 * one caller's cancellation never leaves the others waiting.
 */
export class McpHttpClient {
  private readonly url: string
  private readonly transport: HttpTransport
  private readonly extraHeaders: Map<string, string>
  private readonly headerProvider?: McpHeaderProvider
  private readonly initializeTimeoutMs: number
  private readonly requestTimeoutMs: number
  private readonly maxAnswerChars: number
  private readonly rules: McpToolRules
  private readonly listing: McpListingCache
  /** What the server may ask of this client (elicitation, sampling, roots: only what was configured). */
  private readonly requests: McpServerRequests
  /** The headers of the current connection (static ones and the provider's, lower-case names). */
  private connectionHeaders: Map<string, string> = new Map<string, string>()
  private sessionId: string = ''
  private protocolVersion: string = ''
  private nextId: number = 1
  private initialized?: Promise<void>
  /** Handshakes started: tells a request's session from a newer one. */
  private epoch: number = 0

  constructor(url: string, transport: HttpTransport, headers: Map<string, string> = new Map<string, string>(),
    options?: McpHttpClientOptions) {
    if (typeof url !== 'string') {
      throw ConfigCheck.invalid(`MCP server URL must be a string; got ${ConfigCheck.show(url)}`)
    }
    McpHeaders.checkUrl(url)
    ConfigCheck.implementing(transport, ['send'], 'McpHttpClient transport (an HttpTransport)')
    const settings = new McpHttpClientSettings(url, headers, options)
    this.url = url
    this.transport = transport
    this.extraHeaders = settings.headers
    this.headerProvider = settings.headerProvider
    this.initializeTimeoutMs = settings.initializeTimeoutMs
    this.requestTimeoutMs = settings.requestTimeoutMs
    this.maxAnswerChars = settings.maxAnswerChars
    this.listing = new McpListingCache(settings.listCacheMs)
    this.rules = settings.rules
    this.requests = settings.requests
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
    return McpHeaders.until<void>(this.initialized, token)
  }

  /** The tools the latest complete listing left out, and why (McpToolInfo.read, a failing filter). */
  get skippedTools(): McpSkippedTool[] {
    return this.listing.skipped.slice()
  }

  /**
   * The server said its tool list changed (`notifications/tools/list_changed`, when one arrives in an
   * answer's stream) since the last complete listing; the cached listing is dropped then.
   */
  get listChanged(): boolean {
    return this.listing.listChanged
  }

  /** Drops the cached listing: the next `listTools` (and `McpHttpTool.all`) asks the server again. */
  invalidateTools(): void {
    this.listing.invalidate()
  }

  /**
   * Every tool the server lists (following pages) that this client offers: those that cannot be
   * offered (McpToolInfo.read) are left out and reported in `skippedTools`; risk overrides and the
   * filter are applied. A listing is reused until invalidated (see `listCacheMs`).
   */
  async listTools(token: CancellationToken = CancellationToken.none): Promise<McpToolInfo[]> {
    const cached = this.listing.fresh()
    if (cached !== undefined) {
      return cached
    }
    // After the handshake: a new session invalidates what an older one listed.
    await this.initialize(token)
    const version = this.listing.version
    const seen = this.listing.changes
    const listed: McpToolInfo[] = []
    const skipped: McpSkippedTool[] = []
    let cursor = ''
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const params: Record<string, Object> = {}
      if (cursor.length > 0) {
        params['cursor'] = cursor
      }
      const result = McpWire.resultObject('tools/list', await this.call('tools/list', params, token))
      const tools: Object | undefined = result['tools']
      if (tools instanceof Array) {
        for (let i = 0; i < tools.length; i++) {
          const read = McpToolInfo.read(tools[i] as Object)
          if (read instanceof McpToolInfo) {
            listed.push(read as McpToolInfo)
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
    const out = this.rules.apply(listed, skipped)
    this.listing.store(out, skipped, version, seen)
    return out
  }

  /**
   * Calls a tool by the server's name. The answer's content as typed parts; an `isError` answer, or a
   * `result` that is not an object, is an error-flagged result (McpCallResult.of, as the Node client).
   */
  async callTool(name: string, args: Record<string, Object>, token: CancellationToken = CancellationToken.none,
    toolCallId: string = ''): Promise<McpCallResult> {
    const params: Record<string, Object> = { 'name': name, 'arguments': args }
    return McpCallResult.of(name, await this.call('tools/call', params, token, toolCallId))
  }

  /** A request after the handshake, on its own deadline; its `result` as the server sent it. */
  private async call(method: string, params: Record<string, Object>, caller: CancellationToken,
    toolCallId: string = ''): Promise<Object | null> {
    // The request's own deadline, on top of the caller's token (a listing has no registry timeout).
    const source = CancellationSource.linked([caller])
    const limit = this.requestTimeoutMs
    const timer = limit > 0 ? startTimer((): void => source.cancel(`no answer to ${method} within ${limit} ms`), limit) : -1
    try {
      return await this.callOnce(method, params, source.token, toolCallId)
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

  /** The request; a lost session is initialized again and the request retried once. */
  private async callOnce(method: string, params: Record<string, Object>, token: CancellationToken,
    toolCallId: string): Promise<Object | null> {
    await this.initialize(token)
    const epoch = this.epoch
    const session = this.sessionId
    try {
      return await this.request(method, params, token, toolCallId)
    } catch (e) {
      if (!this.lostSession(e as Object, session)) {
        throw e as Error
      }
      if (this.epoch === epoch) {
        this.sessionId = ''
        this.protocolVersion = ''
        this.initialized = undefined
      }
      await this.initialize(token)
      return this.request(method, params, token, toolCallId)
    }
  }

  /**
   * Whether `e` says the session (or, with a header provider, its credential) is gone: the request was
   * refused before it ran, so it may be sent once more on a new connection.
   */
  private lostSession(e: Object, session: string): boolean {
    if (!(e instanceof McpHttpError)) {
      return false
    }
    const status = (e as McpHttpError).status
    if (status === 401) {
      return this.headerProvider !== undefined
    }
    return session.length > 0 && LOST_SESSION_STATUSES.indexOf(status) >= 0
  }

  private async handshake(): Promise<void> {
    // A new session: nothing of an earlier (failed or lost) one is sent again.
    this.sessionId = ''
    this.protocolVersion = ''
    this.epoch++
    // Its own deadline, not a caller's token: callers come and go, the handshake is shared.
    const source = new CancellationSource()
    const timer = startTimer((): void => source.cancel('the MCP initialize handshake timed out'), this.initializeTimeoutMs)
    try {
      this.connectionHeaders = await McpHeaders.resolve(this.extraHeaders, this.headerProvider, source.token)
      const client: Record<string, Object> = { 'name': 'arkagent', 'version': '0.1.0' }
      // Only what the app configured: a server offers its elicitation, sampling or roots tools only then.
      const params: Record<string, Object> = { 'protocolVersion': PROTOCOL_VERSIONS[0],
        'capabilities': this.requests.features.capabilities(), 'clientInfo': client }
      const result = McpWire.resultObject('initialize', await this.request('initialize', params, source.token))
      const version: Object | undefined = result['protocolVersion']
      if (typeof version !== 'string' || PROTOCOL_VERSIONS.indexOf(version as string) < 0) {
        throw McpWire.failure(`MCP server answered protocol version ${JSON.stringify(version ?? null)}; ` +
          `this client speaks ${PROTOCOL_VERSIONS.join(', ')}`, ErrorRetryability.never)
      }
      this.protocolVersion = version as string
      const note: Record<string, Object> = { 'jsonrpc': '2.0', 'method': 'notifications/initialized' }
      await this.post(JSON.stringify(note), -1, source.token)
      // A new session may offer other tools than the one an earlier listing came from.
      this.invalidateTools()
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

  /** One JSON-RPC request; resolves with its `result` as sent, rejects with the server's error or a bad answer. */
  private async request(method: string, params: Record<string, Object>, token: CancellationToken,
    toolCallId: string = ''): Promise<Object | null> {
    const id = this.nextId++
    const message: Record<string, Object> = { 'jsonrpc': '2.0', 'id': id, 'method': method, 'params': params }
    let exchange: McpExchange
    try {
      exchange = await this.post(JSON.stringify(message), id, token, toolCallId)
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
      answer = McpWire.findAnswer(exchange.body, id)
    }
    if (answer === undefined) {
      throw McpWire.failure(`MCP ${method}: no answer for request ${id} (HTTP ${exchange.status})`,
        ErrorRetryability.retryable)
    }
    const error: Object | undefined = answer['error']
    if (error !== undefined && error !== null) {
      const e = typeof error === 'object' ? error as Record<string, Object> : new Object() as Record<string, Object>
      const text: Object | undefined = e['message']
      const code: Object | undefined = e['code']
      throw McpWire.failure(`MCP ${method} failed${typeof code === 'number' ? ` (${code as number})` : ''}: ${
        typeof text === 'string' ? (text as string).substring(0, 500) : 'error'}`, ErrorRetryability.never)
    }
    const result: Object | undefined = answer['result']
    return result !== undefined ? result : null
  }

  /** Tells the server a request was abandoned; best effort, on its own short deadline. */
  private notifyCancelled(id: number, reason: string): void {
    const params: Record<string, Object> = { 'requestId': id, 'reason': reason.length > 0 ? reason : 'cancelled' }
    const note: Record<string, Object> = { 'jsonrpc': '2.0', 'method': 'notifications/cancelled', 'params': params }
    this.sendBestEffort(note)
  }

  /** A message with no answer to wait for (a notification, a response); best effort, on its own short deadline. */
  private sendBestEffort(message: Record<string, Object>): void {
    const source = new CancellationSource()
    const timer = startTimer((): void => source.cancel('timeout'), 5000)
    this.post(JSON.stringify(message), -1, source.token).then((): void => {}, (): void => {}).finally((): void => {
      stopTimer(timer)
      source.dispose()
    })
  }

  /**
   * A server message seen beside an answer: tools/list_changed drops the cached listing; a request (the
   * server talking back while `toolCallId` runs: elicitation, sampling, roots, ping) is answered — by a
   * POST of its response — once McpServerRequests has it (an error for anything not configured or malformed).
   */
  private noticed(message: Record<string, Object>, token: CancellationToken, toolCallId: string): void {
    const method: Object | undefined = message['method']
    const id: Object | undefined = message['id']
    if (typeof method === 'string' && id !== undefined && id !== null) {
      this.requests.respond(message, toolCallId, token).then((response: Record<string, Object>): void => {
        this.sendBestEffort(response)
      }, (): void => {})
      return
    }
    if (method === 'notifications/tools/list_changed') {
      this.listing.changed()
    }
  }

  private async post(body: string, wantId: number, token: CancellationToken, toolCallId: string = ''): Promise<McpExchange> {
    const headers = new Map<string, string>()
    this.connectionHeaders.forEach((v: string, k: string): void => {
      headers.set(k, v)
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
    // What the server asks during this request ends with it: a question still open when the answer came is moot.
    const asked = CancellationSource.linked([token])
    const exchange = new McpExchange(wantId, this.maxAnswerChars,
      (m: Record<string, Object>): void => this.noticed(m, asked.token, toolCallId))
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
      asked.cancel('the request it came with ended')
      asked.dispose()
    }
    if (exchange.status >= 400) {
      throw new McpHttpError(exchange.status, `MCP server answered HTTP ${exchange.status}: ${exchange.body.substring(0, 200)}`)
    }
    return exchange
  }

  /** Whether `message` is the response to request `id` (or an error the server could not tie to one). */
  static answers(message: Record<string, Object>, id: number): boolean {
    return McpWire.answers(message, id)
  }

  /** A JSON message object, or undefined. */
  static parseMessage(text: string): Record<string, Object> | undefined {
    return McpWire.parseMessage(text)
  }

  /** readOnlyHint → safe; destructiveHint or no hint → dangerous; explicitly neither → sensitive. */
  static riskOf(annotations: Object | undefined): ToolRiskLevel {
    return McpToolInfo.riskOf(annotations)
  }
}
