// A `tools/call` answer whose `result` is not a result object (`"just a string"`, null, a list), from
// a server built with the official SDK (fixtures/sdk-odd-result-server.mjs): both clients, over
// every transport they have, answer it at once with the same error-flagged tool_execution_failed
// result — never an empty success, never a wait for the timeout — and the connection stays usable.
// And an answer's SSE stream that ends without the answer: both clients fail that call at once.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sessionHandler } from '../support/mcpSessions'
import { ErrorCodes, FetchTransport, McpHttpClient, McpHttpTool, ToolCall, ToolRegistry } from '../../src/index'
import { McpToolSource } from '../../src/mcp'
// @ts-ignore a plain JavaScript fixture
import { oddResultServer, sendingRawResults } from './fixtures/sdk-odd-result-server.mjs'

const fixture = path.join(__dirname, 'fixtures/sdk-odd-result-server.mjs')
const sources: McpToolSource[] = []
const servers: http.Server[] = []
afterEach(async () => {
  for (const s of sources.splice(0)) await s.close().catch(() => {})
  for (const s of servers.splice(0)) { s.closeAllConnections(); await new Promise((r) => s.close(r)) }
})

/** The fixture over Streamable HTTP with sessions (SSE answers: the SDK's transport sends no JSON answer it cannot recognise). */
async function sdkHttpServer(): Promise<string> {
  const sessions = sessionHandler(async (made) => { await oddResultServer().connect(sendingRawResults(made)) })
  const server = http.createServer(async (req, res) => {
    await sessions(req, res)
  })
  return listen(server)
}

/** A hand-written server answering in JSON (application/json), for the JSON path of both clients. */
async function rawJsonServer(): Promise<string> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') { res.writeHead(405); res.end(); return }
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      const msg = JSON.parse(body)
      const answer = (result: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'S1' })
        res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }))
      }
      if (msg.id === undefined) { res.writeHead(202); res.end(); return }
      if (msg.method === 'initialize') {
        return answer({ protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } })
      }
      if (msg.method === 'tools/list') {
        return answer({ tools: [{ name: 'answer', inputSchema: { type: 'object', properties: { raw: { type: 'string' } } }, annotations: { readOnlyHint: true } },
          { name: 'fine', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] })
      }
      answer(msg.params.name === 'answer' ? JSON.parse(msg.params.arguments.raw) : { content: [{ type: 'text', text: 'fine' }] })
    })
  })
  return listen(server)
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  servers.push(server)
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`
}

function source(spec: ConstructorParameters<typeof McpToolSource>[0]): McpToolSource {
  const s = new McpToolSource(spec)
  sources.push(s)
  return s
}

const core = async (url: string) => new ToolRegistry(await McpHttpTool.all(new McpHttpClient(url, new FetchTransport()), 'odd'), 240000)
const node = async (spec: Omit<ConstructorParameters<typeof McpToolSource>[0], 'name'>) =>
  new ToolRegistry(await source({ name: 'odd', ...spec }).tools(), 240000)
const clients: [string, () => Promise<ToolRegistry>][] = [
  ['McpHttpClient, the SDK-built server (SSE)', async () => core(await sdkHttpServer())],
  ['McpToolSource, the SDK-built server over Streamable HTTP (SSE)', async () => node({ url: await sdkHttpServer() })],
  ['McpToolSource, the SDK-built server over stdio', async () => node({ command: process.execPath, args: [fixture] })],
  ['McpHttpClient, a JSON answer', async () => core(await rawJsonServer())],
  ['McpToolSource, a JSON answer', async () => node({ url: await rawJsonServer() })],
]

for (const [name, registryOf] of clients) {
  describe(`${name}: a result that is not a result object`, () => {
    it('is an error-flagged tool_execution_failed result at once, saying what came; the next call works', async () => {
      const registry = await registryOf()
      let n = 0
      for (const [raw, kind] of [['"just a string"', 'a string'], ['null', 'null'], ['[1,2]', 'a list'], ['42', 'a number']] as const) {
        const r = await registry.execute(new ToolCall(`c${++n}`, 'odd__answer', JSON.stringify({ raw })), 's', 'r')
        expect([r.isError, r.errorCode, r.modelText()])
          .toEqual([true, ErrorCodes.toolExecutionFailed, `MCP tool answer answered with ${kind} instead of a result object`])
      }
      const fine = await registry.execute(new ToolCall('c9', 'odd__fine', '{}'), 's', 'r')
      expect([fine.isError, fine.modelText()]).toEqual([false, 'fine'])
    })
  })
}

describe('McpHttpClient.callTool', () => {
  it('gives the same error-flagged parts the tool result carries', async () => {
    const client = new McpHttpClient(await sdkHttpServer(), new FetchTransport())
    const r = await client.callTool('answer', { raw: '"just a string"' })
    expect([r.isError, r.text, r.answer]).toEqual([true, 'MCP tool answer answered with a string instead of a result object', 'just a string'])
  })
})

/** A hand-written server whose SSE answer to `vanish` ends without the answer (no event id to resume from). */
async function vanishingServer(): Promise<{ url: string, initializes: () => number }> {
  let initializes = 0
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') { res.writeHead(405); res.end(); return }
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      const msg = JSON.parse(body)
      if (msg.id === undefined) { res.writeHead(202); res.end(); return }
      const sse = (events: object[]) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'S1' })
        res.end(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''))
      }
      if (msg.method === 'initialize') {
        initializes++
        return sse([{ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'v', version: '1' } } }])
      }
      if (msg.method === 'tools/list') {
        return sse([{ jsonrpc: '2.0', id: msg.id, result: { tools: ['vanish', 'fine'].map((name) => ({ name, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } })) } }])
      }
      if (msg.params.name === 'vanish') return sse([{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } }])
      sse([{ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: 'fine' }] } }])
    })
  })
  return { url: await listen(server), initializes: () => initializes }
}

describe('an answer\'s stream that ends without the answer', () => {
  for (const client of ['McpHttpClient', 'McpToolSource'] as const) {
    it(`${client}: that call fails at once (tool_execution_failed); the next call works`, async () => {
      const { url } = await vanishingServer()
      const registry = client === 'McpHttpClient' ? await core(url) : await node({ url })
      const r = await registry.execute(new ToolCall('c1', 'odd__vanish', '{}'), 's', 'r')
      expect([r.isError, r.errorCode]).toEqual([true, ErrorCodes.toolExecutionFailed])
      const fine = await registry.execute(new ToolCall('c2', 'odd__fine', '{}'), 's', 'r')
      expect([fine.isError, fine.modelText()]).toEqual([false, 'fine'])
    })
  }
})
