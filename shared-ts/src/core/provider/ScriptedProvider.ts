import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { AgentMessage } from '../model/AgentMessage'
import { ModelRequest } from '../model/ModelRequest'
import { FinishReason, ModelResponse, Usage } from '../model/ModelResponse'
import { ToolCall } from '../model/ToolCall'
import { CancellationToken } from '../util/Cancellation'
import { delay } from '../util/Delay'
import { ModelProvider, ModelStreamSink } from './ModelProvider'
import { StreamingEvent } from './StreamingEvent'
import { ConfigCheck } from '../util/ConfigCheck'

/** One scripted model answer: chunks in order, then tool calls, or an error. */
export class ScriptedTurn {
  readonly chunks: StreamingEvent[] = []
  readonly toolCalls: ToolCall[] = []
  error?: ArkAgentError
  /** Error raised after this many chunks were streamed (-1: before the first). */
  errorAfterChunks: number = -1
  delayMs: number = 0
  finishReason: string = ''
  /** The prompt tokens the answer reports (`usage.promptTokens`); 0 reports none. */
  promptTokens: number = 0

  static text(...pieces: string[]): ScriptedTurn {
    const t = new ScriptedTurn()
    for (let i = 0; i < pieces.length; i++) {
      t.chunks.push(StreamingEvent.text(pieces[i]))
    }
    return t
  }

  static failing(error: ArkAgentError, afterChunks: number = -1): ScriptedTurn {
    const t = new ScriptedTurn()
    t.error = error
    t.errorAfterChunks = afterChunks
    return t
  }

  say(text: string): ScriptedTurn {
    this.chunks.push(StreamingEvent.text(text))
    return this
  }

  think(text: string): ScriptedTurn {
    this.chunks.push(StreamingEvent.reasoning(text))
    return this
  }

  call(id: string, name: string, argumentsJson: string): ScriptedTurn {
    this.toolCalls.push(new ToolCall(id, name, argumentsJson, this.toolCalls.length))
    return this
  }

  withDelay(ms: number): ScriptedTurn {
    this.delayMs = ConfigCheck.delayMs(ms, 0, 'ScriptedTurn withDelay ms')
    return this
  }

  /** Reports `promptTokens` as the request's size, as a real provider's usage does. */
  withPromptTokens(promptTokens: number): ScriptedTurn {
    this.promptTokens = promptTokens
    return this
  }
}

/** Makes the scripted turn for a request (called with the request and the number of calls so far). */
export type ScriptFunction = (request: ModelRequest, callIndex: number) => ScriptedTurn

/**
 * A deterministic model for tests, demos and benchmarks: each call plays the next scripted turn
 * (or asks a function for it), streaming chunks through the sink exactly like a real provider.
 */
export class ScriptedProvider implements ModelProvider {
  readonly providerId: string = 'scripted'
  private readonly turns: ScriptedTurn[]
  private readonly fn?: ScriptFunction
  private calls: number = 0
  /** Every request received, for assertions. */
  readonly requests: ModelRequest[] = []

  constructor(turns: ScriptedTurn[] = [], fn?: ScriptFunction) {
    this.turns = turns
    this.fn = fn
  }

  static fromFunction(fn: ScriptFunction): ScriptedProvider {
    return new ScriptedProvider([], fn)
  }

  get callCount(): number {
    return this.calls
  }

  async streamModel(request: ModelRequest, sink: ModelStreamSink, token: CancellationToken): Promise<ModelResponse> {
    const index = this.calls++
    this.requests.push(request)
    let turn: ScriptedTurn | undefined
    if (this.fn !== undefined) {
      turn = this.fn(request, index)
    } else if (index < this.turns.length) {
      turn = this.turns[index]
    }
    if (turn === undefined) {
      throw new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerError,
        `Scripted provider has no turn #${index + 1}`, ErrorRetryability.never)
    }
    token.throwIfCancelled()
    if (turn.error !== undefined && turn.errorAfterChunks < 0) {
      throw turn.error
    }
    let text = ''
    let reasoning = ''
    const chunks = turn.chunks
    for (let i = 0; i < chunks.length; i++) {
      if (turn.delayMs > 0) {
        await delay(turn.delayMs, token)
      } else if (token.isCancelled) {
        throw CancellationToken.cancelledError(token.reason)
      }
      const chunk = chunks[i]
      if (chunk.type === 'reasoning_delta') {
        reasoning += chunk.text
      } else {
        text += chunk.text
      }
      await sink.onEvent(chunk)
      if (turn.error !== undefined && turn.errorAfterChunks === i + 1) {
        throw turn.error
      }
    }
    token.throwIfCancelled()
    const finish = turn.finishReason.length > 0 ? turn.finishReason :
      (turn.toolCalls.length > 0 ? FinishReason.toolCalls : FinishReason.stop)
    return new ModelResponse(AgentMessage.assistant(text, turn.toolCalls.slice(), reasoning), finish,
      new Usage(turn.promptTokens, chunks.length), 'scripted')
  }
}
