// MCP servers' tools whose inputSchema the validator refuses are left out of the listing — with a
// diagnostic naming the tool and the keyword — and never offered with a weakened schema. The same
// server (the official SDK's low-level Server over Streamable HTTP) is listed by the core's
// McpHttpClient and by the Node McpToolSource (official SDK client).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { CancellationToken, FetchTransport, McpHttpClient, McpHttpTool, McpSkippedTool, ToolCall,
  ToolRegistry } from '../../src/index'
import { McpToolSource } from '../../src/mcp'

const D7 = 'http://json-schema.org/draft-07/schema#'
const LISTED = [
  { name: 'read_file', inputSchema: { type: 'object', properties: { path: { type: 'string', pattern: '^[A-Za-z0-9_/-]+$' } }, required: ['path'] } },
  { name: 'dynamic', inputSchema: { type: 'object', $defs: { n: { $dynamicAnchor: 'n' } }, properties: { a: { $dynamicRef: '#n' } } } },
  { name: 'nullable', inputSchema: { type: 'object', properties: { q: { type: 'string', nullable: true } } } },
  { name: 'remote', inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/schemas/a.json' } } } },
  { name: 'lookahead', inputSchema: { type: 'object', properties: { p: { type: 'string', pattern: '^(?!\\.\\.)' } } } },
  { name: 'tuple07', inputSchema: { $schema: D7, type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }], additionalItems: false } } } },
]
const EXPECTED_SKIPPED = [
  ['dynamic', '$dynamicAnchor'],
  ['nullable', 'nullable'],
  ['remote', '$ref'],
  ['lookahead', 'pattern'],
]

const servers: http.Server[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) { s.closeAllConnections(); await new Promise((r) => s.close(r)) }
})

/** A stateless server (a fresh SDK Server per request) listing LISTED; every call answers "ran <name>". */
async function serve(): Promise<string> {
  const server = http.createServer(async (req, res) => {
    const mcp = new Server({ name: 'schemas', version: '1' }, { capabilities: { tools: {} } })
    mcp.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: LISTED }) as never)
    mcp.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: `ran ${request.params.name}` }] }))
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    await mcp.connect(transport)
    await transport.handleRequest(req, res)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  servers.push(server)
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`
}

function checkSkipped(skipped: McpSkippedTool[]): void {
  expect(skipped.map((s) => [s.name, s.keyword])).toEqual(EXPECTED_SKIPPED)
  for (const s of skipped) {
    expect(s.toString().startsWith(`MCP tool "${s.name}" left out: its inputSchema refused: keyword '${s.keyword}' at #/`)).toBe(true)
  }
  expect(skipped.find((s) => s.name === 'remote')?.reason).toMatch(/remote ones are refused/)
  expect(skipped.find((s) => s.name === 'lookahead')?.reason).toMatch(/linear-time engine/)
}

describe('MCP tools with a refused inputSchema', () => {
  it('McpHttpClient (core) leaves them out of listTools and McpHttpTool.all, reporting each in skippedTools', async () => {
    const client = new McpHttpClient(await serve(), new FetchTransport())
    expect((await client.listTools()).map((t) => t.name)).toEqual(['read_file', 'tuple07'])
    checkSkipped(client.skippedTools)
    const tools = await McpHttpTool.all(client, 'srv')
    expect(tools.map((t) => t.definition.name)).toEqual(['srv__read_file', 'srv__tuple07'])
    checkSkipped(client.skippedTools)
    // What is offered is validated as the server wrote it (draft-07 tuples included).
    const registry = new ToolRegistry(tools)
    const call = (name: string, args: object) => registry.execute(new ToolCall('c', name, JSON.stringify(args), 0), 's', 'r', CancellationToken.none)
    expect((await call('srv__tuple07', { t: ['a', 'b'] })).textContent()).toBe("Invalid arguments for 'srv__tuple07': $.t[1]: is not allowed: the array may have at most 1 items")
    expect((await call('srv__read_file', { path: '../x' })).textContent()).toMatch(/\$\.path: must match the pattern/)
    expect((await call('srv__read_file', { path: 'notes/a' })).textContent()).toBe('ran read_file')
  })

  it('McpToolSource (Node, official SDK client) leaves them out of tools() and reports each in skippedTools', async () => {
    const source = new McpToolSource({ name: 'srv', url: await serve() })
    try {
      const tools = await source.tools()
      expect(tools.map((t) => t.definition.name)).toEqual(['srv__read_file', 'srv__tuple07'])
      checkSkipped(source.skippedTools)
      expect(tools[1].validateArguments({ t: [1] })).toBe('$.t[0]: expected string')
      const registry = new ToolRegistry()
      await source.syncInto(registry)
      expect(registry.definitions().map((d) => d.name)).toEqual(['srv__read_file', 'srv__tuple07'])
    } finally {
      await source.close()
    }
  })
})
