import { AgentMessage } from './AgentMessage'
import { OutputFormat } from './OutputFormat'
import { ToolDefinition } from './ToolDefinition'

/** One call to the model: the full conversation plus the tools it may call. */
export class ModelRequest {
  readonly messages: AgentMessage[]
  readonly tools: ToolDefinition[]
  /** Provider-specific model id; empty means the provider's default. */
  readonly model: string
  readonly temperature?: number
  readonly maxTokens?: number
  /**
   * Thinking on (true) or off (false); undefined leaves the vendor's default. Each provider maps it
   * to its vendor's switch (e.g. `thinking: {type}` for DeepSeek and GLM, `enable_thinking` for Qwen).
   */
  readonly thinking?: boolean
  /**
   * The schema the final answer must satisfy (AgentRuntimeConfig.outputSchema); the provider asks its
   * vendor for it as its wire profile says (`response_format`), or sends nothing. Absent: free text.
   */
  readonly output?: OutputFormat

  constructor(messages: AgentMessage[], tools: ToolDefinition[] = [], model: string = '',
    temperature?: number, maxTokens?: number, thinking?: boolean, output?: OutputFormat) {
    this.messages = messages
    this.tools = tools
    this.model = model
    this.temperature = temperature
    this.maxTokens = maxTokens
    this.thinking = thinking
    this.output = output
  }

  withMessages(messages: AgentMessage[]): ModelRequest {
    return new ModelRequest(messages, this.tools, this.model, this.temperature, this.maxTokens, this.thinking, this.output)
  }

  withTools(tools: ToolDefinition[]): ModelRequest {
    return new ModelRequest(this.messages, tools, this.model, this.temperature, this.maxTokens, this.thinking, this.output)
  }

  /** The same request with thinking switched on or off (undefined: the vendor's default). */
  withThinking(thinking?: boolean): ModelRequest {
    return new ModelRequest(this.messages, this.tools, this.model, this.temperature, this.maxTokens, thinking, this.output)
  }

  /** The same request with another output schema (undefined: a free-text answer). */
  withOutput(output?: OutputFormat): ModelRequest {
    return new ModelRequest(this.messages, this.tools, this.model, this.temperature, this.maxTokens, this.thinking, output)
  }
}
