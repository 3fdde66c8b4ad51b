// What the official SDK's client transports would drop, or wait on forever, turned into answers the
// source can read — so the Node client fails (or answers) at once, as the core's client does:
// - a response whose `result` is not an object (`"just a string"`, null, a list): the SDK's schema
//   refuses the whole message and the call waits for its timeout; it becomes a stand-in result
//   holding the value, which the source maps as the core does (an error-flagged result);
// - a POST's SSE stream that breaks before its answer (the server was killed), or ends without one
//   and without an event id to resume from: the SDK waits (or retries a resumption against a server
//   that is gone); a stand-in result saying the answer was lost ends the call, and the source drops
//   the connection so the next call reconnects.
// Stand-ins carry a per-process key a server cannot guess.
import { randomUUID } from 'node:crypto'
import { ReadBuffer, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { Thrown } from '../../core/errors/Thrown'

const NONCE = randomUUID().slice(0, 8)
/** Key of the stand-in for a result that was not an object; holds the value the server sent. */
const NOT_A_RESULT = `arkagent.${NONCE}.notAResult`
/** Key of the stand-in for an answer lost with its stream; holds why. */
const LOST = `arkagent.${NONCE}.lost`

type Json = Record<string, unknown>
const isRecord = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)
const own = (o: Json, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key)

/** A response (or a batch of them) with every `result` that is not an object replaced by its stand-in; the same value when nothing was. */
export function mend(message: unknown): unknown {
  if (Array.isArray(message)) {
    const mended = message.map(mend)
    return mended.some((m, i) => m !== message[i]) ? mended : message
  }
  if (!isRecord(message) || own(message, 'method') || !own(message, 'result') || isRecord(message.result)) return message
  return { ...message, result: { [NOT_A_RESULT]: message.result ?? null } }
}

/** What a request's `result` means: the server's value (an object, or what the stand-in holds), or why the answer was lost. */
export function readResult(result: unknown): { lost?: string, value: unknown } {
  if (isRecord(result) && own(result, LOST)) return { lost: String(result[LOST]), value: undefined }
  if (isRecord(result) && own(result, NOT_A_RESULT)) return { value: result[NOT_A_RESULT] }
  return { value: result }
}

/** The id of the JSON-RPC request a POST body carries (not a notification, not a batch). */
function requestIdOf(body: unknown): string | number | undefined {
  if (typeof body !== 'string') return undefined
  try {
    const m = JSON.parse(body) as unknown
    return isRecord(m) && typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number') ? m.id : undefined
  } catch {
    return undefined
  }
}

/** One SSE line's field and value (`data: x` → ['data', 'x']); a comment has the field ''. */
function field(line: string): [string, string] {
  if (line.startsWith(':')) return ['', '']
  const colon = line.indexOf(':')
  if (colon < 0) return [line, '']
  const value = line.slice(colon + 1)
  return [line.slice(0, colon), value.startsWith(' ') ? value.slice(1) : value]
}

/**
 * An SSE body passed on event by event, each message mended; for a POST of request `id`, a break
 * before its answer — or an end without it and without an event id to resume from — becomes a
 * stand-in answer saying why, and the stream ends cleanly.
 */
function guardSse(body: ReadableStream<Uint8Array>, id: string | number | undefined): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let pending = ''
  let lines: string[] = []
  let answered = false
  let resumable = false
  let cancelled = false
  const emit = (controller: ReadableStreamDefaultController<Uint8Array>, text: string) => controller.enqueue(encoder.encode(text))
  const dispatch = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    const event = lines
    lines = []
    const data: string[] = []
    for (const line of event) {
      const [name, value] = field(line)
      if (name === 'data') data.push(value)
      if (name === 'id' && value !== '') resumable = true
    }
    let out = event
    if (data.length > 0) {
      let message: unknown
      try {
        message = JSON.parse(data.join('\n'))
      } catch {
        message = undefined
      }
      if (isRecord(message) && id !== undefined && message.id === id && (own(message, 'result') || own(message, 'error'))) answered = true
      const mended = mend(message)
      if (mended !== message) out = [...event.filter((l) => field(l)[0] !== 'data'), `data: ${JSON.stringify(mended)}`]
    }
    emit(controller, `${out.join('\n')}\n\n`)
  }
  const feed = (controller: ReadableStreamDefaultController<Uint8Array>, text: string, last: boolean) => {
    pending += text
    for (;;) {
      const m = /\r\n|\r|\n/.exec(pending)
      // A CR at the very end may be the first half of a CRLF still on its way.
      if (m === null || (!last && m[0] === '\r' && m.index === pending.length - 1)) break
      const line = pending.slice(0, m.index)
      pending = pending.slice(m.index + m[0].length)
      if (line === '') {
        if (lines.length > 0) dispatch(controller)
      } else {
        lines.push(line)
      }
    }
  }
  const lost = (controller: ReadableStreamDefaultController<Uint8Array>, why: string) => {
    const message = { jsonrpc: '2.0', id, result: { [LOST]: why } }
    emit(controller, `event: message\ndata: ${JSON.stringify(message)}\n\n`)
  }
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: Awaited<ReturnType<typeof reader.read>>
      try {
        next = await reader.read()
        if (cancelled) return
      } catch (e) {
        if (cancelled) return
        // Answered already: nothing is lost. A standalone (GET) stream is the SDK's to resume.
        if (id === undefined) return controller.error(e)
        if (!answered) lost(controller, `the stream broke before the answer: ${Thrown.describe(e as Object)}`)
        return controller.close()
      }
      if (next.done) {
        feed(controller, decoder.decode(), true)
        if (pending !== '') lines.push(pending)
        pending = ''
        // A last event without its blank line still counts (as in the core's client).
        if (lines.length > 0) dispatch(controller)
        if (id !== undefined && !answered && !resumable) lost(controller, 'the server ended the stream without answering')
        return controller.close()
      }
      feed(controller, decoder.decode(next.value, { stream: true }), false)
    },
    cancel(reason) {
      // The reader (the SDK) is gone: nothing more is read or passed on.
      cancelled = true
      return reader.cancel(reason)
    },
  })
}

/** `response` with another body (status and headers kept). */
function withBody(response: Response, body: ConstructorParameters<typeof Response>[0]): Response {
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
}

/**
 * A fetch for the SDK's Streamable HTTP transport: answers from `endpoint` (status 200, JSON or SSE)
 * are mended and watched as above; every other request and response passes untouched.
 */
export function guardedFetch(base: FetchLike, endpoint: URL): FetchLike {
  return async (url, init) => {
    const response = await base(url, init)
    let same = false
    try {
      same = new URL(String(url)).href === endpoint.href
    } catch {
      same = false
    }
    if (!same || response.status !== 200 || response.body === null) return response
    const method = (init?.method ?? 'GET').toUpperCase()
    const id = method === 'POST' ? requestIdOf(init?.body) : undefined
    const type = (response.headers.get('content-type') ?? '').toLowerCase()
    if (type.includes('text/event-stream')) return withBody(response, guardSse(response.body, id))
    if (method !== 'POST' || !type.includes('application/json')) return response
    const text = await response.text()
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return withBody(response, text)
    }
    const mended = mend(value)
    return withBody(response, mended === value ? text : JSON.stringify(mended))
  }
}

/** The SDK's stdio line reader, with each message mended before the SDK's schema sees it. */
class MendingReadBuffer extends ReadBuffer {
  private held?: Buffer

  constructor(private readonly max: number) {
    super({ maxBufferSize: max })
  }

  override append(chunk: Buffer): void {
    if ((this.held?.length ?? 0) + chunk.length > this.max) {
      this.clear()
      throw new Error(`ReadBuffer exceeded maximum size of ${this.max} bytes`)
    }
    this.held = this.held !== undefined ? Buffer.concat([this.held, chunk]) : chunk
  }

  override readMessage(): JSONRPCMessage | null {
    const held = this.held
    if (held === undefined) return null
    const end = held.indexOf('\n')
    if (end < 0) return null
    const line = held.toString('utf8', 0, end).replace(/\r$/, '')
    this.held = held.subarray(end + 1)
    return JSONRPCMessageSchema.parse(mend(JSON.parse(line)))
  }

  override clear(): void {
    this.held = undefined
  }
}

/** `transport` reading its server's lines through MendingReadBuffer (left as it is if the SDK's reader is not where it was). */
export function mendingStdio(transport: StdioClientTransport): StdioClientTransport {
  const holder = transport as unknown as { _readBuffer?: unknown }
  if (holder._readBuffer instanceof ReadBuffer) {
    const max = (holder._readBuffer as unknown as { _maxBufferSize?: unknown })._maxBufferSize
    holder._readBuffer = new MendingReadBuffer(typeof max === 'number' ? max : STDIO_DEFAULT_MAX_BUFFER_SIZE)
  }
  return transport
}
