import { BusEvent } from './BusEvent'
import { ControllerEventTypes } from './ControllerEventTypes'

/**
 * The structured answer as it streams (AgentRuntimeConfig.partialOutput): the parsed prefix of the
 * answer's text so far (PartialJson — open objects and arrays closed, a cut-off string kept as far
 * as it arrived, a cut-off number or literal left out). Published after the chunk's `llm.chunk`,
 * from the text after chunk hooks, whenever the view changed. A view for UIs, never the answer: the
 * final answer is checked whole (`RunOutcome.output`), and a turn that ends in tool calls or a
 * repair turn streams its own views. Never terminal.
 */
export class OutputPartialEvent extends BusEvent {
  /** The model turn within this run (as on that turn's `llm.before` and `llm.after`). */
  readonly turn: number
  /** The parsed prefix (an object, array, string, number, boolean or null). */
  readonly value: Object | null
  /** Characters of answer text seen so far in this turn. */
  readonly chars: number

  constructor(sessionId: string, runId: string, turn: number, value: Object | null, chars: number) {
    super(sessionId, runId)
    this.turn = turn
    this.value = value
    this.chars = chars
  }

  /** `ControllerEventTypes.outputPartial` ('output.partial'). */
  eventType(): string {
    return ControllerEventTypes.outputPartial
  }
}
