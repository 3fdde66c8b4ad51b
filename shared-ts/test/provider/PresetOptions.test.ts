// A preset's behaviour (wire profile, error table, window) cannot be lost by how the provider is
// built: fromPreset with any options, the constructor with `preset`, or the constructor with a
// preset's id as providerId all carry it, unless the app replaces a part explicitly.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ModelRequest } from '../../src/core/model/ModelRequest'
import { OpenAICompatibleProvider } from '../../src/core/provider/OpenAICompatibleProvider'
import { PRESET_OPTION_NAMES, PROVIDER_OPTION_NAMES, type OpenAICompatibleOptions } from '../../src/core/provider/ProviderOptions'
import { ProviderPreset, ProviderPresets } from '../../src/core/provider/ProviderPresets'
import { RetryPolicy } from '../../src/core/provider/RetryPolicy'
import { ErrorRule } from '../../src/core/provider/VendorErrors'
import { WireProfile } from '../../src/core/provider/WireProfile'
import { HttpResponseHead, type HttpRequest, type HttpStreamHandler, type HttpTransport } from '../../src/core/transport/HttpTransport'
import { CancellationToken } from '../../src/core/util/Cancellation'
import { RecordingSink } from './support/RecordingSink'

/** Answers every request with `status` and `body` (SSE when 200), and records the requests. */
class CannedTransport implements HttpTransport {
  readonly requests: HttpRequest[] = []
  constructor(private readonly status = 200, private readonly body =
  'data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n') {}
  send(request: HttpRequest, handler: HttpStreamHandler, _token: CancellationToken): void {
    this.requests.push(request)
    queueMicrotask(() => {
      handler.onHead(new HttpResponseHead(this.status, new Map([['content-type', this.status === 200 ? 'text/event-stream' : 'application/json']])))
      handler.onData(this.body)
      handler.onEnd()
    })
  }
}

const errorRulesOf = (p: OpenAICompatibleProvider): ErrorRule[] => (p as unknown as { errorRules: ErrorRule[] }).errorRules
const request = (thinking?: boolean): ModelRequest => new ModelRequest([AgentMessage.user('hi')], [], '', undefined, undefined, thinking)
const configError = (f: () => unknown): ArkAgentError => {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(ArkAgentError)
    expect((e as ArkAgentError).code).toBe(ErrorCodes.invalidConfig)
    expect((e as ArkAgentError).layer).toBe(ErrorLayer.config)
    return e as ArkAgentError
  }
  throw new Error('expected invalid_config')
}

type Way = 'fromPreset' | 'preset' | 'providerId'

/** A provider for `preset`, built one of three ways, with the optional settings picked. */
function build(way: Way, preset: ProviderPreset, picked: { model?: string, baseUrl?: string, retries?: number, thinking?: boolean },
  transport: HttpTransport): OpenAICompatibleProvider {
  const common = {
    transport, apiKey: 'sk-test-0123456789abcdef', model: picked.model, baseUrl: picked.baseUrl, thinking: picked.thinking,
    retry: picked.retries !== undefined ? new RetryPolicy(picked.retries, 1, 2, 10, () => 0) : undefined,
  }
  if (way === 'fromPreset') return OpenAICompatibleProvider.fromPreset(preset, common)
  if (way === 'preset') return new OpenAICompatibleProvider({ ...common, preset })
  return new OpenAICompatibleProvider({ ...common, providerId: preset.id })
}

describe('a preset cannot be lost', () => {
  it('every way of building a provider for a preset carries its id, profile, error table, window and reserve (property)', () => {
    let cases = 0
    fc.assert(fc.property(
      fc.constantFrom<Way>('fromPreset', 'preset', 'providerId'),
      fc.constantFrom(...ProviderPresets.all()),
      fc.record({
        model: fc.option(fc.constantFrom('', 'some-model', 'deepseek-reasoner'), { nil: undefined }),
        baseUrl: fc.option(fc.constantFrom('http://127.0.0.1:8080/v1', 'https://eu.example.com/v1/'), { nil: undefined }),
        retries: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
        thinking: fc.option(fc.boolean(), { nil: undefined }),
      }, { requiredKeys: [] }),
      (way, preset, picked) => {
        const p = build(way, preset, picked, new CannedTransport())
        cases++
        expect(p.providerId).toBe(preset.id)
        expect(p.profile).toBe(preset.profile)
        expect(errorRulesOf(p)).toEqual(preset.errorRules)
        expect(p.contextWindow).toBe(preset.contextWindow)
        expect(p.outputReserve).toBe(preset.outputReserve)
        expect(p.defaultModel).toBe(picked.model !== undefined && picked.model.length > 0 ? picked.model : preset.defaultModel)
        expect(p.baseUrl).toBe((picked.baseUrl ?? preset.baseUrl).replace(/\/+$/, ''))
        expect(p.thinking).toBe(picked.thinking)
        if (picked.retries !== undefined) expect(p.retry.maxRetries).toBe(picked.retries)
      }), { numRuns: 400 })
    expect(cases).toBeGreaterThanOrEqual(400)
  })

  it('an explicit profile or error table replaces the preset\'s part, and only that part', () => {
    const rules = [new ErrorRule(400, 'x', '', ErrorCodes.providerBadRequest, false, 'mine')]
    const p = new OpenAICompatibleProvider({ transport: new CannedTransport(), providerId: 'deepseek', profile: WireProfile.generic })
    expect(p.profile).toBe(WireProfile.generic)
    expect(errorRulesOf(p)).toEqual(ProviderPresets.deepseek.errorRules)
    const q = new OpenAICompatibleProvider({ transport: new CannedTransport(), preset: ProviderPresets.zhipu, errorRules: rules })
    expect(q.profile).toBe(ProviderPresets.zhipu.profile)
    expect(errorRulesOf(q)).toEqual(rules)
  })

  it('a hand-built Zhipu provider (providerId only) maps an exhausted balance as Zhipu does: not retried', async () => {
    const transport = new CannedTransport(429, JSON.stringify({ error: { code: '1113', message: '余额不足或无可用资源包,请充值。' } }))
    const p = new OpenAICompatibleProvider({ transport, providerId: 'zhipu', apiKey: 'zk.0123456789abcdef',
      retry: new RetryPolicy(3, 1, 2, 10, () => 0) })
    const error = await p.streamModel(request(), new RecordingSink(), CancellationToken.none).then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(ArkAgentError)
    expect((error as ArkAgentError).code).toBe(ErrorCodes.providerInsufficientBalance)
    expect(transport.requests).toHaveLength(1)
  })

  it('a hand-built DeepSeek provider (providerId only) switches thinking as DeepSeek does', async () => {
    const transport = new CannedTransport()
    const p = new OpenAICompatibleProvider({ transport, providerId: 'deepseek', apiKey: 'sk-0123456789abcdef' })
    await p.streamModel(request(false), new RecordingSink(), CancellationToken.none)
    expect(JSON.parse(transport.requests[0].body).thinking).toEqual({ type: 'disabled' })
  })
})

describe('the provider-level thinking default', () => {
  it('applies to requests that do not say, and a request that says wins', async () => {
    const transport = new CannedTransport()
    const p = OpenAICompatibleProvider.fromPreset(ProviderPresets.deepseek, { transport, apiKey: 'sk-0123456789abcdef', thinking: false })
    await p.streamModel(request(), new RecordingSink(), CancellationToken.none)
    await p.streamModel(request(true), new RecordingSink(), CancellationToken.none)
    expect(JSON.parse(transport.requests[0].body).thinking).toEqual({ type: 'disabled' })
    expect(JSON.parse(transport.requests[1].body).thinking).toEqual({ type: 'enabled' })
    const q = OpenAICompatibleProvider.fromPreset(ProviderPresets.deepseek, { transport, apiKey: 'sk-0123456789abcdef' })
    await q.streamModel(request(), new RecordingSink(), CancellationToken.none)
    expect(JSON.parse(transport.requests[2].body)).not.toHaveProperty('thinking')
  })
})

describe('bad options are invalid_config', () => {
  it('refuses what is not a preset, missing options, a missing base URL and a bad thinking value', () => {
    const transport = new CannedTransport()
    expect(configError(() => OpenAICompatibleProvider.fromPreset({ id: 'deepseek' } as never, { transport })).message).toMatch(/ProviderPreset/)
    expect(configError(() => OpenAICompatibleProvider.fromPreset(ProviderPresets.deepseek, undefined as never)).message).toMatch(/fromPreset options/)
    expect(configError(() => new OpenAICompatibleProvider({ transport, preset: 'deepseek' as never })).message).toMatch(/preset must be/)
    expect(configError(() => new OpenAICompatibleProvider({ transport, providerId: 'my-server' })).message).toMatch(/baseUrl is required/)
    expect(configError(() => OpenAICompatibleProvider.fromPreset(ProviderPresets.deepseek, { transport, baseUrl: '' })).message).toMatch(/baseUrl/)
    configError(() => OpenAICompatibleProvider.fromPreset(ProviderPresets.deepseek, { transport, thinking: 'yes' as never }))
  })
})

describe('a misspelt option is refused, never ignored', () => {
  const transport = new CannedTransport()
  it('any name outside the options, in fromPreset or the constructor, is invalid_config naming it (property)', () => {
    let cases = 0
    fc.assert(fc.property(
      fc.oneof(fc.constantFrom('baseURL', 'base_url', 'apikey', 'apiKEY', 'Model', 'timeout', 'retries', 'thinkng', '__proto__x'),
        fc.string({ minLength: 1, maxLength: 20 })),
      fc.boolean(),
      (name, viaPreset) => {
        const known = viaPreset ? PRESET_OPTION_NAMES : PROVIDER_OPTION_NAMES
        fc.pre(!known.includes(name))
        cases++
        const extra = { [name]: 'http://127.0.0.1:9/v1' }
        const e = configError(() => viaPreset
          ? OpenAICompatibleProvider.fromPreset(ProviderPresets.deepseek, { transport, ...extra } as never)
          : new OpenAICompatibleProvider({ transport, baseUrl: 'http://127.0.0.1:8080/v1', ...extra } as never))
        expect(e.message).toContain('unknown option')
        expect(e.message).toContain(JSON.stringify(name.slice(0, 64)))
      }), { numRuns: 300 })
    expect(cases).toBeGreaterThan(250)
  })

  it('every documented name is known: fromPreset\'s are a subset of the constructor\'s', () => {
    for (const name of PRESET_OPTION_NAMES) expect(PROVIDER_OPTION_NAMES).toContain(name)
    const p = OpenAICompatibleProvider.fromPreset(ProviderPresets.deepseek, { transport, apiKey: 'sk-0123456789abcdef',
      model: 'deepseek-chat', baseUrl: 'http://127.0.0.1:8080/v1', retry: new RetryPolicy(1), firstChunkTimeoutMs: 1000,
      idleTimeoutMs: 1000, headers: { 'x-a': '1' }, extraBody: { top_p: 1 }, thinking: true })
    expect(p.baseUrl).toBe('http://127.0.0.1:8080/v1')
  })
})
