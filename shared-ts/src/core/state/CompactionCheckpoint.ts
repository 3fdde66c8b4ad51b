import { AgentMessage, MessageRole } from '../model/AgentMessage'
/**
 * Where a session's context was compacted: requests send `summary` in place of history[0, upTo),
 * except the `pinned` messages (indices below upTo), which are sent as they are. History itself is
 * never rewritten; the checkpoint is stored (mandatory) before any request uses it, so a restored
 * session builds the same request. Immutable.
 */
export class CompactionCheckpoint {
  readonly id: string
  readonly upTo: number
  readonly summary: string
  /** Ascending, unique, each below upTo. */
  readonly pinned: number[]
  /** True when the summary could not be made and the range was left out with a note instead. */
  readonly truncated: boolean
  readonly createdAtMs: number

  constructor(id: string, upTo: number, summary: string, pinned: number[], truncated: boolean, createdAtMs: number) {
    this.id = id
    this.upTo = upTo
    this.summary = summary
    this.pinned = pinned.slice()
    this.truncated = truncated
    this.createdAtMs = createdAtMs
  }

  /** A copy (its pinned list is an array a holder of a snapshot could change). */
  clone(): CompactionCheckpoint {
    return new CompactionCheckpoint(this.id, this.upTo, this.summary, this.pinned, this.truncated, this.createdAtMs)
  }

  /** '' when the fields are consistent with a history of `historyLength` messages, else what is wrong. */
  problem(historyLength: number): string {
    if (!Number.isInteger(this.upTo) || this.upTo < 0 || this.upTo > historyLength) {
      return `upTo ${this.upTo} is outside the history (0..${historyLength})`
    }
    for (let i = 0; i < this.pinned.length; i++) {
      const p = this.pinned[i]
      if (!Number.isInteger(p) || p < 0 || p >= this.upTo || (i > 0 && p <= this.pinned[i - 1])) {
        return 'pinned must be ascending unique indices below upTo'
      }
    }
    return ''
  }

  /**
   * Pins as sent: ascending and unique, and whole exchanges — an assistant message with tool calls
   * brings its results, a tool result brings its call and the other results of that call.
   */
  static expandPins(history: AgentMessage[], pins: number[], upTo: number): number[] {
    const set = new Set<number>()
    for (let i = 0; i < pins.length; i++) {
      let start = pins[i]
      while (start > 0 && history[start].role === MessageRole.tool) {
        start--
      }
      set.add(start)
      for (let j = start + 1; j < upTo && history[j].role === MessageRole.tool; j++) {
        set.add(j)
      }
    }
    const out: number[] = []
    set.forEach((v: number): void => {
      out.push(v)
    })
    out.sort((a: number, b: number): number => a - b)
    return out
  }
}
