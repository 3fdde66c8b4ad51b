// MCP tools and parallel execution (docs/tools.md): a tool the server marks read-only (readOnlyHint)
// may run concurrently, anything else runs alone; the spec overrides either way, and one server's
// concurrent calls are bounded by its maxConcurrentCalls. The overlap is proved by a server tool that
// answers only once two calls of it wait at once — never by time.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createAgent, ModelRequest, RunStatus, ScriptedProvider, ScriptedTurn, ToolConcurrency } from '../../src/index'
import { McpToolSource } from '../../src/mcp'

const server = path.join(__dirname, 'fixtures/odd-mcp-server.mjs')
const sources: McpToolSource[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const s of sources.splice(0)) await s.close().catch(() => {})
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

function source(list: unknown[], extra: Record<string, unknown> = {}): McpToolSource {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-mcp-conc-'))
  dirs.push(dir)
  const listFile = path.join(dir, 'tools.json')
  fs.writeFileSync(listFile, JSON.stringify(list))
  const s = new McpToolSource({ name: 'odd', command: process.execPath, args: [server],
    env: { ...process.env as Record<string, string>, LIST_FILE: listFile }, ...extra })
  sources.push(s)
  return s
}

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
})
