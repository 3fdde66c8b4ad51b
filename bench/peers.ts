// Section 2: the same stream through the Vercel AI SDK and the OpenAI Agents SDK.
import { simulateReadableStream, streamText, wrapLanguageModel } from 'ai'
import type { LanguageModelMiddleware } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { Agent, run, setTracingDisabled } from '@openai/agents'
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents'
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { check } from './lib'

/** ai 6: a V3 mock model streaming the chunks with no delays, behind a pass-through wrapStream middleware. */
export function aiSdkCase(texts: string[]): () => Promise<void> {
  const n = texts.length
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't0' }]
  for (let i = 0; i < n; i++) {
    parts.push({ type: 'text-delta', id: 't0', delta: texts[i] })
  }
  parts.push({ type: 'text-end', id: 't0' })
  parts.push({
    type: 'finish',
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: n, text: n, reasoning: undefined },
    },
  })
  const passThrough: LanguageModelMiddleware = {
    specificationVersion: 'v3',
    wrapStream: async ({ doStream }) => doStream(),
  }
  return async (): Promise<void> => {
    const mock = new MockLanguageModelV3({
      doStream: async () => ({
        // null delays: otherwise simulateReadableStream sleeps between chunks.
        stream: simulateReadableStream<LanguageModelV3StreamPart>({ chunks: parts, initialDelayInMs: null, chunkDelayInMs: null }),
      }),
    })
    const model = wrapLanguageModel({ model: mock, middleware: passThrough })
    const result = streamText({ model, prompt: 'go' })
    let count = 0
    for await (const t of result.textStream) {
      if (t.length > 0) count++
    }
    check(count === n, `ai textStream yielded ${count} chunks, expected ${n}`)
  }
}

/** A fake Agents SDK model: output_text_delta events, then response_done with the full output. */
class FakeStreamingModel implements Model {
  private readonly texts: string[]

  constructor(texts: string[]) {
    this.texts = texts
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    throw new Error('only streaming is benchmarked')
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const texts = this.texts
    yield { type: 'response_started' }
    for (let i = 0; i < texts.length; i++) {
      yield { type: 'output_text_delta', delta: texts[i] }
    }
    yield {
      type: 'response_done',
      response: {
        id: 'resp_bench',
        usage: { requests: 1, inputTokens: 10, outputTokens: texts.length, totalTokens: 10 + texts.length },
        output: [{
          type: 'message', id: 'msg_bench', role: 'assistant', status: 'completed',
          content: [{ type: 'output_text', text: texts.join('') }],
        }],
      },
    }
  }
}

export function agentsSdkCase(texts: string[]): () => Promise<void> {
  setTracingDisabled(true)
  const n = texts.length
  const expected = texts.join('')
  return async (): Promise<void> => {
    const agent = new Agent({ name: 'bench', instructions: 'stream', model: new FakeStreamingModel(texts) })
    const result = await run(agent, 'go', { stream: true })
    let count = 0
    for await (const ev of result) {
      if (ev.type === 'raw_model_stream_event' && ev.data.type === 'output_text_delta') count++
    }
    await result.completed
    check(count === n, `agents run yielded ${count} text deltas, expected ${n}`)
    check(result.finalOutput === expected, 'agents final output differs')
  }
}
