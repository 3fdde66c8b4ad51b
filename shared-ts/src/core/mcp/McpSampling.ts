import { AgentMessage } from '../model/AgentMessage'

/**
 * A server's request for a model answer (MCP `sampling/createMessage`), as the client checked it: text
 * messages only (user and assistant), a system prompt, a token limit. The server's model preferences and
 * `includeContext` are not honoured: nothing of the session is added to what the server sent.
 */
export class McpSamplingRequest {
  readonly server: string
  readonly messages: AgentMessage[]
  readonly systemPrompt: string
  readonly maxTokens: number
  readonly temperature?: number
  /** The tool call during which the server asked ('' when the client cannot tell). */
  readonly toolCallId: string

  constructor(server: string, messages: AgentMessage[], systemPrompt: string, maxTokens: number, toolCallId: string,
    temperature?: number) {
    this.server = server
    this.messages = messages
    this.systemPrompt = systemPrompt
    this.maxTokens = maxTokens
    this.toolCallId = toolCallId
    this.temperature = temperature
  }

  /** What a user is shown to decide on it: the system prompt and the messages, as plain text. */
  describe(maxChars: number = 4000): string {
    const lines: string[] = []
    if (this.systemPrompt.length > 0) {
      lines.push(`system: ${this.systemPrompt}`)
    }
    for (let i = 0; i < this.messages.length; i++) {
      lines.push(`${this.messages[i].role}: ${this.messages[i].text()}`)
    }
    const text = lines.join('\n')
    return text.length <= maxChars ? text : `${text.substring(0, Math.max(0, maxChars - 1))}…`
  }
}

/** The model's answer to a sampling request, as the server is sent it. */
export class McpSamplingAnswer {
  readonly text: string
  readonly model: string
  /** MCP's stop reasons: 'endTurn', 'maxTokens', 'stopSequence', or the provider's own. */
  readonly stopReason: string

  constructor(text: string, model: string, stopReason: string) {
    this.text = text
    this.model = model
    this.stopReason = stopReason
  }
}
