/** Which assistant messages carry their reasoning back to the vendor on later requests. */
export enum ReasoningEcho {
  /** Never sent (vendors that do not read it back, or reject it). */
  never = 'never',
  /**
   * Every assistant message that made tool calls carries `reasoning_content` (an empty string when
   * it had none): DeepSeek answers HTTP 400 without it, Kimi thinking models too, and GLM asks for it
   * in interleaved thinking. Messages without tool calls carry none (the vendors ignore it there).
   */
  toolTurns = 'tool_turns',
  /** Every assistant message carries it (vendors with preserved thinking across turns). */
  all = 'all'
}

/** How a vendor's request says "think" or "don't think". */
export enum ThinkingStyle {
  /** No switch: `ModelRequest.thinking` is not sent. */
  none = 'none',
  /** `"thinking": {"type": "enabled" | "disabled"}` (DeepSeek, Zhipu GLM-4.5+, Moonshot Kimi). */
  thinkingType = 'thinking_type',
  /** `"enable_thinking": true | false` (Qwen on DashScope). */
  enableThinking = 'enable_thinking',
  /** `"reasoning_effort": <on value> | <off value>` (OpenAI, Ollama). */
  reasoningEffort = 'reasoning_effort'
}

/**
 * What differs between OpenAI-compatible vendors on the wire, as data: whether reasoning goes back,
 * how thinking is switched, which field carries reasoning in a request. The encoder reads the
 * profile; it has no vendor special cases. Streamed reasoning is read from both `reasoning_content`
 * and `reasoning` (Ollama, newer vLLM) whatever the profile says.
 */
export class WireProfile {
  readonly reasoningEcho: ReasoningEcho
  readonly thinking: ThinkingStyle
  /** The request field that carries echoed reasoning. */
  readonly reasoningField: string
  /** With ThinkingStyle.reasoningEffort: the value sent for "think" ('' sends nothing: the model's default). */
  readonly effortOn: string
  /** With ThinkingStyle.reasoningEffort: the value sent for "don't think". */
  readonly effortOff: string

  constructor(reasoningEcho: ReasoningEcho, thinking: ThinkingStyle, reasoningField: string = 'reasoning_content',
    effortOn: string = '', effortOff: string = 'none') {
    this.reasoningEcho = reasoningEcho
    this.thinking = thinking
    this.reasoningField = reasoningField
    this.effortOn = effortOn
    this.effortOff = effortOff
  }

  /** Any OpenAI-compatible server: reasoning is never sent back, no thinking switch. */
  static readonly generic: WireProfile = new WireProfile(ReasoningEcho.never, ThinkingStyle.none)
}
