import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { HttpRequest, type HttpResponseHead, type HttpStreamHandler } from '../../src/core/transport/HttpTransport'
import { CancellationSource, CancellationToken } from '../../src/core/util/Cancellation'
import { abortSignalFromToken, tokenFromAbortSignal } from '../../src/node/transport/AbortSignalBridge'
import { FetchTransport } from '../../src/node/transport/FetchTransport'
import { pause, ScriptedServer, sse } from './support/ScriptedServer'

/** Records every handler call; `done` settles on onEnd/onError. */
class CollectingHandler implements HttpStreamHandler {
  head: HttpResponseHead | null = null
  readonly data: string[] = []
  error: ArkAgentError | null = null
  ended = false
  calls = 0
  private settle: () => void = () => {}
  readonly done = new Promise<void>((resolve) => { this.settle = resolve })
  onHead(head: HttpResponseHead): void { this.calls++; this.head = head }
  onData(text: string): void { this.calls++; this.data.push(text) }
  onEnd(): void { this.calls++; this.ended = true; this.settle() }
  onError(error: ArkAgentError): void { this.calls++; this.error = error; this.settle() }
}

const get = (url: string): HttpRequest => new HttpRequest('POST', url, new Map([['content-type', 'application/json']]), '{}')

let server: ScriptedServer
beforeEach(async () => { server = await new ScriptedServer().start() })
afterEach(async () => { await server.close() })

describe('FetchTransport', () => {
  it('delivers status, lower-cased headers, body text and end', async () => {
    server.enqueue(sse(['data: a\n\n', 'data: b\n\n'], { headers: { 'X-Request-Id': 'r1' } }))
    const handler = new CollectingHandler()
    new FetchTransport().send(get(`${server.baseUrl}/chat/completions`), handler, CancellationToken.none)
    await handler.done
    expect(handler.head?.status).toBe(200)
    expect(handler.head?.header('x-request-id')).toBe('r1')
    expect(handler.data.join('')).toBe('data: a\n\ndata: b\n\n')
    expect(handler.ended).toBe(true)
  })

  it('sends method, headers and body as given', async () => {
    server.enqueue(sse(['data: x\n\n']))
    const handler = new CollectingHandler()
    new FetchTransport().send(new HttpRequest('POST', `${server.baseUrl}/p`, new Map([['x-test', 'yes']]), '{"k":1}'),
      handler, CancellationToken.none)
    await handler.done
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/p', body: '{"k":1}' })
    expect(server.requests[0].headers['x-test']).toBe('yes')
  })

  it('never splits a multi-byte UTF-8 character across onData calls', async () => {
    const text = 'data: 你好，世界 😊🚀 é\n\n'
    const bytes = new TextEncoder().encode(text)
    server.enqueue(sse(Array.from(bytes, (b) => Uint8Array.of(b)), { gapMs: 1 }))
    const handler = new CollectingHandler()
    new FetchTransport().send(get(server.baseUrl), handler, CancellationToken.none)
    await handler.done
    expect(handler.data.join('')).toBe(text)
    expect(handler.data.some((piece) => piece.includes('\uFFFD'))).toBe(false)
  })

  it('reports a refused connection as a retryable transport_network error', async () => {
    const probe = http.createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const port = (probe.address() as AddressInfo).port
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    const handler = new CollectingHandler()
    new FetchTransport().send(get(`http://127.0.0.1:${port}/`), handler, CancellationToken.none)
    await handler.done
    expect(handler.error?.layer).toBe(ErrorLayer.transport)
    expect(handler.error?.code).toBe(ErrorCodes.transportNetwork)
    expect(handler.error?.isRetryable()).toBe(true)
    expect(handler.error?.message).toContain('ECONNREFUSED')
  })

  it('reports a reset in the middle of the body as transport_network after the data received so far', async () => {
    server.enqueue(sse(['data: partial\n\n'], { after: 'reset' }))
    const handler = new CollectingHandler()
    new FetchTransport().send(get(server.baseUrl), handler, CancellationToken.none)
    await handler.done
    expect(handler.data.join('')).toBe('data: partial\n\n')
    expect(handler.error?.code).toBe(ErrorCodes.transportNetwork)
  })

  it('rejects an invalid URL as a non-retryable transport_invalid_url', async () => {
    const handler = new CollectingHandler()
    new FetchTransport().send(get('not a url'), handler, CancellationToken.none)
    await handler.done
    expect(handler.error?.code).toBe(ErrorCodes.transportInvalidUrl)
    expect(handler.error?.isRetryable()).toBe(false)
  })

  it('aborts the request on cancellation and calls the handler no more', async () => {
    let closed = false
    server.enqueue((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: first\n\n')
      res.on('close', () => { closed = true })
    })
    const source = new CancellationSource()
    const handler = new CollectingHandler()
    new FetchTransport().send(get(server.baseUrl), handler, source.token)
    while (handler.data.length === 0) await pause(5)
    source.cancel('stop')
    const callsAtCancel = handler.calls
    for (let i = 0; i < 100 && !closed; i++) await pause(5)
    expect(closed).toBe(true)
    expect(handler.calls).toBe(callsAtCancel)
  })

  it('keeps the Authorization header out of the JSON of a request', () => {
    const request = new HttpRequest('POST', 'https://x', new Map([['authorization', 'Bearer sk-secret-123']]), '')
    expect(JSON.stringify(request)).not.toContain('sk-secret-123')
    expect(String(request)).not.toContain('sk-secret-123')
  })
})

describe('AbortSignalBridge', () => {
  it('cancels the token when the signal aborts, with the abort reason', () => {
    const controller = new AbortController()
    const token = tokenFromAbortSignal(controller.signal)
    expect(token.isCancelled).toBe(false)
    controller.abort(new Error('user left'))
    expect(token.isCancelled).toBe(true)
    expect(token.reason).toBe('user left')
  })

  it('returns a cancelled token for an already aborted signal and the none token without a signal', () => {
    expect(tokenFromAbortSignal(AbortSignal.abort()).isCancelled).toBe(true)
    expect(tokenFromAbortSignal(undefined)).toBe(CancellationToken.none)
  })

  it('turns a token into an AbortSignal', () => {
    const source = new CancellationSource()
    const signal = abortSignalFromToken(source.token)
    source.cancel('done')
    expect(signal.aborted).toBe(true)
  })
})
