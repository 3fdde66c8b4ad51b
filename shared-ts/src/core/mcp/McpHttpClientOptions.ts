import { ToolConcurrency, ToolRiskLevel } from '../model/ToolDefinition'
import { McpElicitationHandler, McpSamplingHandler } from './McpClientFeatures'
import { McpToolFilter } from './McpToolRules'

/**
 * The headers of one connection, resolved when it is made (each initialize handshake): read them
 * from a key store (the HAR's Asset Store) so a rotated token is picked up by the next connection.
 */
export type McpHeaderProvider = () => Promise<Map<string, string>>

/** Options of McpHttpClient. */
export interface McpHttpClientOptions {
  /** Extra request headers (an API key: `authorization`). */
  headers?: Map<string, string>
  /**
   * Headers resolved per connection (on top of `headers`): called before each initialize handshake —
   * the first, and again after a lost session or a 401 — never taken from the URL. Every value is a
   * secret (SecretVault) from the moment it is returned.
   */
  headerProvider?: McpHeaderProvider
  /** How long the shared initialize handshake may take, in ms (default 30,000). */
  initializeTimeoutMs?: number
  /**
   * How long one request (a listing, a call) may take, in ms, whatever its caller's token says
   * (default 60,000; 0: only the caller's token). A tool registry's own timeout is usually shorter.
   */
  requestTimeoutMs?: number
  /** Longest answer read, in characters (default 16 Mi); a longer one fails its request. */
  maxAnswerChars?: number
  /** Risk per tool (the server's own spelling) over what its annotations say, as McpServerSpec.risk. */
  risk?: Record<string, ToolRiskLevel>
  /** Which tools are offered (allow, block, predicate), as McpServerSpec.filter. */
  filter?: McpToolFilter
  /** Per tool (the server's own spelling): 'serial' or 'concurrent', over what its annotations say (readOnlyHint → concurrent). */
  concurrency?: Record<string, ToolConcurrency>
  /**
   * How long a listing is reused, in ms (default: until invalidated — `invalidateTools()`, a
   * tools/list_changed seen, a new session; 0: every `listTools` asks the server).
   */
  listCacheMs?: number
  /** How the server is named where it asks the user something (default: the URL's host); e.g. the tool prefix. */
  name?: string
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
