import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { ChunkHookContinuation } from '../hook/ChunkHookPass'
import { ModelCallHookContext, ModelChunkHookContext, ModelResponseHookContext, StateView } from '../hook/HookContexts'
import { HookWatchdog } from '../hook/HookWatchdog'
import {
  ModelCallHookAction,
  ModelChunkHookAction,
  ModelChunkHookResult,
  ModelResponseHookAction
} from '../hook/HookResults'
import { McpSamplingAnswer, McpSamplingRequest } from '../mcp/McpSampling'
import { AgentMessage } from '../model/AgentMessage'
import { ModelRequest } from '../model/ModelRequest'
import { FinishReason, ModelResponse } from '../model/ModelResponse'
import { ModelStreamSink } from '../provider/ModelProvider'
import { StreamingEvent, StreamingEventType } from '../provider/StreamingEvent'
import { RunContext } from './RunContext'
import { RuntimeServices } from './RuntimeServices'
import { Redactor } from '../redaction/Redactor'
import { CancellationToken } from '../util/Cancellation'

const DONE: Promise<void> = Promise.resolve()

/**
 * The stream of a sampling call: every chunk through the onModelChunk hooks (purpose `sampling`), the
 * text kept after them. Nothing is published (the user is not shown it as the agent's answer) and the
 * loop detector does not see it; a chunk hook's abort ends this call only.
 */
class SamplingCollector implements ModelStreamSink, ChunkHookContinuation {
  private readonly s: RuntimeServices
  private readonly run: RunContext
  private readonly turn: number
  private readonly view: StateView
  private readonly watchdog?: HookWatchdog
  private readonly parts: string[] = []
  private index: number = 0
  abort?: ArkAgentError

  constructor(services: RuntimeServices, run: RunContext, turn: number) {
    this.s = services
    this.run = run
    this.turn = turn
    this.view = services.view()
    this.watchdog = services.hooks.hasChunkHooks() ? services.hooks.newChunkWatchdog() : undefined
  }

  get text(): string {
    return this.parts.join('')
  }

  get chunkCount(): number {
    return this.index
  }

  close(): void {
    if (this.watchdog !== undefined) {
      this.watchdog.close()
    }
  }

  onEvent(event: StreamingEvent): Promise<void> {
    if (this.abort !== undefined) {
      return Promise.reject(this.abort)
    }
    const reasoning = event.type === StreamingEventType.reasoningDelta
    if (!reasoning && event.type !== StreamingEventType.textDelta) {
      return DONE
    }
    try {
      const index = this.index++
      if (this.watchdog === undefined) {
        this.keep(event.text, reasoning)
        return DONE
      }
      const ctx = new ModelChunkHookContext(this.s.sessionId, this.run.runId, this.view, event.text, reasoning, index, this.turn,
        ModelCallHookContext.purposeSampling)
      return this.s.hooks.onModelChunkThen(ctx, this, this.watchdog) as Object as Promise<void>
    } catch (e) {
      return Promise.reject(e as Object)
    }
  }

  afterChunkHooks(result: ModelChunkHookResult, context: ModelChunkHookContext): void {
    if (result.action === ModelChunkHookAction.drop) {
      return
    }
    if (result.action === ModelChunkHookAction.abort) {
      const err = result.error ?? new ArkAgentError(ErrorLayer.security, ErrorCodes.hookAbort,
        `A chunk hook aborted the sampling call${result.reason !== undefined ? ': ' + result.reason : ''}`, ErrorRetryability.never)
      this.abort = err
      throw err
    }
    this.keep(result.text !== undefined ? result.text : context.text, context.reasoning)
  }

  private keep(text: string, reasoning: boolean): void {
    // Reasoning passes the hooks but is not part of the answer a server gets.
    if (!reasoning && text.length > 0) {
      this.parts.push(text)
    }
  }
}

/**
 * An MCP server's `sampling/createMessage` on the runtime's own provider and model, through the same
 * hooks as a turn — beforeModelCall (rewrite | respond | abort), every chunk through onModelChunk,
 * afterModelCall (rewrite | retry ≤ maxModelRetries | abort) — each with purpose `sampling`. What the
 * server sent is redacted (SecretVault) before any hook or the vendor sees it; no tools are offered.
 * Throws ArkAgentError for every way it cannot answer (a hook's abort fails this call, not the run).
 */
export class SamplingCall {
  private readonly s: RuntimeServices

  constructor(services: RuntimeServices) {
    this.s = services
  }

  async call(run: RunContext, sampling: McpSamplingRequest, token: CancellationToken): Promise<McpSamplingAnswer> {
    const cfg = this.s.config
    const messages: AgentMessage[] = []
    if (sampling.systemPrompt.length > 0) {
      messages.push(Redactor.message(AgentMessage.system(sampling.systemPrompt)))
    }
    for (let i = 0; i < sampling.messages.length; i++) {
      messages.push(Redactor.message(sampling.messages[i]))
    }
    const initial = new ModelRequest(messages, [], cfg.model, sampling.temperature, sampling.maxTokens, cfg.thinking)
    const turn = this.s.state.turn
    for (let attempt = 0; ; attempt++) {
      token.throwIfCancelled()
      const before = await this.s.hooks.beforeModelCall(new ModelCallHookContext(this.s.sessionId, run.runId, this.s.view(),
        initial, turn, ModelCallHookContext.purposeSampling))
      if (before.action === ModelCallHookAction.abort) {
        throw SamplingCall.aborted('beforeModelCall', before.reason, before.error)
      }
      let response: ModelResponse
      if (before.action === ModelCallHookAction.respond && before.response !== undefined) {
        response = before.response
      } else {
        response = await this.stream(run, before.request ?? initial, turn, token)
      }
      const after = await this.s.hooks.afterModelCall(new ModelResponseHookContext(this.s.sessionId, run.runId, this.s.view(),
        response, turn, attempt, ModelCallHookContext.purposeSampling))
      if (after.action === ModelResponseHookAction.abort) {
        throw SamplingCall.aborted('afterModelCall', after.reason, after.error)
      }
      if (after.action === ModelResponseHookAction.retry) {
        if (attempt >= cfg.maxModelRetries) {
          throw new ArkAgentError(ErrorLayer.runtime, ErrorCodes.retryLimitExceeded,
            `afterModelCall asked for more than ${cfg.maxModelRetries} retries of the sampling call`, ErrorRetryability.never)
        }
        continue
      }
      const final = after.response ?? response
      return new McpSamplingAnswer(final.message.text(), final.model.length > 0 ? final.model : (cfg.model.length > 0 ?
        cfg.model : 'unknown'), SamplingCall.stopReason(final.finishReason))
    }
  }

  private async stream(run: RunContext, request: ModelRequest, turn: number, token: CancellationToken): Promise<ModelResponse> {
    const collector = new SamplingCollector(this.s, run, turn)
    try {
      let raw: ModelResponse
      try {
        raw = await this.s.config.provider.streamModel(request, collector, token)
      } catch (e) {
        if (collector.abort !== undefined) {
          throw collector.abort
        }
        if (token.isCancelled) {
          throw CancellationToken.cancelledError(token.reason)
        }
        throw ArkAgentError.from(e as Object, ErrorLayer.provider, ErrorCodes.providerError, 'The sampling call failed')
      }
      token.throwIfCancelled()
      if (collector.chunkCount === 0 && raw !== null && typeof raw === 'object' && raw.message instanceof AgentMessage) {
        // An answer that did not stream still passes the chunk hooks, as one chunk.
        const text = raw.message.text()
        if (text.length > 0) {
          await collector.onEvent(StreamingEvent.text(text))
        }
      }
      if (raw === null || typeof raw !== 'object' || !(raw.message instanceof AgentMessage)) {
        throw new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerMalformedResponse,
          'The provider returned an invalid response to the sampling call', ErrorRetryability.never)
      }
      return raw.withMessage(AgentMessage.assistant(collector.text))
    } finally {
      collector.close()
    }
  }

  /** MCP's stop reasons for the provider's finish reasons. */
  static stopReason(finish: string): string {
    if (finish === FinishReason.stop) {
      return 'endTurn'
    }
    return finish === FinishReason.lengthLimit ? 'maxTokens' : finish
  }

  private static aborted(slot: string, reason?: string, error?: ArkAgentError): ArkAgentError {
    return error !== undefined ? error : new ArkAgentError(ErrorLayer.security, ErrorCodes.hookAbort,
      `${slot} hook refused the sampling call${reason !== undefined ? ': ' + reason : ''}`, ErrorRetryability.never)
  }
}
