// The settings of an OpenAI-compatible provider, and how a vendor preset fills them: a provider that
// says it is a known vendor (by `preset`, or by that preset's id as `providerId`) always carries the
// vendor's wire profile and error table unless the app replaces them explicitly.
import { Clock } from '../transport/Clock'
import { HttpTransport } from '../transport/HttpTransport'
import { ConfigCheck } from '../util/ConfigCheck'
import { ProviderPreset, ProviderPresets } from './ProviderPresets'
import { RetryPolicy } from './RetryPolicy'
import { ErrorRule } from './VendorErrors'
import { WireProfile } from './WireProfile'

/**
 * Settings of an OpenAI-compatible endpoint. `transport` is required, and `baseUrl` unless a
 * `preset` gives it.
 */
export interface OpenAICompatibleOptions {
  transport: HttpTransport
  /** e.g. `https://api.deepseek.com`; `/chat/completions` is appended. Default: the preset's. */
  baseUrl?: string
  /**
   * A known vendor: its endpoint, default model, wire profile, error table, context window and
   * output reserve fill every option not given here.
   */
  preset?: ProviderPreset
  /** Sent only as `Authorization: Bearer …`; empty for servers without auth. */
  apiKey?: string
  /** Used when a request names no model. Default: the preset's default model. */
  model?: string
  /**
   * Names the provider in errors and `providerId`; default the preset's id, else 'openai-compatible'.
   * A preset's id brings that preset's wire profile and error table (unless `profile`/`errorRules` are given).
   */
  providerId?: string
  retry?: RetryPolicy
  /** From sending the request to the first body bytes (keep-alive comments count). Default 120 s. */
  firstChunkTimeoutMs?: number
  /** Longest silence between body chunks once data flows. Default 60 s. */
  idleTimeoutMs?: number
  clock?: Clock
  /** Extra request headers (names are lower-cased). */
  headers?: Record<string, string>
  /** Extra top-level body fields. The thinking switch (`ModelRequest.thinking`) and conversation fields win. */
  extraBody?: Record<string, Object>
  /**
   * Thinking on or off for requests that do not say (`ModelRequest.thinking` undefined, e.g. a runtime
   * without `AgentRuntimeConfig.thinking`); absent: the vendor's default.
   */
  thinking?: boolean
  /**
   * How reasoning, thinking, the token limit and usage go on the wire, per model family (a preset
   * brings its vendor's); default WireProfile.generic.
   */
  profile?: WireProfile
  /** The vendor's error table, tried before the status-based defaults (a preset brings its own). */
  errorRules?: ErrorRule[]
  /** The model's context window in tokens (a preset brings its default model's); 0 or absent: unknown. */
  contextWindow?: number
  /** Tokens to keep free for the answer (a preset brings one). */
  outputReserve?: number
}

/**
 * What `OpenAICompatibleProvider.fromPreset(preset, options)` takes: everything but what the preset
 * decides (its id, wire profile, error table, context window and output reserve).
 */
export interface PresetProviderOptions {
  transport: HttpTransport
  /** Required by vendors in the cloud; local servers (ollama, vllm) take none. */
  apiKey?: string
  /** Default: the preset's default model (a local server's preset has none: name one). */
  model?: string
  /** Default: the preset's endpoint (give another region's, or a local server's port). */
  baseUrl?: string
  retry?: RetryPolicy
  firstChunkTimeoutMs?: number
  idleTimeoutMs?: number
  clock?: Clock
  headers?: Record<string, string>
  extraBody?: Record<string, Object>
  /** Thinking on or off for requests that do not say; absent: the vendor's default. */
  thinking?: boolean
}

/** The names OpenAICompatibleOptions may have (a misspelt one is refused, never ignored). */
export const PROVIDER_OPTION_NAMES: string[] = ['transport', 'baseUrl', 'preset', 'apiKey', 'model', 'providerId', 'retry',
  'firstChunkTimeoutMs', 'idleTimeoutMs', 'clock', 'headers', 'extraBody', 'thinking', 'profile', 'errorRules',
  'contextWindow', 'outputReserve']

/** The names PresetProviderOptions may have. */
export const PRESET_OPTION_NAMES: string[] = ['transport', 'apiKey', 'model', 'baseUrl', 'retry', 'firstChunkTimeoutMs',
  'idleTimeoutMs', 'clock', 'headers', 'extraBody', 'thinking']

/** OpenAICompatibleOptions as a preset fills them in: every field the app left out taken from the preset. */
export class ResolvedProviderOptions {
  baseUrl: string = ''
  model: string | undefined = undefined
  providerId: string = 'openai-compatible'
  profile: WireProfile | undefined = undefined
  errorRules: ErrorRule[] | undefined = undefined
  contextWindow: number | undefined = undefined
  outputReserve: number | undefined = undefined

  /** The preset `options` name (by `preset`, else by a preset's id as `providerId`), applied. */
  static of(options: OpenAICompatibleOptions): ResolvedProviderOptions {
    const out = new ResolvedProviderOptions()
    let preset: ProviderPreset | undefined = undefined
    if (options.preset !== undefined) {
      if (!(options.preset instanceof ProviderPreset)) {
        throw ConfigCheck.invalid(`preset must be a ProviderPreset (e.g. ProviderPresets.deepseek); got ${ConfigCheck.show(options.preset)}`)
      }
      preset = options.preset
    } else if (typeof options.providerId === 'string') {
      preset = ProviderPresets.byId(options.providerId)
    }
    out.providerId = options.providerId !== undefined ? options.providerId : preset !== undefined ? preset.id : 'openai-compatible'
    if (options.baseUrl !== undefined) {
      out.baseUrl = options.baseUrl
    } else if (preset !== undefined) {
      out.baseUrl = preset.baseUrl
    } else {
      throw ConfigCheck.invalid('baseUrl is required (an http(s) URL such as https://api.deepseek.com), unless a preset gives it')
    }
    const ownModel = typeof options.model === 'string' && options.model.length > 0
    out.model = ownModel || preset === undefined || typeof options.model !== 'string' && options.model !== undefined ?
      options.model : preset.defaultModel
    out.profile = options.profile !== undefined || preset === undefined ? options.profile : preset.profile
    out.errorRules = options.errorRules !== undefined || preset === undefined ? options.errorRules : preset.errorRules
    out.contextWindow = options.contextWindow !== undefined || preset === undefined ? options.contextWindow : preset.contextWindow
    out.outputReserve = options.outputReserve !== undefined || preset === undefined ? options.outputReserve : preset.outputReserve
    return out
  }
}
