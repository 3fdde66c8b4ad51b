import { ContentPart, ContentPartType } from './ContentPart'
import { ToolCall } from './ToolCall'

export enum MessageRole {
  system = 'system',
  user = 'user',
  assistant = 'assistant',
  tool = 'tool'
}

/**
 * One entry of the conversation. Immutable: hooks and snapshots share instances safely.
 * A tool message carries `toolCallId` and `isError`; an assistant message may carry tool calls.
 */
export class AgentMessage {
  readonly role: MessageRole
  readonly content: ContentPart[]
  readonly toolCalls: ToolCall[]
  readonly toolCallId?: string
  readonly isError: boolean
  readonly errorCode?: string

  constructor(role: MessageRole, content: ContentPart[], toolCalls: ToolCall[] = [],
    toolCallId?: string, isError: boolean = false, errorCode?: string) {
    this.role = role
    this.content = content
    this.toolCalls = toolCalls
    this.toolCallId = toolCallId
    this.isError = isError
    this.errorCode = errorCode
  }

  static system(text: string): AgentMessage {
    return new AgentMessage(MessageRole.system, [ContentPart.text(text)])
  }

  static user(text: string): AgentMessage {
    return new AgentMessage(MessageRole.user, [ContentPart.text(text)])
  }

  static assistant(text: string, toolCalls: ToolCall[] = [], reasoning: string = ''): AgentMessage {
    const parts: ContentPart[] = []
    if (reasoning.length > 0) {
      parts.push(ContentPart.reasoning(reasoning))
    }
    if (text.length > 0) {
      parts.push(ContentPart.text(text))
    }
    return new AgentMessage(MessageRole.assistant, parts, toolCalls)
  }

  static tool(callId: string, content: ContentPart[], isError: boolean = false, errorCode?: string): AgentMessage {
    return new AgentMessage(MessageRole.tool, content, [], callId, isError, errorCode)
  }

  /** Visible text (reasoning excluded). */
  text(): string {
    return this.joinParts(ContentPartType.text)
  }

  reasoning(): string {
    return this.joinParts(ContentPartType.reasoning)
  }

  hasToolCalls(): boolean {
    return this.toolCalls.length > 0
  }

  private joinParts(type: ContentPartType): string {
    let out = ''
    for (let i = 0; i < this.content.length; i++) {
      if (this.content[i].type === type) {
        out += this.content[i].text
      }
    }
    return out
  }
}
