// The core's MCP client against servers that do what the protocol allows (or what real servers do):
// a lost session (404), a stream left open after the answer, pages of tools, versions, cancellation,
// a slow handshake, names that need care. Each is a raw HTTP server on 127.0.0.1.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import {
  ArkAgentError, CancellationSource, ErrorCodes, FetchTransport, McpHttpClient, McpHttpTool, McpNames, ToolCall,
  ToolRegistry, ToolConcurrency,
  ToolRiskLevel,
} from '../../src/index'

type Seen = { method: string, headers: http.IncomingHttpHeaders, body: Record<string, any> }
const servers: http.Server[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) { s.closeAllConnections(); await new Promise((r) => s.close(r)) }
})

type Handler = (msg: Record<string, any>, req: http.IncomingMessage, res: http.ServerResponse) => void
async function serve(handler: Handler): Promise<{ url: string, seen: Seen[] }> {
  const seen: Seen[] = []
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      const msg = JSON.parse(body)
      seen.push({ method: msg.method, headers: req.headers, body: msg })
      handler(msg, req, res)
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  servers.push(server)
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen }
}

function json(res: http.ServerResponse, m: object, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(m))
}
const toolList = (names: string[]) => ({ tools: names.map((name) => ({ name, inputSchema: { type: 'object' } })) })

/** A well-behaved server: session S<n>, tools a and b, calls answer "ok <name>". */
function standard(msg: Record<string, any>, res: http.ServerResponse, session = 'S1', version?: string): void {
  if (msg.method === 'initialize') {
    return json(res, { jsonrpc: '2.0', id: msg.id, result: { protocolVersion: version ?? msg.params.protocolVersion,
      capabilities: { tools: {} }, serverInfo: { name: 'x', version: '1' } } }, { 'mcp-session-id': session })
  }
  if (msg.id === undefined) { res.writeHead(202); res.end(); return }
  if (msg.method === 'tools/list') return json(res, { jsonrpc: '2.0', id: msg.id, result: toolList(['a', 'b']) })
  json(res, { jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: `ok ${msg.params.name}` }] } })
}

/** Resolves once the server has seen a message that matches (a handshake with the server, not a clock). */
async function seenOnce(seen: Seen[], match: (s: Seen) => boolean): Promise<Seen> {
  for (;;) {
    const found = seen.find(match)
    if (found !== undefined) return found
    await new Promise((r) => setTimeout(r, 5))
  }
}

describe('McpHttpClient sessions and handshake', () => {
  it('a lost session (HTTP 404 to a request with a session id) is initialized again and the request retried once', async () => {
    let generation = 1
    const { url, seen } = await serve((msg, req, res) => {
      if (msg.method !== 'initialize' && req.headers['mcp-session-id'] !== `S${generation}`) { res.writeHead(404); res.end('session not found'); return }
      standard(msg, res, `S${generation}`)
    })
    const client = new McpHttpClient(url, new FetchTransport())
    expect((await client.callTool('a', {})).text).toBe('ok a')
    generation = 2
    expect((await client.callTool('a', {})).text).toBe('ok a')
    expect(seen.filter((s) => s.method === 'initialize').length).toBe(2)
    // A server that loses every session: one retry, then the 404 is the answer.
    generation = 99
    const always404 = await serve((msg, req, res) => {
      if (msg.method === 'initialize') return standard(msg, res, 'S-new')
      if (msg.id === undefined) { res.writeHead(202); res.end(); return }
      res.writeHead(404); res.end('gone')
    })
    const stubborn = new McpHttpClient(always404.url, new FetchTransport())
    await expect(stubborn.callTool('a', {})).rejects.toThrow(/HTTP 404/)
    expect(always404.seen.filter((s) => s.method === 'tools/call').length).toBe(2)
  })

  it('a caller cancelled (or timed out) during the handshake leaves the client usable for the next call', async () => {
    let held: (() => void) | undefined
    const { url, seen } = await serve((msg, req, res) => {
      if (msg.method === 'initialize' && held === undefined) { held = () => standard(msg, res); return }
      standard(msg, res)
    })
    const client = new McpHttpClient(url, new FetchTransport())
    const tool = new McpHttpTool(client, 'srv', { name: 'a', description: 'a', inputSchema: { type: 'object' }, risk: ToolRiskLevel.safe, concurrency: ToolConcurrency.serial })
    // The server holds the first initialize until the test lets it go: the 100 ms tool timeout ends the call first.
    const impatient = new ToolRegistry([tool], 100)
    expect((await impatient.execute(new ToolCall('1', 'srv__a', '{}'), 's', 'r')).errorCode).toBe(ErrorCodes.toolTimeout)
    await seenOnce(seen, (m) => m.method === 'initialize')
    held?.()
    const next = await new ToolRegistry([tool], 240000).execute(new ToolCall('2', 'srv__a', '{}'), 's', 'r')
    expect([next.isError, next.modelText()]).toEqual([false, 'ok a'])
  })

  it('a handshake the server never answers fails after its own deadline, and the next call starts a new one', async () => {
    let answer = false
    const { url, seen } = await serve((msg, req, res) => {
      if (msg.method === 'initialize' && !answer) return
      standard(msg, res)
    })
    const client = new McpHttpClient(url, new FetchTransport(), undefined, { initializeTimeoutMs: 3000 })
    const e = await client.callTool('a', {}).then(() => undefined, (x: ArkAgentError) => x)
    expect(e?.code).toBe(ErrorCodes.toolTimeout)
    answer = true
    expect((await client.callTool('a', {})).text).toBe('ok a')
    expect(seen.filter((s) => s.method === 'initialize').length).toBe(2)
  })

  it('sends the negotiated protocol version after initialize, and refuses a version it does not speak', async () => {
    const { url, seen } = await serve((msg, req, res) => standard(msg, res, 'S1', '2025-03-26'))
    const client = new McpHttpClient(url, new FetchTransport())
    await client.callTool('a', {})
    expect(client.negotiatedVersion).toBe('2025-03-26')
    expect(seen.map((s) => [s.method, s.headers['mcp-protocol-version']])).toEqual([
      ['initialize', undefined], ['notifications/initialized', '2025-03-26'], ['tools/call', '2025-03-26']])
    expect(seen[0].headers.accept).toBe('application/json, text/event-stream')
    const old = await serve((msg, req, res) => standard(msg, res, 'S1', '1999-01-01'))
    await expect(new McpHttpClient(old.url, new FetchTransport()).callTool('a', {})).rejects.toThrow(/protocol version "1999-01-01"/)
  })
})

describe('McpHttpClient after a failed handshake, and with servers that do not stop', () => {
  it('a handshake that failed after the server gave a session sends none of it again: the next call starts clean', async () => {
    let failNote = true
    let sessions = 0
    const { url, seen } = await serve((msg, req, res) => {
      if (msg.method === 'initialize') {
        // A server built the SDK's way refuses a second initialize on a session it already initialized.
        if (req.headers['mcp-session-id'] !== undefined) { res.writeHead(400); res.end('Server already initialized'); return }
        sessions++
        return standard(msg, res, `S${sessions}`)
      }
      if (msg.method === 'notifications/initialized' && failNote) { failNote = false; res.writeHead(503); res.end('busy'); return }
      if (req.headers['mcp-session-id'] !== `S${sessions}`) { res.writeHead(404); res.end('unknown session'); return }
      standard(msg, res, `S${sessions}`)
    })
    const client = new McpHttpClient(url, new FetchTransport())
    await expect(client.callTool('a', {})).rejects.toThrow(/HTTP 503/)
    expect((await client.callTool('a', {})).text).toBe('ok a')
    expect(seen.filter((s) => s.method === 'initialize').map((s) => s.headers['mcp-session-id'])).toEqual([undefined, undefined])
  })

  it('a late answer of an old session never brings its id back (the id comes from initialize only)', async () => {
    const { url, seen } = await serve((msg, req, res) => {
      if (msg.method === 'tools/call') return json(res, { jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: 'x' }] } }, { 'mcp-session-id': 'OTHER' })
      standard(msg, res, 'S1')
    })
    const client = new McpHttpClient(url, new FetchTransport())
    await client.callTool('a', {})
    await client.callTool('a', {})
    expect(seen.filter((s) => s.method === 'tools/call').map((s) => s.headers['mcp-session-id'])).toEqual(['S1', 'S1'])
  })

  it('a listing that only ever sends notifications ends at the request deadline (tool_timeout), not never', async () => {
    const { url } = await serve((msg, req, res) => {
      if (msg.method !== 'tools/list') return standard(msg, res)
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      const t = setInterval(() => res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'tick' } })}\n\n`), 20)
      res.on('close', () => clearInterval(t))
    })
    const client = new McpHttpClient(url, new FetchTransport(), undefined, { requestTimeoutMs: 300 })
    const e = await McpHttpTool.all(client, 'srv').then(() => undefined, (x: ArkAgentError) => x)
    expect(e?.code).toBe(ErrorCodes.toolTimeout)
  })

  it('an answer past maxAnswerChars fails its request instead of growing memory (one endless line, or endless events)', async () => {
    const { url } = await serve((msg, req, res) => {
      if (msg.method !== 'tools/call' || !['line', 'events'].includes(msg.params.name)) return standard(msg, res)
      res.writeHead(200, { 'content-type': msg.params.name === 'line' ? 'application/json' : 'text/event-stream' })
      const chunk = msg.params.name === 'line' ? 'x'.repeat(4096) : `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'y'.repeat(4000) } })}\n\n`
      const t = setInterval(() => res.write(chunk), 2)
      res.on('close', () => clearInterval(t))
    })
    const client = new McpHttpClient(url, new FetchTransport(), undefined, { maxAnswerChars: 200_000 })
    await expect(client.callTool('line', {})).rejects.toThrow(/passed 200000 characters/)
    await expect(client.callTool('events', {})).rejects.toThrow(/passed 200000 characters/)
    expect((await client.callTool('a', {})).text).toBe('ok a')
  })

  it('credentials in the URL, or header values with CR, LF or NUL, are refused when the client is made, without echoing them', () => {
    expect(() => new McpHttpClient('http://user:tok-SECRET@127.0.0.1:1/mcp', new FetchTransport())).toThrow(/must not carry credentials/)
    for (const bad of ['Bearer sk-SECRET\r\nX: y', 'sk-SECRET\n', 'sk-SECRET\u0000']) {
      let message = ''
      try {
        new McpHttpClient('http://127.0.0.1:1/mcp', new FetchTransport(), new Map([['authorization', bad]]))
      } catch (e) {
        message = (e as Error).message
        expect((e as ArkAgentError).code).toBe(ErrorCodes.invalidConfig)
      }
      expect(message).toMatch(/invalid name or value/)
      expect(message).not.toContain('SECRET')
    }
    expect(() => new McpHttpClient('not a url', new FetchTransport())).toThrow(/absolute/)
  })
})

describe('McpHttpClient answers', () => {
  it('an SSE answer ends the call as soon as the response arrives, even if the server keeps the stream open', async () => {
    const { url } = await serve((msg, req, res) => {
      if (msg.method !== 'tools/call') return standard(msg, res)
      res.writeHead(200, { 'content-type': 'Text/Event-Stream; charset=utf-8' })
      res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } })}\n\n`)
      res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 'srv-1', method: 'ping' })}\n\n`)
      res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: msg.id + 1000, result: { content: [{ type: 'text', text: 'not mine' }] } })}\n\n`)
      res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: 'done' }] } })}\n\n`)
    })
    const client = new McpHttpClient(url, new FetchTransport())
    expect((await client.callTool('a', {})).text).toBe('done')
  })

  it('an error the server could not tie to a request (id null) is reported with its message', async () => {
    const { url } = await serve((msg, req, res) => {
      if (msg.method !== 'tools/call') return standard(msg, res)
      json(res, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: details here' } })
    })
    await expect(new McpHttpClient(url, new FetchTransport()).callTool('a', {})).rejects.toThrow(/\(-32700\): Parse error: details here/)
  })

  it('follows tools/list pages, and leaves out tools that cannot be offered (no name, a schema that is not an object)', async () => {
    const { url } = await serve((msg, req, res) => {
      if (msg.method !== 'tools/list') return standard(msg, res)
      const page = msg.params?.cursor === 'p2' ? { tools: [{ name: 'c', inputSchema: { type: 'object' } }, { name: 'd' }] } :
        { tools: [{ name: 'a', inputSchema: { type: 'object' } }, { name: '' }, { name: 'str', inputSchema: { type: 'string' } },
          { name: 'arr', inputSchema: [] }, { name: 'b', inputSchema: { properties: {} } }], nextCursor: 'p2' }
      json(res, { jsonrpc: '2.0', id: msg.id, result: page })
    })
    const tools = await new McpHttpClient(url, new FetchTransport()).listTools()
    expect(tools.map((t) => [t.name, t.inputSchema.type])).toEqual([['a', 'object'], ['b', 'object'], ['c', 'object'], ['d', 'object']])
  })

  it('a cancelled call settles at once and the server is told with notifications/cancelled', async () => {
    const { url, seen } = await serve((msg, req, res) => {
      if (msg.method === 'tools/call' && msg.params.name === 'hang') return
      standard(msg, res)
    })
    const client = new McpHttpClient(url, new FetchTransport())
    await client.listTools()
    const source = new CancellationSource()
    const pending = client.callTool('hang', {}, source.token).then(() => 'resolved', (e: ArkAgentError) => e.code)
    const call = await seenOnce(seen, (m) => m.method === 'tools/call')
    source.cancel('user')
    expect(await pending).toBe(ErrorCodes.cancelled)
    const note = await seenOnce(seen, (m) => m.method === 'notifications/cancelled')
    expect(note?.body.params).toEqual({ requestId: call?.body.id, reason: 'user' })
    expect((await client.callTool('a', {})).text).toBe('ok a')
  })
})

describe('McpHttpClient listing cache', () => {
  it('a tools/list_changed notification in an answer\'s stream drops the cached listing', async () => {
    let tools = ['a', 'b']
    const { url, seen } = await serve((msg, req, res) => {
      if (msg.method === 'tools/list') return json(res, { jsonrpc: '2.0', id: msg.id, result: toolList(tools) })
      if (msg.method !== 'tools/call' || msg.params.name !== 'grow') return standard(msg, res)
      tools = ['a', 'b', 'c']
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })}\n\n`)
      res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: 'grown' }] } })}\n\n`)
    })
    const client = new McpHttpClient(url, new FetchTransport())
    expect((await client.listTools()).map((t) => t.name)).toEqual(['a', 'b'])
    expect((await client.listTools()).map((t) => t.name)).toEqual(['a', 'b'])
    expect(seen.filter((s) => s.method === 'tools/list').length).toBe(1)
    expect((await client.callTool('grow', {})).text).toBe('grown')
    expect(client.listChanged).toBe(true)
    expect((await client.listTools()).map((t) => t.name)).toEqual(['a', 'b', 'c'])
    expect(client.listChanged).toBe(false)
    expect(seen.filter((s) => s.method === 'tools/list').length).toBe(2)
  })

  it('a lost session answered 400 or 410 (not only 404) is initialized again and the request retried once', async () => {
    for (const status of [400, 410]) {
      let generation = 1
      const { url, seen } = await serve((msg, req, res) => {
        if (msg.method !== 'initialize' && msg.id !== undefined && req.headers['mcp-session-id'] !== `S${generation}`) {
          res.writeHead(status, { 'content-type': 'application/json' })
          res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }))
          return
        }
        standard(msg, res, `S${generation}`)
      })
      const client = new McpHttpClient(url, new FetchTransport())
      expect((await client.callTool('a', {})).text).toBe('ok a')
      generation = 2
      expect((await client.callTool('a', {})).text).toBe('ok a')
      expect(seen.filter((s) => s.method === 'initialize').length).toBe(2)
      expect(seen.filter((s) => s.method === 'tools/call').length).toBe(3)
    }
  })
})

describe('MCP tool names (McpNames)', () => {
  it('are valid, unique and independent of listing order, whatever the server calls its tools', () => {
    const names = ['get_item', 'get.item', 'get item', 'x'.repeat(80), 'x'.repeat(81), '日本', 'a__b', '', 'dup', 'dup']
    const forward = McpNames.assign('srv', names)
    const backward = McpNames.assign('srv', names.slice().reverse()).reverse()
    expect(forward[0]).toBe('srv__get_item')
    expect(forward[9]).toBe('')
    const offered = forward.filter((n) => n.length > 0)
    expect(new Set(offered).size).toBe(offered.length)
    for (const n of offered) expect(n).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
    // Same tool, same name, in either order (the second 'dup' is the duplicate either way).
    expect(forward.slice(0, 8)).toEqual(backward.slice(0, 8))
  })

  it('two spellings with the same hash (a pair a hostile server can search for) get the same names in either order', () => {
    const prefix = `tool.${'x'.repeat(60)}`
    const [a, b] = [`${prefix}7pf8`, `${prefix}orj6`] // same fnv1a, same 55-character base
    const ab = McpNames.assign('srv', [a, b])
    const ba = McpNames.assign('srv', [b, a])
    expect(ab[0]).not.toBe(ab[1])
    expect([ab[0], ab[1]]).toEqual([ba[1], ba[0]])
  })

  it('server names that would let prefixes overlap are refused', () => {
    for (const bad of ['', 'a__b', 'a_b', 'has space', 'x'.repeat(25)]) {
      expect(() => McpNames.checkServer(bad)).toThrow(/MCP server name/)
    }
    expect(McpNames.checkServer('notes-2')).toBe('notes-2')
  })

  it('McpHttpTool.all registers every tool of a server whose names clash once sanitised', async () => {
    const { url } = await serve((msg, req, res) => {
      if (msg.method !== 'tools/list') return standard(msg, res)
      json(res, { jsonrpc: '2.0', id: msg.id, result: toolList(['get.item', 'get_item']) })
    })
    const tools = await McpHttpTool.all(new McpHttpClient(url, new FetchTransport()), 'srv')
    const registry = new ToolRegistry(tools)
    const names = registry.definitions().map((d) => d.name)
    expect(names).toHaveLength(2)
    expect(names).toContain('srv__get_item')
    expect(names.find((n) => n !== 'srv__get_item')).toMatch(/^srv__get_item_[0-9a-f]{8}$/)
  })
})
