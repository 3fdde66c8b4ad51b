// No piece of a secret leaves, whatever a server sends back. Secrets of random lengths (8 to 170
// characters, `sk-proj-` style among them) are embedded — as given, JSON-escaped, URL-encoded or
// base64 at any alignment, at offsets around every truncation limit — in every field of every shape
// a provider or an MCP client parses: HTTP error bodies (message, code, plain text), `event: error`,
// an error inside a data chunk, response metadata (model, finish reason, chunk id), streamed text,
// reasoning and tool-call fields split across chunks, malformed lines, MCP JSON-RPC errors, results,
// structured content and binary parts. A real runtime runs each case over real HTTP with file storage
// and a hook on every slot; then every output is scanned for any 8-character run of any form of the
// secret: the outcome and its error (message, code, stack, causes), every bus event, every hook
// context, every stored file, the next model request the vendor receives, the console.
import { promises as fs } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  AgentHook, AgentHookPipeline, AgentRuntime, AgentRuntimeConfig, ApprovalPolicy, BusEvent, CallbackObserver,
  FetchTransport, FileStateStorage, FunctionTool, McpHttpClient, McpHttpTool, ModelRequest, OpenAICompatibleProvider,
  RetryPolicy, ScriptedProvider, ScriptedTurn, ToolDefinition, ToolRegistry, ToolConcurrency,
  ToolRiskLevel,
} from '../../src/index'
import { Exchange, respond, ScriptedServer, sse } from '../provider/support/ScriptedServer'
import { dump, filesUnder } from '../support/leaks'

const SEED = 20261202
const FRAGMENT = 8

// ---- the scan: computed here, independently of the vault ----------------------------------------
function base64Inner(secret: string, align: number): string[] {
  const bytes = Buffer.concat([Buffer.alloc(align), Buffer.from(secret, 'utf8')])
  const whole = bytes.length - bytes.length % 3
  const b64 = bytes.subarray(0, whole).toString('base64')
  const inner = align > 0 ? b64.slice(4) : b64
  return [inner, inner.replace(/\+/g, '-').replace(/\//g, '_')]
}
function formsOf(secret: string): string[] {
  const forms = new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])
  for (const a of [0, 1, 2]) for (const f of base64Inner(secret, a)) forms.add(f)
  return [...forms].filter((f) => f.length >= FRAGMENT)
}
function fragmentsIn(haystack: string, secret: string): string[] {
  const grams = new Set<string>()
  for (const f of formsOf(secret)) for (let i = 0; i + FRAGMENT <= f.length; i++) grams.add(f.slice(i, i + FRAGMENT))
  const found = new Set<string>()
  for (let i = 0; i + FRAGMENT <= haystack.length; i++) {
    const w = haystack.slice(i, i + FRAGMENT)
    if (grams.has(w)) found.add(w)
  }
  return [...found]
}


// ---- what a case is made of ---------------------------------------------------------------------
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'
const secretArb = fc.tuple(fc.boolean(), fc.array(fc.constantFrom(...ALPHABET), { minLength: 8, maxLength: 162 }))
  .map(([proj, chars]) => (proj ? 'sk-proj-' : '') + chars.join(''))
const ENCODINGS = ['raw', 'json', 'url', 'b64-0', 'b64-1', 'b64-2', 'bearer'] as const
type Encoding = typeof ENCODINGS[number]
function encode(secret: string, how: Encoding): string {
  if (how === 'json') return JSON.stringify(`"${secret}"`).slice(1, -1)
  if (how === 'url') return encodeURIComponent(`key=${secret}&x=1`)
  if (how.startsWith('b64')) return Buffer.concat([Buffer.alloc(Number(how.slice(4))), Buffer.from(secret)]).toString('base64')
  if (how === 'bearer') return `Authorization: Bearer ${secret}`
  return secret
}
/** Truncation limits on the way (error detail 500/300, codes 60, snippets 200, descriptions 2000, raw body 8192). */
const LIMITS = [0, 60, 200, 300, 500, 2000, 8192]
const placement = fc.record({ limit: fc.constantFrom(...LIMITS), delta: fc.integer({ min: -180, max: 12 }) })
/** The secret, encoded, starting `delta` characters before a truncation limit. */
function embed(secret: string, how: Encoding, at: { limit: number, delta: number }): string {
  const pad = Math.max(0, at.limit + at.delta)
  return `${'x'.repeat(pad)} ${encode(secret, how)} trailing text`
}

const M = 'deepseek-chat'
const frame = (p: unknown): string => `data: ${JSON.stringify(p)}\n\n`
const chunk = (delta: Record<string, unknown>, finish: string | null = null, over: Record<string, unknown> = {}): string =>
  frame({ id: 'c-1', object: 'chat.completion.chunk', created: 1, model: M, choices: [{ index: 0, delta, finish_reason: finish }], ...over })
const DONE = 'data: [DONE]\n\n'
const split = (s: string, at: number): [string, string] => [s.slice(0, at), s.slice(at)]

const SHAPES = ['http-json-message', 'http-json-code', 'http-text', 'event-error', 'data-error', 'model-field',
  'finish-reason', 'chunk-id', 'text-split', 'reasoning-split', 'tool-call-fields', 'malformed-line'] as const
type Shape = typeof SHAPES[number]

function exchangesFor(shape: Shape, payload: string, cut: number): Exchange[] {
  const [a, b] = split(payload, Math.min(payload.length, cut))
  switch (shape) {
    case 'http-json-message': return [respond(401, JSON.stringify({ error: { message: payload, code: 'invalid_api_key' } }))]
    case 'http-json-code': return [respond(429, JSON.stringify({ error: { message: 'slow down', code: payload, type: payload } }))]
    case 'http-text': return [respond(500, payload, { 'content-type': 'text/plain' })]
    case 'event-error': return [sse([`event: error\ndata: ${JSON.stringify({ message: payload, code: payload })}\n\n`])]
    case 'data-error': return [sse([frame({ error: { message: payload, code: payload, type: payload } })])]
    case 'model-field': return [sse([chunk({ role: 'assistant', content: 'hi' }, null, { model: payload }), chunk({}, 'stop', { model: payload }), DONE])]
    case 'finish-reason': return [sse([chunk({ role: 'assistant', content: 'hi' }), chunk({}, payload), DONE])]
    case 'chunk-id': return [sse([chunk({ role: 'assistant', content: 'hi' }, null, { id: payload }), chunk({}, 'stop', { id: payload }), DONE])]
    case 'text-split': return [sse([chunk({ role: 'assistant', content: a }), chunk({ content: b }), chunk({}, 'stop'), DONE])]
    case 'reasoning-split': return [sse([chunk({ role: 'assistant', reasoning_content: a }), chunk({ reasoning_content: b }),
      chunk({ content: 'done' }), chunk({}, 'stop'), DONE])]
    case 'tool-call-fields': return [sse([
      chunk({ role: 'assistant', tool_calls: [{ index: 0, id: `call-${payload.slice(0, 40)}`, type: 'function', function: { name: `t${a.slice(0, 50)}`, arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify({ q: a }).slice(0, -2) } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: `${b.replace(/["\\]/g, '')}"}` } }] }),
      chunk({}, 'tool_calls'), DONE])]
    case 'malformed-line': return [sse([`data: {not json ${payload}\n\n`])]
  }
}

/** A hook on every slot that keeps a dump of each context it is shown. */
class Recorder extends AgentHook {
  constructor(readonly seen: string[]) { super() }
  async beforeRun(c: never) { this.seen.push(dump(c)); return super.beforeRun(c) }
  async beforeModelCall(c: never) { this.seen.push(dump(c)); return super.beforeModelCall(c) }
  async onModelChunk(c: never) { this.seen.push(dump(c)); return super.onModelChunk(c) }
  async afterModelCall(c: never) { this.seen.push(dump(c)); return super.afterModelCall(c) }
  async beforeToolCall(c: never) { this.seen.push(dump(c)); return super.beforeToolCall(c) }
  async afterToolCall(c: never) { this.seen.push(dump(c)); return super.afterToolCall(c) }
  async onTurnCompletion(c: never) { this.seen.push(dump(c)); return super.onTurnCompletion(c) }
  async beforePersistState(c: never) { this.seen.push(dump(c)); return super.beforePersistState(c) }
  async afterPersistState(c: never) { this.seen.push(dump(c)); return super.afterPersistState(c) }
  async afterRun(c: never) { this.seen.push(dump(c)); return super.afterRun(c) }
}

interface Captured { outputs: string[], dir: string }

/** Runs `body` with the console and stdout/stderr captured, a fresh storage directory, and a hook recorder. */
async function captured(body: (dir: string, seen: string[]) => Promise<string[]>): Promise<Captured> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'arkagent-secrets-'))
  const printed: string[] = []
  const spies = [
    ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation((...args: unknown[]) => { printed.push(args.map((x) => dump(x)).join(' ')) })),
    vi.spyOn(process.stdout, 'write').mockImplementation((chunkIn: unknown) => { printed.push(String(chunkIn)); return true }),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunkIn: unknown) => { printed.push(String(chunkIn)); return true }),
  ]
  const seen: string[] = []
  try {
    const outputs = await body(dir, seen)
    return { outputs: [...outputs, ...seen, await filesUnder(dir), printed.join('\n')], dir }
  } finally {
    for (const s of spies) s.mockRestore()
    await fs.rm(dir, { recursive: true, force: true })
  }
}

const totals = { cases: 0, scannedChars: 0, fragments: 0 }
afterAll(() => {
  console.log(`secret leaks: ${totals.cases} cases (seed ${SEED}), ${totals.scannedChars} characters scanned, ` +
    `${totals.fragments} fragments found`)
})

function expectNoLeak(outputs: string[], secrets: string[], what: string): void {
  const all = outputs.join('\n')
  totals.cases++
  totals.scannedChars += all.length
  for (const s of secrets) {
    const found = fragmentsIn(all, s)
    totals.fragments += found.length
    expect(found, `${what}: pieces of a ${s.length}-character secret left`).toEqual([])
  }
}

// ---- providers -------------------------------------------------------------------------------------
describe('secrets given to a provider', () => {
  let server: ScriptedServer
  beforeAll(async () => { server = await new ScriptedServer().start() })
  afterAll(async () => server.close())

  it('no 8-character piece of the API key, in any form, leaves through any field of any response shape', async () => {
    await fc.assert(fc.asyncProperty(secretArb, fc.constantFrom(...SHAPES), fc.constantFrom(...ENCODINGS), placement,
      fc.integer({ min: 1, max: 400 }), async (secret, shape, how, at, cut) => {
        const payload = embed(secret, how, at)
        const before = server.requests.length
        const { outputs } = await captured(async (dir, seen) => {
          server.enqueue(...exchangesFor(shape, payload, cut))
          // The next turn (after a tool call) and the next run: what the vendor is sent next.
          server.enqueue(sse([chunk({ role: 'assistant', content: 'fine' }), chunk({}, 'stop'), DONE]),
            sse([chunk({ role: 'assistant', content: 'fine' }), chunk({}, 'stop'), DONE]))
          const provider = new OpenAICompatibleProvider({ transport: new FetchTransport(), baseUrl: server.baseUrl,
            apiKey: secret, model: M, providerId: 'deepseek', retry: RetryPolicy.none(), firstChunkTimeoutMs: 5000, idleTimeoutMs: 5000 })
          const config = new AgentRuntimeConfig('leak', provider)
          config.storage = new FileStateStorage(dir, undefined, { lock: false })
          config.tools = new ToolRegistry([new FunctionTool(new ToolDefinition('echo', 'echo', { type: 'object' }), async () => 'echoed')])
          config.hooks = new AgentHookPipeline([new Recorder(seen)])
          const events: BusEvent[] = []
          config.controller.subscribeAll((e) => events.push(e))
          const observed: BusEvent[] = []
          const runtime = new AgentRuntime(config)
          const first = await runtime.run('hello', new CallbackObserver((e) => observed.push(e)))
          const second = await runtime.run('and again')
          runtime.dispose()
          const sent = server.requests.slice(before).map((r) => r.body)
          return [dump(first), dump(second), dump(events), dump(observed), dump(runtime.snapshot()), ...sent]
        })
        expectNoLeak(outputs, [secret], `${shape}, ${how}, ${at.limit}${at.delta >= 0 ? '+' : ''}${at.delta}`)
      }), { seed: SEED, numRuns: 160 })
  }, 600_000)
})

// ---- MCP (the core client) -------------------------------------------------------------------------
type McpShape = 'rpc-error' | 'result-text' | 'http-401' | 'structured' | 'image' | 'sse-error'
const MCP_SHAPES: McpShape[] = ['rpc-error', 'result-text', 'http-401', 'structured', 'image', 'sse-error']

async function mcpServer(answer: () => { shape: McpShape, payload: string, secret: string }): Promise<{ url: string, close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += d))
    req.on('end', () => {
      const msg = JSON.parse(body) as { id?: number, method: string, params?: Record<string, unknown> }
      const send = (m: unknown): void => { res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'S1' }); res.end(JSON.stringify(m)) }
      if (msg.method === 'initialize') {
        return send({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'x', version: '1' } } })
      }
      if (msg.id === undefined) { res.writeHead(202); res.end(); return }
      const { shape, payload, secret } = answer()
      const echo = `${payload} (you sent ${req.headers.authorization ?? ''} and ${req.headers['x-api-key'] ?? ''})`
      if (shape === 'http-401') { res.writeHead(401, { 'content-type': 'text/plain' }); res.end(echo); return }
      if (shape === 'rpc-error') return send({ jsonrpc: '2.0', id: msg.id, error: { code: -32000, message: echo, data: { echo } } })
      if (shape === 'sse-error') {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32001, message: echo } })}\n\n`)
        return
      }
      if (shape === 'structured') {
        return send({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: 'see structured' }],
          structuredContent: { [`k-${payload.slice(0, 30)}`]: echo, nested: [echo] } } })
      }
      if (shape === 'image') {
        return send({ jsonrpc: '2.0', id: msg.id, result: { content: [
          { type: 'image', mimeType: 'image/png', data: Buffer.from(`PNG....${secret}....`).toString('base64') },
          { type: 'resource', resource: { uri: `file:///notes/${encodeURIComponent(payload.slice(0, 80))}`, mimeType: 'text/plain', text: echo } }] } })
      }
      return send({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: echo }] } })
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)) },
  }
}

describe('secrets given to an MCP client', () => {
  it('no 8-character piece of the bearer token or an API-key header, in any form, leaves through any answer shape', async () => {
    let current = { shape: 'rpc-error' as McpShape, payload: '', secret: '' }
    const server = await mcpServer(() => current)
    try {
      await fc.assert(fc.asyncProperty(secretArb, secretArb, fc.constantFrom(...MCP_SHAPES), fc.constantFrom(...ENCODINGS), placement,
        async (token, headerKey, shape, how, at) => {
          current = { shape, payload: embed(token, how, at) + embed(headerKey, how, at), secret: token }
          const requests: string[] = []
          const { outputs } = await captured(async (dir, seen) => {
            const client = new McpHttpClient(server.url, new FetchTransport(),
              new Map([['authorization', `Bearer ${token}`], ['x-api-key', headerKey]]))
            const tool = new McpHttpTool(client, 'notes', { name: 'read', description: 'read', inputSchema: { type: 'object' }, risk: ToolRiskLevel.safe, concurrency: ToolConcurrency.serial })
            const model = ScriptedProvider.fromFunction((r: ModelRequest) => {
              requests.push(dump(r))
              return r.messages[r.messages.length - 1].role === 'tool' ? ScriptedTurn.text('done') : ScriptedTurn.text('').call('m1', 'notes__read', '{}')
            })
            const config = new AgentRuntimeConfig('mcp-leak', model)
            config.storage = new FileStateStorage(dir, undefined, { lock: false })
            config.tools = new ToolRegistry([tool])
            config.approvalPolicy = ApprovalPolicy.runDangerousToolsWithoutApproval()
            config.hooks = new AgentHookPipeline([new Recorder(seen)])
            const events: BusEvent[] = []
            config.controller.subscribeAll((e) => events.push(e))
            const runtime = new AgentRuntime(config)
            const outcome = await runtime.run('read my notes')
            const listed = await client.listTools().then((t) => dump(t), (e: unknown) => dump(e))
            runtime.dispose()
            return [dump(outcome), dump(events), dump(runtime.snapshot()), listed, ...requests]
          })
          expectNoLeak(outputs, [token, headerKey], `MCP ${shape}, ${how}, ${at.limit}${at.delta >= 0 ? '+' : ''}${at.delta}`)
        }), { seed: SEED, numRuns: 80 })
    } finally {
      await server.close()
    }
  }, 600_000)
})
