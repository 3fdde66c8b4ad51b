// Section 3: SSE decoding of a recorded-style OpenAI/DeepSeek stream, ours against eventsource-parser.
import { createParser } from 'eventsource-parser'
import type { EventSourceMessage } from 'eventsource-parser'
import { decodeChunk, SseEvent, SseParser } from '../shared-ts/src/index'
import { check, rng } from './lib'

const WORDS = [' the', ' quick', ' answer', ' is', ' that', ',', ' we', ' should', ' check', ' the', ' file', '.',
  '\n\n', '我们', '需要', '先', '检查', '一下', '。', ' `npm', ' test`', ' passes', ' 😀', ' "quoted"', ' \\path']

export class SseFixture {
  /** The stream as decoded text, cut into network-sized pieces. */
  readonly pieces: string[]
  readonly bytes: number
  readonly events: number
  readonly contentChars: number

  constructor(pieces: string[], bytes: number, events: number, contentChars: number) {
    this.pieces = pieces
    this.bytes = bytes
    this.events = events
    this.contentChars = contentChars
  }
}

/**
 * About `targetBytes` of `data:` events shaped like DeepSeek's chat.completion.chunk stream: a role
 * chunk, reasoning_content deltas, content deltas, keep-alive comments, a finish chunk, a usage
 * chunk and [DONE]; CRLF-free LF framing as the servers send it. Pieces are 512 B – 16 KiB.
 */
export function buildSseFixture(targetBytes: number): SseFixture {
  const rand = rng(42)
  const lines: string[] = []
  const created = 1718345013
  const head = `{"id":"0f3c6b9e-5d7a-4c3e-9a0e-7b1f2d3c4e5f","object":"chat.completion.chunk","created":${created},` +
    `"model":"deepseek-reasoner","system_fingerprint":"fp_a49d71b8a1_prod0425fp8"`
  let size = 0
  let events = 0
  let contentChars = 0
  const push = (line: string): void => {
    lines.push(line)
    size += Buffer.byteLength(line, 'utf8')
  }
  push(`data: ${head},"choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":""},"logprobs":null,"finish_reason":null}]}\n\n`)
  events++
  let i = 0
  while (size < targetBytes) {
    const word = WORDS[Math.floor(rand() * WORDS.length)]
    const text = JSON.stringify(word)
    if (i % 500 === 499) {
      push(': keep-alive\n\n')
    }
    if (i < 20000) {
      push(`data: ${head},"choices":[{"index":0,"delta":{"content":null,"reasoning_content":${text}},"logprobs":null,"finish_reason":null}]}\n\n`)
    } else {
      push(`data: ${head},"choices":[{"index":0,"delta":{"content":${text}},"logprobs":null,"finish_reason":null}]}\n\n`)
      contentChars += word.length
    }
    events++
    i++
  }
  push(`data: ${head},"choices":[{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"stop"}]}\n\n`)
  push(`data: ${head},"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":${i},"total_tokens":${i + 12},` +
    `"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":20000}}}\n\n`)
  push('data: [DONE]\n\n')
  events += 3
  const all = lines.join('')
  const pieces: string[] = []
  for (let pos = 0; pos < all.length;) {
    const len = 512 + Math.floor(rand() * (16384 - 512))
    pieces.push(all.substring(pos, pos + len))
    pos += len
  }
  return new SseFixture(pieces, size, events, contentChars)
}

/** Ours: SseParser + decodeChunk, as OpenAICompatibleProvider consumes a stream. */
export function decodeOurs(f: SseFixture): void {
  const parser = new SseParser()
  let events = 0
  let chars = 0
  const onEvent = (e: SseEvent): void => {
    events++
    if (e.data === '[DONE]') return
    const c = decodeChunk(e.data)
    if (c.choice !== null) chars += c.choice.content.length
  }
  for (let i = 0; i < f.pieces.length; i++) {
    parser.feed(f.pieces[i], onEvent)
  }
  check(events === f.events, `SseParser produced ${events} events, expected ${f.events}`)
  check(chars === f.contentChars, `decodeChunk content ${chars} chars, expected ${f.contentChars}`)
}

/** Peer: eventsource-parser + JSON.parse, reading the same field. */
export function decodePeer(f: SseFixture): void {
  let events = 0
  let chars = 0
  const parser = createParser({
    onEvent: (e: EventSourceMessage): void => {
      events++
      if (e.data === '[DONE]') return
      const c = JSON.parse(e.data) as { choices: { delta: { content?: string | null } }[] }
      const content = c.choices.length > 0 ? c.choices[0].delta.content : null
      if (typeof content === 'string') chars += content.length
    },
  })
  for (let i = 0; i < f.pieces.length; i++) {
    parser.feed(f.pieces[i])
  }
  check(events === f.events, `eventsource-parser produced ${events} events, expected ${f.events}`)
  check(chars === f.contentChars, `JSON.parse content ${chars} chars, expected ${f.contentChars}`)
}
