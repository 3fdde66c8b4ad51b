// Every option of every public constructor (storages, providers, runtime, transports, MCP) is
// checked where it is given: over values of every type and range, a constructor either accepts a
// value its documented domain allows, or throws invalid_config naming the option — never a
// TypeError, never a silent default, never a failure later (e.g. a lease renewed every millisecond
// because its period was past what a timer holds).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { AgentController, AgentHook, AgentHookPipeline, AgentRuntime, AgentRuntimeConfig, ArkAgentError,
  CompactionOptions, createAgent, ErrorCodes, ErrorRetryability, FetchTransport, FileStateStorage,
  FunctionTool, LoopDetector, LoopDetectorOptions, LoopDiagnosisOptions, McpHttpClient,
  MemoryStateStorage, OpenAICompatibleProvider, PostgresStateStorage, RetryPolicy, ScriptedProvider,
  ScriptedTurn, SegmentedStorageOptions, ToolDefinition, ToolRegistry, WireProfile } from '../../src/index'
import { McpToolSource } from '../../src/mcp'
import type { HttpTransport } from '../../src/index'

const SEED = 20261202
const RUNS = 300
const MAX_TIMER = 2147483647

// ---- the values tried: every JavaScript type, and the edges of every range ------------------------
const specialNumbers = [NaN, Infinity, -Infinity, -1, -0, 0, 0.5, 1, 1.5, 2, 7, 8, 63, 64, 99, 100, 101, 199, 200, 255, 256,
  1000, 1024, 4096, 65535, 65536, 1e6, 16 * 1024 * 1024, 16 * 1024 * 1024 + 1, MAX_TIMER, MAX_TIMER + 1, 3 * MAX_TIMER,
  Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, 1e300]
const specialStrings = ['', 'a', 'ok', 'ok-name_1.x', 'x\u0000y', '\uD800', 'a\uDC00', '\uD83D\uDE00', ' ', '1', 'true', 'public',
  'https://api.example.com', 'http://127.0.0.1:8080/v1', 'http://user:secret@host', 'ftp://x', 'https://h/p?q=1',
  'a'.repeat(64), 'a'.repeat(65), 'a'.repeat(256), 'a'.repeat(257), 'x.db', 'bad name', 'line\nbreak']
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...specialNumbers),
  fc.integer({ min: -10, max: 300_000 }),
  fc.double({ noDefaultInfinity: false }),
  fc.constantFrom(...specialStrings),
  fc.string({ maxLength: 40 }),
  fc.boolean(),
  fc.constantFrom(null, undefined, {}, [], () => 1, Symbol.for('s'), 10n),
)

// ---- the documented domains --------------------------------------------------------------------
const num = (v: unknown): v is number => typeof v === 'number'
const isText = (v: unknown, min = 0, max = 1_000_000): boolean => typeof v === 'string' && v.length >= min && v.length <= max &&
  !/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(v)
const isCount = (v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): boolean =>
  num(v) && Number.isSafeInteger(v) && v >= min && v <= max
const isTimeout = (v: unknown): boolean => num(v) && Number.isFinite(v) && v >= 0 && v <= MAX_TIMER
const isDelay = (min: number) => (v: unknown): boolean => num(v) && Number.isFinite(v) && v >= min && v <= MAX_TIMER
const isBool = (v: unknown): boolean => typeof v === 'boolean'
const isNumberIn = (min: number, max: number, openMin = false) => (v: unknown): boolean =>
  num(v) && Number.isFinite(v) && (openMin ? v > min : v >= min) && v <= max

interface OptionCase {
  /** The option as error messages name it. */
  name: string
  /** Builds the thing with this value for the option (every other option valid). */
  build(value: unknown): unknown
  valid(value: unknown): boolean
}

const counts = { accepted: 0, refused: 0 }

function expectChecked(c: OptionCase): void {
  fc.assert(fc.property(anyValue, (value) => {
    let thrown: unknown
    try {
      c.build(value)
    } catch (e) {
      thrown = e
    }
    const shown = `${c.name} = ${typeof value === 'symbol' || typeof value === 'bigint' ? String(value) : JSON.stringify(value)}`
    if (c.valid(value)) {
      expect(thrown, `${shown} is valid and must be accepted`).toBeUndefined()
      counts.accepted++
    } else {
      expect(thrown, `${shown} must be refused`).toBeInstanceOf(ArkAgentError)
      const e = thrown as ArkAgentError
      expect([e.code, e.retryability], shown).toEqual([ErrorCodes.invalidConfig, ErrorRetryability.never])
      expect(e.message, shown).toContain(c.name)
      counts.refused++
    }
  }), { seed: SEED, numRuns: RUNS, examples: [[undefined], [null], [NaN], [MAX_TIMER + 1]] })
}

function check(group: string, cases: OptionCase[]): void {
  describe(group, () => {
    for (const c of cases) {
      it(`${c.name}: accepted exactly on its documented domain, else invalid_config naming it`, () => expectChecked(c))
    }
  })
}

afterAll(() => {
  console.log(`config options: ${counts.accepted} values accepted, ${counts.refused} refused (seed ${SEED}, ${RUNS} runs per option)`)
})

// ---- the runtime ---------------------------------------------------------------------------------
const model = () => new ScriptedProvider([ScriptedTurn.text('ok')])
function runtimeWith(set: (c: AgentRuntimeConfig) => void): AgentRuntime {
  const cfg = new AgentRuntimeConfig('s1', model())
  set(cfg)
  return new AgentRuntime(cfg)
}
const runtimeOption = (name: keyof AgentRuntimeConfig, valid: (v: unknown) => boolean): OptionCase => ({
  name, valid,
  build: (v) => runtimeWith((c) => { (c as unknown as Record<string, unknown>)[name] = v }),
})
class NoopHook extends AgentHook {}

check('AgentRuntimeConfig (checked when the runtime is built)', [
  { name: 'sessionId', valid: (v) => isText(v, 1, 256), build: (v) => new AgentRuntime(new AgentRuntimeConfig(v as string, model())) },
  { name: 'provider', valid: () => false,
    build: (v) => new AgentRuntime(new AgentRuntimeConfig('s1', v as ScriptedProvider)) },
  runtimeOption('maxTurns', (v) => isCount(v, 1)),
  runtimeOption('maxModelRetries', (v) => isCount(v, 0)),
  runtimeOption('hookTimeoutMs', (v) => v === undefined || isTimeout(v)),
  runtimeOption('toolTimeoutMs', (v) => v === undefined || isTimeout(v)),
  runtimeOption('systemPrompt', (v) => isText(v)),
  runtimeOption('model', (v) => isText(v, 0, 256)),
  runtimeOption('thinking', (v) => v === undefined || isBool(v)),
  runtimeOption('planMode', isBool),
  runtimeOption('autoResume', isBool),
  runtimeOption('loopWarning', (v) => isText(v, 1, 10000)),
  runtimeOption('tools', () => false),
  runtimeOption('hooks', () => false),
  runtimeOption('controller', () => false),
  runtimeOption('compaction', (v) => v === undefined),
  runtimeOption('storage', (v) => v === undefined),
  runtimeOption('loopDetector', (v) => v === undefined),
])

describe('AgentRuntimeConfig: the objects it is built from', () => {
  it('accepts its own classes for tools, hooks, controller and compaction', () => {
    expect(() => runtimeWith((c) => {
      c.tools = new ToolRegistry()
      c.hooks = new AgentHookPipeline([new NoopHook()])
      c.controller = new AgentController()
      c.compaction = Object.assign(new CompactionOptions(), { contextWindow: 8192 })
    })).not.toThrow()
  })
})

const agentOption = (name: string, valid: (v: unknown) => boolean): OptionCase => ({
  name, valid, build: (v) => createAgent({ sessionId: 's1', model: model(), [name]: v } as never),
})
check('createAgent options', [
  agentOption('tools', (v) => v === undefined || (Array.isArray(v) && v.length === 0)),
  agentOption('hooks', (v) => v === undefined || (Array.isArray(v) && v.length === 0)),
  agentOption('registry', (v) => v === undefined),
  agentOption('loopDetection', (v) => v === undefined || isBool(v)),
  agentOption('loopOptions', (v) => v === undefined),
  agentOption('compaction', (v) => v === undefined || v === false),
  agentOption('maxTurns', (v) => v === undefined || isCount(v, 1)),
  agentOption('systemPrompt', (v) => v === undefined || isText(v)),
  agentOption('toolTimeoutMs', (v) => v === undefined || isTimeout(v)),
  agentOption('sensitive', (v) => v === undefined || isBool(v)),
  agentOption('approvalPolicy', (v) => v === undefined),
  agentOption('approval', (v) => v === undefined || v === true),
])

describe('createAgent: names it does not know', () => {
  it.each(['approvalPolicyy', 'aproval', 'tool', 'hook', 'maxturns', 'loopDetector'])('refuses %s, naming it', (name) => {
    let e: unknown
    try {
      createAgent({ sessionId: 's1', model: model(), [name]: true } as never)
    } catch (err) {
      e = err
    }
    expect(e).toBeInstanceOf(ArkAgentError)
    expect((e as ArkAgentError).code).toBe(ErrorCodes.invalidConfig)
    expect((e as ArkAgentError).message).toContain(JSON.stringify(name))
  })
})

check('AgentHookPipeline and ToolRegistry', [
  { name: 'AgentHookPipeline hookTimeoutMs', valid: (v) => v === undefined || isTimeout(v), build: (v) => new AgentHookPipeline([], v as number) },
  { name: 'AgentHookPipeline hooks', valid: (v) => v === undefined || (Array.isArray(v) && v.length === 0),
    build: (v) => new AgentHookPipeline(v as AgentHook[]) },
  { name: 'A hook', valid: () => false, build: (v) => new AgentHookPipeline().register(v as AgentHook) },
  { name: 'ToolRegistry timeoutMs', valid: (v) => v === undefined || isTimeout(v), build: (v) => new ToolRegistry([], v as number) },
  { name: 'ToolRegistry tools', valid: (v) => v === undefined || (Array.isArray(v) && v.length === 0),
    build: (v) => new ToolRegistry(v as FunctionTool[]) },
  { name: 'A tool', valid: () => false, build: (v) => new ToolRegistry().register(v as FunctionTool) },
])

check('CompactionOptions (checked when the runtime is built)', [
  ...(['contextWindow', 'summaryMaxTokens'] as const).map((name): OptionCase => ({
    name: `compaction.${name}`, valid: (v) => isCount(v, 0),
    build: (v) => Object.assign(new CompactionOptions(), { [name]: v }).check(),
  })),
  { name: 'compaction.outputReserve', valid: (v) => v === -1 || isCount(v, 0),
    build: (v) => Object.assign(new CompactionOptions(), { outputReserve: v }).check() },
  { name: 'compaction.threshold', valid: (v) => isNumberIn(0, 1, true)(v) && (v as number) > 0.3,
    build: (v) => Object.assign(new CompactionOptions(), { threshold: v }).check() },
  { name: 'compaction.keepRecent', valid: (v) => num(v) && v > 0 && v < 0.8,
    build: (v) => Object.assign(new CompactionOptions(), { keepRecent: v }).check() },
  { name: 'compaction.summaryMaxChars', valid: (v) => isCount(v, 200),
    build: (v) => Object.assign(new CompactionOptions(), { summaryMaxChars: v }).check() },
  { name: 'compaction.summaryTimeoutMs', valid: isTimeout,
    build: (v) => Object.assign(new CompactionOptions(), { summaryTimeoutMs: v }).check() },
  { name: 'compaction.summaryModel', valid: (v) => isText(v, 0, 256),
    build: (v) => Object.assign(new CompactionOptions(), { summaryModel: v }).check() },
])

const loopOption = (name: string, valid: (v: unknown) => boolean): OptionCase => ({
  name: `LoopDetectorOptions.${name}`, valid, build: (v) => new LoopDetector(Object.assign(new LoopDetectorOptions(), { [name]: v })),
})
const diagnosisOption = (name: string, valid: (v: unknown) => boolean): OptionCase => ({
  name: `LoopDetectorOptions.diagnosis.${name}`, valid,
  build: (v) => new LoopDetector(Object.assign(new LoopDetectorOptions(),
    { diagnosis: Object.assign(new LoopDiagnosisOptions(model()), { [name]: v }) })),
})
check('LoopDetectorOptions (checked when the detector is built)', [
  loopOption('enabled', isBool), loopOption('contentEnabled', isBool), loopOption('reasoningEnabled', isBool),
  loopOption('exemptTools', (v) => Array.isArray(v) && v.length === 0),
  loopOption('windowSize', (v) => isCount(v, 18, 10000)),
  loopOption('repeatThreshold', (v) => isCount(v, 2, 20)),
  loopOption('maxCyclePeriod', (v) => isCount(v, 0, 6)),
  loopOption('cycleRepeats', (v) => isCount(v, 2, 3)),
  loopOption('contentRepeatThreshold', (v) => isCount(v, 2, 10000)),
  loopOption('contentMaxBlock', (v) => isCount(v, 1, 64)),
  loopOption('contentPieceChars', (v) => isCount(v, 8, 2000)),
  loopOption('maxSegmentChars', (v) => isCount(v, 32, 1_000_000)),
  loopOption('contentPieceRepeats', (v) => isCount(v, 2, 10000)),
  loopOption('maxEvidenceChars', (v) => isCount(v, 1, 100000)),
  diagnosisOption('afterTurns', (v) => isCount(v, 1)),
  diagnosisOption('interval', (v) => isCount(v, 1)),
  diagnosisOption('confidenceThreshold', isNumberIn(0, 1)),
  diagnosisOption('timeoutMs', isTimeout),
  diagnosisOption('recentMessages', (v) => isCount(v, 1, 10000)),
  diagnosisOption('model', (v) => isText(v, 0, 256)),
])

// ---- providers -------------------------------------------------------------------------------------
const transport: HttpTransport = { send: () => {} }
const provider = (over: Record<string, unknown>) =>
  new OpenAICompatibleProvider({ transport, baseUrl: 'https://api.example.com', ...over } as never)
const providerOption = (name: string, valid: (v: unknown) => boolean): OptionCase => ({
  name, valid, build: (v) => provider({ [name]: v }),
})
const plainObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v)
check('OpenAICompatibleProvider options', [
  providerOption('baseUrl', (v) => typeof v === 'string' && /^https?:\/\/[^/?#@\s]+(\/[^?#\s]*)?$/i.test(v.trim()) &&
    /^https?:\/\/(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.\-_~%]+)(:[0-9]{1,5})?(\/|$)/i.test(v.trim())),
  providerOption('apiKey', (v) => v === undefined || (typeof v === 'string' && v.length <= 4096 && /^[\u0021-\u007e\u00a0-\u00ff]*$/.test(v))),
  providerOption('model', (v) => v === undefined || isText(v, 0, 256)),
  providerOption('providerId', (v) => v === undefined || isText(v, 1, 64)),
  providerOption('firstChunkTimeoutMs', (v) => v === undefined || isTimeout(v)),
  providerOption('idleTimeoutMs', (v) => v === undefined || isTimeout(v)),
  providerOption('contextWindow', (v) => v === undefined || isCount(v, 0)),
  providerOption('outputReserve', (v) => v === undefined || isCount(v, 0)),
  providerOption('retry', (v) => v === undefined),
  providerOption('profile', (v) => v === undefined),
  providerOption('errorRules', (v) => v === undefined || (Array.isArray(v) && v.length === 0)),
  providerOption('extraBody', (v) => v === undefined || plainObject(v)),
  providerOption('headers', (v) => v === undefined || plainObject(v)),
  providerOption('transport', () => false),
  providerOption('clock', (v) => v === undefined),
  providerOption('thinking', (v) => v === undefined || typeof v === 'boolean'),
  providerOption('preset', (v) => v === undefined),
])

describe('OpenAICompatibleProvider headers and key', () => {
  const refused = (over: Record<string, unknown>): ArkAgentError => {
    try {
      provider(over)
    } catch (e) {
      return e as ArkAgentError
    }
    throw new Error('accepted')
  }
  it('refuses header values with CR/LF and reserved or duplicate names, never echoing the value', () => {
    for (const headers of [{ 'x-a': 'v\r\nx-evil: 1' }, { 'content-length': '5' }, { Host: 'h' }, { 'x-a': '1', 'X-A': '2' },
      { 'bad name': 'v' }, { 'x-a': 5 }]) {
      const e = refused({ headers })
      expect(e.code).toBe(ErrorCodes.invalidConfig)
      expect(e.message).toContain('headers')
      expect(e.message).not.toContain('evil')
    }
    expect(refused({ apiKey: 'sk-secret', headers: { Authorization: 'Bearer other' } }).message).toContain('authorization')
  })
  it('refuses a key with a line break or a URL with credentials without showing either', () => {
    const e1 = refused({ apiKey: 'sk-abcdefgh\r\nx: y' })
    expect(e1.message).not.toContain('abcdefgh')
    const e2 = refused({ baseUrl: 'https://user:hunter2hunter2@api.example.com' })
    expect(e2.message).not.toContain('hunter2')
  })
  it('keeps its own copy of extraBody and accepts its own classes', () => {
    const body: Record<string, unknown> = { top_p: 0.5 }
    expect(() => provider({ extraBody: body, retry: new RetryPolicy(1), profile: WireProfile.generic })).not.toThrow()
  })
})

check('RetryPolicy', [
  { name: 'RetryPolicy maxRetries', valid: (v) => v === undefined || isCount(v, 0, 100), build: (v) => new RetryPolicy(v as number) },
  { name: 'RetryPolicy initialDelayMs', valid: (v) => v === undefined || (isDelay(0)(v) && (v as number) <= 8000),
    build: (v) => new RetryPolicy(3, v as number) },
  { name: 'RetryPolicy maxDelayMs', valid: (v) => v === undefined || isDelay(500)(v), build: (v) => new RetryPolicy(3, 500, v as number) },
  { name: 'RetryPolicy maxRetryAfterMs', valid: (v) => v === undefined || isDelay(0)(v),
    build: (v) => new RetryPolicy(3, 500, 8000, v as number) },
  { name: 'RetryPolicy random', valid: (v) => v === undefined || typeof v === 'function',
    build: (v) => new RetryPolicy(3, 500, 8000, 60000, v as () => number) },
  { name: 'ScriptedTurn withDelay ms', valid: isDelay(0), build: (v) => ScriptedTurn.text('x').withDelay(v as number) },
])

// ---- storages --------------------------------------------------------------------------------------
const segOption = (name: 'segmentSize' | 'maxValueBytes', valid: (v: unknown) => boolean): OptionCase => ({
  name, valid, build: (v) => new MemoryStateStorage(Object.assign(new SegmentedStorageOptions(), { [name]: v })),
})
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-config-'))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))
const fakeDb = { query: async () => ({ rows: [], rowCount: 0 }) }
const pgOption = (name: string, valid: (v: unknown) => boolean): OptionCase => ({
  name: `PostgresStateStorage ${name}`, valid, build: (v) => new PostgresStateStorage(fakeDb, { [name]: v } as never),
})
check('storages', [
  segOption('segmentSize', (v) => isCount(v, 1, 100000)),
  segOption('maxValueBytes', (v) => isCount(v, 0)),
  { name: 'Storage options', valid: (v) => v === undefined, build: (v) => new MemoryStateStorage(v as SegmentedStorageOptions) },
  { name: 'FileStateStorage rootDir', valid: (v) => isText(v, 1, 4096), build: (v) => new FileStateStorage(v as string) },
  { name: 'FileStateStorage lock', valid: (v) => v === undefined || isBool(v),
    build: (v) => new FileStateStorage(root, undefined, { lock: v as boolean }) },
  pgOption('leaseMs', (v) => v === undefined || isCount(v, 100, MAX_TIMER)),
  pgOption('owner', (v) => v === undefined || (isText(v, 1, 256) && !/[\u0000-\u001f\u007f]/.test(v as string))),
  pgOption('lease', (v) => v === undefined || isBool(v)),
  pgOption('schema', (v) => v === undefined || (typeof v === 'string' && /^[a-z_][a-z0-9_]{0,62}$/.test(v) && !v.startsWith('pg_'))),
])

describe('storages: the cases that once failed later', () => {
  it('a lease past what a timer holds is refused where it is given (it would be renewed every millisecond)', () => {
    for (const leaseMs of [MAX_TIMER + 1, 74 * 24 * 3600 * 1000, 1e15]) {
      expect(() => new PostgresStateStorage(fakeDb, { leaseMs })).toThrow(/leaseMs/)
    }
  })
  it('an owner with NUL is refused where it is given, not retried forever as state_load_failed', () => {
    expect(() => new PostgresStateStorage(fakeDb, { owner: 'pod\u00001' })).toThrow(/owner has a NUL character/)
  })
  it('an unknown option name is refused, naming it', () => {
    expect(() => new PostgresStateStorage(fakeDb, { leaseMS: 5000 } as never)).toThrow(/unknown option "leaseMS"/)
    expect(() => new FileStateStorage(root, undefined, { locks: false } as never)).toThrow(/unknown file option "locks"/)
    expect(() => new FetchTransport({ fetsh: fetch } as never)).toThrow(/unknown option "fetsh"/)
  })
  it('a client without query() is refused', () => {
    expect(() => new PostgresStateStorage({} as never)).toThrow(/query\(\)/)
  })
})

// ---- transports and MCP ---------------------------------------------------------------------------
const mcpOption = (name: string, valid: (v: unknown) => boolean): OptionCase => ({
  name: `McpHttpClient ${name}`, valid,
  build: (v) => new McpHttpClient('https://mcp.example.com/mcp', transport, new Map(), { [name]: v }),
})
check('transports and MCP clients', [
  { name: 'FetchTransport fetch', valid: (v) => v === undefined || typeof v === 'function',
    build: (v) => new FetchTransport({ fetch: v as typeof fetch }) },
  mcpOption('initializeTimeoutMs', (v) => v === undefined || isDelay(1)(v)),
  mcpOption('requestTimeoutMs', (v) => v === undefined || isTimeout(v)),
  mcpOption('maxAnswerChars', (v) => v === undefined || isCount(v, 1, 1073741824)),
  { name: 'MCP server URL', valid: (v) => typeof v === 'string' && /^https?:\/\/[^/?#@]*([/?#]|$)/i.test(v),
    build: (v) => new McpHttpClient(v as string, transport) },
  { name: 'command', valid: (v) => isText(v, 1, 4096),
    build: (v) => new McpToolSource({ name: 'x', command: v as string }) },
  { name: `MCP server 'x': args`, valid: (v) => v === undefined || (Array.isArray(v) && v.length === 0),
    build: (v) => new McpToolSource({ name: 'x', command: 'node', args: v as string[] }) },
])

describe('McpToolSource spec', () => {
  it('refuses a URL with credentials without showing them, and unknown option names', () => {
    let e: ArkAgentError | undefined
    try {
      new McpToolSource({ name: 'notes', url: 'http://admin:PASSWORDPASSWORD@127.0.0.1:9/mcp' })
    } catch (err) {
      e = err as ArkAgentError
    }
    expect(e?.code).toBe(ErrorCodes.invalidConfig)
    expect(e?.message).not.toContain('PASSWORD')
    expect(() => new McpToolSource({ name: 'notes', command: 'node', risks: {} } as never)).toThrow(/unknown option "risks"/)
    expect(() => new McpToolSource({ name: 'notes', command: 'node', env: { A: 5 } } as never)).toThrow(/env/)
  })
})

describe('valid objects of every kind still build', () => {
  it('a runtime with a tool, a provider with headers, storages with their options', () => {
    const tool = new FunctionTool(new ToolDefinition('t', 'T', { type: 'object' }), async () => 'ok')
    expect(() => createAgent({ sessionId: 's1', model: model(), tools: [tool], loopOptions: new LoopDetectorOptions(),
      compaction: new CompactionOptions(), maxTurns: 3 })).toThrow(/context window/)
    expect(() => createAgent({ sessionId: 's1', model: model(), tools: [tool], loopOptions: new LoopDetectorOptions(),
      compaction: Object.assign(new CompactionOptions(), { contextWindow: 10000 }), maxTurns: 3 })).not.toThrow()
    expect(() => provider({ headers: { 'X-Org': 'acme', 'api-key': 'k' }, apiKey: '' })).not.toThrow()
    expect(() => new PostgresStateStorage(fakeDb, { schema: 'app', lease: true, leaseMs: 100, owner: 'pod-1' })).not.toThrow()
  })
})
