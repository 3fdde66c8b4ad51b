// One network read of hundreds of KiB is parsed in pieces (the provider gives the UI thread back
// between them): the events the sink sees and the final response are exactly those of the same
// bytes read in small pieces, whatever the line ending, where the pieces fall, and with a secret
// split across piece boundaries.
import { describe, expect, it } from 'vitest'
import { OpenAICompatibleProvider } from '../../src/core/provider/OpenAICompatibleProvider'
import { RetryPolicy } from '../../src/core/provider/RetryPolicy'
import { SecretVault } from '../../src/core/secrets/SecretVault'
import { HttpResponseHead, type HttpRequest, type HttpStreamHandler, type HttpTransport } from '../../src/core/transport/HttpTransport'
import { CancellationToken } from '../../src/core/util/Cancellation'
import { HostYield } from '../../src/core/host/HostYield'
import { API_KEY, userRequest } from './support/harness'
import { plainResponse, RecordingSink } from './support/RecordingSink'

/** Delivers `text` in pieces of `size` characters (everything at once when 0), one piece per macrotask. */
class PiecesTransport implements HttpTransport {
  constructor(private readonly text: string, private readonly size: number) {}

  send(_request: HttpRequest, handler: HttpStreamHandler): void {
    void (async () => {
      await new Promise((resolve) => setImmediate(resolve))
      handler.onHead(new HttpResponseHead(200, new Map([['content-type', 'text/event-stream']])))
      const size = this.size > 0 ? this.size : this.text.length
      for (let at = 0; at < this.text.length; at += size) {
        handler.onData(this.text.slice(at, at + size))
        await new Promise((resolve) => setImmediate(resolve))
      }
      handler.onEnd()
    })()
  }
}

function body(eol: string, events: number): string {
  const out: string[] = ['\uFEFF: a comment', eol]
  for (let i = 0; i < events; i++) {
    // The key is streamed split over two deltas now and then; 词 and 😀 put multi-unit characters at piece edges.
    const content = i % 97 === 5 ? API_KEY.slice(0, 11) : i % 97 === 6 ? `${API_KEY.slice(11)} ` : `word ${i} 词😀 `
    out.push(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm',
      choices: [{ index: 0, delta: i % 50 === 0 ? { reasoning_content: `think ${i}` } : { content }, finish_reason: null }] })}${eol}${eol}`)
  }
  out.push(`data: {"id":"c1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}${eol}${eol}`)
  out.push(`data: [DONE]${eol}${eol}`)
  return out.join('')
}

async function runOver(transport: HttpTransport): Promise<[unknown, unknown]> {
  const provider = new OpenAICompatibleProvider({ transport, baseUrl: 'http://127.0.0.1:9', model: 'm', retry: RetryPolicy.none() })
  const sink = new RecordingSink()
  const response = await provider.streamModel(userRequest(), sink, CancellationToken.none)
  return [sink.normalized(), plainResponse(response)]
}

SecretVault.register(API_KEY)

describe('one large network read', () => {
  for (const eol of ['\n', '\r\n', '\r']) {
    it(`gives the events and response of small reads (${JSON.stringify(eol)} line ends)`, async () => {
      const text = body(eol, 2500)
      expect(text.length).toBeGreaterThan(3 * 32768)
      const reference = await runOver(new PiecesTransport(text, 97))
      const whole = await runOver(new PiecesTransport(text, 0))
      expect(whole).toEqual(reference)
      // Reads that are not multiples of the parse piece, so its edges fall everywhere else too.
      expect(await runOver(new PiecesTransport(text, 50_001))).toEqual(reference)
      expect(JSON.stringify(whole)).not.toContain(API_KEY.slice(0, 8))
    })
  }

  it('gives the thread back while one read is decoded', async () => {
    const budget = HostYield.budgetMs
    HostYield.budgetMs = 0.000001
    try {
      const before = HostYield.yields
      await runOver(new PiecesTransport(body('\n', 2000), 0))
      expect(HostYield.yields).toBeGreaterThan(before)
    } finally {
      HostYield.budgetMs = budget
    }
  })
})
