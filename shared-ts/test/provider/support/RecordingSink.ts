import type { ModelStreamSink } from '../../../src/core/provider/ModelProvider'
import { StreamingEvent, StreamingEventType } from '../../../src/core/provider/StreamingEvent'
import type { ModelResponse } from '../../../src/core/model/ModelResponse'

/** Collects events; `onEach` lets a test act (cancel, throw, wait) at a chosen event. */
export class RecordingSink implements ModelStreamSink {
  readonly events: StreamingEvent[] = []
  constructor(private readonly onEach?: (event: StreamingEvent, count: number) => Promise<void> | void) {}

  async onEvent(event: StreamingEvent): Promise<void> {
    this.events.push(event)
    if (this.onEach !== undefined) await this.onEach(event, this.events.length)
  }

  text(): string {
    return this.events.filter((e) => e.type === StreamingEventType.textDelta).map((e) => e.text).join('')
  }

  reasoning(): string {
    return this.events.filter((e) => e.type === StreamingEventType.reasoningDelta).map((e) => e.text).join('')
  }

  /** Plain data for deep equality. */
  normalized(): Array<Record<string, unknown>> {
    return this.events.map((e) => ({ type: e.type, text: e.text, index: e.toolCallIndex, id: e.toolCallId,
      name: e.toolName, usage: e.usage === undefined ? undefined : { ...e.usage } }))
  }
}

export function plainResponse(response: ModelResponse): Record<string, unknown> {
  return {
    text: response.message.text(),
    reasoning: response.message.reasoning(),
    toolCalls: response.message.toolCalls.map((c) => ({ id: c.id, name: c.name, args: c.argumentsJson, index: c.index })),
    finishReason: response.finishReason,
    usage: { ...response.usage },
    model: response.model,
  }
}
