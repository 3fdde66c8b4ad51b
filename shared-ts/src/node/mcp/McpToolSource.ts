// MCP servers as tools under the control plane (Node): the official SDK's client over stdio or
// Streamable HTTP. Every MCP call is an AgentTool call, so it passes the same hooks, approval gates,
// at-most-once marks and loop detection as a local tool. Header values and OAuth tokens are secrets
// (SecretVault): every error this source throws is an ArkAgentError, redacted where it is made.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import * as z from 'zod/v4'
import { AgentHook } from '../../core/hook/AgentHook'
import { AgentTool, ToolExecutionContext } from '../../core/tools/AgentTool'
import { ToolRegistry } from '../../core/tools/ToolRegistry'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../../core/errors/ArkAgentError'
import { Redactor } from '../../core/redaction/Redactor'
import { McpContent } from '../../core/mcp/McpContent'
import { McpToolInfo } from '../../core/mcp/McpToolInfo'
import { McpToolRules } from '../../core/mcp/McpToolRules'
import { McpSkippedTool } from '../../core/mcp/McpSkippedTool'
import { McpNames } from '../../core/mcp/McpNames'
import { ToolResult } from '../../core/model/ToolResult'
import { guarded, registeredHeaders, urlFetch } from './McpAuth'
import { describeChain, is, isAnswer, retryabilityOf, safeCause } from './McpErrors'
import { checkSpec, McpServerSpec } from './McpServerSpec'
import { McpRefreshHook, McpTool } from './McpTool'
import { guardedFetch, mendingStdio, readResult } from './McpWireGuard'
import { StderrTail } from './StderrTail'
import { withoutSecrets } from './McpOffered'
import { McpClientFeatures } from '../../core/mcp/McpClientFeatures'
import { McpServerRequests } from '../../core/mcp/McpServerRequests'
import { McpCallScopes, serveServerRequests } from './McpServerRequestHandlers'

// Server answers are untrusted and checked field by field by the core (McpToolInfo.read, McpContent.toResult):
// the SDK's strict result schemas would reject a whole listing for one odd tool, or a whole result for one odd block.
const LenientList = z.looseObject({ tools: z.array(z.unknown()).optional(), nextCursor: z.string().optional() })
const LenientCall = z.looseObject({})
/** Pages of tools/list followed at most. */
const MAX_LIST_PAGES = 100
/** The SDK's own request timeout, out of the way: the registry's tool timeout governs (and aborts). */
const NO_SDK_TIMEOUT = 2_147_483_647
/** What servers answer a request whose session they no longer know (404 per the spec, 400 the SDK's usual server, 410). */
const LOST_SESSION_STATUSES = [400, 404, 410]

/** An MCP server (stdio or Streamable HTTP, through the official SDK) as a source of tools under the runtime's hooks and approvals (docs/mcp.md). */
export class McpToolSource {
  readonly spec: McpServerSpec
  private readonly rules: McpToolRules
  private client?: Client
  private connecting?: Promise<Client>
  private closed = false
  private syncs: Promise<void> = Promise.resolve()
  /** The Streamable HTTP transport of the open connection (its session is ended at close). */
  private http?: StreamableHTTPClientTransport
  private changes = 0
  /** Calls timed out on this connection since its last answer: two in a row restart a stdio server even with others running. */
  private timeouts = 0
  private listedChanges = 0
  /** Connections made: a listing is of one of them. */
  private connections = 0
  /** Bumped by every invalidation of the listing cache. */
  private listVersion = 0
  private cached?: { tools: AgentTool[], skipped: McpSkippedTool[], at: number, version: number, changes: number, connection: number }
  private skipped: McpSkippedTool[] = []
  /** A URL server's fetch, holding the checked copy of its headers (no field an inspect would print). */
  private readonly fetchFn?: FetchLike
  private readonly auth?: OAuthClientProvider
  /** What the server may ask of this client (only what the spec configured), and the calls it may ask during. */
  private readonly requests: McpServerRequests
  private readonly calls = new McpCallScopes()

  constructor(spec: McpServerSpec) {
    checkSpec(spec)
    if ((spec.command === undefined) === (spec.url === undefined)) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, `MCP server '${spec.name}': give a command or a url`,
        ErrorRetryability.never)
    }
    McpNames.checkServer(spec.name)
    // Risk overrides and the filter, checked here (invalid_config) and applied to every listing.
    this.rules = new McpToolRules(`MCP server '${spec.name}'`, spec.risk, spec.filter, spec.concurrency)
    this.requests = new McpServerRequests(spec.name, McpClientFeatures.of(`MCP server '${spec.name}'`, spec.elicitation,
      spec.sampling, spec.roots))
    // Header values are secrets from here on; a later change to the spec's object is not sent (nor unregistered).
    const headers = registeredHeaders(spec.headers)
    // Answers the SDK would drop or wait on forever (a result that is not an object, a stream broken before its answer) made readable.
    this.fetchFn = spec.url !== undefined ? guardedFetch(urlFetch(headers, new URL(spec.url)), new URL(spec.url)) : undefined
    this.auth = spec.authProvider !== undefined ? guarded(spec.authProvider) : undefined
    // What `spec` shows (a log, an inspect) holds no credential: header names only, the provider as the SDK sees it.
    const shown: McpServerSpec = { ...spec }
    if (spec.headers !== undefined) shown.headers = Object.fromEntries(Object.keys(headers).map((k) => [k, '[redacted]']))
    if (this.auth !== undefined) shown.authProvider = this.auth
    this.spec = shown
  }

  /** The server said its tool list changed (`notifications/tools/list_changed`) since the last successful listing. */
  get listChanged(): boolean {
    return this.changes !== this.listedChanges
  }

  /** Connects (once; again after a failure), returning the client. */
  private connect(): Promise<Client> {
    if (this.closed) return Promise.reject(new ArkAgentError(ErrorLayer.tool, ErrorCodes.toolExecutionFailed,
      `MCP server '${this.spec.name}' was closed`, ErrorRetryability.never))
    if (this.client !== undefined) return Promise.resolve(this.client)
    this.connecting ??= (async () => {
      // Capabilities only for what the spec configured: a server offers its elicitation, sampling or roots tools only then.
      const client = new Client({ name: 'arkagent', version: '0.1.0' }, { capabilities: this.requests.features.capabilities() })
      serveServerRequests(client, this.requests, this.calls)
      const transport = this.spec.url !== undefined
        ? this.httpTransport(new URL(this.spec.url))
        : mendingStdio(new StdioClientTransport({ command: this.spec.command as string, args: this.spec.args ?? [], env: this.spec.env, stderr: 'pipe' }))
      const stderr = new StderrTail(transport instanceof StdioClientTransport ? transport.stderr : null)
      transport.onclose = () => { if (this.client === client) this.client = undefined }
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => { this.changes++ })
      try {
        await client.connect(transport)
      } catch (e) {
        throw this.failure('connecting', e, stderr.shown().length > 0 ? ` (the server's stderr: ${stderr.shown()})` : '')
      } finally {
        this.connecting = undefined
      }
      if (this.closed) {
        // close() ran while this connect was under way: it must not leave a server (or a session) running.
        if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => {})
        await client.close().catch(() => {})
        throw new ArkAgentError(ErrorLayer.tool, ErrorCodes.toolExecutionFailed, `MCP server '${this.spec.name}' was closed`,
          ErrorRetryability.never)
      }
      this.client = client
      this.http = transport instanceof StreamableHTTPClientTransport ? transport : undefined
      this.connections++
      return client
    })()
    return this.connecting
  }

  private httpTransport(url: URL): StreamableHTTPClientTransport {
    return new StreamableHTTPClientTransport(url, { authProvider: this.auth, fetch: this.fetchFn })
  }

  /**
   * What the SDK threw (a StreamableHTTPError may carry the server's body, an McpError its `data`),
   * as an ArkAgentError naming the server: redacted where it is made, a raw cause kept only if clean.
   */
  private failure(doing: string, e: unknown, stderr = ''): ArkAgentError {
    const known = ArkAgentError.asArkError(e as Object)
    if (known !== undefined) return known
    const code = is(e, StreamableHTTPError) ? (e as StreamableHTTPError).code : undefined
    const status = typeof code === 'number' && code > 0 ? code : undefined
    return new ArkAgentError(ErrorLayer.tool, ErrorCodes.toolExecutionFailed,
      `MCP server '${this.spec.name}': ${doing} failed${status !== undefined ? ` (HTTP ${status})` : ''}: ${describeChain(e)}${stderr}`,
      retryabilityOf(e, status), safeCause(e))
  }

  /**
   * Drops the connection a failed call used: the next call connects again (a stdio server is started
   * again). Only that connection: a late failure of a call on an old connection never closes the new one.
   */
  private drop(client: Client | undefined): void {
    if (client === undefined) return
    if (this.client === client) [this.client, this.timeouts] = [undefined, 0]
    void client.close().catch(() => {})
  }

  /**
   * The server's tools as AgentTools named `<server>__<tool>` (McpNames: valid, unique, the same name
   * for the same tool whatever the listing order). Every page of the listing is followed; a tool
   * without a name, with an input schema that is not an object, or with one the core's JSON Schema
   * validator refuses (an unsupported keyword, a remote `$ref`, a pattern the regex engine refuses)
   * is left out and reported in `skippedTools` — never offered with a schema checked weaker than it says.
   */
  async tools(): Promise<AgentTool[]> {
    const cached = this.cached
    const maxAge = this.spec.listCacheMs
    if (cached !== undefined && cached.version === this.listVersion && cached.changes === this.changes &&
      cached.connection === this.connections && (maxAge === undefined || Date.now() - cached.at < maxAge)) {
      this.skipped = cached.skipped.slice()
      return cached.tools.slice()
    }
    const listed = await this.listing()
    this.listedChanges = Math.max(this.listedChanges, listed.seen)
    return listed.tools
  }

  /**
   * Drops the cached listing: the next `tools()` asks the server again (a list_changed notification
   * and a new connection do the same by themselves; `syncInto` always asks).
   */
  invalidateTools(): void {
    this.listVersion++
    this.cached = undefined
  }

  /** The tools the latest complete listing left out, and why (name, reason, refused keyword). */
  get skippedTools(): McpSkippedTool[] {
    return this.skipped.slice()
  }

  /**
   * The tools, and the change count the listing answers (a notification during it is kept for later).
   * A lost session (HTTP 400/404/410 to a request that carried one) is reconnected and listed once more.
   */
  private async listing(retried = false): Promise<{ tools: AgentTool[], seen: number }> {
    const client = await this.connect()
    const seen = this.changes
    const connection = this.connections
    const version = this.listVersion
    const infos: McpToolInfo[] = []
    const skipped: McpSkippedTool[] = []
    let cursor: string | undefined
    let own: ArkAgentError | undefined
    try {
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const listed = await client.request({ method: 'tools/list', params: cursor !== undefined ? { cursor } : {} }, LenientList)
        const read = readResult(listed)
        if (read.lost !== undefined) throw (own = this.lostAnswer('listing tools', read.lost, client))
        if (read.value === null || typeof read.value !== 'object' || Array.isArray(read.value)) {
          throw own = new ArkAgentError(ErrorLayer.tool, ErrorCodes.toolExecutionFailed, `MCP server '${this.spec.name}': listing tools ` +
            `failed: the server answered with ${McpContent.kindOf(read.value as Object)} instead of a result object`, ErrorRetryability.never)
        }
        for (const raw of listed.tools ?? []) {
          const read = withoutSecrets(McpToolInfo.read(raw as Object))
          if (read instanceof McpToolInfo) infos.push(read)
          else skipped.push(read)
        }
        cursor = listed.nextCursor
        if (cursor === undefined || cursor.length === 0) break
      }
    } catch (e) {
      if (own !== undefined && e === own) throw own
      if (!retried && this.lostSession(e, client)) {
        this.drop(client)
        return this.listing(true)
      }
      if (!isAnswer(e)) this.drop(client)
      throw this.failure('listing tools', e)
    }
    const offered = this.rules.apply(infos, skipped)
    this.skipped = skipped
    const names = McpNames.assign(this.spec.name, offered.map((i) => i.name))
    const tools: AgentTool[] = []
    offered.forEach((info, i) => {
      if (names[i].length === 0) return
      tools.push(new McpTool(this, info.name, McpTool.definitionFor(names[i], info, this.spec)))
    })
    // Cached only when nothing made it stale while it ran (an invalidation, a new connection).
    if (this.spec.listCacheMs !== 0 && version === this.listVersion && connection === this.connections) {
      this.cached = { tools: tools.slice(), skipped: skipped.slice(), at: Date.now(), version, changes: seen, connection }
    }
    return { tools, seen }
  }

  /**
   * Whether `e` says the server no longer knows the session `client` used (it was restarted, or
   * dropped it): the request was refused before it ran, so it may be sent once more on a new connection.
   */
  private lostSession(e: unknown, client: Client | undefined): boolean {
    if (client === undefined || !is(e, StreamableHTTPError)) return false
    const transport = client.transport
    return LOST_SESSION_STATUSES.includes((e as StreamableHTTPError).code ?? 0) &&
      transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined
  }

  /** An answer lost with its stream (the server died mid-request): the connection is dropped, the next call reconnects. */
  private lostAnswer(doing: string, why: string, client: Client): ArkAgentError {
    this.drop(client)
    return new ArkAgentError(ErrorLayer.tool, ErrorCodes.toolExecutionFailed,
      `MCP server '${this.spec.name}': ${doing} failed: the connection was lost (${why}); the next call reconnects`,
      ErrorRetryability.retryable)
  }

  /** Registers every tool of the server; returns their names. */
  async register(registry: ToolRegistry): Promise<string[]> {
    const tools = await this.tools()
    const clash = tools.find((t) => registry.get(t.definition.name) !== undefined)
    if (clash !== undefined) registry.register(clash) // throws: already registered, nothing half-done
    for (const t of tools) registry.register(t)
    return tools.map((t) => t.definition.name)
  }

  /**
   * Brings `registry` in line with the server's current list: new tools registered, vanished ones
   * removed, tools whose definition changed (risk, schema, description) replaced. Only this source's
   * tools are touched (however they were registered); a new tool whose name another tool already
   * holds is left out and reported in `clashed` (the rest is applied). Syncs run one at a time, so an
   * older listing is never applied over a newer one. `listChanged` is cleared only once a sync applied.
   */
  syncInto(registry: ToolRegistry): Promise<{ added: string[], removed: string[], updated: string[], clashed: string[] }> {
    const next = this.syncs.then(() => this.syncNow(registry))
    this.syncs = next.then(() => undefined, () => undefined)
    return next
  }

  private async syncNow(registry: ToolRegistry): Promise<{ added: string[], removed: string[], updated: string[], clashed: string[] }> {
    const { tools, seen } = await this.listing()
    const now = new Map(tools.map((t) => [t.definition.name, t] as const))
    const mine = new Map<string, McpTool>()
    for (const d of registry.definitions()) {
      const t = registry.get(d.name)
      if (t instanceof McpTool && t.source === this) mine.set(d.name, t)
    }
    const removed: string[] = []
    const updated: string[] = []
    const added: string[] = []
    const clashed: string[] = []
    for (const [name, old] of mine) {
      const t = now.get(name)
      if (t === undefined) {
        registry.unregister(name)
        removed.push(name)
      } else if (McpTool.signature(t) !== McpTool.signature(old)) {
        registry.unregister(name)
        registry.register(t)
        updated.push(name)
      }
    }
    for (const t of tools) {
      const name = t.definition.name
      if (mine.has(name)) continue
      if (registry.get(name) !== undefined) {
        clashed.push(name)
        continue
      }
      registry.register(t)
      added.push(name)
    }
    this.listedChanges = Math.max(this.listedChanges, seen)
    return { added, removed, updated, clashed }
  }

  /**
   * A hook that applies a changed tool list before the next model call — between turns, never in
   * the middle of a batch (batches run after the model answered). The request being built keeps the
   * list it was made with; the next turn offers the new one.
   */
  refreshHook(registry: ToolRegistry): AgentHook {
    return new McpRefreshHook(this, registry)
  }

  /**
   * Calls a tool. The answer's content becomes typed parts (text, image, audio, resource, json); an
   * `isError` answer, or a `result` that is not an object, is an error-flagged result; malformed
   * content is said in a text part. A JSON-RPC error answer fails the call and keeps the connection; a
   * transport failure — the answer's stream broken by a server that died — fails it at once and drops
   * the connection, and the next call connects again. A lost session (the server was restarted) is
   * reconnected and the call sent once more. A timeout or cancellation drops a stdio connection (a hung
   * server is restarted), not an HTTP one (other calls may be in flight on it).
   */
  async call(tool: string, args: Record<string, Object>, context: ToolExecutionContext): Promise<ToolResult> {
    const controller = new AbortController()
    const off = context.token.onCancel(() => controller.abort())
    const leave = this.calls.enter(context)
    try {
      for (let attempt = 0; ; attempt++) {
        let result: Record<string, unknown>
        let client: Client | undefined
        try {
          client = await this.connect()
          result = await client.request({ method: 'tools/call', params: { name: tool, arguments: args } }, LenientCall,
            { signal: controller.signal, timeout: NO_SDK_TIMEOUT })
        } catch (e) {
          // A session the server no longer knows (it was restarted): refused before the tool ran, so
          // sent once more on a new connection.
          if (attempt === 0 && !controller.signal.aborted && this.lostSession(e, client)) {
            this.drop(client)
            continue
          }
          // A hung stdio server is restarted when no other call runs on it, or at its second timeout in a row;
          // over HTTP a cancelled request says nothing of the connection, and dropping it would fail others.
          const hung = controller.signal.aborted && this.spec.command !== undefined && (this.calls.count() <= 1 || ++this.timeouts >= 2)
          if (controller.signal.aborted ? hung : !isAnswer(e)) this.drop(client)
          throw this.failure(`calling '${tool}'`, e)
        }
        const read = readResult(result)
        this.timeouts = 0
        // The stream broke before the answer (the server died): the tool may or may not have run, so never sent again.
        if (read.lost !== undefined) throw this.lostAnswer(`calling '${tool}'`, read.lost, client)
        return Redactor.toolResult(McpContent.toResult(context.call.id, tool, read.value as Object))
      }
    } finally {
      off()
      leave()
    }
  }

  async close(): Promise<void> {
    this.closed = true
    const pending = this.connecting
    if (pending !== undefined) await pending.catch(() => undefined)
    const client = this.client
    const http = this.http
    this.client = undefined
    this.http = undefined
    // An HTTP server keeps a session until told: end it (best effort), then close.
    if (http !== undefined) await http.terminateSession().catch(() => {})
    if (client !== undefined) await client.close().catch((e: unknown) => { throw this.failure('closing', e) })
  }
}
