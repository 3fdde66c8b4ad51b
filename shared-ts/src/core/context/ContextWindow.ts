import { AgentMessage, MessageRole } from '../model/AgentMessage'
import { AgentState } from '../state/AgentState'
import { CompactionCheckpoint } from '../state/CompactionCheckpoint'
import { ReasoningEcho } from '../provider/WireProfile'
import { TokenEstimator } from './TokenEstimator'

/** Opens the system message that carries a compaction summary. */
export const SUMMARY_HEADER: string = 'Summary of the earlier conversation (older messages are not shown):\n'

/**
 * What a request is made of, as a pure function of the stored state, so a restored session builds
 * the same request: the system prompt, then (once compacted) the summary as a system message and
 * the kept messages — the pinned ones, and the newest user message when the cut passed it (a long
 * tool loop must not lose the task it works on) — then history from the checkpoint on. Also where
 * the next cut may go.
 */
export class ContextWindow {
  static requestMessages(systemPrompt: string, state: AgentState): AgentMessage[] {
    return ContextWindow.messagesOf(systemPrompt, state.history, state.compaction)
  }

  static messagesOf(systemPrompt: string, history: AgentMessage[], c: CompactionCheckpoint | undefined): AgentMessage[] {
    const out: AgentMessage[] = []
    if (systemPrompt.length > 0) {
      out.push(AgentMessage.system(systemPrompt))
    }
    let start = 0
    if (c !== undefined) {
      if (c.summary.length > 0) {
        out.push(AgentMessage.system(SUMMARY_HEADER + c.summary))
      }
      const kept = ContextWindow.kept(history, c.upTo, c.pinned)
      for (let i = 0; i < kept.length; i++) {
        out.push(history[kept[i]])
      }
      start = c.upTo
    }
    for (let i = start; i < history.length; i++) {
      out.push(history[i])
    }
    return out
  }

  /** The index of the newest user message; -1 when there is none. */
  static lastUserIndex(history: AgentMessage[]): number {
    for (let i = history.length - 1; i >= 0; i--) {
      if (history[i].role === MessageRole.user) {
        return i
      }
    }
    return -1
  }

  /** Indices below `upTo` sent as they are: `pinned`, and the newest user message if it is below `upTo`. */
  static kept(history: AgentMessage[], upTo: number, pinned: number[]): number[] {
    const lastUser = ContextWindow.lastUserIndex(history)
    if (lastUser < 0 || lastUser >= upTo || pinned.indexOf(lastUser) >= 0) {
      return pinned
    }
    const out = pinned.slice()
    out.push(lastUser)
    out.sort((a: number, b: number): number => a - b)
    return out
  }

  /**
   * The new checkpoint's upTo: the earliest start of a verbatim tail that fits `tailTokens` (raw
   * estimate), but never later than the last message that can start one, so the newest exchange is
   * always sent as it is. A tail never starts at a tool result (it would lose the call it answers).
   * Messages count as the wire sends them (`echo`: their reasoning too, where it goes back).
   * -1 when no message after `from` can be compacted.
   */
  static cutPoint(history: AgentMessage[], from: number, tailTokens: number,
    echo: ReasoningEcho = ReasoningEcho.never): number {
    let tokens = 0
    let best = -1
    for (let c = history.length - 1; c > from; c--) {
      tokens += TokenEstimator.message(history[c], TokenEstimator.sendsReasoning(history[c], echo))
      if (history[c].role === MessageRole.tool) {
        continue
      }
      if (best === -1 || tokens <= tailTokens) {
        best = c
      } else {
        break
      }
    }
    return best
  }

  /**
   * Pins as sent: ascending and unique, and whole exchanges — an assistant message with tool calls
   * brings its results, a tool result brings its call and the other results of that call.
   */
  static expandPins(history: AgentMessage[], pins: number[], upTo: number): number[] {
    return CompactionCheckpoint.expandPins(history, pins, upTo)
  }

  /** History indices in [from, upTo) that the summary covers (the pinned ones are sent as they are). */
  static summarized(history: AgentMessage[], from: number, upTo: number, pinned: number[]): AgentMessage[] {
    const out: AgentMessage[] = []
    for (let i = from; i < upTo; i++) {
      if (pinned.indexOf(i) < 0) {
        out.push(history[i])
      }
    }
    return out
  }
}
