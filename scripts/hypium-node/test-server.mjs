// A real HTTP server on 127.0.0.1 for the transport suites: fixed routes, chunked responses.
import http from 'node:http'

const encoder = new TextEncoder()

/** SSE for one chat completion, sent as separate network writes. */
function chatChunks() {
  const delta = (content) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`
  const done = `data: ${JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } })}\n\n`
  return [delta('你好，'), delta('HarmonyOS'), done, 'data: [DONE]\n\n']
}

const routes = {
  // "héllo 世界 ✓" with every multi-byte character split across two writes.
  '/split-utf8': async (res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'x-test': 'split' })
    const bytes = encoder.encode('héllo 世界 ✓')
    for (const cut of [[0, 2], [2, 8], [8, 10], [10, 14], [14, bytes.length]]) {
      res.write(Buffer.from(bytes.slice(cut[0], cut[1])))
      await new Promise((r) => setTimeout(r, 5))
    }
    res.end()
  },
  // Sends one line, then stays open until the client goes away.
  '/slow': async (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write(': keep-alive\n\n')
  },
  // A 302 whose headers must not be mistaken for the final response's.
  '/redirect': async (res) => {
    res.writeHead(302, { location: '/split-utf8', 'x-test': 'redirect', 'content-type': 'text/html', 'x-hop': 'first' })
    res.end('<a href="/split-utf8">moved</a>')
  },
  // "ok é" whose last character is cut in half by the end of the body.
  '/truncated-utf8': async (res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
    const bytes = encoder.encode('ok é')
    res.end(Buffer.from(bytes.slice(0, bytes.length - 1)))
  },
  // Streams a line every 40 ms for 600 ms: longer than a short total timeout, never silent.
  '/long-stream': async (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    for (let i = 0; i < 15 && !res.destroyed; i++) {
      res.write(`data: ${i}\n\n`)
      await new Promise((r) => setTimeout(r, 40))
    }
    res.end()
  },
  '/status/429': async (res) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
    res.end('{"error":{"message":"slow down"}}')
  },
  '/v1/chat/completions': async (res, req) => {
    let body = ''
    for await (const piece of req) body += piece
    const auth = req.headers['authorization'] ?? ''
    if (auth !== 'Bearer sk-test-key' || !JSON.parse(body).stream) {
      res.writeHead(401, { 'content-type': 'application/json' })
      res.end('{"error":{"message":"bad key"}}')
      return
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    for (const chunk of chatChunks()) {
      res.write(chunk)
      await new Promise((r) => setTimeout(r, 5))
    }
    res.end()
  },
}

/** Starts the server; resolves with {url, close}. */
export function startTestServer(port = 0) {
  const server = http.createServer((req, res) => {
    const route = routes[new URL(req.url, 'http://x').pathname]
    if (route === undefined) {
      res.writeHead(404)
      res.end('not found')
      return
    }
    route(res, req).catch(() => res.destroy())
  })
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const { port } = server.address()
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()) }),
      })
    })
  })
}
