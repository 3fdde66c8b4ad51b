import { ContentPart } from './ContentPart'

/** The outcome of one tool call, sent back to the model paired by `callId`. */
export class ToolResult {
  readonly callId: string
  readonly content: ContentPart[]
  readonly isError: boolean
  readonly errorCode?: string

  constructor(callId: string, content: ContentPart[], isError: boolean = false, errorCode?: string) {
    this.callId = callId
    this.content = content
    this.isError = isError
    this.errorCode = errorCode
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
    return new ToolResult(callId, this.content, this.isError, this.errorCode)
  }

  textContent(): string {
    let out = ''
    for (let i = 0; i < this.content.length; i++) {
      out += this.content[i].text
    }
    return out
  }
}
