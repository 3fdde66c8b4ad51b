import { ContentPart, ContentPartType } from './ContentPart'

/**
 * The outcome of one tool call, sent back to the model paired by `callId`. Immutable: the content
 * array is copied in and `content` returns a copy, so a holder cannot change a stored result.
 */
export class ToolResult {
  private readonly resultCallId: string
  private readonly parts: ContentPart[]
  private readonly error: boolean
  private readonly code?: string

  constructor(callId: string, content: ContentPart[], isError: boolean = false, errorCode?: string) {
    this.resultCallId = callId
    this.parts = content.slice()
    this.error = isError
    this.code = errorCode
  }

  get callId(): string {
    return this.resultCallId
  }

  /** A copy of the parts (changing it changes nothing else). */
  get content(): ContentPart[] {
    return this.parts.slice()
  }

  get isError(): boolean {
    return this.error
  }

  get errorCode(): string | undefined {
    return this.code
  }

  static text(callId: string, text: string): ToolResult {
    return new ToolResult(callId, [ContentPart.text(text)], false)
  }

  static error(callId: string, code: string, message: string): ToolResult {
    return new ToolResult(callId, [ContentPart.text(message)], true, code)
  }

  /** Same content for another call id (hooks build synthetic results without knowing the id). */
  forCall(callId: string): ToolResult {
    if (callId === this.callId) {
      return this
    }
    return new ToolResult(callId, this.parts, this.error, this.code)
  }

  /** The text parts joined (typed parts left out; see `modelText`). */
  textContent(): string {
    let out = ''
    for (let i = 0; i < this.parts.length; i++) {
      if (this.parts[i].type === ContentPartType.text) {
        out += this.parts[i].text
      }
    }
    return out
  }

  /** What a text-only model is sent for this result: text, with images, resources and json described. */
  modelText(): string {
    return ContentPart.modelTextOf(this.parts)
  }

  /** True when a part is not plain text (image, audio, resource, json). */
  hasTypedParts(): boolean {
    for (let i = 0; i < this.parts.length; i++) {
      if (this.parts[i].isTyped()) {
        return true
      }
    }
    return false
  }
}
