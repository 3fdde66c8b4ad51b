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
  /**
   * No switch: `ModelRequest.thinking` is not sent, on or off. For servers without one, and for models
   * that cannot switch (no reasoning at all, like OpenAI's gpt-4.1, or always reasoning, like
   * `kimi-k2-thinking`): "off" on such a model means sending nothing, never a value it rejects.
   */
  none = 'none',
  /** `"thinking": {"type": "enabled" | "disabled"}` (DeepSeek, Zhipu GLM-4.5+, Moonshot Kimi K2.5+). */
  thinkingType = 'thinking_type',
  /** `"enable_thinking": true | false` (Qwen on DashScope). */
  enableThinking = 'enable_thinking',
  /** `"reasoning_effort": <on value> | <off value>` (OpenAI reasoning models, Ollama). */
  reasoningEffort = 'reasoning_effort'
}

/** The request field that bounds the length of the answer (`ModelRequest.maxTokens`). */
export enum TokenLimitParam {
  /** `max_tokens`: DeepSeek, Zhipu GLM, Ollama, vLLM. OpenAI's reasoning models reject it (HTTP 400). */
  maxTokens = 'max_tokens',
  /**
   * `max_completion_tokens`: OpenAI (every chat model; `max_tokens` is deprecated there), Qwen on
   * Model Studio (since 2026-04-20; `max_tokens` deprecated), Moonshot Kimi (`max_tokens` deprecated).
   */
  maxCompletionTokens = 'max_completion_tokens'
}

/** Where the usage of a streamed answer arrives. */
export enum UsageLocation {
  /**
   * The chunk's top-level `usage`: a last chunk with `choices: []` (OpenAI's
   * `stream_options.include_usage`: OpenAI, DeepSeek, Qwen, Ollama, vLLM), or the last choice chunk (GLM).
   */
  chunk = 'chunk',
  /** Inside the last choice: `choices[0].usage` (Moonshot Kimi). */
  choice = 'choice'
}

/** How a vendor is asked for a JSON answer (ModelRequest.output). The runtime checks the answer either way. */
export enum OutputMode {
  /** Nothing is sent: the schema is only instructed in the system prompt. */
  none = 'none',
  /** `response_format: {"type": "json_object"}` (JSON mode: any JSON object; the prompt carries the schema). */
  jsonObject = 'json_object',
  /** `response_format: {"type": "json_schema", "json_schema": {name, schema, strict}}` (structured outputs). */
  jsonSchema = 'json_schema'
}

/**
 * What differs between OpenAI-compatible vendors on the wire, as data: whether reasoning goes back,
 * how thinking is switched, which field bounds the answer, where usage arrives. A vendor whose model
 * families differ (OpenAI: gpt-4.1 has no reasoning, gpt-5 cannot turn it off, gpt-5.1 can) lists
 * them as `families`: the provider uses the profile of the first family matching the request's
 * model (`forModel`), this one otherwise. The encoder and decoder read the profile; they have no
 * vendor special cases. Streamed reasoning is read from both `reasoning_content` and `reasoning`
 * (Ollama, newer vLLM), and usage from both places, whatever the profile says (the profile's place
 * wins when a chunk carries both).
 */
export class WireProfile {
  readonly reasoningEcho: ReasoningEcho
  readonly thinking: ThinkingStyle
  /** The request field that carries echoed reasoning. */
  readonly reasoningField: string
  /** With ThinkingStyle.reasoningEffort: the value sent for "think" ('' sends nothing: the model's default). */
  readonly effortOn: string
  /** With ThinkingStyle.reasoningEffort: the value sent for "don't think" ('' sends nothing). */
  readonly effortOff: string
  /** The field `ModelRequest.maxTokens` goes into. */
  readonly tokenLimit: TokenLimitParam
  /** Where the vendor reports usage in a stream. */
  readonly usage: UsageLocation
  /** Model families whose wire differs from this profile's, first match wins (see forModel). */
  readonly families: ModelFamily[]
  /** How a structured answer is asked for (`response_format`); none: only instructed. */
  readonly output: OutputMode

  constructor(reasoningEcho: ReasoningEcho, thinking: ThinkingStyle, reasoningField: string = 'reasoning_content',
    effortOn: string = '', effortOff: string = 'none', tokenLimit: TokenLimitParam = TokenLimitParam.maxTokens,
    usage: UsageLocation = UsageLocation.chunk, families: ModelFamily[] = [], output: OutputMode = OutputMode.none) {
    this.reasoningEcho = reasoningEcho
    this.thinking = thinking
    this.reasoningField = reasoningField
    this.effortOn = effortOn
    this.effortOff = effortOff
    this.tokenLimit = tokenLimit
    this.usage = usage
    this.families = families.slice()
    this.output = output
  }

  /** The same profile with another thinking switch (`on`/`off`: the reasoning_effort values). */
  withThinking(thinking: ThinkingStyle, effortOn: string = '', effortOff: string = ''): WireProfile {
    return new WireProfile(this.reasoningEcho, thinking, this.reasoningField, effortOn, effortOff, this.tokenLimit,
      this.usage, this.families, this.output)
  }

  /** The same profile with another token-limit field. */
  withTokenLimit(tokenLimit: TokenLimitParam): WireProfile {
    return new WireProfile(this.reasoningEcho, this.thinking, this.reasoningField, this.effortOn, this.effortOff,
      tokenLimit, this.usage, this.families, this.output)
  }

  /** The same profile with usage read from another place. */
  withUsage(usage: UsageLocation): WireProfile {
    return new WireProfile(this.reasoningEcho, this.thinking, this.reasoningField, this.effortOn, this.effortOff,
      this.tokenLimit, usage, this.families, this.output)
  }

  /** The same profile with these model families (they replace any it had). */
  withFamilies(families: ModelFamily[]): WireProfile {
    return new WireProfile(this.reasoningEcho, this.thinking, this.reasoningField, this.effortOn, this.effortOff,
      this.tokenLimit, this.usage, families, this.output)
  }

  /** The same profile asking for structured answers another way (its families keep theirs). */
  withOutput(output: OutputMode): WireProfile {
    return new WireProfile(this.reasoningEcho, this.thinking, this.reasoningField, this.effortOn, this.effortOff,
      this.tokenLimit, this.usage, this.families, output)
  }

  /** The family `model` belongs to; undefined when none matches (this profile applies). */
  familyOf(model: string): ModelFamily | undefined {
    for (let i = 0; i < this.families.length; i++) {
      if (this.families[i].matches(model)) {
        return this.families[i]
      }
    }
    return undefined
  }

  /** The profile for requests to `model`: its family's, or this one. */
  forModel(model: string): WireProfile {
    const family = this.familyOf(model)
    return family !== undefined ? family.profile : this
  }

  /** Any OpenAI-compatible server: reasoning is never sent back, no thinking switch, `max_tokens`. */
  static readonly generic: WireProfile = new WireProfile(ReasoningEcho.never, ThinkingStyle.none)
}

/**
 * Models of one vendor that speak differently from the vendor's default (e.g. OpenAI's non-reasoning
 * gpt-4.1): a pattern over the model id (matched case-insensitively, anywhere a RegExp matches: anchor
 * it) and the whole profile those models use.
 */
export class ModelFamily {
  /** Shown in docs and diagnostics, e.g. 'gpt-4.1, gpt-4o (no reasoning)'. */
  readonly name: string
  readonly pattern: RegExp
  readonly profile: WireProfile

  constructor(name: string, pattern: RegExp, profile: WireProfile) {
    this.name = name
    this.pattern = new RegExp(pattern.source, 'i')
    this.profile = profile
  }

  matches(model: string): boolean {
    return this.pattern.test(model)
  }
}
