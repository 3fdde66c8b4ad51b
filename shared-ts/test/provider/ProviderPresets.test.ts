import { describe, expect, it } from 'vitest'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { OpenAICompatibleProvider } from '../../src/core/provider/OpenAICompatibleProvider'
import { ProviderPresets } from '../../src/core/provider/ProviderPresets'
import { HttpResponseHead, type HttpRequest, type HttpStreamHandler, type HttpTransport } from '../../src/core/transport/HttpTransport'
import { CancellationToken } from '../../src/core/util/Cancellation'
import { deepseekPlainText } from './support/fixtures'
import { userRequest } from './support/harness'
import { RecordingSink } from './support/RecordingSink'

/** Records the request and answers with a canned stream. */
class CapturingTransport implements HttpTransport {
  readonly requests: HttpRequest[] = []
  send(request: HttpRequest, handler: HttpStreamHandler, _token: CancellationToken): void {
    this.requests.push(request)
    queueMicrotask(() => {
      handler.onHead(new HttpResponseHead(200, new Map([['content-type', 'text/event-stream']])))
      handler.onData(deepseekPlainText())
      handler.onEnd()
    })
  }
}

describe('ProviderPresets', () => {
  it('describes DeepSeek and Zhipu endpoints and models', () => {
    expect(ProviderPresets.deepseek.baseUrl).toBe('https://api.deepseek.com')
    expect(ProviderPresets.deepseek.models).toEqual(['deepseek-v4-flash', 'deepseek-v4-pro', 'deepseek-chat', 'deepseek-reasoner'])
    expect(ProviderPresets.zhipu.baseUrl).toBe('https://open.bigmodel.cn/api/paas/v4')
    expect(ProviderPresets.zhipu.models).toContain('glm-4.5')
    expect(ProviderPresets.zhipu.models).toContain('glm-4-flash')
    expect(ProviderPresets.byId('zhipu')).toBe(ProviderPresets.zhipu)
    expect(ProviderPresets.byId('nope')).toBeUndefined()
  })

  it('builds a DeepSeek provider posting to the vendor endpoint with its default model', async () => {
    const transport = new CapturingTransport()
    const provider = OpenAICompatibleProvider.fromPreset(ProviderPresets.deepseek, { apiKey: 'sk-abc123456', transport })
    await provider.streamModel(userRequest(), new RecordingSink(), CancellationToken.none)
    expect(provider.providerId).toBe('deepseek')
    expect(transport.requests[0].url).toBe('https://api.deepseek.com/chat/completions')
    expect(JSON.parse(transport.requests[0].body).model).toBe('deepseek-v4-flash')
  })

  it('builds a Zhipu provider with a chosen model', async () => {
    const transport = new CapturingTransport()
    const provider = OpenAICompatibleProvider.fromPreset(ProviderPresets.zhipu, { apiKey: 'zk.abc123456', transport, model: 'glm-4-flash' })
    await provider.streamModel(userRequest(), new RecordingSink(), CancellationToken.none)
    expect(transport.requests[0].url).toBe('https://open.bigmodel.cn/api/paas/v4/chat/completions')
    expect(JSON.parse(transport.requests[0].body).model).toBe('glm-4-flash')
  })
})

describe('OpenAICompatibleProvider configuration', () => {
  it('accepts any base URL, trims trailing slashes, and adds extra headers and body fields', async () => {
    const transport = new CapturingTransport()
    const provider = new OpenAICompatibleProvider({ transport, baseUrl: 'http://localhost:11434/v1/', model: 'qwen3',
      headers: { 'X-Trace': 't1' }, extraBody: { thinking: { type: 'disabled' } } })
    await provider.streamModel(userRequest(), new RecordingSink(), CancellationToken.none)
    const request = transport.requests[0]
    expect(request.url).toBe('http://localhost:11434/v1/chat/completions')
    expect(request.headers.get('x-trace')).toBe('t1')
    expect(request.headers.has('authorization')).toBe(false)
    expect(JSON.parse(request.body).thinking).toEqual({ type: 'disabled' })
  })

  it('rejects a base URL that is not http(s) as invalid_config', () => {
    expect(() => new OpenAICompatibleProvider({ transport: new CapturingTransport(), baseUrl: 'ftp://x' }))
      .toThrowError(expect.objectContaining({ code: ErrorCodes.invalidConfig, layer: ErrorLayer.config }))
  })

  it('fails with invalid_config when neither request nor provider names a model', async () => {
    const provider = new OpenAICompatibleProvider({ transport: new CapturingTransport(), baseUrl: 'https://x.test' })
    await expect(provider.streamModel(userRequest(), new RecordingSink(), CancellationToken.none))
      .rejects.toBeInstanceOf(ArkAgentError)
  })
})
