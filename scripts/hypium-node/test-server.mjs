// A real HTTP server on 127.0.0.1 for the transport suites: fixed routes, chunked responses.
import http from 'node:http'

const encoder = new TextEncoder()

/** SSE for one chat completion, sent as separate network writes. */
function chatChunks() {
  const delta = (content) => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] })}\n\n`
  const done = `data: ${JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } })}\n\n`
  return [delta('你好，'), delta('HarmonyOS'), done, 'data: [DONE]\n\n']
}

// ---- A Streamable HTTP MCP server for the MCP suite (McpHttpClient over OhosHttpTransport) ----
// State is per tenant (`?t=<id>` on the URL), so cases (and repeated device runs against one
// serve.mjs) never share sessions. Sessions are `<t>-S<n>`; a request with an unknown session id is
// answered HTTP 404, as the protocol says for a session the server no longer knows (after a restart),
// or with the status `lost=<status>` names.
const mcpTenants = new Map()

function mcpTenant(req) {
  const t = new URL(req.url, 'http://x').searchParams.get('t') ?? ''
  let state = mcpTenants.get(t)
  if (state === undefined) {
    state = { sessions: new Set(), started: 0, attempts: new Map(), wipes: 0 }
    mcpTenants.set(t, state)
  }
  return state
}

function mcpJson(res, message, headers = {}) {
  res.writeHead(200, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(message))
}

/** Tools over two pages; `bad` has an input schema that is not an object schema (left out by the client). */
const MCP_PAGES = {
  '': { tools: [
    { name: 'echo', description: 'Echoes its text', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnlyHint: true } },
    { name: 'wipe', description: 'Wipes the notes', inputSchema: { type: 'object' }, annotations: { destructiveHint: true } },
  ], nextCursor: 'page-2' },
  'page-2': { tools: [
    { name: 'sse_tail', description: 'Answers as SSE without a final blank line', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    { name: 'bad', description: 'Not callable', inputSchema: { type: 'string' } },
  ] },
}

async function mcpCall(res, msg, state, session) {
  const name = msg.params?.name
  const args = msg.params?.arguments ?? {}
  const text = (t) => ({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: t }] } })
  if (name === 'echo') return mcpJson(res, text(`echo ${args.text} (session ${session})`))
  if (name === 'wipe') {
    state.wipes++
    return mcpJson(res, text(`wiped (${state.wipes})`))
  }
  if (name === 'restart') {
    // Answers, then "restarts": every session is forgotten.
    mcpJson(res, text('restarting'))
    state.sessions.clear()
    return
  }
  if (name === 'sse_tail') {
    // A notification, then the answer as the last event with no blank line after it (args.ending:
    // 'none' ends on the JSON itself, 'newline' on one line feed), split across writes; then the end.
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } })}\n\n`)
    await new Promise((r) => setTimeout(r, 5))
    const last = `event: message\ndata: ${JSON.stringify(text(`tail ${args.ending}`))}${args.ending === 'newline' ? '\n' : ''}`
    res.write(last.slice(0, 20))
    await new Promise((r) => setTimeout(r, 5))
    res.end(last.slice(20))
    return
  }
  if (name === 'fail') {
    return mcpJson(res, { jsonrpc: '2.0', id: msg.id, error: { code: -32603, message: 'disk on fire' } })
  }
  mcpJson(res, { jsonrpc: '2.0', id: msg.id, error: { code: -32602, message: `Unknown tool: ${name}` } })
}

async function mcpRoute(res, req) {
  let body = ''
  for await (const piece of req) body += piece
  const msg = JSON.parse(body)
  const state = mcpTenant(req)
  const t = new URL(req.url, 'http://x').searchParams.get('t') ?? ''
  const forgetful = new URL(req.url, 'http://x').searchParams.get('forget') === '1'
  if (msg.method === 'initialize') {
    state.started++
    const session = `${t}-S${state.started}`
    state.sessions.add(session)
    return mcpJson(res, { jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion,
      capabilities: { tools: {} }, serverInfo: { name: 'arkagent-test', version: '1' } } }, { 'mcp-session-id': session })
  }
  const session = req.headers['mcp-session-id'] ?? ''
  // `forget=1`: a server that loses every session at once (notifications are still taken).
  if (msg.id === undefined && (forgetful || state.sessions.has(session))) {
    res.writeHead(202)
    res.end()
    return
  }
  if (forgetful || !state.sessions.has(session)) {
    const attempt = (state.attempts.get(msg.method) ?? 0) + 1
    state.attempts.set(msg.method, attempt)
    // `lost=400`: as the SDK's usual server and the reference servers answer ("No valid session ID").
    const lost = Number(new URL(req.url, 'http://x').searchParams.get('lost') ?? '404')
    res.writeHead(lost, { 'content-type': 'text/plain' })
    res.end(`${lost === 400 ? 'Bad Request: No valid session ID provided' : 'session not found'} (${msg.method} refused ${attempt} times)`)
    return
  }
  if (msg.method === 'tools/list') return mcpJson(res, { jsonrpc: '2.0', id: msg.id, result: MCP_PAGES[msg.params?.cursor ?? ''] })
  if (msg.method === 'tools/call') return mcpCall(res, msg, state, session)
  mcpJson(res, { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } })
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
  // The MCP suite's server (see mcpRoute).
  '/mcp': mcpRoute,
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
  // Idle keep-alive connections stay open for the whole run: with Node's default (5 s) a client that
  // reuses a connection just as the server closes it gets ECONNRESET (suites run seconds apart).
  server.keepAliveTimeout = 120000
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
