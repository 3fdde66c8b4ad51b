// What names an MCP server (McpServerSpec) and the checks made where one is given: every option's
// type and value, credentials only for URL servers and never echoed.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { McpToolFilter } from '../../core/mcp/McpToolRules'
import type { McpElicitationHandler, McpSamplingHandler } from '../../core/mcp/McpClientFeatures'
import { ToolConcurrency, ToolRiskLevel } from '../../core/model/ToolDefinition'
import { ConfigCheck } from '../../core/util/ConfigCheck'

/** One MCP server: a command (stdio) or a URL (Streamable HTTP). */
export interface McpServerSpec {
  /** Prefix of the tool names (`<name>__<tool>`): 1-24 letters, digits or '-'. */
  name: string
  command?: string
  args?: string[]
  env?: Record<string, string>
  url?: string
  /**
   * Headers sent with every request to a `url` server's origin (an API key, `authorization: Bearer ...`);
   * never to another origin (an OAuth authorization server). Every value is a secret (SecretVault).
   */
  headers?: Record<string, string>
  /** OAuth for a `url` server (the SDK's provider); every token and client secret it hands out is a secret. */
  authProvider?: OAuthClientProvider
  /** Risk per MCP tool name (the server's spelling), over what the annotations say. */
  risk?: Record<string, ToolRiskLevel>
  /** 'serial' or 'concurrent' per MCP tool name, over what the annotations say (readOnlyHint → concurrent; docs/tools.md). */
  concurrency?: Record<string, ToolConcurrency>
  /** At most this many calls of the server's concurrent tools at once (default 4). */
  maxConcurrentCalls?: number
  /**
   * Which tools are offered, by the server's spelling: `allow` (only these), `block` (never these), a
   * `predicate` (kept when it answers true; it sees the final risk) — before tools reach a registry or a model.
   */
  filter?: McpToolFilter
  /**
   * How long a listing is reused by `tools()`, in ms (default: until invalidated — `invalidateTools()`,
   * a tools/list_changed notification, a new connection; 0: every `tools()` asks the server).
   */
  listCacheMs?: number
  /**
   * Lets the server ask the user for input (`elicitation/create`): declared as a capability only when
   * given. Pass `controller.serverRequests`: the question is persisted and answered through the controller.
   */
  elicitation?: McpElicitationHandler
  /**
   * Lets the server ask for a model answer (`sampling/createMessage`): declared only when given. Pass
   * `controller.serverRequests`: the runtime's provider and hooks, under its `samplingPolicy` (ask by default).
   */
  sampling?: McpSamplingHandler
  /** The directories the server may work in, as `file:///` URIs (`roots/list`); none and no capability when absent. */
  roots?: string[]
}

const SPEC_NAMES = ['name', 'command', 'args', 'env', 'url', 'headers', 'authProvider', 'risk', 'concurrency',
  'maxConcurrentCalls', 'filter', 'listCacheMs',
  'elicitation', 'sampling', 'roots']
/** RFC 9110 token: what a header name is made of. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
/** Headers the transport sets itself: a spec's own would break the session, the body or the stream. */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'content-length', 'host', 'connection', 'transfer-encoding',
  'mcp-session-id', 'mcp-protocol-version', 'last-event-id']

/** `headers` and `authProvider`: for a url server only, well-formed; no error shows a value. */
export function checkAuth(spec: McpServerSpec, name: string): void {
  if (spec.headers === undefined && spec.authProvider === undefined) return
  if (spec.command !== undefined) {
    throw ConfigCheck.invalid(`MCP server '${name}': headers and authProvider are for a url (Streamable HTTP) server; ` +
      'this server has a command (give it its credentials in env)')
  }
  const seen = new Set<string>()
  if (spec.headers !== undefined) {
    if (spec.headers === null || typeof spec.headers !== 'object' || Array.isArray(spec.headers)) {
      throw ConfigCheck.invalid(`MCP server '${name}': headers must map header names to strings`)
    }
    for (const [k, v] of Object.entries(spec.headers)) {
      if (!TOKEN.test(k)) {
        throw ConfigCheck.invalid(`MCP server '${name}': a header name is not an RFC 9110 token (letters, digits and ` +
          "!#$%&'*+.^_`|~-); it is not shown")
      }
      const lower = k.toLowerCase()
      if (seen.has(lower)) throw ConfigCheck.invalid(`MCP server '${name}': header '${k}' is given twice (names are case-insensitive)`)
      if (TRANSPORT_HEADERS.includes(lower)) throw ConfigCheck.invalid(`MCP server '${name}': header '${k}' is set by the MCP transport itself`)
      seen.add(lower)
      if (typeof v !== 'string' || /[^\t\x20-\x7e\x80-\xff]/.test(v)) {
        throw ConfigCheck.invalid(`MCP server '${name}': header '${k}' needs a string value without CR, LF, NUL or other ` +
          'control characters, of characters up to U+00FF (the value is not shown)')
      }
    }
  }
  if (spec.authProvider !== undefined) {
    ConfigCheck.implementing(spec.authProvider as Object, ['tokens'], `MCP server '${name}': authProvider`)
    if (seen.has('authorization')) {
      throw ConfigCheck.invalid(`MCP server '${name}': give an authorization header or an authProvider, not both`)
    }
  }
}

/** The spec's shape and values, checked before anything starts; no error echoes a URL's credentials or an env value. */
export function checkSpec(spec: McpServerSpec): void {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    throw ConfigCheck.invalid(`An MCP server spec must be an object; got ${ConfigCheck.show(spec as Object)}`)
  }
  const name = typeof spec.name === 'string' ? spec.name.replace(/[^A-Za-z0-9-]/g, '?').slice(0, 24) : '?'
  for (const key of Object.keys(spec)) {
    if (!SPEC_NAMES.includes(key)) {
      throw ConfigCheck.invalid(`MCP server '${name}': unknown option ${JSON.stringify(key.slice(0, 64))}; known options are ${SPEC_NAMES.join(', ')}`)
    }
  }
  if (spec.command !== undefined) ConfigCheck.text(spec.command, `MCP server '${name}': command`, 1, 4096)
  if (spec.args !== undefined) {
    if (!Array.isArray(spec.args)) throw ConfigCheck.invalid(`MCP server '${name}': args must be an array of strings`)
    spec.args.forEach((a, i) => ConfigCheck.text(a, `MCP server '${name}': args[${i}]`, 0, 100000))
    if (spec.command === undefined) throw ConfigCheck.invalid(`MCP server '${name}': args are for a command; this server has a url`)
  }
  if (spec.env !== undefined) {
    if (spec.env === null || typeof spec.env !== 'object' || Array.isArray(spec.env)) {
      throw ConfigCheck.invalid(`MCP server '${name}': env must map variable names to strings`)
    }
    for (const [k, v] of Object.entries(spec.env)) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) || typeof v !== 'string' || v.includes('\u0000')) {
        throw ConfigCheck.invalid(`MCP server '${name}': env ${JSON.stringify(k.slice(0, 64))} needs a name of letters, digits ` +
          'and _ and a string value without NUL (the value is not shown)')
      }
    }
    if (spec.command === undefined) throw ConfigCheck.invalid(`MCP server '${name}': env is for a command; this server has a url`)
  }
  if (spec.url !== undefined) {
    if (typeof spec.url !== 'string') throw ConfigCheck.invalid(`MCP server '${name}': url must be a string`)
    let url: URL
    try {
      url = new URL(spec.url)
    } catch {
      throw ConfigCheck.invalid(`MCP server '${name}': url is not an absolute URL`)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw ConfigCheck.invalid(`MCP server '${name}': url must be http:// or https://`)
    }
    if (url.username !== '' || url.password !== '') {
      throw ConfigCheck.invalid(`MCP server '${name}': url must not carry credentials (user:password@); they are not shown here`)
    }
  }
  if (spec.listCacheMs !== undefined) ConfigCheck.number(spec.listCacheMs, 0, Number.MAX_SAFE_INTEGER, `MCP server '${name}': listCacheMs (ms)`)
  if (spec.maxConcurrentCalls !== undefined) ConfigCheck.count(spec.maxConcurrentCalls, 1, `MCP server '${name}': maxConcurrentCalls`, 1024)
  checkAuth(spec, name)
}

