// McpToolSource (Node, official SDK client) against a server that sends what real servers send on a
// bad day: odd names and schemas, malformed content, JSON-RPC errors, pages, changed definitions.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CancellationSource, CancellationToken, ContentPart, createAgent, ErrorCodes, FunctionTool,
  ModelRequest, RunStatus, ScriptedProvider, ScriptedTurn, ToolCall, ToolDefinition,
  ToolExecutionContext, ToolRegistry, ToolRiskLevel } from '../../src/index'
import { McpToolSource } from '../../src/mcp'

const server = path.join(__dirname, 'fixtures/odd-mcp-server.mjs')
const sources: McpToolSource[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const s of sources.splice(0)) await s.close().catch(() => {})
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

type Listed = { name: string, inputSchema?: unknown, annotations?: Record<string, boolean>, description?: string }
function odd(list: Listed[], risk?: Record<string, ToolRiskLevel>, extraEnv: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-mcp-odd-'))
  dirs.push(dir)
  const listFile = path.join(dir, 'tools.json')
  const pidLog = path.join(dir, 'pids')
  fs.writeFileSync(listFile, JSON.stringify(list))
  const source = new McpToolSource({ name: 'odd', command: process.execPath, args: [server], env: { ...process.env as Record<string, string>, LIST_FILE: listFile, PID_LOG: pidLog, ...extraEnv }, risk })
  sources.push(source)
  return { source, setList: (l: Listed[]) => fs.writeFileSync(listFile, JSON.stringify(l)), pids: () => fs.readFileSync(pidLog, 'utf8').trim().split('\n') }
}
const obj = { type: 'object' }
const ctx = (id = 'c1') => new ToolExecutionContext('s', 'r', new ToolCall(id, 'x', '{}', 0), CancellationToken.none)

describe('MCP risk overrides', () => {
  it('are looked up by own name only: a tool called constructor or toString keeps the risk its annotations give', async () => {
    const { source } = odd([{ name: 'constructor', inputSchema: obj, annotations: { destructiveHint: true } },
      { name: 'toString', inputSchema: obj }, { name: 'wipe', inputSchema: obj }], { wipe: ToolRiskLevel.safe })
    const risks = Object.fromEntries((await source.tools()).map((t) => [t.definition.name, t.definition.riskLevel]))
    expect(risks).toEqual({ odd__constructor: 'dangerous', odd__toString: 'dangerous', odd__wipe: 'safe' })
    const { runtime } = createAgent({ sessionId: 'proto', tools: await source.tools(),
      model: ScriptedProvider.fromFunction((r: ModelRequest) => r.messages.at(-1)?.role === 'tool' ? ScriptedTurn.text('ok') : ScriptedTurn.text('').call('c1', 'odd__constructor', '{}')) })
    expect((await runtime.run('go')).status).toBe(RunStatus.suspended)
  })

  it('a risk level that is not one of the three, a bad server name or a bad map is refused at construction', () => {
    const base = { command: process.execPath, args: [server] }
    expect(() => new McpToolSource({ ...base, name: 'odd', risk: { wipe: 'Dangerous' as ToolRiskLevel } })).toThrow(/risk of 'wipe'/)
    expect(() => new McpToolSource({ ...base, name: 'odd', risk: null as unknown as Record<string, ToolRiskLevel> })).toThrow(/risk must map/)
    for (const name of ['', 'a__b', 'has space', 'x'.repeat(25)]) {
      expect(() => new McpToolSource({ ...base, name })).toThrow(/MCP server name/)
    }
  })
})

describe('MCP listing', () => {
  it('follows pages and leaves out tools that cannot be offered, instead of failing the whole listing', async () => {
    const { source } = odd([{ name: 'a', inputSchema: obj }, { name: 'str', inputSchema: { type: 'string' } }, { name: 'b' },
      { name: '' }, { name: 'get.item', inputSchema: obj }, { name: 'get_item', inputSchema: obj }, { name: 'c', inputSchema: { properties: {} } }])
    const names = (await source.tools()).map((t) => t.definition.name)
    expect(names.slice(0, 2)).toEqual(['odd__a', 'odd__b'])
    expect(names[2]).toMatch(/^odd__get_item_[0-9a-f]{8}$/)
    expect(names.slice(3)).toEqual(['odd__get_item', 'odd__c'])
    expect(new ToolRegistry(await source.tools()).definitions()).toHaveLength(5)
  })

  it('a tool whose definition changed is replaced by syncInto (risk, schema, description), and only this source\'s tools are touched', async () => {
    const { source, setList } = odd([{ name: 'rm', inputSchema: obj, annotations: { readOnlyHint: true }, description: 'harmless' }])
    const registry = new ToolRegistry(await source.tools())
    registry.register(new FunctionTool(new ToolDefinition('odd_local', 'mine', obj), async () => 'local'))
    setList([{ name: 'rm', inputSchema: { type: 'object', properties: { all: { type: 'boolean' } } }, annotations: { destructiveHint: true }, description: 'removes everything' }])
    expect(await source.syncInto(registry)).toEqual({ added: [], removed: [], updated: ['odd__rm'], clashed: [] })
    const def = registry.definition('odd__rm')
    expect([def?.riskLevel, def?.description, def?.parameters.properties]).toEqual(['dangerous', 'removes everything', { all: { type: 'boolean' } }])
    setList([])
    expect(await source.syncInto(registry)).toEqual({ added: [], removed: ['odd__rm'], updated: [], clashed: [] })
    expect(registry.definitions().map((d) => d.name)).toEqual(['odd_local'])
  })

  it('a notification during a failed refresh is not lost: listChanged stays set until a listing succeeds', async () => {
    const { source, setList } = odd([{ name: 'notify', inputSchema: obj }])
    await source.tools()
    await source.call('notify', {}, ctx())
    await new Promise((r) => setTimeout(r, 50))
    expect(source.listChanged).toBe(true)
    fs.writeFileSync((source.spec.env as Record<string, string>).LIST_FILE, 'not json') // the server fails to list
    await expect(source.tools()).rejects.toThrow()
    expect(source.listChanged).toBe(true)
    setList([{ name: 'notify', inputSchema: obj }])
    await source.tools()
    expect(source.listChanged).toBe(false)
  })
})

describe('MCP listing cache', () => {
  it('a tools/list_changed notification drops the cached listing: the next tools() asks the server again', async () => {
    const { source, setList } = odd([{ name: 'notify', inputSchema: obj }])
    const first = await source.tools()
    setList([{ name: 'notify', inputSchema: obj }, { name: 'added', inputSchema: obj }])
    // The server said nothing yet: the cached listing is what tools() gives.
    const again = await source.tools()
    expect([again.length, again[0]]).toEqual([1, first[0]])
    await source.call('notify', {}, ctx())
    await new Promise((r) => setTimeout(r, 50))
    expect(source.listChanged).toBe(true)
    expect((await source.tools()).map((t) => t.definition.name)).toEqual(['odd__notify', 'odd__added'])
    expect(source.listChanged).toBe(false)
  })
})

describe('MCP with createAgent', () => {
  it('a registry given to createAgent is kept in step by the source\'s refresh hook: a tool added by the server is offered the turn after', async () => {
    const { source, setList } = odd([{ name: 'notify', inputSchema: obj, annotations: { readOnlyHint: true } }])
    const registry = new ToolRegistry(await source.tools())
    const model = new ScriptedProvider([ScriptedTurn.text('').call('c1', 'odd__notify', '{}'), ScriptedTurn.text('').call('c2', 'odd__added', '{}'),
      ScriptedTurn.text('done')])
    setList([{ name: 'notify', inputSchema: obj, annotations: { readOnlyHint: true } }, { name: 'added', inputSchema: obj, annotations: { readOnlyHint: true } }])
    const agent = createAgent({ sessionId: 'sync', model, registry, hooks: [source.refreshHook(registry)] })
    expect(agent.tools).toBe(registry)
    expect((await agent.runtime.run('go')).status).toBe(RunStatus.completed)
    expect(agent.runtime.snapshot().history.filter((m) => m.role === 'tool').map((m) => m.text())).toEqual(['notified', 'ran added'])
    expect(model.requests.map((r) => r.tools.map((t) => t.name).includes('odd__added'))).toEqual([false, false, true])
  })
})

describe('MCP call results', () => {
  it('a JSON-RPC error answer fails the call and keeps the server (same process, its state intact)', async () => {
    const { source, pids } = odd([{ name: 'count', inputSchema: obj }, { name: 'rpc_error', inputSchema: obj }])
    expect((await source.call('count', {}, ctx())).modelText()).toBe('call 1 in this process')
    await expect(source.call('rpc_error', {}, ctx())).rejects.toThrow(/bad params/)
    expect((await source.call('count', {}, ctx())).modelText()).toBe('call 3 in this process')
    expect(pids()).toHaveLength(1)
  })

  it('malformed blocks become notes next to the good ones; content that is not a list is said, not thrown', async () => {
    const { source } = odd([{ name: 'odd_content', inputSchema: obj }, { name: 'not_a_list', inputSchema: obj }])
    const r = await source.call('odd_content', {}, ctx())
    expect(r.isError).toBe(false)
    expect(r.content.map((p: ContentPart) => p.text)).toEqual(['kept', '[MCP content of type "video" not supported]',
      expect.stringMatching(/^\[MCP image block dropped: /), expect.stringMatching(/^\[MCP image block dropped: /)])
    const bad = await source.call('not_a_list', {}, ctx())
    expect(bad.modelText()).toBe('[MCP content that is not a list dropped]')
  })

  it('through the runtime: a JSON-RPC error is a tool_execution_failed result and the run goes on', async () => {
    const { source } = odd([{ name: 'rpc_error', inputSchema: obj, annotations: { readOnlyHint: true } }])
    const { runtime } = createAgent({ sessionId: 'rpc', tools: await source.tools(),
      model: ScriptedProvider.fromFunction((r: ModelRequest) => r.messages.at(-1)?.role === 'tool' ? ScriptedTurn.text('handled') : ScriptedTurn.text('').call('c1', 'odd__rpc_error', '{}')) })
    expect((await runtime.run('go')).status).toBe(RunStatus.completed)
    const result = runtime.snapshot().history.find((m) => m.role === 'tool')
    expect([result?.isError, result?.errorCode]).toEqual([true, ErrorCodes.toolExecutionFailed])
    expect(result?.text()).toMatch(/bad params/)
  })
})

describe('MCP connections', () => {
  it('a call that times out restarts a stdio server only when no other call runs on it: a sibling is never cut off', async () => {
    const { source, pids } = odd([{ name: 'slow', inputSchema: obj }, { name: 'hang', inputSchema: obj }, { name: 'count', inputSchema: obj }],
      undefined, { IGNORE_EOF: '1' })
    await source.tools()
    const b = source.call('slow', { ms: 1500 }, ctx('b'))
    const cancelA = new CancellationSource()
    const a = source.call('hang', {}, new ToolExecutionContext('s', 'r', new ToolCall('a', 'x', '{}', 0), cancelA.token)).then(() => 'A ok', () => 'A failed')
    cancelA.cancel('tool timeout')
    expect(await a).toBe('A failed')
    expect((await b).modelText()).toBe('slow done')
    expect(pids().length).toBe(1)
    // Alone, a timed-out call restarts the hung server: the next call runs on a new process.
    const cancelD = new CancellationSource()
    const d = source.call('hang', {}, new ToolExecutionContext('s', 'r', new ToolCall('d', 'x', '{}', 0), cancelD.token)).catch(() => 'D failed')
    cancelD.cancel('tool timeout')
    expect(await d).toBe('D failed')
    expect((await source.call('count', {}, ctx('e'))).modelText()).toBe('call 1 in this process')
    expect(pids().length).toBe(2)
  })

  it('a sync whose new tool clashes with another tool applies the rest (a risk upgrade included) and reports the clash', async () => {
    const { source, setList } = odd([{ name: 'a', inputSchema: obj, annotations: { readOnlyHint: true } }])
    const registry = new ToolRegistry(await source.tools())
    registry.register(new FunctionTool(new ToolDefinition('odd__b', 'someone else', obj), async () => 'theirs'))
    setList([{ name: 'a', inputSchema: obj, annotations: { destructiveHint: true } }, { name: 'b', inputSchema: obj }])
    expect(await source.syncInto(registry)).toEqual({ added: [], removed: [], updated: ['odd__a'], clashed: ['odd__b'] })
    expect(registry.definition('odd__a')?.riskLevel).toBe(ToolRiskLevel.dangerous)
    expect(registry.definition('odd__b')?.description).toBe('someone else')
    expect(source.listChanged).toBe(false)
  })
})

describe('MCP close', () => {
  it('close() during the first connect leaves no server running and no client behind', async () => {
    const { source, pids } = odd([{ name: 'count', inputSchema: obj }])
    const listing = source.tools().then(() => 'listed', () => 'refused')
    await new Promise((r) => setTimeout(r, 20))
    await source.close()
    expect(await listing).toBe('refused')
    await new Promise((r) => setTimeout(r, 100))
    for (const pid of pids()) expect(() => process.kill(Number(pid), 0)).toThrow()
    await expect(source.call('count', {}, ctx())).rejects.toThrow(/was closed/)
  })
})
