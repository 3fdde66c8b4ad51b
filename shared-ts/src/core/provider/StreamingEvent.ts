import { Usage } from '../model/ModelResponse'

/** What a streamed provider event carries: a text delta, a reasoning delta, a piece of a tool call, or usage. */
export enum StreamingEventType {
  textDelta = 'text_delta',
  reasoningDelta = 'reasoning_delta',
  /** A piece of a tool call (name on the first piece of an index, then argument text). */
  toolCallDelta = 'tool_call_delta',
  usage = 'usage'
}

/** One increment of a streamed model answer, as a provider emits it. */
export class StreamingEvent {
  readonly type: StreamingEventType
  readonly text: string
  readonly toolCallIndex: number
  readonly toolCallId: string
  readonly toolName: string
  readonly usage?: Usage

  private constructor(type: StreamingEventType, text: string, toolCallIndex: number = -1,
    toolCallId: string = '', toolName: string = '', usage?: Usage) {
    this.type = type
    this.text = text
    this.toolCallIndex = toolCallIndex
    this.toolCallId = toolCallId
    this.toolName = toolName
    this.usage = usage
  }

  static text(text: string): StreamingEvent {
    return new StreamingEvent(StreamingEventType.textDelta, text)
  }

  static reasoning(text: string): StreamingEvent {
    return new StreamingEvent(StreamingEventType.reasoningDelta, text)
  }

  static toolCallDelta(index: number, id: string, name: string, argumentsDelta: string): StreamingEvent {
    return new StreamingEvent(StreamingEventType.toolCallDelta, argumentsDelta, index, id, name)
  }

  static usageEvent(usage: Usage): StreamingEvent {
    return new StreamingEvent(StreamingEventType.usage, '', -1, '', '', usage)
  }
}
