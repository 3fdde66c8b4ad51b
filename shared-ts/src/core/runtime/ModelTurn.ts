import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { LlmAfterEvent, LlmBeforeEvent } from '../events/AgentEvents'
import { ModelCallHookContext, ModelResponseHookContext } from '../hook/HookContexts'
import { ModelCallHookAction, ModelResponseHookAction } from '../hook/HookResults'
import { Thrown } from '../errors/Thrown'
import { LoopVerdict } from '../loop/LoopDetectorPort'
import { AgentMessage, MessageRole } from '../model/AgentMessage'
import { ContentPart } from '../model/ContentPart'
import { ModelCheck } from '../model/ModelCheck'
import { ModelRequest } from '../model/ModelRequest'
import { ModelResponse } from '../model/ModelResponse'
import { ToolCall } from '../model/ToolCall'
import { ToolDefinition } from '../model/ToolDefinition'
import { CancellationToken } from '../util/Cancellation'
import { Ids } from '../util/Ids'
import { StreamingEvent } from '../provider/StreamingEvent'
import { ContextWindow } from '../context/ContextWindow'
import { ContextCompactor } from './ContextCompactor'
import { ModelStreamCollector } from './ModelStreamCollector'
import { RunContext } from './RunContext'
import { RuntimeServices } from './RuntimeServices'

export class ModelTurnResult {
  readonly response: ModelResponse
  readonly loopVerdict?: LoopVerdict

  constructor(response: ModelResponse, loopVerdict?: LoopVerdict) {
    this.response = response
    this.loopVerdict = loopVerdict
  }
}

/**
 * One model call with its hooks: beforeModelCall (rewrite / respond / abort), the stream through
 * the chunk chain, afterModelCall (rewrite / retry bounded by maxModelRetries / abort).
 * Throws ArkAgentError for every way the turn cannot produce an answer.
 */
export class ModelTurn {
  private readonly s: RuntimeServices
  private readonly compactor: ContextCompactor

  constructor(services: RuntimeServices, compactor: ContextCompactor) {
    this.s = services
    this.compactor = compactor
  }

  async call(run: RunContext, turn: number, tools: ToolDefinition[]): Promise<ModelTurnResult> {
    const cfg = this.s.config
    await this.compactor.beforeRequest(run, tools, turn)
    for (let attempt = 0; ; attempt++) {
      run.token.throwIfCancelled()
      // The stored state alone decides the request (checkpoint included): a restore builds the same one.
      const messages = ContextWindow.requestMessages(this.s.systemPrompt, this.s.state)
      const initial = new ModelRequest(messages, tools, cfg.model, undefined, undefined, cfg.thinking, this.s.outputFormat)
      const before = await this.s.hooks.beforeModelCall(
        new ModelCallHookContext(this.s.sessionId, run.runId, this.s.view(), initial, turn))
      if (before.action === ModelCallHookAction.abort) {
        throw ModelTurn.abortError('beforeModelCall', before.reason, before.error)
      }
      let response: ModelResponse
      let verdict: LoopVerdict | undefined
      if (before.action === ModelCallHookAction.respond && before.response !== undefined) {
        response = before.response
      } else {
        const request = before.request ?? initial
        this.s.publish(run, new LlmBeforeEvent(this.s.sessionId, run.runId, turn, request))
        const collector = new ModelStreamCollector(this.s, run, turn)
        let raw: ModelResponse
        try {
          raw = ModelTurn.checkResponse(await this.stream(run, request, collector))
          this.compactor.calibrate(request, raw)
          if (collector.chunkCount === 0) {
            // A provider that answered without streaming: its text still passes the chunk hooks
            // (as one chunk each), so it is neither lost nor able to bypass them.
            await ModelTurn.feedUnstreamed(raw, collector)
          }
        } catch (e) {
          this.keepCancelledAnswer(run, collector)
          const known = ArkAgentError.asArkError(e as Object)
          if (known !== undefined && known.code === ErrorCodes.providerContextLength) {
            this.compactor.overflowed(request)
          }
          throw e as Error
        } finally {
          collector.close()
        }
        // Kept text is the post-hook text: dropped chunks never reappear, rewrites are stored.
        response = raw.withMessage(AgentMessage.assistant(collector.text, raw.message.toolCalls, collector.reasoning))
        verdict = collector.loopVerdict
      }
      const after = await this.s.hooks.afterModelCall(
        new ModelResponseHookContext(this.s.sessionId, run.runId, this.s.view(), response, turn, attempt))
      if (after.action === ModelResponseHookAction.abort) {
        throw ModelTurn.abortError('afterModelCall', after.reason, after.error)
      }
      if (after.action === ModelResponseHookAction.retry) {
        if (attempt >= cfg.maxModelRetries) {
          throw new ArkAgentError(ErrorLayer.runtime, ErrorCodes.retryLimitExceeded,
            `afterModelCall asked for more than ${cfg.maxModelRetries} retries${after.reason !== undefined ?
              ' (' + after.reason + ')' : ''}`, ErrorRetryability.never)
        }
        continue
      }
      const final = ModelTurn.withUniqueCallIds(after.response ?? response)
      this.s.publish(run, new LlmAfterEvent(this.s.sessionId, run.runId, turn, final))
      return new ModelTurnResult(final, verdict)
    }
  }

  private async stream(run: RunContext, request: ModelRequest, collector: ModelStreamCollector): Promise<ModelResponse> {
    try {
      const response = await this.s.config.provider.streamModel(request, collector, run.token)
      run.token.throwIfCancelled()
      return response
    } catch (e) {
      // A chunk hook's abort wins over whatever the provider made of it.
      if (run.chunkAbort !== undefined) {
        throw run.chunkAbort
      }
      if (run.token.isCancelled) {
        throw CancellationToken.cancelledError(run.token.reason)
      }
      throw ArkAgentError.from(e as Object, ErrorLayer.provider, ErrorCodes.providerError, 'Model call failed')
    }
  }

  /**
   * A run cancelled while the answer streamed keeps what the user saw: the visible text streamed
   * so far (after chunk hooks, with its reasoning) enters history as an assistant message marked
   * with errorCode `cancelled`, so history never shows the question twice without the answer
   * between. Nothing is kept when no visible text arrived, or when a hook aborted the stream.
   */
  private keepCancelledAnswer(run: RunContext, collector: ModelStreamCollector): void {
    if (!run.token.isCancelled || run.chunkAbort !== undefined) {
      return
    }
    const text = collector.text
    if (text.length === 0) {
      return
    }
    const parts: ContentPart[] = []
    const reasoning = collector.reasoning
    if (reasoning.length > 0) {
      parts.push(ContentPart.reasoning(reasoning))
    }
    parts.push(ContentPart.text(text))
    this.s.state.append(new AgentMessage(MessageRole.assistant, parts, [], undefined, true, ErrorCodes.cancelled))
  }

  /** What a provider returns is checked like any outside value (a custom provider may return anything). */
  private static checkResponse(raw: ModelResponse): ModelResponse {
    try {
      return ModelCheck.response(raw, 'response')
    } catch (e) {
      throw new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerMalformedResponse,
        `The provider returned an invalid response: ${Thrown.describe(e as Object)}`, ErrorRetryability.never)
    }
  }

  /**
   * Tool results pair with calls by id, so ids must be distinct and non-empty within a message: a
   * repeated or empty id (a broken server, a careless hook) gets a fresh one.
   */
  static withUniqueCallIds(response: ModelResponse): ModelResponse {
    const message = response.message
    const count = message.callCount()
    if (count === 0) {
      return response
    }
    const seen = new Set<string>()
    let changed = false
    const calls: ToolCall[] = []
    for (let i = 0; i < count; i++) {
      const call = message.callAt(i)
      if (call.id.length === 0 || seen.has(call.id)) {
        calls.push(new ToolCall(Ids.next('call'), call.name, call.argumentsJson, call.index))
        changed = true
      } else {
        calls.push(call)
      }
      seen.add(calls[i].id)
    }
    if (!changed) {
      return response
    }
    return response.withMessage(new AgentMessage(MessageRole.assistant, message.content, calls, undefined,
      message.isError, message.errorCode))
  }

  private static async feedUnstreamed(raw: ModelResponse, collector: ModelStreamCollector): Promise<void> {
    const reasoning = raw.message.reasoning()
    if (reasoning.length > 0) {
      await collector.onEvent(StreamingEvent.reasoning(reasoning))
    }
    const text = raw.message.text()
    if (text.length > 0) {
      await collector.onEvent(StreamingEvent.text(text))
    }
  }

  static abortError(slot: string, reason?: string, error?: ArkAgentError): ArkAgentError {
    if (error !== undefined) {
      return error
    }
    return new ArkAgentError(ErrorLayer.security, ErrorCodes.hookAbort,
      `${slot} hook aborted the run${reason !== undefined ? ': ' + reason : ''}`, ErrorRetryability.never)
  }
}
