import { AgentMessage } from '../model/AgentMessage'
import { FinishReason, ModelResponse, Usage } from '../model/ModelResponse'
import { ToolCall } from '../model/ToolCall'
import { Ids } from '../util/Ids'
import { WireChunk, WireToolCallDelta } from './OpenAIWireFormat'
import { StreamingEvent } from './StreamingEvent'

class ToolCallBuilder {
  readonly index: number
  id: string = ''
  name: string = ''
  readonly args: string[] = []

  constructor(index: number) {
    this.index = index
  }
}

/**
 * Folds decoded chunks into the final answer and the events to stream. Tool calls are keyed by
 * `index`: id and name come from the first delta that carries them, argument text is concatenated.
 */
export class StreamAssembler {
  private readonly text: string[] = []
  private readonly reasoning: string[] = []
  private readonly calls: Map<number, ToolCallBuilder> = new Map<number, ToolCallBuilder>()
  private lastIndex: number = -1
  private finish: string = ''
  private usage: Usage | null = null
  private model: string = ''

  get finishReason(): string {
    return this.finish
  }

  /** Applies one chunk, appending the events it produces to `out` (reasoning, text, tool calls, usage). */
  apply(chunk: WireChunk, out: StreamingEvent[]): void {
    if (this.model.length === 0 && chunk.model.length > 0) {
      this.model = chunk.model
    }
    const choice = chunk.choice
    if (choice !== null) {
      if (choice.reasoning.length > 0) {
        this.reasoning.push(choice.reasoning)
        out.push(StreamingEvent.reasoning(choice.reasoning))
      }
      if (choice.content.length > 0) {
        this.text.push(choice.content)
        out.push(StreamingEvent.text(choice.content))
      }
      for (let i = 0; i < choice.toolCalls.length; i++) {
        this.applyToolCall(choice.toolCalls[i], out)
      }
      if (choice.finishReason.length > 0) {
        this.finish = choice.finishReason
      }
    }
    if (chunk.usage !== null) {
      // Usage objects are running totals: the last one wins.
      this.usage = chunk.usage
      out.push(StreamingEvent.usageEvent(chunk.usage))
    }
  }

  toResponse(fallbackModel: string): ModelResponse {
    const indexes: number[] = []
    this.calls.forEach((builder: ToolCallBuilder, index: number): void => {
      indexes.push(index)
    })
    indexes.sort((a: number, b: number): number => a - b)
    const toolCalls: ToolCall[] = []
    for (let i = 0; i < indexes.length; i++) {
      const builder = this.calls.get(indexes[i]) as ToolCallBuilder
      const id = builder.id.length > 0 ? builder.id : Ids.next('call')
      toolCalls.push(new ToolCall(id, builder.name, builder.args.join(''), builder.index))
    }
    let finish = this.finish
    if (finish.length === 0) {
      finish = toolCalls.length > 0 ? FinishReason.toolCalls : FinishReason.unknown
    }
    const message = AgentMessage.assistant(this.text.join(''), toolCalls, this.reasoning.join(''))
    return new ModelResponse(message, finish, this.usage !== null ? this.usage : new Usage(),
      this.model.length > 0 ? this.model : fallbackModel)
  }

  private applyToolCall(delta: WireToolCallDelta, out: StreamingEvent[]): void {
    const index = this.resolveIndex(delta)
    let builder = this.calls.get(index)
    if (builder === undefined) {
      builder = new ToolCallBuilder(index)
      this.calls.set(index, builder)
    }
    this.lastIndex = index
    const id = builder.id.length === 0 ? delta.id : ''
    const name = builder.name.length === 0 ? delta.name : ''
    if (id.length > 0) {
      builder.id = id
    }
    if (name.length > 0) {
      builder.name = name
    }
    if (delta.argumentsDelta.length > 0) {
      builder.args.push(delta.argumentsDelta)
    }
    if (id.length > 0 || name.length > 0 || delta.argumentsDelta.length > 0) {
      out.push(StreamingEvent.toolCallDelta(index, id, name, delta.argumentsDelta))
    }
  }

  /** Servers that omit `index` send one call per id: a new id starts the next index. */
  private resolveIndex(delta: WireToolCallDelta): number {
    if (delta.index >= 0) {
      return delta.index
    }
    if (this.lastIndex < 0) {
      return 0
    }
    const last = this.calls.get(this.lastIndex) as ToolCallBuilder
    if (delta.id.length > 0 && last.id.length > 0 && delta.id !== last.id) {
      let max = -1
      this.calls.forEach((builder: ToolCallBuilder, index: number): void => {
        max = Math.max(max, index)
      })
      return max + 1
    }
    return this.lastIndex
  }
}
