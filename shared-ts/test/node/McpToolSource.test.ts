// MCP tools under the control plane, against the official SDK's McpServer: over stdio (a child
// process running examples/mcp/notes-server.mjs) and over Streamable HTTP on 127.0.0.1.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { createAgent, ErrorCodes, MemoryStateStorage, ModelRequest, RunStatus, ScriptedProvider,
  ScriptedTurn, ToolRegistry, ToolRiskLevel } from '../../src/index'
import { McpToolSource } from '../../src/mcp'
// @ts-ignore the example server is plain JavaScript
import { notesServer } from '../../../examples/mcp/notes-server.mjs'

const root = path.resolve(__dirname, '../../..')
const sources: McpToolSource[] = []
const servers: http.Server[] = []
afterEach(async () => {
  for (const s of sources.splice(0)) await s.close()
  for (const s of servers.splice(0)) { s.closeAllConnections(); await new Promise((r) => s.close(r)) }
})

function stdio(): McpToolSource {
  const s = new McpToolSource({ name: 'notes', command: process.execPath, args: [path.join(root, 'examples/mcp/notes-server.mjs')],
    env: { ...process.env as Record<string, string>, NOTES_SERVER_FAULTS: '1' } })
  sources.push(s)
  return s
}

async function httpSource(): Promise<McpToolSource> {
  const server = http.createServer(async (req, res) => {
    // Stateless: a server and transport per request, as the SDK documents for simple servers.
    const mcp = notesServer({ faults: true })
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
    res.on('close', () => { void transport.close(); void mcp.close() })
    await mcp.connect(transport)
    await transport.handleRequest(req, res)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  servers.push(server)
  const s = new McpToolSource({ name: 'notes', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` })
  sources.push(s)
  return s
}

/** A model that calls `tool` with `args` once, then answers with the last tool result. */
function callOnce(tool: string, args: object): ScriptedProvider {
  return ScriptedProvider.fromFunction((request: ModelRequest) => {
    const last = request.messages[request.messages.length - 1]
    return last.role === 'tool' ? ScriptedTurn.text(`result: ${last.modelText()}`) : ScriptedTurn.text('calling').call('c1', tool, JSON.stringify(args))
  })
}

for (const [transport, make] of [['stdio', async () => stdio()], ['Streamable HTTP', httpSource]] as const) {
  describe(`MCP over ${transport}`, () => {
    it('lists the server\'s tools, namespaced, with their schemas and risk from the annotations', async () => {
      const tools = await (await make()).tools()
      const byName = new Map(tools.map((t) => [t.definition.name, t.definition]))
      expect([...byName.keys()].sort()).toEqual(['notes__add_note', 'notes__chart', 'notes__crash', 'notes__delete_note',
        'notes__enable_archive', 'notes__hang', 'notes__list_notes', 'notes__note_card', 'notes__read_note'])
      expect(byName.get('notes__read_note')?.riskLevel).toBe(ToolRiskLevel.safe)
      expect(byName.get('notes__add_note')?.riskLevel).toBe(ToolRiskLevel.sensitive)
      expect(byName.get('notes__delete_note')?.riskLevel).toBe(ToolRiskLevel.dangerous)
      expect(JSON.stringify(byName.get('notes__read_note')?.parameters)).toContain('"name"')
    })

    it('a read-only tool runs through the runtime; its text reaches the model', async () => {
      const tools = await (await make()).tools()
      const { runtime } = createAgent({ sessionId: 'mcp-read', model: callOnce('notes__read_note', { name: 'welcome' }),
        tools, storage: new MemoryStateStorage() })
      const outcome = await runtime.run('read the welcome note')
      expect(outcome.status).toBe(RunStatus.completed)
      expect(outcome.finalMessage?.text()).toBe('result: Hello from the notes server.')
    })

    it('a destructive tool waits for approval like a local one, then runs once', async () => {
      const source = await make()
      const registry = new ToolRegistry()
      expect((await source.register(registry)).length).toBe(9)
      const { runtime, controller } = createAgent({ sessionId: 'mcp-delete', model: callOnce('notes__delete_note', { name: 'welcome' }),
        tools: await source.tools(), storage: new MemoryStateStorage() })
      expect((await runtime.run('delete it')).status).toBe(RunStatus.suspended)
      await controller.approve(controller.listPendingApprovals()[0].approvalId)
      await runtime.whenIdle()
      expect(runtime.snapshot().history.some((m) => m.role === 'tool' && m.text() === 'deleted welcome')).toBe(true)
    })

    it('an error result is an error-flagged result the model sees; an image is described, not dumped', async () => {
      const tools = await (await make()).tools()
      const missing = createAgent({ sessionId: 'mcp-err', model: callOnce('notes__read_note', { name: 'nope' }), tools })
      await missing.runtime.run('read nope')
      const result = missing.runtime.snapshot().history.find((m) => m.role === 'tool')
      expect([result?.isError, result?.errorCode]).toEqual([true, ErrorCodes.toolExecutionFailed])
      expect(result?.text()).toContain('No note named nope')
      const chart = createAgent({ sessionId: 'mcp-img', model: callOnce('notes__chart', {}), tools })
      expect((await chart.runtime.run('chart')).finalMessage?.text()).toBe('result: chart attached\n[image image/png, 7 bytes]')
    })

    it('an image stays a typed part in history (bytes and MIME type), the model is sent its description', async () => {
      const tools = await (await make()).tools()
      const { runtime } = createAgent({ sessionId: 'mcp-img-part', model: callOnce('notes__chart', {}), tools })
      await runtime.run('chart')
      const result = runtime.snapshot().history.find((m) => m.role === 'tool')!
      expect(result.content.map((p) => [p.type, p.text, p.mimeType, Buffer.from(p.data, 'base64').toString()]))
        .toEqual([['text', 'chart attached', '', ''], ['image', '', 'image/png', 'PNGDATA']])
      expect(result.isError).toBe(false)
    })

    it('structured content is a json part, an embedded resource and a resource link are resource parts', async () => {
      const tools = await (await make()).tools()
      const { runtime } = createAgent({ sessionId: 'mcp-card', model: callOnce('notes__note_card', { name: 'welcome' }), tools })
      const outcome = await runtime.run('card')
      const result = runtime.snapshot().history.find((m) => m.role === 'tool')!
      expect(result.content.map((p) => [p.type, p.text, p.mimeType, p.uri])).toEqual([
        ['text', '{"name":"welcome","length":28}', '', ''],
        ['resource', 'Hello from the notes server.', 'text/plain', 'notes://welcome'],
        ['resource', '', 'text/plain', 'notes://welcome'],
        ['json', '{"name":"welcome","length":28}', '', ''],
      ])
      // The json part repeats the text, so the model gets it once.
      expect(outcome.finalMessage?.text()).toBe('result: {"name":"welcome","length":28}\n' +
        '[resource notes://welcome text/plain]\nHello from the notes server.\n[resource notes://welcome text/plain]')
    })
  })
}

describe('MCP server failures (stdio)', () => {
  it('a server that dies mid-call gives tool_execution_failed, and the next call reconnects', async () => {
    const source = stdio()
    const tools = await source.tools()
    expect((await source.tools())[0]).toBe(tools[0])                  // the cached listing
    const crash = createAgent({ sessionId: 'mcp-crash', model: callOnce('notes__crash', {}), tools })
    await crash.runtime.run('crash')
    const failed = crash.runtime.snapshot().history.find((m) => m.role === 'tool')
    expect([failed?.isError, failed?.errorCode]).toEqual([true, ErrorCodes.toolExecutionFailed])
    const again = createAgent({ sessionId: 'mcp-again', model: callOnce('notes__list_notes', {}), tools })
    expect((await again.runtime.run('list')).finalMessage?.text()).toBe('result: welcome')
    expect((await source.tools())[0]).not.toBe(tools[0])              // a new connection: listed anew
  })

  it('a server that hangs is cut by the tool timeout (tool_timeout), and the run goes on', async () => {
    const tools = await stdio().tools()
    const { runtime } = createAgent({ sessionId: 'mcp-hang', model: callOnce('notes__hang', {}), tools, toolTimeoutMs: 500 })
    const outcome = await runtime.run('hang')
    expect(outcome.status).toBe(RunStatus.completed)
    const r = runtime.snapshot().history.find((m) => m.role === 'tool')
    expect(r?.errorCode).toBe(ErrorCodes.toolTimeout)
  })
})

describe('MCP approvals across a restart (stdio, files)', () => {
  it('a pending approval for an MCP tool survives the process; the next one lists the server again and runs it once', async () => {
    const fs = await import('node:fs')
    const os = await import('node:os')
    const { FileStateStorage } = await import('../../src/index')
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-mcp-'))
    try {
      const firstStorage = new FileStateStorage(dir)
      const first = createAgent({ sessionId: 'mcp-restart', model: callOnce('notes__delete_note', { name: 'welcome' }),
        tools: await stdio().tools(), storage: firstStorage })
      expect((await first.runtime.run('delete the welcome note')).status).toBe(RunStatus.suspended)
      await firstStorage.close()
      for (const s of sources.splice(0)) await s.close()                 // the first process and its server are gone

      const second = createAgent({ sessionId: 'mcp-restart', model: callOnce('notes__delete_note', { name: 'welcome' }),
        tools: await stdio().tools(), storage: new FileStateStorage(dir) })
      const report = await second.runtime.restore()
      expect(report.pendingApprovals.map((p) => p.toolCall.name)).toEqual(['notes__delete_note'])
      await second.controller.approve(report.pendingApprovals[0].approvalId)
      await second.runtime.whenIdle()
      const results = second.runtime.snapshot().history.filter((m) => m.role === 'tool').map((m) => m.text())
      expect(results).toEqual(['deleted welcome'])
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a tool that is gone when the session is restored is answered tool_not_found, not a crash', async () => {
    const storage = new MemoryStateStorage()
    const first = createAgent({ sessionId: 'mcp-gone', model: callOnce('notes__delete_note', { name: 'welcome' }),
      tools: await stdio().tools(), storage })
    expect((await first.runtime.run('delete it')).status).toBe(RunStatus.suspended)
    // The server (or its tool) went away: the next process registers no such tool.
    const second = createAgent({ sessionId: 'mcp-gone', model: callOnce('notes__delete_note', { name: 'welcome' }), tools: [], storage })
    const report = await second.runtime.restore()
    await second.controller.approve(report.pendingApprovals[0].approvalId)
    await second.runtime.whenIdle()
    const result = second.runtime.snapshot().history.find((m) => m.role === 'tool')
    expect([result?.isError, result?.errorCode]).toEqual([true, ErrorCodes.toolNotFound])
  })
})

describe('MCP tool list changes (stdio)', () => {
  it('a changed list is applied before the next model call, never mid-batch; the turn after offers the new tool', async () => {
    const { AgentRuntime, AgentRuntimeConfig, AgentHookPipeline } = await import('../../src/index')
    const source = stdio()
    const registry = new ToolRegistry(await source.tools())
    const model = new ScriptedProvider([
      ScriptedTurn.text('enabling').call('c1', 'notes__enable_archive', '{}'),
      ScriptedTurn.text('archiving').call('c2', 'notes__archive_note', '{"name":"welcome"}'),
      ScriptedTurn.text('archived'),
    ])
    const config = new AgentRuntimeConfig('mcp-changes', model)
    config.tools = registry
    config.hooks = new AgentHookPipeline([source.refreshHook(registry)])
    const runtime = new AgentRuntime(config)
    const outcome = await runtime.run('archive the welcome note')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(runtime.snapshot().history.filter((m) => m.role === 'tool').map((m) => m.text())).toEqual(['archive enabled', 'archived welcome'])
    const offered = model.requests.map((r) => r.tools.map((t) => t.name).includes('notes__archive_note'))
    expect(offered).toEqual([false, false, true])
    expect(source.listChanged).toBe(false)
  })
})
