import { McpElicitationAnswer, McpElicitationRequest } from '../mcp/McpElicitation'
import { McpSamplingAnswer, McpSamplingRequest } from '../mcp/McpSampling'
import { CancellationToken } from '../util/Cancellation'
import { ElicitationAction, ElicitationDecisionResult, PendingElicitation } from '../state/PendingElicitation'

/** The one-way bridge from `controller.serverRequests` to the runtime that owns the state (as ApprovalHost). */
export interface ServerRequestHost {
  elicit(request: McpElicitationRequest, token: CancellationToken): Promise<McpElicitationAnswer>
  createMessage(request: McpSamplingRequest, token: CancellationToken): Promise<McpSamplingAnswer>
  pendingElicitations(): PendingElicitation[]
  answerElicitation(elicitationId: string, action: ElicitationAction, content?: Record<string, Object>,
    reason?: string): Promise<ElicitationDecisionResult>
}
