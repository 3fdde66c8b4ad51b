import { AgentMessage } from './AgentMessage'

/** Why the model stopped. Values from the wire that are not listed are kept as they are. */
export class FinishReason {
  static readonly stop: string = 'stop'
  static readonly toolCalls: string = 'tool_calls'
  /** The output hit the token limit (`length` on the wire). */
  static readonly lengthLimit: string = 'length'
  static readonly contentFilter: string = 'content_filter'
  static readonly unknown: string = 'unknown'
}

/** Tokens a model call used, as the vendor reported them (zeros when it reported none). */
export class Usage {
  readonly promptTokens: number
  readonly completionTokens: number
  readonly totalTokens: number
  readonly reasoningTokens: number

  constructor(promptTokens: number = 0, completionTokens: number = 0, totalTokens: number = -1,
    reasoningTokens: number = 0) {
    this.promptTokens = promptTokens
    this.completionTokens = completionTokens
    this.totalTokens = totalTokens >= 0 ? totalTokens : promptTokens + completionTokens
    this.reasoningTokens = reasoningTokens
  }

  add(other: Usage): Usage {
    return new Usage(this.promptTokens + other.promptTokens, this.completionTokens + other.completionTokens,
      this.totalTokens + other.totalTokens, this.reasoningTokens + other.reasoningTokens)
  }
}

/** The model's complete answer for one call. */
export class ModelResponse {
  readonly message: AgentMessage
  readonly finishReason: string
  readonly usage: Usage
  readonly model: string

  constructor(message: AgentMessage, finishReason: string = FinishReason.stop, usage: Usage = new Usage(),
    model: string = '') {
    this.message = message
    this.finishReason = finishReason
    this.usage = usage
    this.model = model
  }

  withMessage(message: AgentMessage): ModelResponse {
    return new ModelResponse(message, this.finishReason, this.usage, this.model)
  }
}
