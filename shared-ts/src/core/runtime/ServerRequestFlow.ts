import { ArkAgentError, ErrorCodes, ErrorLayer } from '../errors/ArkAgentError'
import { Thrown } from '../errors/Thrown'
import { McpElicitationAnswer, McpElicitationRequest } from '../mcp/McpElicitation'
import { McpSamplingAnswer, McpSamplingRequest } from '../mcp/McpSampling'
import { McpRpcError, McpServerRequests } from '../mcp/McpServerRequests'
import { RunContext } from './RunContext'
import { RuntimeServices } from './RuntimeServices'
import { StatePersister } from './StatePersister'
import { SessionStatus } from '../state/AgentState'
import { CancellationSource, CancellationToken } from '../util/Cancellation'
import { SamplingCompletedEvent, SamplingOutcome } from '../events/ElicitationEvents'
import { ElicitationFlow } from './ElicitationFlow'
import { ElicitationAction, ElicitationDecisionResult, ElicitationKind, PendingElicitation } from '../state/PendingElicitation'
import { SamplingCall } from './SamplingCall'
import { SamplingPolicy } from '../elicitation/SamplingPolicy'
import { ServerRequestHost } from '../elicitation/ServerRequestHost'

/**
 * The runtime's side of MCP servers' requests (bound to `controller.serverRequests`). Both need a run of
 * this runtime in progress (a server asks while one of its tool calls runs): outside a run they are
 * refused. Elicitation: ElicitationFlow. Sampling: the policy (`AgentRuntimeConfig.samplingPolicy`: ask
 * by default), at most `maxTurns` sampling calls per run, then SamplingCall on the runtime's provider.
 */
export class ServerRequestFlow implements ServerRequestHost {
  private readonly s: RuntimeServices
  private readonly flow: ElicitationFlow
  private readonly sampler: SamplingCall
  /** Sampling calls made per run (only the active run's is kept). */
  private samplingRun: string = ''
  private samplingCalls: number = 0

  constructor(services: RuntimeServices, persister: StatePersister) {
    this.s = services
    this.flow = new ElicitationFlow(services, persister)
    this.sampler = new SamplingCall(services)
  }

  async elicit(request: McpElicitationRequest, token: CancellationToken): Promise<McpElicitationAnswer> {
    const run = this.activeRun('elicitation')
    // Checked again here: the request may come from any client, not only the core's router.
    McpServerRequests.requestedSchema(JSON.parse(request.requestedSchemaJson) as Object)
    const linked = CancellationSource.linked([token, run.token])
    try {
      const outcome = await this.flow.ask(run, ElicitationKind.input, request.server, request.message,
        request.requestedSchemaJson, request.toolCallId, linked.token)
      const action = outcome.elicitation.action
      if (action === ElicitationAction.accept) {
        return McpElicitationAnswer.accept(outcome.content !== undefined ? outcome.content : new Object() as Record<string, Object>)
      }
      return action === ElicitationAction.decline ? McpElicitationAnswer.decline() : McpElicitationAnswer.cancel()
    } finally {
      linked.dispose()
    }
  }

  async createMessage(request: McpSamplingRequest, token: CancellationToken): Promise<McpSamplingAnswer> {
    const current = this.s.currentRun
    const runId = current !== undefined ? current.runId : ''
    const policy = this.s.config.samplingPolicy
    if (policy === SamplingPolicy.deny) {
      throw this.denied(runId, request, McpRpcError.userRejected, 'sampling is denied by the app\'s policy')
    }
    const run = this.activeRun('sampling')
    if (this.samplingRun !== run.runId) {
      this.samplingRun = run.runId
      this.samplingCalls = 0
    }
    const limit = this.s.config.maxTurns
    if (this.samplingCalls >= limit) {
      throw this.denied(runId, request, McpRpcError.internalError, `the run reached its limit of ${limit} sampling calls`)
    }
    const linked = CancellationSource.linked([token, run.token])
    try {
      if (policy !== SamplingPolicy.allow) {
        const outcome = await this.flow.ask(run, ElicitationKind.sampling, request.server, request.describe(), '',
          request.toolCallId, linked.token)
        if (outcome.elicitation.action !== ElicitationAction.accept) {
          throw this.denied(runId, request, McpRpcError.userRejected, `the user did not allow the sampling request (${
            outcome.elicitation.action})`)
        }
      }
      // Counted when the model is called: a run makes at most maxTurns of them, whatever the servers ask
      // (checked again: other requests may have been allowed while this one waited for the user).
      if (this.samplingRun !== run.runId || this.samplingCalls >= limit) {
        throw this.denied(runId, request, McpRpcError.internalError, `the run reached its limit of ${limit} sampling calls`)
      }
      this.samplingCalls++
      let answer: McpSamplingAnswer
      try {
        answer = await this.sampler.call(run, request, linked.token)
      } catch (e) {
        const error = ArkAgentError.from(e as Object, ErrorLayer.provider, ErrorCodes.providerError, 'The sampling call failed')
        this.s.publish(run, new SamplingCompletedEvent(this.s.sessionId, run.runId, request.server, request.toolCallId,
          SamplingOutcome.failed, `${error.code}: ${error.message}`))
        throw new McpRpcError(McpRpcError.internalError, `the sampling call failed: ${Thrown.describe(error)}`.substring(0, 500))
      }
      this.s.publish(run, new SamplingCompletedEvent(this.s.sessionId, run.runId, request.server, request.toolCallId,
        SamplingOutcome.answered, '', answer.model))
      return answer
    } finally {
      linked.dispose()
    }
  }

  pendingElicitations(): PendingElicitation[] {
    return this.flow.pending()
  }

  answerElicitation(elicitationId: string, action: ElicitationAction, content?: Record<string, Object>,
    reason?: string): Promise<ElicitationDecisionResult> {
    return this.flow.decide(elicitationId, action, content, reason)
  }

  /** The run a server's request belongs to: this runtime's, while it runs; otherwise refused. */
  private activeRun(what: string): RunContext {
    const run = this.s.currentRun
    if (run === undefined || this.s.state.status !== SessionStatus.running) {
      throw new McpRpcError(McpRpcError.internalError, `no run of this agent is in progress to take the ${what} request; nobody was asked`)
    }
    return run
  }

  private denied(runId: string, request: McpSamplingRequest, code: number, why: string): McpRpcError {
    this.s.publish(this.s.currentRun, new SamplingCompletedEvent(this.s.sessionId, runId, request.server, request.toolCallId,
      SamplingOutcome.denied, why))
    return new McpRpcError(code, why)
  }
}
