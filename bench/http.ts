// Section 7: the whole path over real HTTP. One local server streams the same chat.completion.chunk
// bytes to (a) the official `openai` client and (b) FetchTransport → OpenAICompatibleProvider →
// AgentRuntime with three pass-through chunk hooks and a bus subscriber.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import OpenAI from 'openai'
import {
  AgentHook, AgentHookPipeline, AgentRuntime, AgentRuntimeConfig, BusEvent, ControllerEventTypes, FetchTransport,
  LlmChunkEvent, ModelChunkHookContext, ModelChunkHookResult, OpenAICompatibleProvider, RetryPolicy, RunStatus,
} from '../shared-ts/src/index'
import { check } from './lib'

const HEAD = '{"id":"0f3c6b9e-5d7a-4c3e-9a0e-7b1f2d3c4e5f","object":"chat.completion.chunk","created":1718345013,' +
  '"model":"deepseek-chat","system_fingerprint":"fp_a49d71b8a1_prod0425fp8"'
const WORDS = [' the', ' model', ' answers', ',', ' and', ' then', ' it', ' streams', ' tokens', '.', ' 我们', '的']

/** A stream of `n` content chunks (plus role, finish, usage and [DONE]) as a DeepSeek server frames it. */
export function streamBody(n: number): Buffer {
  const parts: string[] = []
  parts.push(`data: ${HEAD},"choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\n\n`)
  for (let i = 0; i < n; i++) {
    const word = JSON.stringify(WORDS[(i * 7 + (i >> 3)) % WORDS.length])
    parts.push(`data: ${HEAD},"choices":[{"index":0,"delta":{"content":${word}},"logprobs":null,"finish_reason":null}]}\n\n`)
  }
  parts.push(`data: ${HEAD},"choices":[{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"stop"}]}\n\n`)
  parts.push(`data: ${HEAD},"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":${n},"total_tokens":${n + 5}}}\n\n`)
  parts.push('data: [DONE]\n\n')
  return Buffer.from(parts.join(''), 'utf8')
}

/** Serves POST …/chat/completions with `body` (after reading the request), in 16 KiB writes. */
export class StreamServer {
  private readonly server: http.Server
  private body: Buffer = Buffer.alloc(0)
  port: number = 0

  constructor() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        if (req.method !== 'POST' || req.url === undefined || !req.url.endsWith('/chat/completions')) {
          res.writeHead(404).end()
          return
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
        void this.write(res)
      })
    })
  }

  use(body: Buffer): void {
    this.body = body
  }

  private async write(res: http.ServerResponse): Promise<void> {
    const body = this.body
    const STEP = 16 * 1024
    for (let pos = 0; pos < body.length; pos += STEP) {
      if (!res.write(body.subarray(pos, pos + STEP))) {
        await new Promise<void>((resolve) => res.once('drain', () => resolve()))
      }
    }
    res.end()
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()))
    this.port = (this.server.address() as AddressInfo).port
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}

/** What one consumer measured on one request. */
export interface PathRun {
  chunks: number
  /** From the call to the first content chunk reaching the consumer's code. */
  firstChunkMs: number
  totalMs: number
}

class PassThroughChunkHook extends AgentHook {
  private readonly name: string
  seen: number = 0

  constructor(name: string) {
    super()
    this.name = name
  }

  get hookName(): string {
    return this.name
  }

  async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
    this.seen++
    return ModelChunkHookResult.proceed()
  }
}

const since = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6

/** (a) The official client's streaming chat completions. */
export function officialClient(port: number): () => Promise<PathRun> {
  const client = new OpenAI({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-bench', maxRetries: 0 })
  return async (): Promise<PathRun> => {
    const t0 = process.hrtime.bigint()
    let first = -1
    let chunks = 0
    const stream = await client.chat.completions.create({
      model: 'deepseek-chat', messages: [{ role: 'user', content: 'go' }], stream: true,
    })
    for await (const chunk of stream) {
      const content = chunk.choices.length > 0 ? chunk.choices[0].delta.content : undefined
      if (typeof content === 'string' && content.length > 0) {
        if (first < 0) first = since(t0)
        chunks++
      }
    }
    return { chunks, firstChunkMs: first, totalMs: since(t0) }
  }
}

/** (b) FetchTransport → OpenAICompatibleProvider → AgentRuntime, 3 pass-through chunk hooks, 1 subscriber. */
export function ourPath(port: number): () => Promise<PathRun> {
  const provider = new OpenAICompatibleProvider({
    transport: new FetchTransport(), baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'sk-bench', model: 'deepseek-chat',
    retry: RetryPolicy.none(),
  })
  return async (): Promise<PathRun> => {
    const hooks = [new PassThroughChunkHook('a'), new PassThroughChunkHook('b'), new PassThroughChunkHook('c')]
    const config = new AgentRuntimeConfig('bench-http', provider)
    config.hooks = new AgentHookPipeline(hooks)
    let t0 = process.hrtime.bigint()
    let first = -1
    let chunks = 0
    config.controller.eventBus.subscribe(ControllerEventTypes.llmChunk, (e: BusEvent): void => {
      if ((e as LlmChunkEvent).text.length > 0) {
        if (first < 0) first = since(t0)
        chunks++
      }
    })
    const rt = new AgentRuntime(config)
    t0 = process.hrtime.bigint()
    const outcome = await rt.run('go')
    const totalMs = since(t0)
    check(outcome.status === RunStatus.completed, `runtime run ended ${outcome.status}: ${outcome.error?.message ?? ''}`)
    for (const h of hooks) check(h.seen === chunks, 'a chunk hook missed chunks')
    rt.dispose()
    return { chunks, firstChunkMs: first, totalMs }
  }
}
