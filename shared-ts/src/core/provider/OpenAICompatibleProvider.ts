import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { ModelRequest } from '../model/ModelRequest'
import { ModelResponse } from '../model/ModelResponse'
import { Clock, SystemClock } from '../transport/Clock'
import { HttpRequest, HttpResponseHead, HttpTransport } from '../transport/HttpTransport'
import { HttpResponseReader } from '../transport/HttpResponseReader'
import { CancellationSource, CancellationToken } from '../util/Cancellation'
import { ConfigCheck } from '../util/ConfigCheck'
import { ApiKey } from './ApiKey'
import { ChannelRedactors } from './ChannelRedactors'
import { httpError, streamError } from './HttpErrorMapper'
import { ModelProvider, ModelStreamSink } from './ModelProvider'
import { decodeChunk, encodeChatRequest, malformed, snippet, WireRequestOptions } from './OpenAIWireFormat'
import { ProviderPreset } from './ProviderPresets'
import { OpenAICompatibleOptions, PRESET_OPTION_NAMES, PresetProviderOptions, PROVIDER_OPTION_NAMES, ResolvedProviderOptions } from './ProviderOptions'
import { RetryPolicy } from './RetryPolicy'
import { SseEvent, SseParser } from './SseParser'
import { StreamAssembler } from './StreamAssembler'
import { StreamingEvent } from './StreamingEvent'
import { ErrorRule, VendorErrorBody } from './VendorErrors'
import { ProviderOptionsCheck } from './ProviderOptionsCheck'
import { ReasoningEcho, WireProfile } from './WireProfile'
import { Redactor } from '../redaction/Redactor'
import { HostYield } from '../host/HostYield'

/** What has happened in one attempt; decides whether a retry is still allowed. */
class AttemptProgress {
  delivered: boolean = false
  sinkFailed: boolean = false
}

/** Whether the error leaving streamModel came from the sink (it then passes unchanged). */
class StreamState {
  sinkError: boolean = false
}

const MAX_ERROR_BODY_CHARS: number = 8192
/** Characters of one network read parsed at a time (a 1 MiB read is parsed in pieces, yielding between them). */
const SSE_PIECE_CHARS: number = 32768

/**
 * Chat completions over SSE for DeepSeek, Zhipu GLM and any OpenAI-compatible base URL.
 * Retries (backoff + jitter, honouring Retry-After) happen only before anything reached the sink,
 * so a partially streamed answer is never replayed. The API key lives only in the Authorization header.
 */
export class OpenAICompatibleProvider implements ModelProvider {
  readonly providerId: string
  readonly contextWindow: number
  /** From the wire profile: which reasoning goes back to the vendor (token estimates count exactly that). */
  readonly reasoningEcho: ReasoningEcho
  readonly outputReserve: number
  readonly baseUrl: string
  readonly defaultModel: string
  readonly retry: RetryPolicy
  readonly firstChunkTimeoutMs: number
  readonly idleTimeoutMs: number
  private readonly endpoint: string
  private readonly apiKey: ApiKey
  private readonly transport: HttpTransport
  private readonly clock: Clock
  private readonly extraHeaders: Map<string, string>
  private readonly extraBody: Record<string, Object>
  readonly profile: WireProfile
  private readonly errorRules: ErrorRule[]
  /** Thinking for requests that do not say (undefined: the vendor's default). */
  readonly thinking: boolean | undefined

  /** Every option is checked here: a bad one is invalid_config naming it (see ProviderOptionsCheck). */
  constructor(options: OpenAICompatibleOptions) {
    ProviderOptionsCheck.present(options, 'OpenAICompatibleProvider options')
    ConfigCheck.knownNames(options, PROVIDER_OPTION_NAMES, 'OpenAICompatibleProvider')
    ConfigCheck.implementing(options.transport, ['send'], 'transport (an HttpTransport)')
    // A preset (named, or by its id as providerId) fills what the options leave out.
    const resolved = ResolvedProviderOptions.of(options)
    const base = ProviderOptionsCheck.baseUrl(resolved.baseUrl)
    this.baseUrl = base
    this.endpoint = `${base}/chat/completions`
    this.providerId = ConfigCheck.text(resolved.providerId, 'providerId', 1, 64)
    this.contextWindow = resolved.contextWindow !== undefined ? ConfigCheck.count(resolved.contextWindow, 0, 'contextWindow') : 0
    this.outputReserve = resolved.outputReserve !== undefined ? ConfigCheck.count(resolved.outputReserve, 0, 'outputReserve') : 0
    this.defaultModel = resolved.model !== undefined ? ConfigCheck.text(resolved.model, 'model', 0, 256) : ''
    const key = ProviderOptionsCheck.apiKey(options.apiKey)
    this.apiKey = new ApiKey(key)
    this.transport = options.transport
    this.retry = ProviderOptionsCheck.retry(options.retry)
    this.firstChunkTimeoutMs = options.firstChunkTimeoutMs !== undefined ?
      ConfigCheck.timeoutMs(options.firstChunkTimeoutMs, 'firstChunkTimeoutMs') : 120000
    this.idleTimeoutMs = options.idleTimeoutMs !== undefined ? ConfigCheck.timeoutMs(options.idleTimeoutMs, 'idleTimeoutMs') : 60000
    if (options.clock !== undefined) {
      ConfigCheck.implementing(options.clock, ['now', 'sleep', 'setTimer'], 'clock (a Clock)')
    }
    this.clock = options.clock !== undefined ? options.clock : SystemClock.instance
    this.extraBody = ProviderOptionsCheck.extraBody(options.extraBody)
    this.profile = ProviderOptionsCheck.profile(resolved.profile)
    // The default model's family decides (compaction's estimates count the reasoning it sends).
    this.reasoningEcho = this.profile.forModel(this.defaultModel).reasoningEcho
    this.errorRules = ProviderOptionsCheck.errorRules(resolved.errorRules)
    this.thinking = options.thinking !== undefined ? ConfigCheck.bool(options.thinking, 'thinking') : undefined
    this.extraHeaders = ProviderOptionsCheck.headers(options.headers, key.length > 0)
  }

  /**
   * A provider for a known vendor, with its wire profile and error table: `model` defaults to the
   * preset's default model, `baseUrl` to the preset's endpoint (e.g. another region, or a local
   * server on another port). The preset decides the id, profile, error table, context window and
   * output reserve; for anything else use the constructor with `preset`.
   */
  static fromPreset(preset: ProviderPreset, options: PresetProviderOptions): OpenAICompatibleProvider {
    if (!(preset instanceof ProviderPreset)) {
      throw ConfigCheck.invalid(`fromPreset needs a ProviderPreset (e.g. ProviderPresets.deepseek); got ${ConfigCheck.show(preset)}`)
    }
    ProviderOptionsCheck.present(options, 'fromPreset options')
    // A misspelt `baseUrl` would send the key to the vendor's endpoint instead: refused.
    ConfigCheck.knownNames(options, PRESET_OPTION_NAMES, 'fromPreset')
    const full: OpenAICompatibleOptions = {
      transport: options.transport,
      preset: preset,
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      model: options.model,
      retry: options.retry,
      firstChunkTimeoutMs: options.firstChunkTimeoutMs,
      idleTimeoutMs: options.idleTimeoutMs,
      clock: options.clock,
      headers: options.headers,
      extraBody: options.extraBody,
      thinking: options.thinking
    }
    return new OpenAICompatibleProvider(full)
  }

  /** The wire profile's OutputMode for `model` ('' : the default model's). */
  outputModeFor(model: string): string {
    return this.profile.forModel(model.length > 0 ? model : this.defaultModel).output
  }

  toString(): string {
    return `OpenAICompatibleProvider(${this.providerId}, ${this.baseUrl}, ${this.defaultModel})`
  }

  /**
   * Every error that leaves this method passes the redactor (see Redactor), whatever path made it;
   * errors thrown by the sink (the caller's own) pass through unchanged.
   */
  async streamModel(request: ModelRequest, sink: ModelStreamSink, token: CancellationToken): Promise<ModelResponse> {
    const state = new StreamState()
    try {
      const asked = request.thinking === undefined && this.thinking !== undefined ? request.withThinking(this.thinking) : request
      return await this.stream(asked, sink, token, state)
    } catch (e) {
      if (state.sinkError) {
        throw e as Error
      }
      throw Redactor.error(ArkAgentError.from(e as Object, ErrorLayer.provider, ErrorCodes.providerError,
        `${this.providerId} stream failed`))
    }
  }

  private async stream(request: ModelRequest, sink: ModelStreamSink, token: CancellationToken,
    state: StreamState): Promise<ModelResponse> {
    token.throwIfCancelled()
    const model = request.model.length > 0 ? request.model : this.defaultModel
    if (model.length === 0) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig,
        `${this.providerId}: no model given (set one on the request or the provider)`, ErrorRetryability.afterAction)
    }
    const httpRequest = new HttpRequest('POST', this.endpoint, this.buildHeaders(),
      encodeChatRequest(Redactor.request(request), new WireRequestOptions(model, this.extraBody, this.profile)))
    for (let retry = 0; ; retry++) {
      const progress = new AttemptProgress()
      try {
        return Redactor.response(await this.attempt(httpRequest, model, sink, token, progress))
      } catch (e) {
        if (progress.sinkFailed) {
          state.sinkError = true
          throw e as Error
        }
        if (token.isCancelled) {
          throw CancellationToken.cancelledError(token.reason)
        }
        const error = ArkAgentError.from(e as Error, ErrorLayer.provider, ErrorCodes.providerError,
          `${this.providerId} stream failed`)
        if (progress.delivered) {
          throw new ArkAgentError(error.layer, error.code,
            `${error.message} (after part of the answer was streamed; not retried)`, ErrorRetryability.never, error as Error)
        }
        if (!error.isRetryable()) {
          throw error
        }
        const wait = this.retry.delayBeforeRetry(retry, error.retryAfterMs !== undefined ? error.retryAfterMs : -1)
        if (wait < 0) {
          throw this.givenUp(error, retry + 1)
        }
        await this.clock.sleep(wait, token)
      }
    }
  }

  private async attempt(httpRequest: HttpRequest, model: string, sink: ModelStreamSink,
    token: CancellationToken, progress: AttemptProgress): Promise<ModelResponse> {
    const exchange = CancellationSource.linked([token])
    const reader = new HttpResponseReader(this.clock, this.firstChunkTimeoutMs, this.idleTimeoutMs, token)
    try {
      this.transport.send(httpRequest, reader, exchange.token)
      const head = await reader.readHead()
      if (!OpenAICompatibleProvider.isSuccess(head.status)) {
        throw this.httpFailure(head, head.status, await reader.readAll(MAX_ERROR_BODY_CHARS))
      }
      if (head.header('content-type').indexOf('application/json') >= 0) {
        const body = await reader.readAll(MAX_ERROR_BODY_CHARS)
        if (!OpenAICompatibleProvider.isSuccess(reader.finalStatus)) {
          throw this.httpFailure(head, reader.finalStatus, body)
        }
        throw malformed(`${this.providerId}: expected an event stream, got JSON: ${snippet(body)}`)
      }
      return await this.consume(reader, head, model, sink, token, progress)
    } finally {
      reader.close()
      exchange.cancel('exchange finished')
      exchange.dispose()
    }
  }

  private async consume(reader: HttpResponseReader, head: HttpResponseHead, model: string, sink: ModelStreamSink,
    token: CancellationToken, progress: AttemptProgress): Promise<ModelResponse> {
    const visible = new ChannelRedactors()
    try {
      return await this.read(reader, head, model, sink, token, progress, visible, head.status === 0 ? 0 : MAX_ERROR_BODY_CHARS)
    } catch (e) {
      // The stream failed: the text held back for the redactor was never checked against what follows,
      // and nothing follows — show it (redacted) as it would have been shown, unless the run was cancelled.
      if (!token.isCancelled && !progress.sinkFailed) {
        await this.deliverHeld(sink, visible, progress)
      }
      throw e as Error
    }
  }

  private async read(reader: HttpResponseReader, head: HttpResponseHead, model: string, sink: ModelStreamSink,
    token: CancellationToken, progress: AttemptProgress, visible: ChannelRedactors, rawStart: number): Promise<ModelResponse> {
    // With the status still unknown (0) the body may turn out to be an error body: keep its start.
    const raw: string[] = []
    let rawChars = rawStart
    const parser = new SseParser()
    const assembler = new StreamAssembler()
    const usageAt = this.profile.forModel(model).usage
    const sseEvents: SseEvent[] = []
    const collect = (event: SseEvent): void => {
      sseEvents.push(event)
    }
    const out: StreamingEvent[] = []
    for (;;) {
      const chunk = await reader.read()
      if (chunk === null) {
        break
      }
      if (rawChars < MAX_ERROR_BODY_CHARS) {
        raw.push(chunk)
        rawChars += chunk.length
      }
      // One network read can hold thousands of events: it is parsed in pieces (the parser takes text
      // split anywhere) and the (UI) thread is given back between pieces and between events.
      for (let at = 0; at === 0 || at < chunk.length; at += SSE_PIECE_CHARS) {
        if (HostYield.due()) {
          await HostYield.now()
        }
        sseEvents.length = 0
        parser.feed(chunk.length <= SSE_PIECE_CHARS ? chunk : chunk.substring(at, at + SSE_PIECE_CHARS), collect)
        for (let i = 0; i < sseEvents.length; i++) {
          if (HostYield.due()) {
            await HostYield.now()
          }
          const event = sseEvents[i]
          const data = event.data
          if (data === '[DONE]') {
            await this.deliverHeld(sink, visible, progress)
            return assembler.toResponse(model)
          }
          if (event.event === 'error') {
            throw streamError(this.providerId, VendorErrorBody.parse(data), data, this.redact, this.errorRules)
          }
          if (data.trim().length === 0) {
            continue
          }
          const decoded = decodeChunk(data, usageAt)
          if (decoded.error !== null) {
            throw streamError(this.providerId, decoded.error, data, this.redact, this.errorRules)
          }
          out.length = 0
          assembler.apply(decoded, out)
          for (let j = 0; j < out.length; j++) {
            const shown = visible.pass(out[j])
            for (let k = 0; k < shown.length; k++) {
              await this.deliver(sink, shown[k], progress)
              token.throwIfCancelled()
            }
          }
        }
      }
    }
    if (!OpenAICompatibleProvider.isSuccess(reader.finalStatus)) {
      throw this.httpFailure(head, reader.finalStatus, raw.join(''))
    }
    if (assembler.finishReason.length === 0) {
      throw new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerStreamTruncated,
        `${this.providerId} stream ended without [DONE] or a finish reason (answer incomplete)`,
        ErrorRetryability.retryable)
    }
    await this.deliverHeld(sink, visible, progress)
    return assembler.toResponse(model)
  }

  /** The end of the stream: text held back because it might have begun the secret is shown now. */
  private async deliverHeld(sink: ModelStreamSink, visible: ChannelRedactors, progress: AttemptProgress): Promise<void> {
    const held = visible.flush()
    for (let i = 0; i < held.length; i++) {
      await this.deliver(sink, held[i], progress)
    }
  }

  private readonly redact = (text: string): string => Redactor.text(text)

  /** Awaits the sink; its errors propagate unchanged and stop any retry. */
  private async deliver(sink: ModelStreamSink, event: StreamingEvent, progress: AttemptProgress): Promise<void> {
    progress.delivered = true
    try {
      await sink.onEvent(event)
    } catch (e) {
      progress.sinkFailed = true
      throw e as Error
    }
  }

  /** 0 means "not known yet" and passes; the late status is checked at the end of the body. */
  private static isSuccess(status: number): boolean {
    return status === 0 || (status >= 200 && status <= 299)
  }

  private httpFailure(head: HttpResponseHead, status: number, body: string): ArkAgentError {
    return httpError(this.providerId, new HttpResponseHead(status, head.headers), body, this.clock.now(),
      this.redact, this.errorRules)
  }

  private givenUp(error: ArkAgentError, attempts: number): ArkAgentError {
    const wrapped = new ArkAgentError(error.layer, error.code, `${error.message} (gave up after ${attempts} attempts)`,
      error.retryability, error as Error)
    wrapped.retryAfterMs = error.retryAfterMs
    return wrapped
  }

  private buildHeaders(): Map<string, string> {
    const headers = new Map<string, string>()
    headers.set('content-type', 'application/json')
    headers.set('accept', 'text/event-stream')
    this.extraHeaders.forEach((value: string, name: string): void => {
      headers.set(name, value)
    })
    if (!this.apiKey.isEmpty) {
      headers.set('authorization', `Bearer ${this.apiKey.value()}`)
    }
    return headers
  }
}
