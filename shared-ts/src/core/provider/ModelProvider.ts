import { ModelRequest } from '../model/ModelRequest'
import { ModelResponse } from '../model/ModelResponse'
import { CancellationToken } from '../util/Cancellation'
import { StreamingEvent } from './StreamingEvent'
import { ReasoningEcho } from './WireProfile'

/**
 * Receives a provider's stream. The provider awaits every call before reading further, so chunk
 * hooks run strictly in order and always before the response resolves (no fire-and-forget).
 * An error thrown by the sink must propagate out of `streamModel` unchanged.
 */
export interface ModelStreamSink {
  onEvent(event: StreamingEvent): Promise<void>
}

/**
 * A model backend. `streamModel` emits the answer incrementally to `sink` and resolves with the
 * complete response as the model sent it (text, reasoning, tool calls, finish reason, usage).
 * It rejects with an ArkAgentError (provider/transport/cancelled layer) on failure.
 */
export interface ModelProvider {
  readonly providerId: string
  /** The model's context window in tokens, when known (compaction uses it); absent or 0: unknown. */
  readonly contextWindow?: number
  /** Tokens to keep free for the answer, when known. */
  readonly outputReserve?: number
  /** Which assistant messages carry their reasoning back on later requests (absent: none). Token estimates follow it. */
  readonly reasoningEcho?: ReasoningEcho
  /**
   * How this provider asks for a structured answer for `model` ('' : its default): an OutputMode value.
   * Absent: `none` (the runtime then writes the schema into the system prompt).
   */
  outputModeFor?(model: string): string
  streamModel(request: ModelRequest, sink: ModelStreamSink, token: CancellationToken): Promise<ModelResponse>
}
