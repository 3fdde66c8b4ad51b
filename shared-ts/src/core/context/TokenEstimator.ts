import { AgentMessage, MessageRole } from '../model/AgentMessage'
import { ToolDefinition } from '../model/ToolDefinition'
import { ReasoningEcho } from '../provider/WireProfile'
import { HostYield } from '../host/HostYield'

/** Tokens a chat message costs beyond its text (role, separators). */
const MESSAGE_OVERHEAD: number = 4
/** Tokens a tool call or a tool definition costs beyond its text (type, id, braces). */
const ITEM_OVERHEAD: number = 8

/** True for a code unit of Chinese, Japanese or Korean script (and their full-width forms). */
function isCjk(c: number): boolean {
  return (c >= 0x2e80 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xff00 && c <= 0xffef) || (c >= 0x3000 && c <= 0x303f)
}

/**
 * Token estimates without a tokenizer (the core ships none: vocabularies are megabytes and differ per
 * vendor). DeepSeek documents about 0.3 token per English character and 0.6 per Chinese character;
 * the same ratios are close for GLM and Qwen. A surrogate pair (emoji, rare CJK) counts like a CJK
 * character. The runtime multiplies these raw estimates by a calibration learned from the
 * `usage.prompt_tokens` each provider reports (ContextBudget), so the ratios only need to be near.
 */
export class TokenEstimator {
  static text(text: string): number {
    let cjk = 0
    let other = 0
    const n = text.length
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i)
      if (isCjk(c)) {
        cjk++
      } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
        cjk++
        i++
      } else {
        other++
      }
    }
    return Math.ceil(cjk * 0.6 + other * 0.3)
  }

  /** A message as sent: its model text, its calls, and its reasoning when `withReasoning`. */
  static message(m: AgentMessage, withReasoning: boolean = false): number {
    let tokens = MESSAGE_OVERHEAD + TokenEstimator.text(m.modelText()) + (withReasoning ? TokenEstimator.text(m.reasoning()) : 0)
    for (let i = 0; i < m.callCount(); i++) {
      const call = m.callAt(i)
      tokens += ITEM_OVERHEAD + TokenEstimator.text(call.name) + TokenEstimator.text(call.argumentsJson)
    }
    return tokens
  }

  /**
   * Whether a request carries `m`'s reasoning, as the wire encoder decides it for a provider whose
   * profile says `echo` (OpenAIWireFormat): never; every assistant message with tool calls; every
   * assistant message. Counting reasoning a vendor never receives would teach the calibration that
   * text is cheaper than it is.
   */
  static sendsReasoning(m: AgentMessage, echo: ReasoningEcho): boolean {
    if (m.role !== MessageRole.assistant || echo === ReasoningEcho.never) {
      return false
    }
    return echo === ReasoningEcho.all || m.callCount() > 0
  }

  /** A request's messages, each as the wire sends it to a provider whose profile says `echo`. */
  static messages(messages: AgentMessage[], echo: ReasoningEcho = ReasoningEcho.never): number {
    let tokens = 0
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i]
      tokens += TokenEstimator.message(m, TokenEstimator.sendsReasoning(m, echo))
    }
    return tokens
  }

  /**
   * What `messages` returns, giving the (UI) thread back between messages when a slice is used up
   * (HostYield): a 10,000-message session is estimated before every compaction.
   */
  static async messagesAsync(messages: AgentMessage[], echo: ReasoningEcho = ReasoningEcho.never): Promise<number> {
    let tokens = 0
    for (let i = 0; i < messages.length; i++) {
      if ((i & 31) === 0 && HostYield.due()) {
        await HostYield.now()
      }
      const m = messages[i]
      tokens += TokenEstimator.message(m, TokenEstimator.sendsReasoning(m, echo))
    }
    return tokens
  }

  static tools(tools: ToolDefinition[]): number {
    let tokens = 0
    for (let i = 0; i < tools.length; i++) {
      const t = tools[i]
      tokens += ITEM_OVERHEAD + TokenEstimator.text(t.name) + TokenEstimator.text(t.description) +
        TokenEstimator.text(JSON.stringify(t.parameters))
    }
    return tokens
  }
}
