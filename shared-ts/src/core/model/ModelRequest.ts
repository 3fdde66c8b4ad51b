import { AgentMessage } from './AgentMessage'
import { ToolDefinition } from './ToolDefinition'

/** One call to the model: the full conversation plus the tools it may call. */
export class ModelRequest {
  readonly messages: AgentMessage[]
  readonly tools: ToolDefinition[]
  /** Provider-specific model id; empty means the provider's default. */
  readonly model: string
  readonly temperature?: number
  readonly maxTokens?: number

  constructor(messages: AgentMessage[], tools: ToolDefinition[] = [], model: string = '',
    temperature?: number, maxTokens?: number) {
    this.messages = messages
    this.tools = tools
    this.model = model
    this.temperature = temperature
    this.maxTokens = maxTokens
  }

  withMessages(messages: AgentMessage[]): ModelRequest {
    return new ModelRequest(messages, this.tools, this.model, this.temperature, this.maxTokens)
  }

  withTools(tools: ToolDefinition[]): ModelRequest {
    return new ModelRequest(this.messages, tools, this.model, this.temperature, this.maxTokens)
  }
}
