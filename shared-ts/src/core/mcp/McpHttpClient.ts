import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { ContentPart } from '../model/ContentPart'
import { ToolDefinition, ToolRiskLevel } from '../model/ToolDefinition'
import { ToolResult } from '../model/ToolResult'
import { SseEvent, SseParser } from '../provider/SseParser'
import { AgentTool, ToolExecutionContext } from '../tools/AgentTool'
import { McpContent } from './McpContent'
import { HttpRequest, HttpResponseHead, HttpStreamHandler, HttpTransport } from '../transport/HttpTransport'
import { CancellationToken } from '../util/Cancellation'

const PROTOCOL_VERSION: string = '2025-06-18'

/** One tool a server lists. */
export class McpToolInfo {
  readonly name: string
  readonly description: string
  readonly inputSchema: Record<string, Object>
  readonly risk: ToolRiskLevel

  constructor(name: string, description: string, inputSchema: Record<string, Object>, risk: ToolRiskLevel) {
    this.name = name
    this.description = description
    this.inputSchema = inputSchema
    this.risk = risk
  }
}

/** A tool call's answer: its content as typed parts, and whether the server flagged it an error. */
export class McpCallResult {
  readonly parts: ContentPart[]
  readonly isError: boolean

  constructor(parts: ContentPart[], isError: boolean) {
    this.parts = parts
    this.isError = isError
  }

  /** What a text-only model is sent (images and resources described). */
  get text(): string {
    return ContentPart.modelTextOf(this.parts)
  }
}

/** Collects one HTTP exchange. */
class Exchange implements HttpStreamHandler {
  status: number = 0
  headers: Map<string, string> = new Map<string, string>()
  body: string = ''
  private resolveDone: () => void = (): void => {}
  private rejectDone: (e: ArkAgentError) => void = (): void => {}
  readonly done: Promise<void>

  constructor() {
    this.done = new Promise<void>((resolve: () => void, reject: (e: ArkAgentError) => void): void => {
      this.resolveDone = resolve
      this.rejectDone = reject
    })
  }

  onHead(head: HttpResponseHead): void {
    this.status = head.status
    this.headers = head.headers
  }

  onData(text: string): void {
    this.body += text
  }

  onEnd(finalStatus?: number): void {
    if (finalStatus !== undefined && finalStatus > 0) {
      this.status = finalStatus
    }
    this.resolveDone()
  }

  onError(error: ArkAgentError): void {
    this.rejectDone(error)
  }
}

/**
 * A minimal MCP client over Streamable HTTP, written in the core's subset so the HAR can use remote
 * MCP servers through OhosHttpTransport (Node apps use the official SDK: McpToolSource). JSON-RPC
 * requests are POSTed with `Accept: application/json, text/event-stream`; an answer in either form is
 * read; the `mcp-session-id` header the server gives at initialize is sent on every later request.
 */
export class McpHttpClient {
  private readonly url: string
  private readonly transport: HttpTransport
  private readonly extraHeaders: Map<string, string>
  private sessionId: string = ''
  private nextId: number = 1
  private initialized?: Promise<void>

  constructor(url: string, transport: HttpTransport, headers: Map<string, string> = new Map<string, string>()) {
    this.url = url
    this.transport = transport
    this.extraHeaders = headers
  }

  /** initialize + notifications/initialized (once; again after a failure). */
  initialize(token: CancellationToken = CancellationToken.none): Promise<void> {
    if (this.initialized === undefined) {
      const started = this.handshake(token)
      this.initialized = started
      started.catch((): void => {
        this.initialized = undefined
      })
    }
    return this.initialized
  }

  async listTools(token: CancellationToken = CancellationToken.none): Promise<McpToolInfo[]> {
    await this.initialize(token)
    const result = await this.request('tools/list', {}, token)
    const tools: Object | undefined = result['tools']
    const out: McpToolInfo[] = []
    if (!(tools instanceof Array)) {
      return out
    }
    for (let i = 0; i < tools.length; i++) {
      const t = tools[i] as Record<string, Object>
      const name: Object | undefined = t['name']
      if (typeof name !== 'string') {
        continue
      }
      const description: Object | undefined = t['description']
      const schema: Object | undefined = t['inputSchema']
      const annotations: Object | undefined = t['annotations']
      out.push(new McpToolInfo(name as string, typeof description === 'string' ? description as string : name as string,
        schema !== undefined && schema !== null && typeof schema === 'object' ? schema as Record<string, Object> : McpHttpClient.emptySchema(),
        McpHttpClient.riskOf(annotations)))
    }
    return out
  }

  async callTool(name: string, args: Record<string, Object>, token: CancellationToken = CancellationToken.none): Promise<McpCallResult> {
    await this.initialize(token)
    const params: Record<string, Object> = { 'name': name, 'arguments': args }
    const result = await this.request('tools/call', params, token)
    const content: Object | undefined = result['content']
    const structured: Object | undefined = result['structuredContent']
    return new McpCallResult(McpContent.toParts(content, structured), result['isError'] === true)
  }

  private async handshake(token: CancellationToken): Promise<void> {
    const client: Record<string, Object> = { 'name': 'arkagent', 'version': '0.1.0' }
    const params: Record<string, Object> = { 'protocolVersion': PROTOCOL_VERSION, 'capabilities': new Object(), 'clientInfo': client }
    await this.request('initialize', params, token)
    const note: Record<string, Object> = { 'jsonrpc': '2.0', 'method': 'notifications/initialized' }
    await this.post(JSON.stringify(note), token)
  }

  /** One JSON-RPC request; resolves with its `result`, rejects with the server's error or a bad answer. */
  private async request(method: string, params: Record<string, Object>, token: CancellationToken): Promise<Record<string, Object>> {
    const id = this.nextId++
    const message: Record<string, Object> = { 'jsonrpc': '2.0', 'id': id, 'method': method, 'params': params }
    const exchange = await this.post(JSON.stringify(message), token)
    const session = exchange.headers.get('mcp-session-id')
    if (session !== undefined && session.length > 0) {
      this.sessionId = session
    }
    const contentType = exchange.headers.get('content-type')
    const answers: Record<string, Object>[] = []
    if (contentType !== undefined && contentType.indexOf('text/event-stream') >= 0) {
      new SseParser().feed(exchange.body + '\n\n', (e: SseEvent): void => {
        const parsed = McpHttpClient.parse(e.data)
        if (parsed !== undefined) {
          answers.push(parsed)
        }
      })
    } else {
      const parsed = McpHttpClient.parse(exchange.body)
      if (parsed !== undefined) {
        answers.push(parsed)
      }
    }
    for (let i = 0; i < answers.length; i++) {
      if (answers[i]['id'] === id) {
        const error: Object | undefined = answers[i]['error']
        if (error !== undefined && error !== null) {
          const e = error as Record<string, Object>
          const text: Object | undefined = e['message']
          throw McpHttpClient.failure(`MCP ${method} failed: ${typeof text === 'string' ? text as string : 'error'}`,
            ErrorRetryability.never)
        }
        const result: Object | undefined = answers[i]['result']
        return result !== undefined && result !== null && typeof result === 'object' ? result as Record<string, Object> : new Object() as Record<string, Object>
      }
    }
    throw McpHttpClient.failure(`MCP ${method}: no answer for request ${id} (HTTP ${exchange.status})`, ErrorRetryability.retryable)
  }

  private async post(body: string, token: CancellationToken): Promise<Exchange> {
    const headers = new Map<string, string>()
    this.extraHeaders.forEach((v: string, k: string): void => {
      headers.set(k.toLowerCase(), v)
    })
    headers.set('content-type', 'application/json')
    headers.set('accept', 'application/json, text/event-stream')
    headers.set('mcp-protocol-version', PROTOCOL_VERSION)
    if (this.sessionId.length > 0) {
      headers.set('mcp-session-id', this.sessionId)
    }
    const exchange = new Exchange()
    this.transport.send(new HttpRequest('POST', this.url, headers, body), exchange, token)
    await exchange.done
    if (exchange.status >= 400) {
      throw McpHttpClient.failure(`MCP server answered HTTP ${exchange.status}: ${exchange.body.substring(0, 200)}`,
        exchange.status >= 500 ? ErrorRetryability.retryable : ErrorRetryability.never)
    }
    return exchange
  }

  private static parse(text: string): Record<string, Object> | undefined {
    try {
      const value = JSON.parse(text) as Object | null
      return value !== null && typeof value === 'object' && !(value instanceof Array) ? value as Record<string, Object> : undefined
    } catch (e) {
      return undefined
    }
  }

  private static failure(message: string, retry: ErrorRetryability): ArkAgentError {
    return new ArkAgentError(ErrorLayer.tool, ErrorCodes.toolExecutionFailed, message, retry)
  }

  private static emptySchema(): Record<string, Object> {
    const schema: Record<string, Object> = { 'type': 'object' }
    return schema
  }

  /** readOnlyHint → safe; destructiveHint or no hint → dangerous; explicitly neither → sensitive. */
  static riskOf(annotations: Object | undefined): ToolRiskLevel {
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
}

/** A server's tool as an AgentTool named `<server>__<tool>`. */
export class McpHttpTool extends AgentTool {
  private readonly client: McpHttpClient
  private readonly mcpName: string
  private readonly def: ToolDefinition

  constructor(client: McpHttpClient, serverName: string, info: McpToolInfo) {
    super()
    this.client = client
    this.mcpName = info.name
    this.def = new ToolDefinition(`${serverName}__${info.name}`.replace(new RegExp('[^A-Za-z0-9_-]', 'g'), '_').substring(0, 64),
      info.description, info.inputSchema, info.risk)
  }

  get definition(): ToolDefinition {
    return this.def
  }

  /** The server's content as typed parts; an `isError` answer is an error-flagged result with them. */
  async execute(args: Record<string, Object>, context: ToolExecutionContext): Promise<string | ToolResult> {
    const result = await this.client.callTool(this.mcpName, args, context.token)
    const parts = result.parts
    if (result.isError && parts.length === 0) {
      parts.push(ContentPart.text(`MCP tool ${this.mcpName} reported an error`))
    }
    return new ToolResult(context.call.id, parts, result.isError,
      result.isError ? ErrorCodes.toolExecutionFailed : undefined)
  }

  /** Every tool of a server, ready to register. */
  static async all(client: McpHttpClient, serverName: string, token: CancellationToken = CancellationToken.none): Promise<AgentTool[]> {
    const infos = await client.listTools(token)
    const out: AgentTool[] = []
    for (let i = 0; i < infos.length; i++) {
      out.push(new McpHttpTool(client, serverName, infos[i]))
    }
    return out
  }
}
