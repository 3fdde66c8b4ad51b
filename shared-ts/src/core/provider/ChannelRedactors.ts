import { Redactor, StreamRedactor } from '../redaction/Redactor'
import { SecretVault } from '../secrets/SecretVault'
import { StreamingEvent, StreamingEventType } from './StreamingEvent'

/**
 * What a provider's sink is shown passes a StreamRedactor per channel — text, reasoning, and the
 * arguments of each tool call — so a secret a server echoes is never shown, even split across
 * chunks; a tool call's id and name are redacted whole. Usage events carry only numbers.
 */
export class ChannelRedactors {
  private readonly text: StreamRedactor = Redactor.stream()
  private readonly reasoning: StreamRedactor = Redactor.stream()
  private readonly calls: Map<number, StreamRedactor> = new Map<number, StreamRedactor>()
  private readonly callIds: Map<number, string> = new Map<number, string>()

  /**
   * The events to deliver now for `event`, in order. Text held back on other channels is let out
   * first, so the order of channels is kept (reasoning before the answer, text before a tool call,
   * everything before usage).
   */
  pass(event: StreamingEvent): StreamingEvent[] {
    const out: StreamingEvent[] = []
    if (!SecretVault.active) {
      out.push(event)
      return out
    }
    if (event.type === StreamingEventType.textDelta) {
      this.flushReasoning(out)
      this.flushCalls(out)
      const shown = this.text.push(event.text)
      if (shown.length > 0) {
        out.push(shown === event.text ? event : StreamingEvent.text(shown))
      }
      return out
    }
    if (event.type === StreamingEventType.reasoningDelta) {
      this.flushText(out)
      this.flushCalls(out)
      const shown = this.reasoning.push(event.text)
      if (shown.length > 0) {
        out.push(shown === event.text ? event : StreamingEvent.reasoning(shown))
      }
      return out
    }
    this.flushReasoning(out)
    this.flushText(out)
    if (event.type === StreamingEventType.toolCallDelta) {
      let r = this.calls.get(event.toolCallIndex)
      if (r === undefined) {
        r = Redactor.stream()
        this.calls.set(event.toolCallIndex, r)
      }
      const id = SecretVault.redact(event.toolCallId)
      if (id.length > 0) {
        this.callIds.set(event.toolCallIndex, id)
      }
      const args = r.push(event.text)
      const name = SecretVault.redact(event.toolName)
      if (args.length === 0 && event.toolCallId.length === 0 && event.toolName.length === 0) {
        return out
      }
      out.push(args === event.text && id === event.toolCallId && name === event.toolName ? event :
        StreamingEvent.toolCallDelta(event.toolCallIndex, id, name, args))
      return out
    }
    this.flushCalls(out)
    out.push(event)
    return out
  }

  private flushText(out: StreamingEvent[]): void {
    const rest = this.text.flush()
    if (rest.length > 0) {
      out.push(StreamingEvent.text(rest))
    }
  }

  private flushReasoning(out: StreamingEvent[]): void {
    const rest = this.reasoning.flush()
    if (rest.length > 0) {
      out.push(StreamingEvent.reasoning(rest))
    }
  }

  private flushCalls(out: StreamingEvent[]): void {
    this.calls.forEach((r: StreamRedactor, index: number): void => {
      const rest = r.flush()
      if (rest.length > 0) {
        const id = this.callIds.get(index)
        out.push(StreamingEvent.toolCallDelta(index, id !== undefined ? id : '', '', rest))
      }
    })
  }

  /** What is still held back on every channel, redacted (the stream ended). */
  flush(): StreamingEvent[] {
    const out: StreamingEvent[] = []
    this.flushReasoning(out)
    this.flushText(out)
    this.flushCalls(out)
    return out
  }
}
