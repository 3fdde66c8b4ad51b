import { ContentPart, ContentPartType } from './ContentPart'
import { ToolCall } from './ToolCall'

/** Shared by messages without tool calls (never handed out: `toolCalls` returns a fresh array). */
const NO_CALLS: ToolCall[] = []

/** Who wrote a message: system, user, assistant or tool. */
export enum MessageRole {
  system = 'system',
  user = 'user',
  assistant = 'assistant',
  tool = 'tool'
}

/**
 * One entry of the conversation. Immutable: hooks and snapshots share instances safely. The arrays
 * are copied in, and `content` / `toolCalls` return copies (ArkTS has no Object.freeze), so code
 * holding a message — a hook given a request or a snapshot — cannot change the runtime's history.
 * Hot paths use `partCount`/`partAt` and `callCount`/`callAt`, which copy nothing.
 * A tool message carries `toolCallId` and `isError`; an assistant message may carry tool calls.
 */
export class AgentMessage {
  private readonly messageRole: MessageRole
  private readonly parts: ContentPart[]
  private readonly calls: ToolCall[]
  private readonly answers?: string
  private readonly error: boolean
  private readonly code?: string

  constructor(role: MessageRole, content: ContentPart[], toolCalls: ToolCall[] = [],
    toolCallId?: string, isError: boolean = false, errorCode?: string) {
    this.messageRole = role
    this.parts = content.slice()
    this.calls = toolCalls.length > 0 ? toolCalls.slice() : NO_CALLS
    this.answers = toolCallId
    this.error = isError
    this.code = errorCode
  }

  get role(): MessageRole {
    return this.messageRole
  }

  /** A copy of the content parts. */
  get content(): ContentPart[] {
    return this.parts.slice()
  }

  /** A copy of the tool calls. */
  get toolCalls(): ToolCall[] {
    return this.calls.length > 0 ? this.calls.slice() : []
  }

  get toolCallId(): string | undefined {
    return this.answers
  }

  get isError(): boolean {
    return this.error
  }

  get errorCode(): string | undefined {
    return this.code
  }

  partCount(): number {
    return this.parts.length
  }

  partAt(i: number): ContentPart {
    return this.parts[i]
  }

  callCount(): number {
    return this.calls.length
  }

  callAt(i: number): ToolCall {
    return this.calls[i]
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

  /** What a text-only model is sent: text, with typed parts (images, resources, json) described. */
  modelText(): string {
    return ContentPart.modelTextOf(this.parts)
  }

  reasoning(): string {
    return this.joinParts(ContentPartType.reasoning)
  }

  hasToolCalls(): boolean {
    return this.calls.length > 0
  }

  private joinParts(type: ContentPartType): string {
    let out = ''
    for (let i = 0; i < this.parts.length; i++) {
      if (this.parts[i].type === type) {
        out += this.parts[i].text
      }
    }
    return out
  }
}
