import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedRequest {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

/** Handles one request; the server runs queued handlers in arrival order. */
export type Exchange = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> | void

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** A real HTTP server on 127.0.0.1 (port 0) replaying scripted exchanges. */
export class ScriptedServer {
  readonly requests: RecordedRequest[] = []
  private readonly queue: Exchange[] = []
  private readonly server: http.Server
  baseUrl = ''

  constructor() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8') })
        const next = this.queue.shift()
        if (next === undefined) {
          res.writeHead(599, { 'content-type': 'text/plain' }).end('no scripted exchange left')
          return
        }
        void Promise.resolve(next(req, res)).catch(() => res.destroy())
      })
    })
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    const address = this.server.address() as AddressInfo
    this.baseUrl = `http://127.0.0.1:${address.port}`
    return this
  }

  enqueue(...exchanges: Exchange[]): this {
    this.queue.push(...exchanges)
    return this
  }

  requestBody(i: number): Record<string, unknown> {
    return JSON.parse(this.requests[i].body) as Record<string, unknown>
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }
}

export interface SseOptions {
  /** Pause between writes so pieces travel as separate TCP writes. */
  gapMs?: number
  headers?: Record<string, string>
  /** What happens after the last piece: end normally, leave the connection open, or reset it. */
  after?: 'end' | 'stall' | 'reset'
}

/** Streams `pieces` (strings or raw bytes) as a 200 text/event-stream response. */
export function sse(pieces: Array<string | Uint8Array>, options: SseOptions = {}): Exchange {
  return async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache',
      ...options.headers })
    res.flushHeaders()
    for (const piece of pieces) {
      await pause(options.gapMs ?? 2)
      if (res.destroyed) return
      res.write(piece)
    }
    await pause(options.gapMs ?? 2)
    const after = options.after ?? 'end'
    if (after === 'end') res.end()
    if (after === 'reset') res.socket?.resetAndDestroy()
  }
}

/** A plain (error) response. */
export function respond(status: number, body: string, headers: Record<string, string> = {}): Exchange {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body)
  }
}

/** Drops the connection without any response. */
export function resetConnection(): Exchange {
  return (req) => {
    req.socket.resetAndDestroy()
  }
}

/** Sends headers, then nothing (until the server closes). */
export function silentAfterHeaders(): Exchange {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.flushHeaders()
  }
}
