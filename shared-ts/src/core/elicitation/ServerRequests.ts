import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { McpElicitationHandler, McpSamplingHandler } from '../mcp/McpClientFeatures'
import { McpElicitationAnswer, McpElicitationRequest } from '../mcp/McpElicitation'
import { McpSamplingAnswer, McpSamplingRequest } from '../mcp/McpSampling'
import { McpRpcError } from '../mcp/McpServerRequests'
import { CancellationToken } from '../util/Cancellation'
import { ElicitationAction, ElicitationDecisionResult, PendingElicitation } from '../state/PendingElicitation'
import { ServerRequestHost } from './ServerRequestHost'

/**
 * `controller.serverRequests`: where MCP servers' requests meet the user. Give it to an MCP client as its
 * `elicitation` and/or `sampling` handler; the UI lists what waits (`pending()`, or the
 * `elicitation.required` event) and answers with `accept` / `decline` / `cancel`. Holds no state: it
 * routes to the runtime bound to the controller; without one, a server's request is answered with an error.
 */
export class ServerRequests implements McpElicitationHandler, McpSamplingHandler {
  private host?: ServerRequestHost

  /** Called by the runtime that owns the state. */
  bindHost(host: ServerRequestHost): void {
    this.host = host
  }

  unbindHost(host: ServerRequestHost): void {
    if (this.host === host) {
      this.host = undefined
    }
  }

  // ---- the MCP clients' side ----

  elicit(request: McpElicitationRequest, token: CancellationToken): Promise<McpElicitationAnswer> {
    const host = this.host
    if (host === undefined) {
      return Promise.reject(ServerRequests.noRuntime())
    }
    return host.elicit(request, token)
  }

  createMessage(request: McpSamplingRequest, token: CancellationToken): Promise<McpSamplingAnswer> {
    const host = this.host
    if (host === undefined) {
      return Promise.reject(ServerRequests.noRuntime())
    }
    return host.createMessage(request, token)
  }

  // ---- the user's side ----

  /** What waits for the user (server questions and sampling requests), as copies. */
  pending(): PendingElicitation[] {
    const host = this.host
    return host === undefined ? [] : host.pendingElicitations()
  }

  /**
   * Accepts: for a question, with `content` matching its requested schema (checked by the core's
   * validator; a mismatch is refused with `elicitation_invalid` and the question stays open); for a
   * sampling request, allows it (content is ignored).
   */
  accept(elicitationId: string, content?: Record<string, Object>): Promise<ElicitationDecisionResult> {
    return this.answer(elicitationId, ElicitationAction.accept, content)
  }

  decline(elicitationId: string, reason?: string): Promise<ElicitationDecisionResult> {
    return this.answer(elicitationId, ElicitationAction.decline, undefined, reason)
  }

  cancel(elicitationId: string): Promise<ElicitationDecisionResult> {
    return this.answer(elicitationId, ElicitationAction.cancel)
  }

  private async answer(elicitationId: string, action: ElicitationAction, content?: Record<string, Object>,
    reason?: string): Promise<ElicitationDecisionResult> {
    const host = this.host
    if (host === undefined) {
      return ElicitationDecisionResult.failure(typeof elicitationId === 'string' ? elicitationId : '', new ArkAgentError(
        ErrorLayer.runtime, ErrorCodes.approvalHostMissing, 'No runtime is bound to this controller for elicitation answers',
        ErrorRetryability.never))
    }
    return host.answerElicitation(elicitationId, action, content, reason)
  }

  private static noRuntime(): McpRpcError {
    return new McpRpcError(McpRpcError.internalError, 'No agent runtime is bound to take this request; nobody was asked')
  }
}
