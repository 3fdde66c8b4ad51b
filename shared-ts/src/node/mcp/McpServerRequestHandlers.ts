// The server talking back (Node): the official SDK's client answers a server's elicitation, sampling and
// roots requests through the core's McpServerRequests — the same checks and answers as the core client.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js'
import { McpServerRequests } from '../../core/mcp/McpServerRequests'
import { ToolExecutionContext } from '../../core/tools/AgentTool'
import { CancellationSource, CancellationToken } from '../../core/util/Cancellation'
import { tokenFromAbortSignal } from '../transport/AbortSignalBridge'

/** The tool calls in flight on one source: what the server asks during a call belongs to it and ends with it. */
export class McpCallScopes {
  private readonly open = new Map<ToolExecutionContext, CancellationSource>()

  /** A call starts; the returned function ends it (and whatever the server asked during it). */
  enter(context: ToolExecutionContext): () => void {
    const scope = CancellationSource.linked([context.token])
    this.open.set(context, scope)
    return () => {
      this.open.delete(context)
      scope.cancel('the tool call ended')
      scope.dispose()
    }
  }

  /** How many tool calls are in flight on this connection. */
  count(): number {
    return this.open.size
  }

  /** The only call in flight (a request during several cannot be told apart: none). */
  only(): { id: string, token: CancellationToken } | undefined {
    if (this.open.size !== 1) return undefined
    const [context, scope] = [...this.open.entries()][0]
    return { id: context.call.id, token: scope.token }
  }
}

/**
 * Installs a handler for each request the app configured (and declared as a capability): elicitation,
 * sampling, roots. A request belongs to the tool call in flight on this connection when there is exactly
 * one (its id is shown with the question; its end — an answer, the tool timeout, the run's cancel — ends
 * the request); the server's own cancellation ends it too. Every failure is a JSON-RPC error (McpError).
 */
export function serveServerRequests(client: Client, requests: McpServerRequests, calls: McpCallScopes): void {
  const handle = async (method: string, params: unknown, signal: AbortSignal): Promise<Record<string, unknown>> => {
    if (method !== 'roots/list' && calls.count() === 0) {
      // As with the core client (which hears a server only inside a call's answer): a question or a
      // sampling request that arrives when no tool call is in flight — its call already answered — is
      // refused, never left waiting for a user with no run to continue.
      throw new McpError(-32600, `${method} is answered only while one of this server's tool calls is in flight`)
    }
    const call = calls.only()
    const source = CancellationSource.linked(call !== undefined ? [call.token, tokenFromAbortSignal(signal)] : [tokenFromAbortSignal(signal)])
    try {
      return await requests.handle(method, params as Object | undefined, call !== undefined ? call.id : '', source.token)
    } catch (e) {
      const rpc = McpServerRequests.asRpcError(e as Object)
      throw new McpError(rpc.code, rpc.message)
    } finally {
      source.dispose()
    }
  }
  const features = requests.features
  if (features.elicitation !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) =>
      await handle('elicitation/create', request.params, extra.signal) as never)
  }
  if (features.sampling !== undefined) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) =>
      await handle('sampling/createMessage', request.params, extra.signal) as never)
  }
  if (features.hasRoots) {
    client.setRequestHandler(ListRootsRequestSchema, async (request, extra) =>
      await handle('roots/list', request.params, extra.signal) as never)
  }
}
