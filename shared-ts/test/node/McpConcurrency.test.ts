// MCP tools and parallel execution (docs/tools.md): a tool the server marks read-only (readOnlyHint)
// may run concurrently, anything else runs alone; the spec overrides either way, and one server's
// concurrent calls are bounded by its maxConcurrentCalls. The overlap is proved by a server tool that
// answers only once two calls of it wait at once — never by time.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CancellationSource, CancellationToken, createAgent, ModelRequest, RunStatus, ScriptedProvider, ScriptedTurn, ToolCall, ToolConcurrency,
  ToolExecutionContext, ToolRegistry, ToolRiskLevel } from '../../src/index'
import { McpToolSource } from '../../src/mcp'

const server = path.join(__dirname, 'fixtures/odd-mcp-server.mjs')
const sources: McpToolSource[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const s of sources.splice(0)) await s.close().catch(() => {})
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

let lastDir = ''
function source(list: unknown[], extra: Record<string, unknown> = {}, env: Record<string, string> = {}): McpToolSource {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-mcp-conc-'))
  dirs.push(dir)
  lastDir = dir
  const listFile = path.join(dir, 'tools.json')
  fs.writeFileSync(listFile, JSON.stringify(list))
  const s = new McpToolSource({ name: 'odd', command: process.execPath, args: [server],
    env: { ...process.env as Record<string, string>, LIST_FILE: listFile, PID_LOG: path.join(dir, 'pids'), ...env }, ...extra })
  sources.push(s)
  return s
}
const setList = (list: unknown[]): void => fs.writeFileSync(path.join(lastDir, 'tools.json'), JSON.stringify(list))
const pids = (): string[] => fs.readFileSync(path.join(lastDir, 'pids'), 'utf8').trim().split('\n')
const ctx = (id: string, token = CancellationToken.none) => new ToolExecutionContext('s', 'r', new ToolCall(id, 'x', '{}', 0), token)

const obj = { type: 'object' }

describe('MCP tools and concurrency', () => {
  it('readOnlyHint makes a tool concurrent in the group mcp:<server>; anything else is serial; the spec overrides both', async () => {
    const list = [{ name: 'read', inputSchema: obj, annotations: { readOnlyHint: true } }, { name: 'write', inputSchema: obj },
      { name: 'maybe', inputSchema: obj, annotations: { readOnlyHint: false, destructiveHint: false } }]
    const plain = Object.fromEntries((await source(list).tools()).map((t) => [t.definition.name,
      [t.definition.concurrency, t.definition.concurrencyGroup, t.definition.groupLimit]]))
    expect(plain).toEqual({ odd__read: ['concurrent', 'mcp:odd', 4], odd__write: ['serial', 'mcp:odd', 4], odd__maybe: ['serial', 'mcp:odd', 4] })
    const overridden = await source(list, { concurrency: { read: 'serial', write: 'concurrent' }, maxConcurrentCalls: 2 }).tools()
    expect(overridden.map((t) => [t.definition.name, t.definition.concurrency, t.definition.groupLimit])).toEqual([
      ['odd__read', ToolConcurrency.serial, 2], ['odd__write', ToolConcurrency.concurrent, 2], ['odd__maybe', ToolConcurrency.serial, 2]])
  })

  it('refuses a concurrency that is not serial or concurrent, and a limit below 1', () => {
    const base = { name: 'odd', command: process.execPath, args: [server] }
    expect(() => new McpToolSource({ ...base, concurrency: { read: 'parallel' as ToolConcurrency } })).toThrow(/concurrency of 'read'/)
    expect(() => new McpToolSource({ ...base, maxConcurrentCalls: 0 })).toThrow(/maxConcurrentCalls/)
  })

  it('two calls of a read-only tool in one batch run at the same time over one server connection', async () => {
    const s = source([{ name: 'meet', inputSchema: obj, annotations: { readOnlyHint: true } }])
    const model = ScriptedProvider.fromFunction((r: ModelRequest) => r.messages.at(-1)?.role === 'tool' ? ScriptedTurn.text('done') :
      ScriptedTurn.text('').call('c1', 'odd__meet', '{}').call('c2', 'odd__meet', '{}'))
    const { runtime } = createAgent({ sessionId: 'mcp-meet', model, tools: await s.tools() })
    const outcome = await runtime.run('go')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(runtime.snapshot().history.filter((m) => m.role === 'tool').map((m) => m.text())).toEqual(['met', 'met'])
  })

  it('a tool list refresh that changes only a tool\'s concurrency replaces the tool', async () => {
    const s = source([{ name: 'read', inputSchema: obj, annotations: { readOnlyHint: true } }], { risk: { read: ToolRiskLevel.safe } })
    const registry = new ToolRegistry(await s.tools())
    expect(registry.definition('odd__read')?.concurrency).toBe(ToolConcurrency.concurrent)
    setList([{ name: 'read', inputSchema: obj }])
    s.invalidateTools()
    expect((await s.syncInto(registry)).updated).toEqual(['odd__read'])
    expect(registry.definition('odd__read')?.concurrency).toBe(ToolConcurrency.serial)
  })

  it('a stdio server is restarted at a call\'s second timeout in a row even while another call runs on it', async () => {
    const s = source([{ name: 'slow', inputSchema: obj }, { name: 'hang', inputSchema: obj }], {}, { IGNORE_EOF: '1' })
    await s.tools()
    const b = s.call('slow', { ms: 3000 }, ctx('b')).then(() => 'B ok', () => 'B cut off')
    for (const id of ['a', 'c']) {
      const cancel = new CancellationSource()
      const hung = s.call('hang', {}, ctx(id, cancel.token)).then(() => 'ok', () => 'failed')
      cancel.cancel('tool timeout')
      expect(await hung).toBe('failed')
      // The first timeout leaves the server (and b) alone; the second restarts it.
      if (id === 'a') expect(pids().length).toBe(1)
    }
    await b
    expect((await s.call('count', {}, ctx('e'))).modelText()).toBe('call 1 in this process')
    expect(pids().length).toBe(2)
  })
})
