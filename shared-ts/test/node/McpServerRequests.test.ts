// The server talking back, under the control plane, for both MCP clients: elicitation answered through
// the controller (persisted first, checked against the requested schema, answered once), sampling on the
// runtime's own provider and hooks under its policy and limits, roots from configuration only — against
// the everything reference server and an SDK-built server (fixtures/sdk-talkback-server.mjs) that sends
// whatever request a test asks for. Every wait is on an event or a handshake, never on a clock.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { sessionHandler } from '../support/mcpSessions'
import { AgentController, AgentHook, AgentMessage, CancellationSource, AgentTool, createAgent,
  ControllerEventTypes, ElicitationAction, ElicitationClosedBy, ElicitationKind,
  ElicitationRequiredEvent, ErrorCodes, FetchTransport, McpHttpClient, McpHttpTool,
  MemoryStateStorage, ModelCallHookContext, ModelCallHookResult, ModelChunkHookContext,
  ModelChunkHookResult, ModelRequest, ModelResponseHookContext, ModelResponseHookResult, PersistEvent,
  SamplingCompletedEvent, SamplingPolicy, ScriptedProvider, ScriptedTurn, SessionStatus, ToolCall,
  type BusEvent } from '../../src/index'
import { McpToolSource, type McpServerSpec } from '../../src/mcp'
import { EverythingHttp, everythingBin } from './fixtures/reference-servers'
// @ts-ignore a plain JavaScript fixture
import { talkbackServer } from './fixtures/sdk-talkback-server.mjs'

const talkbackBin = path.join(__dirname, 'fixtures/sdk-talkback-server.mjs')
let everything: EverythingHttp
beforeAll(async () => { everything = await EverythingHttp.start() })
afterAll(async () => { await everything.kill() })

const sources: McpToolSource[] = []
const servers: http.Server[] = []
afterEach(async () => {
  for (const s of sources.splice(0)) await s.close().catch(() => {})
  for (const s of servers.splice(0)) { s.closeAllConnections(); await new Promise((r) => s.close(r)) }
})

/** The talkback server over Streamable HTTP with sessions (server requests ride the call's SSE stream). */
async function talkbackHttp(): Promise<string> {
  const sessions = sessionHandler(async (made) => { await talkbackServer().connect(made) })
  const server = http.createServer(async (req, res) => {
    await sessions(req, res)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  servers.push(server)
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`
}

type Offer = Pick<McpServerSpec, 'elicitation' | 'sampling' | 'roots'>
type Kind = 'node' | 'core'
const KINDS: Kind[] = ['node', 'core']

function source(spec: McpServerSpec): McpToolSource {
  const s = new McpToolSource(spec)
  sources.push(s)
  return s
}
/**
 * The everything server's tools: stdio through the SDK client (node), Streamable HTTP through the core client.
 * It registers its capability-dependent tools once it has seen `notifications/initialized`, which may be
 * after a first listing: listed again (a handshake, not a clock) until `want` is there.
 */
async function everythingTools(kind: Kind, offer: Offer, want?: string): Promise<AgentTool[]> {
  const node = kind === 'node' ? source({ name: 'everything', command: process.execPath, args: [everythingBin, 'stdio'], ...offer }) : undefined
  const core = kind === 'core' ? new McpHttpClient(everything.url, new FetchTransport(), undefined, { name: 'everything', ...offer }) : undefined
  for (let attempt = 0; ; attempt++) {
    const tools = node !== undefined ? await node.tools() : await McpHttpTool.all(core as McpHttpClient, 'everything')
    if (want === undefined || attempt === 20 || tools.some((t) => t.definition.name === want)) return tools
    if (node !== undefined) node.invalidateTools()
    else core?.invalidateTools()
  }
}
async function talkbackTools(kind: Kind, offer: Offer): Promise<AgentTool[]> {
  if (kind === 'node') return source({ name: 'talkback', command: process.execPath, args: [talkbackBin], ...offer }).tools()
  return McpHttpTool.all(new McpHttpClient(await talkbackHttp(), new FetchTransport(), undefined, { name: 'talkback', ...offer }), 'talkback')
}

const SAMPLING_SYSTEM = 'You are a helpful test server.'
/** A model that calls `calls` in its first turn, answers sampling requests with `sampled`, then ends. */
function model(calls: Array<[string, string]>, sampled = 'SAMPLED answer'): ScriptedProvider {
  let turns = 0
  return ScriptedProvider.fromFunction((request: ModelRequest) => {
    if (request.tools.length === 0) return ScriptedTurn.text(sampled)
    if (turns++ > 0) return ScriptedTurn.text('done')
    const turn = new ScriptedTurn()
    calls.forEach(([name, args], i) => turn.call(`c${i + 1}`, name, args))
    return turn
  })
}
/** The result text of call `id` in the session's history. */
function resultOf(agent: { runtime: { snapshot(): { history: Array<{ toolCallId?: string, text(): string, isError: boolean }> } } }, id: string) {
  const m = agent.runtime.snapshot().history.find((x) => x.toolCallId === id)
  return { text: m?.text() ?? '(none)', isError: m?.isError ?? false }
}
function events(controller: AgentController): BusEvent[] {
  const seen: BusEvent[] = []
  controller.subscribeAll((e) => { seen.push(e) })
  return seen
}

describe('capabilities only for what the app configured', () => {
  for (const kind of KINDS) {
    it(`${kind}: nothing configured, nothing declared; the everything server hides its sampling/elicitation/roots tools`, async () => {
      const controller = new AgentController()
      const bare = await talkbackTools(kind, {})
      const agent = createAgent({ sessionId: `cap-${kind}`, model: model([['talkback__capabilities', '{}']]), tools: bare })
      await agent.runtime.run('go')
      expect(JSON.parse(resultOf(agent, 'c1').text)).toEqual({})
      const names = (await everythingTools(kind, {})).map((t) => t.definition.name)
      expect(names).not.toContain('everything__trigger-elicitation-request')
      expect(names).not.toContain('everything__trigger-sampling-request')
      const offered = (await everythingTools(kind, { elicitation: controller.serverRequests, sampling: controller.serverRequests,
        roots: ['file:///srv/notes'] }, 'everything__trigger-sampling-request')).map((t) => t.definition.name)
      expect(offered).toEqual(expect.arrayContaining(['everything__trigger-elicitation-request', 'everything__trigger-sampling-request']))
      const full = await talkbackTools(kind, { elicitation: controller.serverRequests, roots: ['file:///srv/notes'] })
      const agent2 = createAgent({ sessionId: `cap2-${kind}`, model: model([['talkback__capabilities', '{}']]), tools: full })
      await agent2.runtime.run('go')
      const declared = JSON.parse(resultOf(agent2, 'c1').text)
      expect(Object.keys(declared).sort()).toEqual(['elicitation', 'roots'])
    })
  }

  it('roots: file:/// directories only, never the whole file system, checked when the client is made', () => {
    const code = (make: () => unknown) => { try { make(); return 'made' } catch (e) { return (e as { code: string }).code } }
    for (const roots of [['file:///'], ['http://x/y'], ['file:///a/../b'], ['file:///C:/'], ['file:///a?b'], 'file:///a' as unknown as string[]]) {
      expect(code(() => new McpHttpClient('http://127.0.0.1:1/mcp', new FetchTransport(), undefined, { roots }))).toBe(ErrorCodes.invalidConfig)
      expect(code(() => new McpToolSource({ name: 'x', command: 'node', roots }))).toBe(ErrorCodes.invalidConfig)
    }
    expect(code(() => new McpToolSource({ name: 'x', command: 'node', elicitation: {} as never }))).toBe(ErrorCodes.invalidConfig)
    expect(code(() => new McpHttpClient('http://127.0.0.1:1/mcp', new FetchTransport(), undefined, { roots: ['file:///srv/a%20b'] }))).toBe('made')
  })
})

describe('elicitation: a request the user answers through the controller', () => {
  for (const kind of KINDS) {
    it(`${kind}: persisted before it is shown; an invalid answer is refused and stays pending; the first answer wins`, async () => {
      const controller = new AgentController()
      const seen = events(controller)
      const tools = await everythingTools(kind, { elicitation: controller.serverRequests }, 'everything__trigger-elicitation-request')
      const checks: Array<Promise<void>> = []
      controller.subscribe(ControllerEventTypes.elicitationRequired, (e) => {
        const item = (e as ElicitationRequiredEvent).elicitation
        checks.push((async () => {
          expect([item.kind, item.server, item.toolCallId]).toEqual([ElicitationKind.input, 'everything', 'c1'])
          expect(item.requestedSchema()?.required).toEqual(['name'])
          // Written before the event: the mandatory awaiting_elicitation write precedes it.
          const written = seen.filter((x) => x instanceof PersistEvent && x.reason === 'awaiting_elicitation') as PersistEvent[]
          expect(written.map((w) => [w.mandatory, w.ok])).toEqual([[true, true]])
          expect(seen.indexOf(written[0])).toBeLessThan(seen.indexOf(e))
          const bad = await controller.serverRequests.accept(item.elicitationId, { name: 42 } as never)
          expect([bad.ok, bad.error?.code]).toEqual([false, ErrorCodes.elicitationInvalid])
          expect(bad.error?.message).toContain('name')
          expect(controller.serverRequests.pending().map((p) => p.elicitationId)).toEqual([item.elicitationId])
          const unknown = await controller.serverRequests.accept('eli-nope', {})
          expect(unknown.error?.code).toBe(ErrorCodes.elicitationUnknown)
          const good = await controller.serverRequests.accept(item.elicitationId, { name: 'Ada Lovelace', check: true, integer: 7 })
          expect([good.ok, good.action]).toEqual([true, 'accept'])
          const again = await controller.serverRequests.decline(item.elicitationId)
          expect([again.ok, again.action]).toEqual([true, 'accept'])
        })())
      })
      const agent = createAgent({ sessionId: `eli-${kind}`, model: model([['everything__trigger-elicitation-request', '{}']]), tools,
        storage: new MemoryStateStorage(), controller })
      const outcome = await agent.runtime.run('ask me')
      await Promise.all(checks)
      expect(checks).toHaveLength(1)
      expect(outcome.status).toBe('completed')
      const result = resultOf(agent, 'c1')
      expect(result.text).toContain('User provided the requested information')
      expect(result.text).toContain('Name: Ada Lovelace')
      const resolved = agent.runtime.snapshot().elicitations
      expect(resolved.map((x) => [x.action, x.closedBy])).toEqual([[ElicitationAction.accept, ElicitationClosedBy.user]])
      expect(controller.serverRequests.pending()).toEqual([])
      // The answer's content is not stored, only that it was given.
      expect(JSON.stringify(agent.runtime.snapshot().elicitations)).not.toContain('Ada Lovelace')
    })

    it(`${kind}: decline and cancel reach the server as such`, async () => {
      for (const action of ['decline', 'cancel'] as const) {
        const controller = new AgentController()
        controller.subscribe(ControllerEventTypes.elicitationRequired, (e) => {
          const id = (e as ElicitationRequiredEvent).elicitation.elicitationId
          void (action === 'decline' ? controller.serverRequests.decline(id, 'not now') : controller.serverRequests.cancel(id))
        })
        const tools = await everythingTools(kind, { elicitation: controller.serverRequests }, 'everything__trigger-elicitation-request')
        const agent = createAgent({ sessionId: `eli-${action}-${kind}`, model: model([['everything__trigger-elicitation-request', '{}']]),
          tools, controller })
        await agent.runtime.run('ask me')
        expect(resultOf(agent, 'c1').text).toContain(action === 'decline' ? 'declined' : 'cancelled')
      }
    })
  }
})

/** A hook that sees every model call's purpose and redacts the word 'hunter2' from sampling requests and answers. */
class RedactingHook extends AgentHook {
  readonly purposes: string[] = []
  async beforeModelCall(ctx: ModelCallHookContext): Promise<ModelCallHookResult> {
    this.purposes.push(`before:${ctx.purpose}`)
    if (ctx.purpose !== ModelCallHookContext.purposeSampling) return ModelCallHookResult.proceed()
    return ModelCallHookResult.proceed(ctx.request.withMessages(ctx.request.messages.map((m) =>
      m.role === 'user' ? AgentMessage.user(m.text().replace(/hunter2/g, '[x]')) : m)))
  }
  async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
    this.purposes.push(`chunk:${ctx.purpose}`)
    return ModelChunkHookResult.proceed(ctx.text.replace('SAMPLED', 'sampled'))
  }
  async afterModelCall(ctx: ModelResponseHookContext): Promise<ModelResponseHookResult> {
    this.purposes.push(`after:${ctx.purpose}`)
    return ModelResponseHookResult.proceed()
  }
}

describe('sampling: the runtime\'s provider and hooks, under its policy and limits', () => {
  for (const kind of KINDS) {
    it(`${kind}: asked by default; the hooks see purpose 'sampling' and redact; the answer goes to the server`, async () => {
      const controller = new AgentController()
      const seen = events(controller)
      controller.subscribe(ControllerEventTypes.elicitationRequired, (e) => {
        const item = (e as ElicitationRequiredEvent).elicitation
        expect(item.kind).toBe(ElicitationKind.sampling)
        expect(item.message).toContain('hunter2')
        void controller.serverRequests.accept(item.elicitationId)
      })
      const hook = new RedactingHook()
      const provider = model([['everything__trigger-sampling-request', '{"prompt":"the password is hunter2","maxTokens":40}']])
      const tools = await everythingTools(kind, { sampling: controller.serverRequests }, 'everything__trigger-sampling-request')
      const agent = createAgent({ sessionId: `smp-${kind}`, model: provider, tools, controller, hooks: [hook] })
      await agent.runtime.run('sample')
      const sampling = provider.requests.find((r) => r.tools.length === 0)
      expect(sampling?.messages.map((m) => m.text())).toEqual([SAMPLING_SYSTEM, 'Resource trigger-sampling-request context: the password is [x]'])
      expect(sampling?.maxTokens).toBe(40)
      expect(hook.purposes).toEqual(expect.arrayContaining(['before:sampling', 'chunk:sampling', 'after:sampling', 'before:turn']))
      const result = resultOf(agent, 'c1')
      expect(result.text).toContain('sampled answer')
      expect(result.text).not.toContain('SAMPLED')
      const done = seen.filter((e) => e instanceof SamplingCompletedEvent) as SamplingCompletedEvent[]
      expect(done.map((e) => [e.outcome, e.server, e.toolCallId])).toEqual([['answered', 'everything', 'c1']])
      // Not the agent's answer: no llm.* event and no history entry for it.
      expect(seen.filter((e) => e.eventType() === 'llm.after')).toHaveLength(2)
    })

    it(`${kind}: deny refuses without asking; allow runs without asking; at most maxTurns sampling calls per run`, async () => {
      const call = ['everything__trigger-sampling-request', '{"prompt":"p","maxTokens":10}'] as [string, string]
      const controller = new AgentController()
      const asked: string[] = []
      controller.subscribe(ControllerEventTypes.elicitationRequired, (e) => { asked.push((e as ElicitationRequiredEvent).elicitation.elicitationId) })
      const denied = createAgent({ sessionId: `smp-deny-${kind}`, model: model([call]), controller, samplingPolicy: SamplingPolicy.deny,
        tools: await everythingTools(kind, { sampling: controller.serverRequests }, 'everything__trigger-sampling-request') })
      await denied.runtime.run('sample')
      expect(resultOf(denied, 'c1')).toMatchObject({ isError: true })
      expect(resultOf(denied, 'c1').text).toContain('denied by the app')
      const c2 = new AgentController()
      c2.subscribe(ControllerEventTypes.elicitationRequired, (e) => { asked.push((e as ElicitationRequiredEvent).elicitation.elicitationId) })
      const allowed = createAgent({ sessionId: `smp-allow-${kind}`, model: model([call, call, call]), controller: c2, maxTurns: 2,
        samplingPolicy: SamplingPolicy.allow, tools: await everythingTools(kind, { sampling: c2.serverRequests }, 'everything__trigger-sampling-request') })
      await allowed.runtime.run('sample')
      expect(resultOf(allowed, 'c1').text).toContain('SAMPLED answer')
      expect(resultOf(allowed, 'c2').text).toContain('SAMPLED answer')
      expect(resultOf(allowed, 'c3')).toMatchObject({ isError: true })
      expect(resultOf(allowed, 'c3').text).toContain('limit of 2 sampling calls')
      expect(asked).toEqual([])
    })
  }
})

describe('roots from configuration only', () => {
  it('node: the everything server lists exactly the configured roots', async () => {
    const roots = ['file:///srv/notes', 'file:///srv/shared%20docs']
    const tools = await everythingTools('node', { roots }, 'everything__get-roots-list')
    const agent = createAgent({ sessionId: 'roots-node', model: model([['everything__get-roots-list', '{}']]), tools })
    await agent.runtime.run('roots')
    const text = resultOf(agent, 'c1').text
    for (const r of roots) expect(text).toContain(r)
    expect(text).not.toContain('file:///\n')
  })

  for (const kind of KINDS) {
    it(`${kind}: roots/list answers the configured roots, and is an unknown method without them`, async () => {
      const ask = ['talkback__raw', JSON.stringify({ method: 'roots/list', params: '{}' })] as [string, string]
      const configured = createAgent({ sessionId: `roots-${kind}`, model: model([ask]),
        tools: await talkbackTools(kind, { roots: ['file:///srv/notes'] }) })
      await configured.runtime.run('roots')
      expect(JSON.parse(resultOf(configured, 'c1').text.slice('RESULT:'.length))).toEqual({ roots: [{ uri: 'file:///srv/notes', name: 'notes' }] })
      const bare = createAgent({ sessionId: `roots0-${kind}`, model: model([ask]), tools: await talkbackTools(kind, {}) })
      await bare.runtime.run('roots')
      expect(resultOf(bare, 'c1').text).toMatch(/^ERROR:-32601:/)
    })
  }
})

describe('fail closed: a malformed server request is a JSON-RPC error, never a crash, never an answer', () => {
  // [what, method, params, the core client's code, the Node client's]: on Node the SDK parses a request with its
  // own schema first (its answer: -32602, or -32603 for a request its schema rejects), then the same checks.
  const cases: Array<[string, string, object, number, number]> = [
    ['an unknown method', 'foo/bar', {}, -32601, -32601],
    ['a nested object in the requested schema', 'elicitation/create',
      { message: 'm', requestedSchema: { type: 'object', properties: { a: { type: 'object', properties: {} } } } }, -32602, -32603],
    ['a keyword value the validator refuses', 'elicitation/create',
      { message: 'm', requestedSchema: { type: 'object', properties: { a: { type: 'string', minLength: -1 } } } }, -32602, -32602],
    ['a huge message', 'elicitation/create', { message: 'x'.repeat(1_100_000), requestedSchema: { type: 'object', properties: {} } },
      -32602, -32602],
    ['url-mode elicitation', 'elicitation/create', { mode: 'url', message: 'm', url: 'https://x', elicitationId: 'e' }, -32602, -32602],
    ['an image to sample', 'sampling/createMessage',
      { messages: [{ role: 'user', content: { type: 'image', data: 'AA==', mimeType: 'image/png' } }], maxTokens: 5 }, -32602, -32602],
    ['sampling without maxTokens', 'sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'q' } }] },
      -32602, -32603],
    ['sampling with tools', 'sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'q' } }], maxTokens: 5,
      tools: [{ name: 't', inputSchema: { type: 'object' } }] }, -32602, -32602],
  ]
  for (const kind of KINDS) {
    it(`${kind}: ${cases.map((c) => c[0]).join(', ')}`, async () => {
      const controller = new AgentController()
      const asked: string[] = []
      controller.subscribe(ControllerEventTypes.elicitationRequired, () => { asked.push('asked') })
      const calls = cases.map(([, method, params]) => ['talkback__raw', JSON.stringify({ method, params: JSON.stringify(params) })] as [string, string])
      const agent = createAgent({ sessionId: `bad-${kind}`, model: model(calls), controller, samplingPolicy: SamplingPolicy.allow,
        tools: await talkbackTools(kind, { elicitation: controller.serverRequests, sampling: controller.serverRequests }) })
      const outcome = await agent.runtime.run('go')
      expect(outcome.status).toBe('completed')
      const got = cases.map(([what], i) => `${what}: ${resultOf(agent, `c${i + 1}`).text.slice(0, 13)}`)
      expect(got).toEqual(cases.map(([what, , , core, node]) => `${what}: ERROR:${kind === 'core' ? core : node}:`))
      expect(asked).toEqual([])
      expect(agent.runtime.snapshot().elicitations).toEqual([])
    })

    it(`${kind}: outside a run nobody is asked: the server gets an error`, async () => {
      const controller = new AgentController()
      createAgent({ sessionId: `idle-${kind}`, model: model([]), controller })
      const tools = await talkbackTools(kind, { elicitation: controller.serverRequests })
      const raw = tools.find((t) => t.definition.name === 'talkback__raw') as AgentTool
      const params = JSON.stringify({ message: 'm', requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } })
      const { ToolExecutionContext, CancellationToken } = await import('../../src/index')
      const out = await raw.execute({ method: 'elicitation/create', params }, new ToolExecutionContext('s', 'r',
        new ToolCall('c9', 'talkback__raw', '{}'), CancellationToken.none))
      const text = typeof out === 'string' ? out : out.textContent()
      expect(text).toMatch(/^ERROR:-32603:.*no run of this agent is in progress/)
      expect(controller.serverRequests.pending()).toEqual([])
    })
  }

  for (const kind of KINDS) {
    it(`${kind}: a question still open when its tool call has its answer is closed with the call`, async () => {
      const controller = new AgentController()
      const tools = await talkbackTools(kind, { elicitation: controller.serverRequests })
      const agent = createAgent({ sessionId: `fire-${kind}`, model: model([['talkback__fire', '{}']]), tools, controller,
        storage: new MemoryStateStorage() })
      await agent.runtime.run('go')
      expect(resultOf(agent, 'c1').text).toBe('sent')
      await agent.runtime.whenIdle()
      expect(controller.serverRequests.pending()).toEqual([])
      for (const e of agent.runtime.snapshot().elicitations) {
        expect([e.action, e.closedBy]).toEqual([ElicitationAction.cancel, ElicitationClosedBy.ended])
      }
    })
  }

  it('an elicitation whose run is cancelled is closed as cancel (ended), and a late answer is refused', async () => {
    const controller = new AgentController()
    const cancel = new CancellationSource()
    let id = ''
    controller.subscribe(ControllerEventTypes.elicitationRequired, (e) => {
      id = (e as ElicitationRequiredEvent).elicitation.elicitationId
      cancel.cancel('the user left')
    })
    const tools = await everythingTools('core', { elicitation: controller.serverRequests }, 'everything__trigger-elicitation-request')
    const agent = createAgent({ sessionId: 'eli-cancel', model: model([['everything__trigger-elicitation-request', '{}']]), tools,
      controller })
    const outcome = await agent.runtime.runStream([AgentMessage.user('ask me')], undefined, cancel.token)
    expect(outcome.status).toBe('cancelled')
    await agent.runtime.whenIdle()
    const item = agent.runtime.snapshot().elicitations[0]
    expect([item.action, item.closedBy]).toEqual([ElicitationAction.cancel, ElicitationClosedBy.ended])
    const late = await controller.serverRequests.accept(id, { name: 'x' })
    expect(late.error?.code).toBe(ErrorCodes.elicitationClosed)
  })
})
