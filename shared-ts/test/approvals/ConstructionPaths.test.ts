// The approval gate belongs to the runtime: however the agent is built — the explicit classes with
// no hooks at all, createAgent with tools or a registry, hooks that answer proceed to everything or
// rewrite the call, MCP tools over stdio and over HTTP (the Node source and the core client), a
// session restored by a new runtime — a dangerous call is frozen (announced in approval.required),
// does not run before the user approves it, and runs exactly once after.
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { AgentHook, AgentHookPipeline, AgentRuntime, AgentRuntimeConfig, ApprovalPolicy, ApprovalPolicyHook,
  ApprovalRequiredEvent, CancellationToken, ControllerEventTypes, createAgent, ErrorCodes,
  FetchTransport, FunctionTool, McpHttpClient, McpHttpTool, MemoryStateStorage, RunStatus,
  ScriptedProvider, ScriptedTurn, StopReason, ToolCall, ToolCallHookContext, ToolCallHookResult,
  ToolDefinition, ToolExecutionContext, ToolRegistry, ToolRiskLevel, type AgentTool,
  type ModelRequest } from '../../src/index'
import { McpToolSource } from '../../src/mcp'
// @ts-ignore the example server is plain JavaScript
import { notesServer } from '../../../examples/mcp/notes-server.mjs'

const root = path.resolve(import.meta.dirname, '../../..')
const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c()
})

/** A model that calls `name` with `args` once, then says done. */
function callOnce(name: string, args: string = '{}'): ScriptedProvider {
  return ScriptedProvider.fromFunction((r: ModelRequest) =>
    r.messages[r.messages.length - 1].role === 'tool' ? ScriptedTurn.text('done') : ScriptedTurn.text('on it').call('c1', name, args))
}

function wipeTool(runs: string[]): FunctionTool {
  return new FunctionTool(new ToolDefinition('wipe', 'Wipe the cache', { type: 'object' }, ToolRiskLevel.dangerous),
    async () => { runs.push('wipe'); return 'wiped' })
}

class ProceedToEverything extends AgentHook {
  async beforeToolCall(): Promise<ToolCallHookResult> { return ToolCallHookResult.proceed() }
}

class RewriteArgs extends AgentHook {
  async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
    return ToolCallHookResult.proceed(ctx.call.withArguments('{"rewritten":true}'))
  }
}

/** Runs once, expects the dangerous call frozen and unrun; approves; expects it run exactly once. */
async function expectGated(runtime: AgentRuntime, ran: () => number): Promise<void> {
  let announced: ApprovalRequiredEvent | undefined
  runtime.controller.subscribe(ControllerEventTypes.approvalRequired, (e) => { announced = e as ApprovalRequiredEvent })
  const first = await runtime.run('go')
  expect([first.status, first.stopReason]).toEqual([RunStatus.suspended, StopReason.awaitingApproval])
  expect(ran()).toBe(0)
  expect(announced?.batch.items.map((i) => i.toolCall.id)).toEqual(['c1'])
  const pending = runtime.controller.listPendingApprovals()
  expect(pending.length).toBe(1)
  expect((await runtime.controller.approve(pending[0].approvalId)).ok).toBe(true)
  await runtime.whenIdle()
  expect(ran()).toBe(1)
  // A late approval of the consumed batch is refused and runs nothing again.
  expect((await runtime.controller.approve(pending[0].approvalId)).error?.code).toBe(ErrorCodes.approvalConsumed)
  await runtime.whenIdle()
  expect(ran()).toBe(1)
  expect(runtime.snapshot().status).toBe('completed')
}

describe('every way to build an agent gates a dangerous tool', () => {
  it('new AgentRuntime(new AgentRuntimeConfig(id, model)) with a tool registry and no hooks at all', async () => {
    const runs: string[] = []
    const config = new AgentRuntimeConfig('plain', callOnce('wipe'))
    config.tools = new ToolRegistry([wipeTool(runs)])
    await expectGated(new AgentRuntime(config), () => runs.length)
  })

  it('the explicit classes with storage, as the HAR README wires them (no ApprovalPolicyHook)', async () => {
    const runs: string[] = []
    const config = new AgentRuntimeConfig('har-like', callOnce('wipe'))
    config.tools = new ToolRegistry([wipeTool(runs)])
    config.storage = new MemoryStateStorage()
    await expectGated(new AgentRuntime(config), () => runs.length)
  })

  it('the explicit classes with ApprovalPolicyHook registered (the older way) still ask once', async () => {
    const runs: string[] = []
    const config = new AgentRuntimeConfig('with-hook', callOnce('wipe'))
    config.tools = new ToolRegistry([wipeTool(runs)])
    config.hooks = new AgentHookPipeline([new ApprovalPolicyHook()])
    await expectGated(new AgentRuntime(config), () => runs.length)
  })

  for (const [label, hook] of [['a hook answering proceed to every call', new ProceedToEverything()],
    ['a hook rewriting every call', new RewriteArgs()]] as const) {
    it(`${label} cannot waive the gate (explicit classes and createAgent)`, async () => {
      const runs: string[] = []
      const config = new AgentRuntimeConfig('hooked', callOnce('wipe'))
      config.tools = new ToolRegistry([wipeTool(runs)])
      config.hooks = new AgentHookPipeline([hook])
      await expectGated(new AgentRuntime(config), () => runs.length)
      const more: string[] = []
      await expectGated(createAgent({ sessionId: 'hooked2', model: callOnce('wipe'), tools: [wipeTool(more)], hooks: [hook] }).runtime,
        () => more.length)
    })
  }

  it('createAgent with tools, and with a registry of your own', async () => {
    const runs: string[] = []
    await expectGated(createAgent({ sessionId: 'ca', model: callOnce('wipe'), tools: [wipeTool(runs)] }).runtime, () => runs.length)
    const more: string[] = []
    await expectGated(createAgent({ sessionId: 'cr', model: callOnce('wipe'), registry: new ToolRegistry([wipeTool(more)]) }).runtime,
      () => more.length)
  })

  it('a session frozen by one runtime and restored by a new one built from a bare config', async () => {
    const runs: string[] = []
    const storage = new MemoryStateStorage()
    const first = createAgent({ sessionId: 'restored', model: callOnce('wipe'), tools: [wipeTool(runs)], storage })
    expect((await first.runtime.run('go')).stopReason).toBe(StopReason.awaitingApproval)
    first.runtime.dispose()
    const config = new AgentRuntimeConfig('restored', callOnce('wipe'))
    config.tools = new ToolRegistry([wipeTool(runs)])
    config.storage = storage
    const second = new AgentRuntime(config)
    const report = await second.restore()
    expect(report.pendingApprovals.map((p) => p.toolCall.name)).toEqual(['wipe'])
    expect(runs).toEqual([])
    await second.controller.approve(report.pendingApprovals[0].approvalId)
    await second.whenIdle()
    expect(runs).toEqual(['wipe'])
  })

  it('the opt-out is explicit and named: runDangerousToolsWithoutApproval runs it unasked', async () => {
    const runs: string[] = []
    const config = new AgentRuntimeConfig('headless', callOnce('wipe'))
    config.tools = new ToolRegistry([wipeTool(runs)])
    config.approvalPolicy = ApprovalPolicy.runDangerousToolsWithoutApproval()
    expect((await new AgentRuntime(config).run('go')).status).toBe(RunStatus.completed)
    expect(runs).toEqual(['wipe'])
  })

  it('a policy that is not an ApprovalPolicy (plain JavaScript) is refused when the runtime is built', () => {
    for (const bad of [undefined, null, {}, 'off', false, { needsApproval: () => false }]) {
      const config = new AgentRuntimeConfig('bad', callOnce('wipe'))
      ;(config as unknown as { approvalPolicy: unknown }).approvalPolicy = bad
      let code = ''
      try { new AgentRuntime(config) } catch (e) { code = (e as { code: string }).code }
      expect([bad, code]).toEqual([bad, ErrorCodes.invalidConfig])
    }
  })

  it('hooks still win with deny and abort (defer: every test above freezes)', async () => {
    const runs: string[] = []
    const deny = createAgent({ sessionId: 'deny', model: callOnce('wipe'), tools: [wipeTool(runs)], hooks: [new (class extends AgentHook {
      async beforeToolCall(): Promise<ToolCallHookResult> { return ToolCallHookResult.deny(undefined, 'never') }
    })()] })
    expect((await deny.runtime.run('go')).status).toBe(RunStatus.completed)
    const abort = createAgent({ sessionId: 'abort', model: callOnce('wipe'), tools: [wipeTool(runs)], hooks: [new (class extends AgentHook {
      async beforeToolCall(): Promise<ToolCallHookResult> { return ToolCallHookResult.abort('stop') }
    })()] })
    expect((await abort.runtime.run('go')).error?.code).toBe(ErrorCodes.hookAbort)
    expect(runs).toEqual([])
  })
})

describe('MCP tools are gated like local ones', () => {
  /** Seeds a note through the tool itself, so the destructive call has something to delete. */
  async function addNote(tools: AgentTool[], prefix: string): Promise<void> {
    const add = tools.find((t) => t.definition.name === `${prefix}add_note`) as AgentTool
    const call = new ToolCall('seed', add.definition.name, '{"name":"n","text":"keep"}', 0)
    const out = await add.execute({ name: 'n', text: 'keep' }, new ToolExecutionContext('s', 'r', call, CancellationToken.none))
    expect(typeof out === 'string' ? out : out.textContent()).toBe('saved n')
  }

  async function readNote(tools: AgentTool[], prefix: string): Promise<string> {
    const read = tools.find((t) => t.definition.name === `${prefix}read_note`) as AgentTool
    const call = new ToolCall('peek', read.definition.name, '{"name":"n"}', 0)
    const out = await read.execute({ name: 'n' }, new ToolExecutionContext('s', 'r', call, CancellationToken.none))
    return typeof out === 'string' ? out : out.textContent()
  }

  /** Runs the agent: frozen with the note still there; approved: deleted, the call started exactly once. */
  async function expectMcpGated(tools: AgentTool[], sessionId: string): Promise<void> {
    await addNote(tools, 'notes__')
    const { runtime, controller } = createAgent({ sessionId, model: callOnce('notes__delete_note', '{"name":"n"}'), tools })
    let started = 0
    controller.subscribe(ControllerEventTypes.beforeToolCall, () => { started++ })
    const first = await runtime.run('go')
    expect(first.stopReason).toBe(StopReason.awaitingApproval)
    expect([started, await readNote(tools, 'notes__')]).toEqual([0, 'keep'])
    expect(controller.listPendingApprovals().map((p) => [p.toolCall.name, p.riskLevel]))
      .toEqual([['notes__delete_note', ToolRiskLevel.dangerous]])
    await controller.approve(controller.listPendingApprovals()[0].approvalId)
    await runtime.whenIdle()
    expect([started, await readNote(tools, 'notes__')]).toEqual([1, 'No note named n'])
  }

  it('McpToolSource over stdio: delete_note (destructiveHint) waits, then deletes once', async () => {
    const source = new McpToolSource({ name: 'notes', command: process.execPath, args: [path.join(root, 'examples/mcp/notes-server.mjs')] })
    cleanups.push(() => source.close())
    await expectMcpGated(await source.tools(), 'mcp-stdio')
  })

  it('the core McpHttpClient against the SDK server: delete_note waits, then deletes once', async () => {
    const transports = new Map<string, StreamableHTTPServerTransport>()
    const server = http.createServer(async (req, res) => {
      const id = req.headers['mcp-session-id']
      let transport = typeof id === 'string' ? transports.get(id) : undefined
      if (transport === undefined) {
        transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => { transports.set(sid, transport as StreamableHTTPServerTransport) } })
        await notesServer().connect(transport)
      }
      await transport.handleRequest(req, res)
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    cleanups.push(async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)) })
    const client = new McpHttpClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, new FetchTransport())
    await expectMcpGated(await McpHttpTool.all(client, 'notes'), 'mcp-http')
  })
})
