import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OpenAICompatibleProvider } from '../../src/core/provider/OpenAICompatibleProvider'
import { RetryPolicy } from '../../src/core/provider/RetryPolicy'
import { SseParser } from '../../src/core/provider/SseParser'
import { HttpResponseHead, type HttpRequest, type HttpStreamHandler, type HttpTransport } from '../../src/core/transport/HttpTransport'
import { CancellationToken } from '../../src/core/util/Cancellation'
import { deepseekParallelTools, deepseekPlainText, deepseekReasoner, zhipuThinkingText, zhipuToolCall } from './support/fixtures'
import { API_KEY, makeProvider, userRequest } from './support/harness'
import { SecretVault } from '../../src/core/secrets/SecretVault'
import { plainResponse, RecordingSink } from './support/RecordingSink'
import { ScriptedServer, sse } from './support/ScriptedServer'
import { TestClock } from './support/TestClock'

/** Delivers fixed bytes cut at given offsets, decoding like a real adapter, one piece per macrotask. */
class SplitBytesTransport implements HttpTransport {
  constructor(private readonly bytes: Uint8Array, private readonly cuts: number[]) {}

  send(_request: HttpRequest, handler: HttpStreamHandler, token: CancellationToken): void {
    void (async () => {
      handler.onHead(new HttpResponseHead(200, new Map([['content-type', 'text/event-stream']])))
      const decoder = new TextDecoder('utf-8')
      let from = 0
      for (const to of [...this.cuts, this.bytes.length]) {
        await new Promise((resolve) => setImmediate(resolve))
        if (token.isCancelled) return
        const text = decoder.decode(this.bytes.subarray(from, to), { stream: true })
        if (text.length > 0) handler.onData(text)
        from = to
      }
      handler.onEnd()
    })()
  }
}

/** The same stream with every JSON payload pretty-printed across several `data:` lines (still valid JSON once joined). */
const multiLineData = (stream: string): string => stream.replace(/^data: (\{.*\})$/gm,
  (_m, json: string) => JSON.stringify(JSON.parse(json), null, 1).split('\n').map((l) => `data: ${l}`).join('\n'))

const streams = [deepseekPlainText(), deepseekReasoner(), deepseekParallelTools(), zhipuThinkingText(), zhipuToolCall(),
  multiLineData(deepseekParallelTools()), `: comment\nid: 1\n${multiLineData(zhipuThinkingText())}`]

/** A fixture, rewritten with a chosen line ending and optional BOM, as UTF-8 bytes. */
const streamBytes = fc.record({
  stream: fc.constantFrom(...streams),
  eol: fc.constantFrom('\n', '\r\n', '\r'),
  bom: fc.boolean(),
}).map(({ stream, eol, bom }) => new TextEncoder().encode((bom ? '\uFEFF' : '') + stream.replace(/\n/g, eol)))

const withCuts = streamBytes.chain((bytes) => fc.tuple(fc.constant(bytes),
  fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 60 }).map((c) => c.sort((a, b) => a - b))))

async function runOver(transport: HttpTransport): Promise<[unknown, unknown]> {
  const provider = new OpenAICompatibleProvider({ transport, baseUrl: 'http://127.0.0.1:9', model: 'm',
    retry: RetryPolicy.none() })
  const sink = new RecordingSink()
  const response = await provider.streamModel(userRequest(), sink, CancellationToken.none)
  return [sink.normalized(), plainResponse(response)]
}

// The vault is process-wide: register the harness key first, so every run below holds back text the same way.
SecretVault.register(API_KEY)

describe('splitting the byte stream at random boundaries', () => {
  it('gives the SSE parser the same events as the unsplit text', () => {
    fc.assert(fc.property(withCuts, ([bytes, cuts]) => {
      const text = new TextDecoder().decode(bytes)
      const whole = new SseParser().feedAll(text)
      const parser = new SseParser()
      const decoder = new TextDecoder('utf-8')
      const split = []
      let from = 0
      for (const to of [...cuts, bytes.length]) {
        split.push(...parser.feedAll(decoder.decode(bytes.subarray(from, to), { stream: true })))
        from = to
      }
      expect(split).toEqual(whole)
    }), { numRuns: 300 })
  })

  it('yields identical events and an identical final response from the provider', async () => {
    await fc.assert(fc.asyncProperty(withCuts, async ([bytes, cuts]) => {
      const reference = await runOver(new SplitBytesTransport(bytes, []))
      const split = await runOver(new SplitBytesTransport(bytes, cuts))
      expect(split).toEqual(reference)
    }), { numRuns: 150 })
  })

  describe('over a real HTTP connection', () => {
    let server: ScriptedServer
    beforeAll(async () => { server = await new ScriptedServer().start() })
    afterAll(async () => { await server.close() })

    it('yields identical events and response whatever the TCP write boundaries', async () => {
      await fc.assert(fc.asyncProperty(withCuts, async ([bytes, cuts]) => {
        const reference = await runOver(new SplitBytesTransport(bytes, []))
        const pieces: Uint8Array[] = []
        let from = 0
        for (const to of [...cuts, bytes.length]) {
          pieces.push(bytes.slice(from, to))
          from = to
        }
        server.enqueue(sse(pieces, { gapMs: 0 }))
        const sink = new RecordingSink()
        const response = await makeProvider(server, new TestClock(), { model: 'm', retry: RetryPolicy.none() })
          .streamModel(userRequest(), sink, CancellationToken.none)
        expect([sink.normalized(), plainResponse(response)]).toEqual(reference)
      }), { numRuns: 15 })
    })
  })
})
