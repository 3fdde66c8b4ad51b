// The core's own MCP client (for the HAR), against the official SDK's server over Streamable HTTP on
// 127.0.0.1 — stateful (session id header) and stateless, JSON and SSE answers — so the two agree.
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CancellationToken, ContentPart, createAgent, ErrorCodes, FetchTransport, McpHttpClient, McpHttpTool,
  RunStatus, ScriptedProvider, ScriptedTurn, ToolCall, ToolExecutionContext, ToolConcurrency,
  ToolRiskLevel,
  type ModelRequest } from '../../src/index'
import { McpToolSource } from '../../src/mcp'
// @ts-ignore the example server is plain JavaScript
import { notesServer } from '../../../examples/mcp/notes-server.mjs'

const servers: http.Server[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) { s.closeAllConnections(); await new Promise((r) => s.close(r)) }
})

/** Stateful: one McpServer + transport per session, found again by the mcp-session-id header. */
async function statefulServer(jsonResponse: boolean): Promise<{ url: string, sessions: Set<string> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>()
  const sessions = new Set<string>()
  const server = http.createServer(async (req, res) => {
    const id = req.headers['mcp-session-id']
    let transport = typeof id === 'string' ? transports.get(id) : undefined
    if (transport === undefined) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(), enableJsonResponse: jsonResponse,
        onsessioninitialized: (sid) => { transports.set(sid, transport as StreamableHTTPServerTransport); sessions.add(sid) },
      })
      await notesServer().connect(transport)
    }
    await transport.handleRequest(req, res)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  servers.push(server)
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, sessions }
}

const callOnce = (tool: string, args: object): ScriptedProvider => ScriptedProvider.fromFunction((request: ModelRequest) => {
  const last = request.messages[request.messages.length - 1]
  return last.role === 'tool' ? ScriptedTurn.text(`result: ${last.text()}`) : ScriptedTurn.text('calling').call('c1', tool, JSON.stringify(args))
})

for (const json of [false, true]) {
  describe(`McpHttpClient against the SDK's server (${json ? 'JSON' : 'SSE'} answers)`, () => {
    it('initializes with a session, lists tools with schemas and risk from annotations', async () => {
      const { url, sessions } = await statefulServer(json)
      const client = new McpHttpClient(url, new FetchTransport())
      const tools = await client.listTools()
      expect(sessions.size).toBe(1)
      const byName = new Map(tools.map((t) => [t.name, t]))
      expect(byName.get('read_note')?.risk).toBe(ToolRiskLevel.safe)
      expect(byName.get('add_note')?.risk).toBe(ToolRiskLevel.sensitive)
      expect(byName.get('delete_note')?.risk).toBe(ToolRiskLevel.dangerous)
      expect(JSON.stringify(byName.get('read_note')?.inputSchema)).toContain('"name"')
      // The session carries state: a note added is read back in the same session.
      expect((await client.callTool('add_note', { name: 'n', text: 'kept' })).text).toBe('saved n')
      expect((await client.callTool('read_note', { name: 'n' })).text).toBe('kept')
      expect(sessions.size).toBe(1)
    })

    it('error results are flagged; images are described', async () => {
      const { url } = await statefulServer(json)
      const client = new McpHttpClient(url, new FetchTransport())
      const missing = await client.callTool('read_note', { name: 'nope' })
      expect([missing.isError, missing.text]).toEqual([true, 'No note named nope'])
      const chart = await client.callTool('chart', {})
      expect(chart.text).toBe('chart attached\n[image image/png, 7 bytes]')
      expect(chart.parts.map((p) => [p.type, p.mimeType, Buffer.from(p.data, 'base64').toString()]))
        .toEqual([['text', '', ''], ['image', 'image/png', 'PNGDATA']])
    })

    it('maps every kind of content to the same parts as the official SDK client', async () => {
      const { url } = await statefulServer(json)
      const ours = new McpHttpClient(url, new FetchTransport())
      const sdk = new McpToolSource({ name: 'notes', url })
      try {
        const context = (id: string) => new ToolExecutionContext('s', 'r', new ToolCall(id, 'x', '{}', 0), CancellationToken.none)
        for (const [tool, args] of [['chart', {}], ['note_card', { name: 'welcome' }], ['read_note', { name: 'nope' }], ['list_notes', {}]] as const) {
          const a = await ours.callTool(tool, args as Record<string, Object>)
          const b = await sdk.call(tool, args as Record<string, Object>, context('c'))
          const fields = (parts: ContentPart[]) => parts.map((p) => [p.type, p.text, p.mimeType, p.data, p.uri])
          expect({ tool, parts: fields(a.parts), isError: a.isError }).toEqual({ tool, parts: fields(b.content), isError: b.isError })
        }
      } finally {
        await sdk.close()
      }
    })

    it('its tools run under the runtime like local ones: a destructive call waits for approval', async () => {
      const { url } = await statefulServer(json)
      const client = new McpHttpClient(url, new FetchTransport())
      const tools = await McpHttpTool.all(client, 'notes')
      const { runtime, controller } = createAgent({ sessionId: 'core-mcp', model: callOnce('notes__delete_note', { name: 'welcome' }), tools })
      expect((await runtime.run('delete')).status).toBe(RunStatus.suspended)
      await controller.approve(controller.listPendingApprovals()[0].approvalId)
      await runtime.whenIdle()
      expect(runtime.snapshot().history.filter((m) => m.role === 'tool').map((m) => m.text())).toEqual(['deleted welcome'])
    })
  })
}

describe('McpHttpClient failures', () => {
  it('an unreachable server is tool_execution_failed inside the run, not a crash', async () => {
    const client = new McpHttpClient('http://127.0.0.1:1/mcp', new FetchTransport())
    await expect(client.listTools()).rejects.toThrow()
    const tool = new McpHttpTool(client, 'gone', { name: 'read_note', description: 'x', inputSchema: { type: 'object' }, risk: ToolRiskLevel.safe, concurrency: ToolConcurrency.serial })
    const { runtime } = createAgent({ sessionId: 'core-mcp-gone', model: callOnce('gone__read_note', {}), tools: [tool] })
    expect((await runtime.run('read')).status).toBe(RunStatus.completed)
    const r = runtime.snapshot().history.find((m) => m.role === 'tool')
    expect([r?.isError, r?.errorCode]).toEqual([true, ErrorCodes.toolExecutionFailed])
  })
})
