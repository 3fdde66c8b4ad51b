import { describe, expect, it } from 'vitest'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ContentPart } from '../../src/core/model/ContentPart'
import { ModelRequest } from '../../src/core/model/ModelRequest'
import { ToolCall } from '../../src/core/model/ToolCall'
import { ToolDefinition } from '../../src/core/model/ToolDefinition'
import { decodeChunk, encodeChatRequest, WireRequestOptions } from '../../src/core/provider/OpenAIWireFormat'

function catchError(fn: () => unknown): ArkAgentError {
  try {
    fn()
  } catch (e) {
    expect(e).toBeInstanceOf(ArkAgentError)
    return e as ArkAgentError
  }
  throw new Error('expected an error')
}

describe('encodeChatRequest', () => {
  const weather = new ToolDefinition('get_weather', 'Weather for a city',
    { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] })
  const history = [
    AgentMessage.system('You are terse.'),
    AgentMessage.user('Weather in Hangzhou and Beijing?'),
    AgentMessage.assistant('', [new ToolCall('call_a', 'get_weather', '{"city":"Hangzhou"}', 0),
      new ToolCall('call_b', 'get_weather', '{"city":"Beijing"}', 1)], 'I should call the tool twice.'),
    AgentMessage.tool('call_a', [ContentPart.text('22°C')]),
    AgentMessage.tool('call_b', [ContentPart.text('city unknown')], true, 'tool_execution_failed'),
    AgentMessage.assistant('Hangzhou 22°C.', [], 'thinking…'),
  ]
  const body = JSON.parse(encodeChatRequest(new ModelRequest(history, [weather], 'ignored', 0.2, 512),
    new WireRequestOptions('deepseek-chat', { thinking: { type: 'enabled' }, model: 'overridden' })))

  it('requests a stream with usage and the resolved model', () => {
    expect(body.stream).toBe(true)
    expect(body.stream_options).toEqual({ include_usage: true })
    expect(body.model).toBe('deepseek-chat')
    expect(body.temperature).toBe(0.2)
    expect(body.max_tokens).toBe(512)
    expect(body.thinking).toEqual({ type: 'enabled' })
  })

  it('sends the history faithfully: tool calls with ids, tool results paired by tool_call_id', () => {
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Weather in Hangzhou and Beijing?' },
      { role: 'assistant', tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Hangzhou"}' } },
        { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Beijing"}' } }] },
      { role: 'tool', tool_call_id: 'call_a', content: '22°C' },
      { role: 'tool', tool_call_id: 'call_b', content: 'city unknown' },
      { role: 'assistant', content: 'Hangzhou 22°C.' },
    ])
  })

  it('never sends reasoning back', () => {
    expect(JSON.stringify(body)).not.toContain('reasoning')
    expect(JSON.stringify(body)).not.toContain('thinking…')
  })

  it('encodes tools as function definitions', () => {
    expect(body.tools).toEqual([{ type: 'function', function: { name: 'get_weather',
      description: 'Weather for a city', parameters: weather.parameters } }])
  })

  it('omits tools, temperature and max_tokens when not set', () => {
    const plain = JSON.parse(encodeChatRequest(new ModelRequest([AgentMessage.user('hi')]),
      new WireRequestOptions('glm-4.5', {})))
    expect(Object.keys(plain).sort()).toEqual(['messages', 'model', 'stream', 'stream_options'])
  })
})

describe('decodeChunk', () => {
  it('reads content, reasoning, tool-call deltas and finish reason of the first choice', () => {
    const chunk = decodeChunk(JSON.stringify({ model: 'm', choices: [{ index: 0, finish_reason: 'tool_calls',
      delta: { content: 'a', reasoning_content: 'r', tool_calls: [{ index: 1, id: 'c', function: { name: 'n', arguments: '{' } }] } }] }))
    expect(chunk.model).toBe('m')
    expect(chunk.choice?.content).toBe('a')
    expect(chunk.choice?.reasoning).toBe('r')
    expect(chunk.choice?.finishReason).toBe('tool_calls')
    expect(chunk.choice?.toolCalls[0]).toMatchObject({ index: 1, id: 'c', name: 'n', argumentsDelta: '{' })
  })

  it('reads a usage-only chunk with empty choices, including reasoning tokens', () => {
    const chunk = decodeChunk(JSON.stringify({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 5,
      total_tokens: 8, completion_tokens_details: { reasoning_tokens: 2 } } }))
    expect(chunk.choice).toBeNull()
    expect(chunk.usage).toMatchObject({ promptTokens: 3, completionTokens: 5, totalTokens: 8, reasoningTokens: 2 })
  })

  it('treats null content and null finish_reason as absent', () => {
    const chunk = decodeChunk('{"choices":[{"index":0,"delta":{"content":null},"finish_reason":null}]}')
    expect(chunk.choice?.content).toBe('')
    expect(chunk.choice?.finishReason).toBe('')
  })

  it('turns malformed JSON into provider_malformed_response naming the bytes', () => {
    const error = catchError(() => decodeChunk('{"choices": [oops'))
    expect(error.layer).toBe(ErrorLayer.provider)
    expect(error.code).toBe(ErrorCodes.providerMalformedResponse)
    expect(error.message).toContain('{"choices": [oops')
    expect(error.isRetryable()).toBe(false)
  })

  it('trims huge malformed payloads in the message', () => {
    const error = catchError(() => decodeChunk('x'.repeat(10000)))
    expect(error.message.length).toBeLessThan(400)
  })

  it.each([
    ['null', 'null'],
    ['an array', '[1,2]'],
    ['a number', '42'],
    ['choices not an array', '{"choices":{"0":{}}}'],
    ['a choice not an object', '{"choices":[7]}'],
    ['delta not an object', '{"choices":[{"index":0,"delta":"hi"}]}'],
    ['content not a string', '{"choices":[{"index":0,"delta":{"content":5}}]}'],
    ['tool_calls not an array', '{"choices":[{"index":0,"delta":{"tool_calls":{}}}]}'],
    ['a tool call not an object', '{"choices":[{"index":0,"delta":{"tool_calls":["x"]}}]}'],
  ])('rejects an unexpected shape (%s) with a clear malformed-response error', (_label, data) => {
    const error = catchError(() => decodeChunk(data))
    expect(error.code).toBe(ErrorCodes.providerMalformedResponse)
    expect(error.message).toMatch(/Unexpected stream chunk/)
  })

  it('hands an error object sent inside the stream back as the vendor\'s error body (code, type, message)', () => {
    const chunk = decodeChunk('{"error":{"message":"Model overloaded","type":"server_error","code":1305}}')
    expect(chunk.choice).toBeNull()
    expect(chunk.error).not.toBeNull()
    expect(chunk.error!.message).toBe('Model overloaded')
    expect(chunk.error!.type).toBe('server_error')
    expect(chunk.error!.code).toBe('1305')
  })
})
