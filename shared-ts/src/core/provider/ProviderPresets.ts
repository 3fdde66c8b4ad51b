import { ErrorCodes } from '../errors/ArkAgentError'
import { ErrorRule } from './VendorErrors'
import { ModelFamily, OutputMode, ReasoningEcho, ThinkingStyle, TokenLimitParam, UsageLocation, WireProfile } from './WireProfile'

/**
 * A known OpenAI-compatible vendor: endpoint, models, its wire profile (reasoning round trip,
 * thinking switch) and its error table. docs/providers.md describes each one.
 */
export class ProviderPreset {
  readonly id: string
  readonly displayName: string
  readonly baseUrl: string
  /** '' when the server decides (a local server serves whatever model it loaded: name it). */
  readonly defaultModel: string
  readonly models: string[]
  readonly profile: WireProfile
  /** Tried before the status-based defaults; see ErrorRule. */
  readonly errorRules: ErrorRule[]
  /** False for local servers that need no API key. */
  readonly requiresKey: boolean
  /** The default model's context window in tokens (0: unknown, e.g. a local server). Conservative. */
  readonly contextWindow: number
  /** Tokens compaction keeps free for the answer. */
  readonly outputReserve: number

  constructor(id: string, displayName: string, baseUrl: string, defaultModel: string, models: string[],
    profile: WireProfile = WireProfile.generic, errorRules: ErrorRule[] = [], requiresKey: boolean = true,
    contextWindow: number = 0, outputReserve: number = 0) {
    this.id = id
    this.displayName = displayName
    this.baseUrl = baseUrl
    this.defaultModel = defaultModel
    this.models = models
    this.profile = profile
    this.errorRules = errorRules
    this.requiresKey = requiresKey
    this.contextWindow = contextWindow
    this.outputReserve = outputReserve
  }
}

function rule(status: number, match: string, messageIncludes: string, errorCode: string, retryable: boolean,
  meaning: string): ErrorRule {
  return new ErrorRule(status, match, messageIncludes, errorCode, retryable, meaning)
}

/** Zhipu's codes arrive as strings in `error.code` with HTTP 400, 401, 429 or even inside a 200 stream. */
function zhipuRules(): ErrorRule[] {
  const rows: ErrorRule[] = []
  const auth = ['1000', '1001', '1002', '1003', '1004']
  for (let i = 0; i < auth.length; i++) {
    rows.push(rule(0, auth[i], '', ErrorCodes.providerAuth, false, 'authentication failed (missing, invalid or expired key)'))
  }
  const account = ['1110', '1111', '1112', '1120', '1121']
  for (let i = 0; i < account.length; i++) {
    rows.push(rule(0, account[i], '', ErrorCodes.providerForbidden, false, 'account inactive, missing or locked'))
  }
  rows.push(rule(0, '1113', '', ErrorCodes.providerInsufficientBalance, false, 'account in arrears: balance exhausted'))
  rows.push(rule(0, '1211', '', ErrorCodes.providerNotFound, false, 'unknown model'))
  const params = ['1210', '1212', '1213', '1214', '1215']
  for (let i = 0; i < params.length; i++) {
    rows.push(rule(0, params[i], '', ErrorCodes.providerBadRequest, false, 'invalid request parameter'))
  }
  rows.push(rule(0, '1261', '', ErrorCodes.providerContextLength, false, 'prompt too long'))
  rows.push(rule(0, '1301', '', ErrorCodes.providerContentFilter, false, 'unsafe or sensitive content'))
  rows.push(rule(0, '1302', '', ErrorCodes.providerRateLimited, true, 'too many concurrent requests'))
  rows.push(rule(0, '1303', '', ErrorCodes.providerRateLimited, true, 'requests too frequent'))
  rows.push(rule(0, '1304', '', ErrorCodes.providerRateLimited, false, 'daily call limit reached'))
  rows.push(rule(0, '1305', '', ErrorCodes.providerRateLimited, true, 'model overloaded: traffic limit'))
  const plan = ['1308', '1309', '1310', '1311', '1312', '1313']
  for (let i = 0; i < plan.length; i++) {
    rows.push(rule(0, plan[i], '', ErrorCodes.providerRateLimited, false, 'usage limit of the plan reached'))
  }
  return rows
}

/**
 * OpenAI chat completions (platform.openai.com/docs/api-reference/chat/create):
 * `max_tokens` "is now deprecated in favor of `max_completion_tokens`, and is not compatible with o-series
 * models" — gpt-5 models reject it too (HTTP 400 `unsupported_parameter`: "Use 'max_completion_tokens'
 * instead"), and every model accepts `max_completion_tokens`, so it is the one sent. `reasoning_effort`
 * exists on reasoning models only (gpt-4.1 and gpt-4o answer HTTP 400 `unsupported_parameter`), and
 * its values differ by family (platform.openai.com/docs/guides/reasoning): models before gpt-5.1
 * default to `medium` and do not support `none` (gpt-5: `minimal` is the lowest); gpt-5.1 and later
 * default to `none` and support `none`, `low`, `medium`, `high` (no `minimal`); the o-series supports
 * `low`, `medium`, `high` (reasoning cannot be turned off: `low` is the least); gpt-5-pro only `high`.
 * Structured outputs (`response_format` json_schema) from gpt-4o-2024-08-06 and gpt-4o-mini on (gpt-4.1,
 * gpt-5, o1, o3, o4-mini); gpt-4-turbo and gpt-3.5-turbo have JSON mode only (json_object); o1-mini and
 * o1-preview take no `response_format`.
 */
function openaiProfile(): WireProfile {
  const base = new WireProfile(ReasoningEcho.never, ThinkingStyle.reasoningEffort, 'reasoning_content', '', 'minimal',
    TokenLimitParam.maxCompletionTokens, UsageLocation.chunk, [], OutputMode.jsonSchema)
  const none = base.withThinking(ThinkingStyle.none)
  return base.withFamilies([
    new ModelFamily('gpt-5 chat models (no reasoning controls)', /^gpt-5(\.\d+)?-chat/, none),
    new ModelFamily('gpt-5-pro (high effort only)', /^gpt-5(\.\d+)?-pro/, none),
    new ModelFamily('gpt-5.1 and later (default none)', /^gpt-5\.\d/,
      base.withThinking(ThinkingStyle.reasoningEffort, 'medium', 'none')),
    new ModelFamily('gpt-5, gpt-5-mini, gpt-5-nano (lowest: minimal)', /^gpt-5/, base),
    new ModelFamily('o1-mini, o1-preview (no reasoning_effort, no response_format)', /^o1-(mini|preview)/,
      none.withOutput(OutputMode.none)),
    new ModelFamily('o-series (lowest: low)', /^o\d/, base.withThinking(ThinkingStyle.reasoningEffort, '', 'low')),
    new ModelFamily('gpt-4-turbo, gpt-3.5-turbo (no reasoning, JSON mode only)', /^(gpt-4-turbo|gpt-3\.5)/,
      none.withOutput(OutputMode.jsonObject)),
    new ModelFamily('gpt-4.1, gpt-4o and older (no reasoning)', /^(gpt-4|gpt-3\.5|chatgpt-)/, none)
  ])
}

/**
 * Zhipu GLM: `max_tokens`; `thinking: {type}` "only supported by GLM-4.5 and above"
 * (docs.z.ai/guides/overview/concept-param): the GLM-4 models get no switch. Usage rides on the last
 * choice chunk, top level. Structured output is JSON mode only, `response_format: {"type": "json_object"}`
 * (docs.z.ai/guides/capabilities/struct-output).
 */
function zhipuProfile(): WireProfile {
  const base = new WireProfile(ReasoningEcho.toolTurns, ThinkingStyle.thinkingType).withOutput(OutputMode.jsonObject)
  return base.withFamilies([
    new ModelFamily('GLM-4 (no thinking)', /^glm-4-/, base.withThinking(ThinkingStyle.none))
  ])
}

/**
 * Qwen on Model Studio (DashScope compatible mode): `enable_thinking` switches hybrid-thinking models
 * (alibabacloud.com/help/en/model-studio/deep-thinking); since 2026-04-20 the token limit is
 * `max_completion_tokens` and `max_tokens` is deprecated (alibabacloud.com/en/notice/
 * model_studio_notice_of_changes_to_certain_model_fields_724). Usage: a last chunk with `choices: []`.
 * qwen-max (Qwen2.5-Max) does not think: no switch. Structured output: JSON mode (`json_object`, "most Qwen
 * models"; the messages must contain the word "JSON"); json_schema only on some qwen-plus snapshots, so
 * not asked for (alibabacloud.com/help/en/model-studio/qwen-structured-output).
 */
function qwenProfile(): WireProfile {
  const base = new WireProfile(ReasoningEcho.never, ThinkingStyle.enableThinking, 'reasoning_content', '', 'none',
    TokenLimitParam.maxCompletionTokens, UsageLocation.chunk, [], OutputMode.jsonObject)
  return base.withFamilies([
    new ModelFamily('qwen-max (no thinking)', /^qwen-max/, base.withThinking(ThinkingStyle.none))
  ])
}

/**
 * Moonshot Kimi (platform.moonshot.cn/docs/api/chat): a stream reports usage inside the last choice,
 * `choices[0].usage`, not at the top level; `max_completion_tokens` (its OpenAPI marks `max_tokens`
 * deprecated). `kimi-k2.5`/`kimi-k2.6` take `thinking: {type}` (on by default); `kimi-k2-thinking`
 * always thinks and moonshot-v1 never does (platform.moonshot.cn/docs/guide/use-kimi-k2-thinking-model):
 * no switch for them. JSON Mode: `response_format: {"type": "json_object"}`, objects only
 * (platform.moonshot.ai/docs/guide/use-json-mode-feature-of-kimi-api).
 */
function moonshotProfile(): WireProfile {
  const base = new WireProfile(ReasoningEcho.toolTurns, ThinkingStyle.thinkingType, 'reasoning_content', '', 'none',
    TokenLimitParam.maxCompletionTokens, UsageLocation.choice, [], OutputMode.jsonObject)
  const none = base.withThinking(ThinkingStyle.none)
  return base.withFamilies([
    new ModelFamily('kimi-k2-thinking (always thinks)', /^kimi-k2-thinking/, none),
    new ModelFamily('moonshot-v1 (no thinking)', /^moonshot-v1/, none)
  ])
}

/** The known OpenAI-compatible vendors (DeepSeek, Zhipu GLM, Qwen, Kimi, OpenAI, Ollama, vLLM), each a ProviderPreset; `byId` finds one. */
export class ProviderPresets {
  /**
   * DeepSeek. Thinking mode (on by default on the V4 models, `deepseek-reasoner` on the legacy
   * names) streams `reasoning_content`; an assistant message that made tool calls must send it
   * back on every later request, or the API answers HTTP 400 (api-docs.deepseek.com/guides/thinking_mode).
   * `max_tokens`, `thinking: {type}`; usage in a last chunk with `choices: []` (api-docs.deepseek.com/api/create-chat-completion).
   * JSON Output: `response_format: {"type": "json_object"}`, the prompt must contain "json" (api-docs.deepseek.com/guides/json_mode).
   */
  static readonly deepseek: ProviderPreset = new ProviderPreset('deepseek', 'DeepSeek',
    'https://api.deepseek.com', 'deepseek-v4-flash',
    ['deepseek-v4-flash', 'deepseek-v4-pro', 'deepseek-chat', 'deepseek-reasoner'],
    new WireProfile(ReasoningEcho.toolTurns, ThinkingStyle.thinkingType).withOutput(OutputMode.jsonObject), [
      rule(402, '', '', ErrorCodes.providerInsufficientBalance, false, 'insufficient balance'),
      rule(400, '', 'content exists risk', ErrorCodes.providerContentFilter, false, 'content flagged as risky'),
      rule(400, '', 'maximum context length', ErrorCodes.providerContextLength, false,
        'the conversation is longer than the model accepts')
    ], true, 128000, 8192)

  /**
   * Zhipu GLM (BigModel open platform; https://api.z.ai/api/paas/v4 for Z.AI). GLM-4.5+ takes
   * `thinking: {type}`; in interleaved thinking with tools the reasoning goes back with the results.
   */
  static readonly zhipu: ProviderPreset = new ProviderPreset('zhipu', 'Zhipu GLM',
    'https://open.bigmodel.cn/api/paas/v4', 'glm-4.5',
    ['glm-4.5', 'glm-4.5-air', 'glm-4.5-flash', 'glm-4.6', 'glm-4-plus', 'glm-4-air', 'glm-4-flash'],
    zhipuProfile(), zhipuRules(), true, 128000, 8192)

  /**
   * Qwen on Alibaba Cloud Model Studio (DashScope, OpenAI-compatible mode; Singapore:
   * https://dashscope-intl.aliyuncs.com/compatible-mode/v1). `enable_thinking` switches thinking
   * (only in streaming calls, which is all this client makes).
   */
  static readonly qwen: ProviderPreset = new ProviderPreset('qwen', 'Qwen (DashScope)',
    'https://dashscope.aliyuncs.com/compatible-mode/v1', 'qwen-plus',
    ['qwen-plus', 'qwen-max', 'qwen-turbo', 'qwen3-max', 'qwen3-235b-a22b'],
    qwenProfile(), [
      rule(0, 'Arrearage', '', ErrorCodes.providerInsufficientBalance, false, 'account overdue'),
      rule(0, 'InvalidApiKey', '', ErrorCodes.providerAuth, false, 'invalid API key'),
      rule(0, 'AccessDenied', '', ErrorCodes.providerForbidden, false, 'access denied'),
      rule(0, 'access_denied', '', ErrorCodes.providerForbidden, false, 'access denied'),
      rule(0, 'ModelNotFound', '', ErrorCodes.providerNotFound, false, 'unknown model'),
      rule(0, 'model_not_found', '', ErrorCodes.providerNotFound, false, 'unknown model'),
      rule(0, 'data_inspection_failed', '', ErrorCodes.providerContentFilter, false, 'blocked by content moderation'),
      rule(0, 'DataInspectionFailed', '', ErrorCodes.providerContentFilter, false, 'blocked by content moderation'),
      rule(0, '', 'range of input length', ErrorCodes.providerContextLength, false, 'input longer than the model accepts'),
      rule(0, 'Throttling', '', ErrorCodes.providerRateLimited, true, 'rate limited'),
      rule(0, 'Throttling.RateQuota', '', ErrorCodes.providerRateLimited, true, 'rate limited'),
      rule(0, 'Throttling.AllocationQuota', '', ErrorCodes.providerInsufficientBalance, false, 'quota exhausted')
    ], true, 131072, 8192)

  /**
   * Moonshot Kimi (https://api.moonshot.ai/v1 outside China; keys do not work across the two).
   * Thinking models stream `reasoning_content` and need it back on assistant tool-call messages.
   */
  static readonly moonshot: ProviderPreset = new ProviderPreset('moonshot', 'Moonshot Kimi',
    'https://api.moonshot.cn/v1', 'kimi-k2.5', ['kimi-k2.5', 'kimi-k2.6', 'kimi-k2-thinking'],
    moonshotProfile(), [
      rule(0, 'exceeded_current_quota_error', '', ErrorCodes.providerInsufficientBalance, false,
        'balance or quota exhausted'),
      rule(0, 'rate_limit_reached_error', '', ErrorCodes.providerRateLimited, true, 'rate limited'),
      rule(0, 'engine_overloaded_error', '', ErrorCodes.providerRateLimited, true, 'engine overloaded'),
      rule(0, 'invalid_authentication_error', '', ErrorCodes.providerAuth, false, 'authentication failed'),
      rule(0, 'incorrect_api_key_error', '', ErrorCodes.providerAuth, false, 'invalid API key'),
      rule(0, 'resource_not_found_error', '', ErrorCodes.providerNotFound, false, 'unknown model or resource'),
      rule(0, '', 'exceeded model token limit', ErrorCodes.providerContextLength, false,
        'the conversation is longer than the model accepts')
    ], true, 256000, 8192)

  /**
   * OpenAI. Chat completions return no reasoning text; `max_completion_tokens` bounds the answer on
   * every model, and `reasoning_effort` exists only on reasoning models, with values per family
   * (see openaiProfile).
   */
  static readonly openai: ProviderPreset = new ProviderPreset('openai', 'OpenAI', 'https://api.openai.com/v1',
    'gpt-5-mini', ['gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-5.1', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'o4-mini', 'o3'],
    openaiProfile(), [], true, 400000, 128000)

  /**
   * A local Ollama server (no key). Thinking models stream `reasoning`; `reasoning_effort: none` turns it off.
   * `response_format` json_schema is enforced by its grammar-constrained decoder (v0.5+).
   */
  static readonly ollama: ProviderPreset = new ProviderPreset('ollama', 'Ollama (local)', 'http://localhost:11434/v1',
    '', [], new WireProfile(ReasoningEcho.never, ThinkingStyle.reasoningEffort, 'reasoning', '', 'none')
      .withOutput(OutputMode.jsonSchema), [], false)

  /**
   * A local vLLM server (no key unless started with --api-key); reasoning parsers stream `reasoning`/`reasoning_content`.
   * `response_format` json_schema runs its structured-outputs backend.
   */
  static readonly vllm: ProviderPreset = new ProviderPreset('vllm', 'vLLM (local)', 'http://localhost:8000/v1', '',
    [], WireProfile.generic.withOutput(OutputMode.jsonSchema), [], false)

  static all(): ProviderPreset[] {
    return [ProviderPresets.deepseek, ProviderPresets.zhipu, ProviderPresets.qwen, ProviderPresets.moonshot,
      ProviderPresets.openai, ProviderPresets.ollama, ProviderPresets.vllm]
  }

  static byId(id: string): ProviderPreset | undefined {
    const all = ProviderPresets.all()
    for (let i = 0; i < all.length; i++) {
      if (all[i].id === id) {
        return all[i]
      }
    }
    return undefined
  }
}
