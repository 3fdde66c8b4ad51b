import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { FinishReason } from '../../src/core/model/ModelResponse'
import { StreamingEventType } from '../../src/core/provider/StreamingEvent'
import { RetryPolicy } from '../../src/core/provider/RetryPolicy'
import { CancellationSource, CancellationToken } from '../../src/core/util/Cancellation'
import { deepseekChunk, deepseekParallelTools, deepseekPlainText, deepseekReasoner, deepseekUsage, DONE,
  zhipuChunk, zhipuThinkingText, zhipuToolCall } from './support/fixtures'
import { API_KEY, makeProvider, rejection, userRequest } from './support/harness'
import { RecordingSink } from './support/RecordingSink'
import { resetConnection, respond, ScriptedServer, silentAfterHeaders, sse } from './support/ScriptedServer'
import { TestClock } from './support/TestClock'

let server: ScriptedServer
let clock: TestClock
const none = CancellationToken.none

beforeEach(async () => {
  server = await new ScriptedServer().start()
  clock = new TestClock()
})
afterEach(async () => {
  await server.close()
})

describe('OpenAICompatibleProvider streaming', () => {
  it('streams DeepSeek text deltas and resolves with text, finish reason, usage and model', async () => {
    server.enqueue(sse([deepseekPlainText()]))
    const sink = new RecordingSink()
    const response = await makeProvider(server, clock).streamModel(userRequest(), sink, none)
    expect(sink.text()).toBe('Hello, world!')
    expect(response.message.text()).toBe('Hello, world!')
    expect(response.finishReason).toBe(FinishReason.stop)
    expect(response.usage).toMatchObject({ promptTokens: 12, completionTokens: 4, totalTokens: 16 })
    expect(response.model).toBe('deepseek-chat')
  })

  it('posts to {baseUrl}/chat/completions with bearer auth and a streaming body', async () => {
    server.enqueue(sse([deepseekPlainText()]))
    await makeProvider(server, clock).streamModel(userRequest('ping'), new RecordingSink(), none)
    const request = server.requests[0]
    expect(request.method).toBe('POST')
    expect(request.url).toBe('/chat/completions')
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`)
    expect(request.headers['content-type']).toBe('application/json')
    expect(server.requestBody(0)).toMatchObject({ model: 'deepseek-chat', stream: true,
      stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'ping' }] })
  })

  it('emits a usage event for the usage-only final chunk with empty choices', async () => {
    server.enqueue(sse([deepseekPlainText()]))
    const sink = new RecordingSink()
    await makeProvider(server, clock).streamModel(userRequest(), sink, none)
    const last = sink.events[sink.events.length - 1]
    expect(last.type).toBe(StreamingEventType.usage)
    expect(last.usage?.totalTokens).toBe(16)
  })

  it('streams DeepSeek reasoner reasoning_content before the answer and counts reasoning tokens', async () => {
    server.enqueue(sse([deepseekReasoner()]))
    const sink = new RecordingSink()
    const response = await makeProvider(server, clock).streamModel(userRequest('hi', 'deepseek-reasoner'), sink, none)
    // All reasoning comes before any text (the redactor's held-back tails keep the order; how the text
    // is cut into events depends on what it holds back).
    const kinds = sink.events.map((e) => e.type).filter((t) => t !== StreamingEventType.usage)
    expect(kinds.lastIndexOf(StreamingEventType.reasoningDelta)).toBeLessThan(kinds.indexOf(StreamingEventType.textDelta))
    expect(new Set(kinds)).toEqual(new Set([StreamingEventType.reasoningDelta, StreamingEventType.textDelta]))
    expect(response.message.reasoning()).toBe('The user greets me; answer briefly.')
    expect(response.message.text()).toBe('Hi there.')
    expect(response.usage.reasoningTokens).toBe(22)
    expect(server.requestBody(0).model).toBe('deepseek-reasoner')
  })

  it('streams Zhipu GLM thinking and text while skipping keep-alive comments', async () => {
    server.enqueue(sse([zhipuThinkingText()]))
    const sink = new RecordingSink()
    const response = await makeProvider(server, clock, { providerId: 'zhipu', model: 'glm-4.5' })
      .streamModel(userRequest(), sink, none)
    expect(sink.reasoning()).toBe('用户问候，礼貌回答。')
    expect(response.message.text()).toBe('你好！有什么可以帮你？😊')
    expect(response.usage).toMatchObject({ promptTokens: 9, completionTokens: 25, totalTokens: 34 })
    expect(response.model).toBe('glm-4.5')
  })

  it('assembles parallel DeepSeek tool calls by index from arguments split across many deltas', async () => {
    server.enqueue(sse([deepseekParallelTools()]))
    const sink = new RecordingSink()
    const response = await makeProvider(server, clock).streamModel(userRequest(), sink, none)
    expect(response.finishReason).toBe(FinishReason.toolCalls)
    expect(response.message.toolCalls.map((c) => [c.id, c.name, c.argumentsJson, c.index])).toEqual([
      ['call_0_7c1f9a', 'get_weather', '{"city": "Hangzhou", "unit": "celsius"}', 0],
      ['call_1_b20e44', 'web_search', '{"query": "西湖 天气", "limit": 3}', 1],
    ])
    const toolEvents = sink.events.filter((e) => e.type === StreamingEventType.toolCallDelta)
    expect(toolEvents[0]).toMatchObject({ toolCallIndex: 0, toolCallId: 'call_0_7c1f9a', toolName: 'get_weather' })
    expect(toolEvents.filter((e) => e.toolName !== '').map((e) => e.toolName)).toEqual(['get_weather', 'web_search'])
    expect(toolEvents.filter((e) => e.toolCallIndex === 1).map((e) => e.text).join(''))
      .toBe('{"query": "西湖 天气", "limit": 3}')
  })

  it('reads a Zhipu tool call delivered whole in one delta with its finish reason and usage', async () => {
    server.enqueue(sse([zhipuToolCall()]))
    const response = await makeProvider(server, clock, { model: 'glm-4-flash' }).streamModel(userRequest(), new RecordingSink(), none)
    expect(response.message.toolCalls).toHaveLength(1)
    expect(response.message.toolCalls[0]).toMatchObject({ id: 'call_-8917285302741230122', name: 'get_weather',
      argumentsJson: '{"city":"北京"}', index: 0 })
    expect(response.finishReason).toBe('tool_calls')
    expect(response.usage.totalTokens).toBe(102)
  })

  it('assigns indexes by id when a server omits the tool-call index', async () => {
    const call = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } })
    server.enqueue(sse([
      zhipuChunk('glm-4.5', { tool_calls: [call('call_a', 'a', '{"x":1}')] }),
      zhipuChunk('glm-4.5', { tool_calls: [call('call_b', 'b', '{"y":2}')] }, 'tool_calls'),
      DONE,
    ]))
    const response = await makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), none)
    expect(response.message.toolCalls.map((c) => [c.id, c.index])).toEqual([['call_a', 0], ['call_b', 1]])
  })

  it('keeps finish reasons it does not know as they are', async () => {
    server.enqueue(sse([deepseekChunk('deepseek-chat', { content: 'x' }, 'insufficient_system_resource'), DONE]))
    const response = await makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), none)
    expect(response.finishReason).toBe('insufficient_system_resource')
  })

  it.each(['length', 'content_filter'])('reports finish reason %s', async (reason) => {
    server.enqueue(sse([deepseekChunk('deepseek-chat', { content: 'partial' }, reason), DONE]))
    const response = await makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), none)
    expect(response.finishReason).toBe(reason)
  })

  it('accepts a stream that ends after a finish reason without [DONE]', async () => {
    server.enqueue(sse([deepseekChunk('deepseek-chat', { content: 'ok' }, 'stop')]))
    const response = await makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), none)
    expect(response.message.text()).toBe('ok')
  })

  it('decodes Chinese text and emoji whose UTF-8 bytes are split across TCP writes', async () => {
    const bytes = new TextEncoder().encode(zhipuThinkingText())
    const pieces: Uint8Array[] = []
    for (let i = 0; i < bytes.length; i += 3) pieces.push(bytes.slice(i, i + 3))
    server.enqueue(sse(pieces, { gapMs: 0 }))
    const response = await makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), none)
    expect(response.message.text()).toBe('你好！有什么可以帮你？😊')
    expect(response.message.reasoning()).toBe('用户问候，礼貌回答。')
  })
})

describe('OpenAICompatibleProvider sink contract', () => {
  it('awaits each sink call before delivering the next event', async () => {
    server.enqueue(sse([deepseekParallelTools()]))
    let busy = false
    let overlaps = 0
    const sink = new RecordingSink(async () => {
      if (busy) overlaps++
      busy = true
      await new Promise((resolve) => setTimeout(resolve, 1))
      busy = false
    })
    await makeProvider(server, clock).streamModel(userRequest(), sink, none)
    expect(overlaps).toBe(0)
    expect(sink.events.length).toBeGreaterThan(10)
  })

  it('propagates an error thrown by the sink unchanged and does not retry', async () => {
    server.enqueue(sse([deepseekPlainText()]), sse([deepseekPlainText()]))
    const thrown = new RangeError('hook rejected chunk')
    const sink = new RecordingSink((_e, count) => {
      if (count === 2) throw thrown
    })
    await expect(makeProvider(server, clock).streamModel(userRequest(), sink, none)).rejects.toBe(thrown)
    expect(server.requests).toHaveLength(1)
    expect(sink.events).toHaveLength(2)
  })
})

describe('OpenAICompatibleProvider errors and retries', () => {
  it('honours Retry-After seconds on a 429 and then succeeds', async () => {
    server.enqueue(respond(429, '{"error":{"message":"Rate limit reached"}}', { 'retry-after': '2' }),
      sse([deepseekPlainText()]))
    const response = await makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), none)
    expect(response.message.text()).toBe('Hello, world!')
    expect(clock.sleeps).toEqual([2000])
    expect(server.requests).toHaveLength(2)
  })

  it('honours a Retry-After HTTP date against the injected clock', async () => {
    server.enqueue(respond(503, 'busy', { 'retry-after': 'Sun, 01 Jun 2025 12:00:05 GMT' }), sse([deepseekPlainText()]))
    await makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), none)
    expect(clock.sleeps).toEqual([5000])
  })

  it('does not retry when Retry-After exceeds the policy maximum', async () => {
    server.enqueue(respond(429, '{"error":{"message":"quota"}}', { 'retry-after': '3600' }))
    const error = await rejection(makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), none))
    expect(error.code).toBe(ErrorCodes.providerRateLimited)
    expect(error.retryAfterMs).toBe(3600000)
    expect(clock.sleeps).toEqual([])
  })

  it('fails a 401 in the provider layer, not retryable, with the body message and without the key', async () => {
    // Some vendors echo the key they rejected; it must be scrubbed.
    server.enqueue(respond(401, JSON.stringify({ error: { message: `Authentication Fails, Your api key: ${API_KEY} is invalid`,
      type: 'authentication_error' } })))
    const error = await rejection(makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), none))
    expect(error.layer).toBe(ErrorLayer.provider)
    expect(error.code).toBe(ErrorCodes.providerAuth)
    expect(error.isRetryable()).toBe(false)
    expect(error.message).toContain('Authentication Fails')
    expect(error.message).not.toContain(API_KEY)
    expect(String(error)).not.toContain(API_KEY)
    expect(JSON.stringify(error)).not.toContain(API_KEY)
    expect(server.requests).toHaveLength(1)
  })

  it('retries a 500 that arrives before any body with backoff, then succeeds', async () => {
    server.enqueue(respond(500, '{"error":{"message":"internal"}}'), sse([deepseekPlainText()]))
    const response = await makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), none)
    expect(response.message.text()).toBe('Hello, world!')
    expect(clock.sleeps).toEqual([75])
  })

  it('gives up after maxRetries and says how many attempts were made', async () => {
    server.enqueue(respond(502, 'bad gateway'), respond(502, 'bad gateway'), respond(502, 'bad gateway'))
    const error = await rejection(makeProvider(server, clock, { retry: new RetryPolicy(2, 100, 1000, 60000, () => 0) })
      .streamModel(userRequest(), new RecordingSink(), none))
    expect(error.code).toBe(ErrorCodes.providerServerError)
    expect(error.message).toContain('gave up after 3 attempts')
    expect(server.requests).toHaveLength(3)
    expect(clock.sleeps).toEqual([50, 100])
  })

  it('retries a connection reset before the response as a transport error', async () => {
    server.enqueue(resetConnection(), sse([deepseekPlainText()]))
    const response = await makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), none)
    expect(response.message.text()).toBe('Hello, world!')
    expect(clock.sleeps).toHaveLength(1)
  })

  it('reports a connection reset as a retryable transport_network error once retries are off', async () => {
    server.enqueue(resetConnection())
    const error = await rejection(makeProvider(server, clock, { retry: RetryPolicy.none() })
      .streamModel(userRequest(), new RecordingSink(), none))
    expect(error.layer).toBe(ErrorLayer.transport)
    expect(error.code).toBe(ErrorCodes.transportNetwork)
    expect(error.isRetryable()).toBe(true)
  })

  it('does not retry a connection dropped mid-stream and says part of the answer was streamed', async () => {
    // Longer than what the redactor holds back (7 characters), so part of it is shown before the drop.
    const head = [deepseekChunk('deepseek-chat', { content: 'Hello, ' }), deepseekChunk('deepseek-chat', { content: 'world and more' })]
    server.enqueue(sse(head, { after: 'reset' }), sse([deepseekPlainText()]))
    const sink = new RecordingSink()
    const error = await rejection(makeProvider(server, clock).streamModel(userRequest(), sink, none))
    expect(error.layer).toBe(ErrorLayer.transport)
    expect(error.code).toBe(ErrorCodes.transportNetwork)
    expect(error.isRetryable()).toBe(false)
    expect(error.message).toContain('not retried')
    expect('Hello, world and more'.startsWith(sink.text())).toBe(true)
    expect(sink.text().length).toBeGreaterThan(0)
    expect(server.requests).toHaveLength(1)
  })

  it('does not retry an error object sent mid-stream', async () => {
    server.enqueue(sse([deepseekChunk('deepseek-chat', { content: 'Hi' }),
      'data: {"error":{"message":"Internal server error","code":500}}\n\n']))
    const error = await rejection(makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), none))
    expect(error.code).toBe(ErrorCodes.providerError)
    expect(error.message).toContain('Internal server error')
    expect(server.requests).toHaveLength(1)
  })

  it('fails a stream cut before [DONE] and before a finish reason as provider_stream_truncated', async () => {
    server.enqueue(sse([deepseekChunk('deepseek-chat', { content: 'The answer is' })]))
    const error = await rejection(makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), none))
    expect(error.layer).toBe(ErrorLayer.provider)
    expect(error.code).toBe(ErrorCodes.providerStreamTruncated)
    expect(server.requests).toHaveLength(1)
  })

  it('fails garbage in a data line as provider_malformed_response naming the bytes', async () => {
    server.enqueue(sse([deepseekChunk('deepseek-chat', { content: 'ok' }), 'data: {"choices":[{"delta":{"content":"x"}}\x00garbage\n\n']))
    const error = await rejection(makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), none))
    expect(error.code).toBe(ErrorCodes.providerMalformedResponse)
    expect(error.message).toContain('garbage')
    expect(error.isRetryable()).toBe(false)
  })

  it('rejects a JSON (non-stream) 200 response with a clear malformed-response error', async () => {
    server.enqueue(respond(200, '{"choices":[{"message":{"content":"hi"}}]}'))
    const error = await rejection(makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), none))
    expect(error.code).toBe(ErrorCodes.providerMalformedResponse)
    expect(error.message).toContain('expected an event stream')
  })
})

describe('OpenAICompatibleProvider timeouts and cancellation', () => {
  it('fails with transport_idle_timeout when the stream stalls after text was delivered, without retrying', async () => {
    server.enqueue(sse([deepseekChunk('deepseek-chat', { content: 'Thinking about' })], { after: 'stall' }))
    const error = await rejection(makeProvider(server, clock, { idleTimeoutMs: 150 })
      .streamModel(userRequest(), new RecordingSink(), none))
    expect(error.layer).toBe(ErrorLayer.transport)
    expect(error.code).toBe(ErrorCodes.transportIdleTimeout)
    expect(server.requests).toHaveLength(1)
  })

  it('retries a stall that happens before anything reached the sink (keep-alive only)', async () => {
    server.enqueue(sse([': keep-alive\n\n'], { after: 'stall' }), sse([deepseekPlainText()]))
    const response = await makeProvider(server, clock, { idleTimeoutMs: 150 })
      .streamModel(userRequest(), new RecordingSink(), none)
    expect(response.message.text()).toBe('Hello, world!')
    expect(server.requests).toHaveLength(2)
  })

  it('fails with transport_first_chunk_timeout when no body arrives in time', async () => {
    server.enqueue(silentAfterHeaders())
    const error = await rejection(makeProvider(server, clock, { firstChunkTimeoutMs: 150, retry: RetryPolicy.none() })
      .streamModel(userRequest(), new RecordingSink(), none))
    expect(error.code).toBe(ErrorCodes.transportFirstChunkTimeout)
    expect(error.isRetryable()).toBe(true)
  })

  it('cancels mid-stream: rejects with the cancelled error and delivers nothing more', async () => {
    const chunks = Array.from({ length: 20 }, (_, i) => deepseekChunk('deepseek-chat', { content: `w${i} ` }))
    server.enqueue(sse([...chunks, deepseekChunk('deepseek-chat', {}, 'stop'), DONE], { gapMs: 5 }))
    const source = new CancellationSource()
    const sink = new RecordingSink((_e, count) => {
      if (count === 3) source.cancel('user pressed stop')
    })
    const error = await rejection(makeProvider(server, clock).streamModel(userRequest(), sink, source.token))
    expect(error.layer).toBe(ErrorLayer.cancelled)
    expect(error.code).toBe(ErrorCodes.cancelled)
    expect(error.message).toContain('user pressed stop')
    expect(sink.events).toHaveLength(3)
  })

  it('cancels while waiting for the first chunk', async () => {
    server.enqueue(silentAfterHeaders())
    const source = new CancellationSource()
    const pending = makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), source.token)
    setTimeout(() => source.cancel('navigated away'), 30)
    const error = await rejection(pending)
    expect(error.layer).toBe(ErrorLayer.cancelled)
  })

  it('rejects at once when the token is already cancelled, without sending', async () => {
    const source = new CancellationSource()
    source.cancel('before start')
    const error = await rejection(makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), source.token))
    expect(error.layer).toBe(ErrorLayer.cancelled)
    expect(server.requests).toHaveLength(0)
  })
})

describe('OpenAICompatibleProvider secrets', () => {
  it('keeps the API key out of JSON, toString and inspection of the provider', async () => {
    const { inspect } = await import('node:util')
    const provider = makeProvider(server, clock)
    expect(JSON.stringify(provider)).not.toContain(API_KEY)
    expect(String(provider)).not.toContain(API_KEY)
    expect(inspect(provider, { depth: 10, showHidden: true })).not.toContain(API_KEY)
  })

  it('keeps the API key out of every streamed event and the response', async () => {
    server.enqueue(sse([deepseekParallelTools()]))
    const sink = new RecordingSink()
    const response = await makeProvider(server, clock).streamModel(userRequest(), sink, none)
    expect(JSON.stringify(sink.events)).not.toContain(API_KEY)
    expect(JSON.stringify(response)).not.toContain(API_KEY)
  })
})

describe('OpenAICompatibleProvider usage-only and extra shapes', () => {
  it('ignores choices other than the first', async () => {
    server.enqueue(sse([
      'data: {"model":"m","choices":[{"index":1,"delta":{"content":"other"}},{"index":0,"delta":{"content":"mine"}}]}\n\n',
      deepseekChunk('m', {}, 'stop'), deepseekUsage('m', 1, 1), DONE]))
    const response = await makeProvider(server, clock).streamModel(userRequest(), new RecordingSink(), none)
    expect(response.message.text()).toBe('mine')
  })
})
