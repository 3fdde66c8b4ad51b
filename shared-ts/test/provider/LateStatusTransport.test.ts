import { describe, expect, it } from 'vitest'
import { ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { OpenAICompatibleProvider } from '../../src/core/provider/OpenAICompatibleProvider'
import { RetryPolicy } from '../../src/core/provider/RetryPolicy'
import { HttpResponseHead, type HttpRequest, type HttpStreamHandler, type HttpTransport } from '../../src/core/transport/HttpTransport'
import { CancellationToken } from '../../src/core/util/Cancellation'
import { zhipuThinkingText } from './support/fixtures'
import { rejection, userRequest } from './support/harness'
import { RecordingSink } from './support/RecordingSink'

/**
 * Behaves like HarmonyOS `requestInStream`: headers first (no status), ArrayBuffer data events,
 * and the response code only when the request completes.
 */
class RequestInStreamLikeTransport implements HttpTransport {
  constructor(private readonly code: number, private readonly contentType: string, private readonly body: string) {}

  send(_request: HttpRequest, handler: HttpStreamHandler, _token: CancellationToken): void {
    void (async () => {
      await new Promise((resolve) => setImmediate(resolve))
      handler.onHead(new HttpResponseHead(0, new Map([['content-type', this.contentType]])))
      const bytes = new TextEncoder().encode(this.body)
      const decoder = new TextDecoder('utf-8')
      for (let i = 0; i < bytes.length; i += 16) {
        await new Promise((resolve) => setImmediate(resolve))
        handler.onData(decoder.decode(bytes.slice(i, i + 16).buffer, { stream: true }))
      }
      handler.onEnd(this.code)
    })()
  }
}

const provider = (transport: HttpTransport): OpenAICompatibleProvider =>
  new OpenAICompatibleProvider({ transport, baseUrl: 'https://open.bigmodel.cn/api/paas/v4', model: 'glm-4.5',
    providerId: 'zhipu', apiKey: 'zk-late-status-key', retry: RetryPolicy.none() })

describe('a transport that reports the HTTP status only at the end', () => {
  it('streams a successful answer while the status is still unknown', async () => {
    const sink = new RecordingSink()
    const response = await provider(new RequestInStreamLikeTransport(200, 'text/event-stream', zhipuThinkingText()))
      .streamModel(userRequest(), sink, CancellationToken.none)
    expect(response.message.text()).toBe('你好！有什么可以帮你？😊')
    expect(sink.events.length).toBeGreaterThan(0)
  })

  it('maps a late 401 with a JSON error body to provider_auth with the body message', async () => {
    const body = '{"error":{"code":"1001","message":"Authorization Token非法，请确认Authorization Token正确传递。"}}'
    const error = await rejection(provider(new RequestInStreamLikeTransport(401, 'application/json', body))
      .streamModel(userRequest(), new RecordingSink(), CancellationToken.none))
    expect(error.layer).toBe(ErrorLayer.provider)
    expect(error.code).toBe(ErrorCodes.providerAuth)
    expect(error.message).toContain('Authorization Token非法')
  })

  it('maps a late 429 sent with an event-stream content type from its body', async () => {
    const error = await rejection(provider(new RequestInStreamLikeTransport(429, 'text/event-stream',
      '{"error":{"code":"1302","message":"您当前使用该API的并发数过高"}}'))
      .streamModel(userRequest(), new RecordingSink(), CancellationToken.none))
    expect(error.code).toBe(ErrorCodes.providerRateLimited)
    expect(error.message).toContain('并发数过高')
  })
})
