// Both MCP clients against the MCP reference servers, run locally (npm @modelcontextprotocol/server-
// everything and server-filesystem): what the model reads of typed parts, per-server tool filters and
// risk overrides, and the listing cache. McpToolSource runs them over stdio; McpHttpClient runs the
// everything server in its Streamable HTTP mode.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ArkAgentError, createAgent, ErrorCodes, FetchTransport, McpHttpClient, McpHttpTool,
  ScriptedProvider, ScriptedTurn, ToolCall, ToolRegistry, ToolRiskLevel, type McpToolFilter } from '../../src/index'
import { McpToolSource, type McpServerSpec } from '../../src/mcp'
import { EverythingHttp, everythingBin, filesystemBin } from './fixtures/reference-servers'

let everything: EverythingHttp
beforeAll(async () => { everything = await EverythingHttp.start() })
afterAll(async () => { await everything.kill() })

const sources: McpToolSource[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const s of sources.splice(0)) await s.close().catch(() => {})
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

function source(spec: McpServerSpec): McpToolSource {
  const s = new McpToolSource(spec)
  sources.push(s)
  return s
}
const everythingStdio = (extra: Partial<McpServerSpec> = {}) =>
  source({ name: 'everything', command: process.execPath, args: [everythingBin, 'stdio'], ...extra })
function filesystem(extra: Partial<McpServerSpec> = {}): McpToolSource {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-mcp-fs-'))
  dirs.push(dir)
  fs.writeFileSync(path.join(dir, 'note.txt'), 'hello')
  return source({ name: 'fs', command: process.execPath, args: [filesystemBin, dir], ...extra })
}
const names = (registry: ToolRegistry) => registry.definitions().map((d) => d.name).sort()
const invalid = (make: () => unknown): string => {
  try {
    make()
  } catch (e) {
    expect((e as ArkAgentError).code).toBe(ErrorCodes.invalidConfig)
    return (e as Error).message
  }
  return 'accepted'
}

describe('what the model reads of typed parts, from the everything server', () => {
  const clients = [
    ['McpToolSource (stdio)', async () => new ToolRegistry(await everythingStdio().tools())],
    ['McpHttpClient (Streamable HTTP)', async () => new ToolRegistry(await McpHttpTool.all(new McpHttpClient(everything.url, new FetchTransport()), 'everything'))],
  ] as const
  for (const [name, registryOf] of clients) {
    it(`${name}: each typed part on its own line, the text after it on the next`, async () => {
      const registry = await registryOf()
      const image = await registry.execute(new ToolCall('c1', 'everything__get-tiny-image', '{}'), 's', 'r')
      const bytes = Buffer.from(image.content[1].data, 'base64').length
      expect(image.content.map((p) => p.type)).toEqual(['text', 'image', 'text'])
      expect(image.modelText()).toBe(`Here's the image you requested:\n[image image/png, ${bytes} bytes]\nThe image above is the MCP logo.`)
      const ref = await registry.execute(new ToolCall('c2', 'everything__get-resource-reference', '{"resourceType":"Text","resourceId":1}'), 's', 'r')
      const resource = ref.content[1]
      expect([resource.type, resource.text.length > 0]).toEqual(['resource', true])
      expect(ref.modelText()).toBe(`Returning resource reference for Resource 1:\n[resource ${resource.uri} ${resource.mimeType}]\n` +
        `${resource.text}\nYou can access this resource using the URI: ${resource.uri}`)
    })
  }
})

describe('per-server tool filters (McpToolSource, the filesystem server)', () => {
  it('a block list keeps tools out of the registry and out of what the model is offered', async () => {
    const fsSource = filesystem({ filter: { block: ['write_file', 'edit_file', 'move_file', 'create_directory'] } })
    const registry = new ToolRegistry(await fsSource.tools())
    expect(names(registry)).toContain('fs__read_text_file')
    for (const blocked of ['fs__write_file', 'fs__edit_file', 'fs__move_file', 'fs__create_directory']) expect(names(registry)).not.toContain(blocked)
    const model = new ScriptedProvider([ScriptedTurn.text('done')])
    await createAgent({ sessionId: 'filtered', model, registry }).runtime.run('hi')
    expect(model.requests[0].tools.map((t) => t.name).sort()).toEqual(names(registry))
  })

  it('an allow list, a block list and a predicate together; the predicate sees the risk after the overrides', async () => {
    const seen: string[] = []
    const filter: McpToolFilter = {
      allow: ['read_text_file', 'list_directory', 'get_file_info', 'write_file', 'no_such_tool'],
      block: ['get_file_info'],
      predicate: (t) => { seen.push(`${t.name}:${t.risk}`); return t.risk !== ToolRiskLevel.dangerous },
    }
    const fsSource = filesystem({ filter, risk: { list_directory: ToolRiskLevel.dangerous } })
    expect((await fsSource.tools()).map((t) => t.definition.name).sort()).toEqual(['fs__read_text_file'])
    expect(seen.sort()).toEqual(['list_directory:dangerous', 'read_text_file:safe', 'write_file:dangerous'])
  })

  it('a predicate that throws leaves its tool out (reported in skippedTools), never in', async () => {
    const fsSource = filesystem({ filter: { predicate: (t) => { if (t.name === 'read_text_file') throw new Error('no idea'); return true } } })
    const offered = (await fsSource.tools()).map((t) => t.definition.name)
    expect(offered).toContain('fs__list_directory')
    expect(offered).not.toContain('fs__read_text_file')
    expect(fsSource.skippedTools.map((s) => [s.name, s.reason])).toEqual([['read_text_file', "the tool filter's predicate failed: no idea"]])
  })

  it('a filter that is not what it should be is refused when the source is made', () => {
    const base = { name: 'fs', command: process.execPath, args: [filesystemBin, os.tmpdir()] }
    expect(invalid(() => new McpToolSource({ ...base, filter: { allowed: ['x'] } as McpToolFilter }))).toMatch(/unknown option "allowed"/)
    expect(invalid(() => new McpToolSource({ ...base, filter: { allow: 'read_text_file' as unknown as string[] } }))).toMatch(/filter.allow must be an array/)
    expect(invalid(() => new McpToolSource({ ...base, filter: { block: [1 as unknown as string] } }))).toMatch(/filter.block\[0\]/)
    expect(invalid(() => new McpToolSource({ ...base, filter: { predicate: true as unknown as () => boolean } }))).toMatch(/predicate must be a function/)
    expect(invalid(() => new McpToolSource({ ...base, listCacheMs: -1 }))).toMatch(/listCacheMs/)
  })
})

describe('per-server tool filters and risk overrides (McpHttpClient, the everything server over HTTP)', () => {
  it('allow, block and predicate decide what McpHttpTool.all offers', async () => {
    const all = async (filter: McpToolFilter) =>
      (await McpHttpTool.all(new McpHttpClient(everything.url, new FetchTransport(), undefined, { filter }), 'everything')).map((t) => t.definition.name).sort()
    expect(await all({ allow: ['echo', 'get-sum'] })).toEqual(['everything__echo', 'everything__get-sum'])
    expect(await all({ allow: ['echo', 'get-sum'], block: ['echo'] })).toEqual(['everything__get-sum'])
    const everyName = await all({})
    expect(await all({ predicate: (t) => t.name.startsWith('get-') })).toEqual(everyName.filter((n) => n.startsWith('everything__get-')))
  })

  it('risk overrides by the server\'s tool name, checked like the Node source\'s', async () => {
    const client = new McpHttpClient(everything.url, new FetchTransport(), undefined, { risk: { echo: ToolRiskLevel.dangerous, toString: ToolRiskLevel.safe } })
    const risks = new Map((await client.listTools()).map((t) => [t.name, t.risk]))
    expect([risks.get('echo'), risks.get('get-sum')]).toEqual([ToolRiskLevel.dangerous, ToolRiskLevel.safe])
    const tools = await McpHttpTool.all(client, 'everything')
    expect(tools.find((t) => t.definition.name === 'everything__echo')?.definition.riskLevel).toBe(ToolRiskLevel.dangerous)
    const url = everything.url
    expect(invalid(() => new McpHttpClient(url, new FetchTransport(), undefined, { risk: { echo: 'Dangerous' as ToolRiskLevel } }))).toMatch(/risk of 'echo'/)
    expect(invalid(() => new McpHttpClient(url, new FetchTransport(), undefined, { risk: null as unknown as Record<string, ToolRiskLevel> }))).toMatch(/risk must map/)
    expect(invalid(() => new McpHttpClient(url, new FetchTransport(), undefined, { filter: { block: 'echo' as unknown as string[] } }))).toMatch(/filter.block/)
  })
})

describe('the listing cache', () => {
  /** A FetchTransport counting the tools/list requests it sends. */
  function counting(): { transport: FetchTransport, lists: () => number } {
    let lists = 0
    const transport = new FetchTransport({
      fetch: (url, init) => { if (String(init?.body).includes('"tools/list"')) lists++; return fetch(url, init) },
    })
    return { transport, lists: () => lists }
  }

  it('McpHttpClient: a listing is reused until invalidateTools(), a new session or listCacheMs', async () => {
    const { transport, lists } = counting()
    const client = new McpHttpClient(everything.url, transport)
    const first = await client.listTools()
    await client.listTools()
    await McpHttpTool.all(client, 'everything')
    expect(lists()).toBe(1)
    client.invalidateTools()
    expect((await client.listTools()).map((t) => t.name)).toEqual(first.map((t) => t.name))
    expect(lists()).toBe(2)
    const short = counting()
    const timed = new McpHttpClient(everything.url, short.transport, undefined, { listCacheMs: 300 })
    await timed.listTools()
    await timed.listTools()
    await new Promise((r) => setTimeout(r, 350))
    await timed.listTools()
    expect(short.lists()).toBe(2)
    const none = counting()
    const uncached = new McpHttpClient(everything.url, none.transport, undefined, { listCacheMs: 0 })
    await uncached.listTools()
    await uncached.listTools()
    expect(none.lists()).toBe(2)
  })

  it('McpHttpClient: a new session (the server restarted) drops the cached listing', async () => {
    const server = await EverythingHttp.start()
    try {
      const { transport, lists } = counting()
      const client = new McpHttpClient(server.url, transport)
      await client.listTools()
      await server.restart()
      expect((await client.callTool('echo', { message: 'x' })).text).toBe('Echo: x')
      await client.listTools()
      expect(lists()).toBe(2)
    } finally {
      await server.kill()
    }
  })

  it('McpToolSource: tools() reuses a listing until invalidateTools() (or listCacheMs: 0 never does)', async () => {
    const cached = filesystem()
    const a = await cached.tools()
    const b = await cached.tools()
    expect(b[0]).toBe(a[0])
    cached.invalidateTools()
    const c = await cached.tools()
    expect(c[0]).not.toBe(a[0])
    expect(c.map((t) => t.definition.name)).toEqual(a.map((t) => t.definition.name))
    const uncached = filesystem({ listCacheMs: 0 })
    expect((await uncached.tools())[0]).not.toBe((await uncached.tools())[0])
  })
})
