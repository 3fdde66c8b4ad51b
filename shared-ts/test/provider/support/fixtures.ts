// Recorded-style streams: chunk shapes as DeepSeek and Zhipu (BigModel) send them.

const frame = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`
export const DONE = 'data: [DONE]\n\n'

interface Delta {
  role?: string
  content?: string | null
  reasoning_content?: string | null
  tool_calls?: unknown[]
}

/** DeepSeek: `object`, `system_fingerprint`, `logprobs`, explicit nulls; usage in a final chunk with `choices: []`. */
export function deepseekChunk(model: string, delta: Delta, finish: string | null = null): string {
  return frame({ id: '9c3d8e2f-1b7a-4e55-a0c1-5d2f7b3e9a10', object: 'chat.completion.chunk', created: 1748000000,
    model, system_fingerprint: 'fp_8802369eaa_prod0425fp8',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })
}

export function deepseekUsage(model: string, prompt: number, completion: number, reasoning = 0): string {
  const usage: Record<string, unknown> = { prompt_tokens: prompt, completion_tokens: completion,
    total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: 0 },
    prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: prompt }
  if (reasoning > 0) usage.completion_tokens_details = { reasoning_tokens: reasoning }
  return frame({ id: '9c3d8e2f-1b7a-4e55-a0c1-5d2f7b3e9a10', object: 'chat.completion.chunk', created: 1748000000,
    model, system_fingerprint: 'fp_8802369eaa_prod0425fp8', choices: [], usage })
}

/** Zhipu: no `object`; `finish_reason` only on the last choice; usage rides on the last choice chunk. */
export function zhipuChunk(model: string, delta: Delta, finish?: string, usage?: [number, number]): string {
  const choice: Record<string, unknown> = { index: 0, delta: { role: 'assistant', ...delta } }
  if (finish !== undefined) choice.finish_reason = finish
  const payload: Record<string, unknown> = { id: '20250601120000a1b2c3d4e5f6', created: 1748000000, model,
    choices: [choice] }
  if (usage !== undefined) {
    payload.usage = { prompt_tokens: usage[0], completion_tokens: usage[1], total_tokens: usage[0] + usage[1],
      prompt_tokens_details: { cached_tokens: 0 } }
  }
  return frame(payload)
}

export function toolDelta(index: number, args: string, id?: string, name?: string): unknown {
  const call: Record<string, unknown> = { index }
  if (id !== undefined) {
    call.id = id
    call.type = 'function'
  }
  call.function = name !== undefined ? { name, arguments: args } : { arguments: args }
  return call
}

/** Splits `text` into pieces of at most `size` characters. */
export function pieces(text: string, size: number): string[] {
  const out: string[] = []
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size))
  return out
}

export const deepseekPlainText = (): string => [
  deepseekChunk('deepseek-chat', { role: 'assistant', content: '' }),
  deepseekChunk('deepseek-chat', { content: 'Hello' }),
  deepseekChunk('deepseek-chat', { content: ', world' }),
  deepseekChunk('deepseek-chat', { content: '!' }),
  deepseekChunk('deepseek-chat', { content: '' }, 'stop'),
  deepseekUsage('deepseek-chat', 12, 4),
  DONE,
].join('')

export const deepseekReasoner = (): string => [
  deepseekChunk('deepseek-reasoner', { role: 'assistant', content: null, reasoning_content: '' }),
  deepseekChunk('deepseek-reasoner', { content: null, reasoning_content: 'The user greets me' }),
  deepseekChunk('deepseek-reasoner', { content: null, reasoning_content: '; answer briefly.' }),
  deepseekChunk('deepseek-reasoner', { content: 'Hi', reasoning_content: null }),
  deepseekChunk('deepseek-reasoner', { content: ' there.', reasoning_content: null }),
  deepseekChunk('deepseek-reasoner', { content: '', reasoning_content: null }, 'stop'),
  deepseekUsage('deepseek-reasoner', 20, 30, 22),
  DONE,
].join('')

/** Two parallel calls, arguments split across many deltas, interleaved by index. */
export const deepseekParallelTools = (): string => {
  const argsA = '{"city": "Hangzhou", "unit": "celsius"}'
  const argsB = '{"query": "西湖 天气", "limit": 3}'
  const out: string[] = [
    deepseekChunk('deepseek-chat', { role: 'assistant', content: null,
      tool_calls: [toolDelta(0, '', 'call_0_7c1f9a', 'get_weather')] }),
  ]
  for (const piece of pieces(argsA, 5)) out.push(deepseekChunk('deepseek-chat', { tool_calls: [toolDelta(0, piece)] }))
  out.push(deepseekChunk('deepseek-chat', { tool_calls: [toolDelta(1, '', 'call_1_b20e44', 'web_search')] }))
  for (const piece of pieces(argsB, 4)) out.push(deepseekChunk('deepseek-chat', { tool_calls: [toolDelta(1, piece)] }))
  out.push(deepseekChunk('deepseek-chat', { content: null }, 'tool_calls'))
  out.push(deepseekUsage('deepseek-chat', 150, 48))
  out.push(DONE)
  return out.join('')
}

export const zhipuThinkingText = (): string => [
  ': keep-alive\n\n',
  zhipuChunk('glm-4.5', { reasoning_content: '用户问候，' }),
  zhipuChunk('glm-4.5', { reasoning_content: '礼貌回答。' }),
  ': keep-alive\n\n',
  zhipuChunk('glm-4.5', { content: '你好' }),
  zhipuChunk('glm-4.5', { content: '！有什么可以帮你？😊' }),
  zhipuChunk('glm-4.5', { content: '' }, 'stop', [9, 25]),
  DONE,
].join('')

/** GLM sends a whole tool call in one delta. */
export const zhipuToolCall = (): string => [
  zhipuChunk('glm-4-flash', { content: '', tool_calls: [{ id: 'call_-8917285302741230122', index: 0, type: 'function',
    function: { name: 'get_weather', arguments: '{"city":"北京"}' } }] }, 'tool_calls', [88, 14]),
  DONE,
].join('')
