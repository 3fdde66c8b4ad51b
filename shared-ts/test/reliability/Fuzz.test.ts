// Fuzzing with fast-check under fixed seeds (reproducible: the seed is printed and recorded).
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentHookPipeline,
  ArkAgentError,
  ErrorCodes,
  FunctionTool,
  MemoryStateStorage,
  ModelChunkHookContext,
  ModelChunkHookResult,
  SegmentedStorageOptions,
  SseEvent,
  SseParser,
  StateCodec,
  StateView,
  ToolCall,
  ToolCallHookContext,
  ToolCallHookResult,
  ToolDefinition,
  ToolRegistry,
  ToolResult,
  AgentMessage,
  AgentState
} from '../../src/index'
import { richState } from '../foundations/fixtures'
import { flush, record } from './summary'
import { cases } from '../support/scale'

afterAll(() => flush('Fuzz'))

const SEED = 20261130
const RUNS = cases(5000)

function run<T>(name: string, arb: fc.Arbitrary<T>, check: (v: T) => void | Promise<void>, runs: number = RUNS,
  async: boolean = false): Promise<void> | void {
  console.log(`fuzz '${name}': seed ${SEED}, ${runs} runs`)
  record('fuzz', name, runs, 'cases', `seed ${SEED}`)
  if (async) {
    return fc.assert(fc.asyncProperty(arb, async (v) => { await check(v) }), { seed: SEED, numRuns: runs })
  }
  fc.assert(fc.property(arb, (v) => { check(v) }), { seed: SEED, numRuns: runs })
}

function expectOnlyArkErrors(f: () => void, codes?: string[]): void {
  try {
    f()
  } catch (e) {
    expect(e, `threw ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`).toBeInstanceOf(ArkAgentError)
    if (codes !== undefined) expect(codes).toContain((e as ArkAgentError).code)
  }
}

/** Cuts `text` at the given (sorted, deduplicated) positions. */
function split(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
  const out: string[] = []
  let from = 0
  for (const p of points) {
    out.push(text.slice(from, p))
    from = p
  }
  out.push(text.slice(from))
  return out
}

function parseAll(pieces: string[]): { events: SseEvent[], retry: number, incomplete: boolean } {
  const p = new SseParser()
  const events: SseEvent[] = []
  for (const piece of pieces) p.feed(piece, (e) => events.push(e))
  return { events, retry: p.retryMs, incomplete: p.hasIncompleteEvent() }
}

// ---------- SSE ----------

const lineEnd = fc.constantFrom('\n', '\r', '\r\n')
const fieldText = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ':', 'é', '😀', '{', '"', '0', '\u0000') , maxLength: 12 })
const sseLine = fc.oneof(
  fieldText.map((t) => `data: ${t}`),
  fieldText.map((t) => `data:${t}`),
  fc.constant('data'),
  fieldText.map((t) => `event: ${t}`),
  fieldText.map((t) => `id: ${t}`),
  fc.nat({ max: 99999 }).map((n) => `retry: ${n}`),
  fieldText.map((t) => `: ${t}`),
  fieldText.map((t) => `unknown: ${t}`)
)
const sseEvent = fc.tuple(fc.array(fc.tuple(sseLine, lineEnd), { minLength: 1, maxLength: 5 }), lineEnd)
  .map(([lines, end]) => lines.map(([l, e]) => l + e).join('') + end)
const validStream = fc.tuple(fc.boolean(), fc.array(sseEvent, { maxLength: 8 }))
  .map(([bom, events]) => (bom ? '\ufeff' : '') + events.join(''))
const cuts = fc.array(fc.nat({ max: 4000 }), { maxLength: 12 })
const garbage = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: fc.constantFrom('\r', '\n', ':', 'd', 'a', 't', 'data', 'event', 'id', 'retry', ' ', '\ufeff', '\u0000', '\ud800', 'x'), maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }).map((b) => String.fromCharCode(...b))
)

describe('fuzz: SseParser', () => {
  it('valid streams give identical events however they are split', () => run('SSE valid streams, random splits',
    fc.tuple(validStream, cuts), ([stream, c]) => {
      const whole = parseAll([stream])
      const pieces = parseAll(split(stream, c))
      const chars = parseAll([...stream])
      expect(pieces).toEqual(whole)
      expect(chars).toEqual(whole)
    }))

  it('random garbage never throws, and splitting never changes the result', () => run('SSE garbage, random splits',
    fc.tuple(garbage, cuts), ([text, c]) => {
      let whole: ReturnType<typeof parseAll> | undefined
      expectOnlyArkErrors(() => { whole = parseAll([text]) })
      expectOnlyArkErrors(() => {
        const pieces = parseAll(split(text, c))
        if (whole !== undefined) expect(pieces).toEqual(whole)
      })
    }))
})

// ---------- state codec and segmented storage ----------

const STATE_CODES = [ErrorCodes.stateCorrupt, ErrorCodes.stateVersionUnsupported]
const valid = StateCodec.encode(richState('fuzz-session'))

/** A JSON-level mutation: replace, delete or retype a value at a random path. */
function mutateJson(doc: unknown, picks: number[], replacement: unknown, mode: number): unknown {
  const copy = JSON.parse(JSON.stringify(doc)) as unknown
  let node: unknown = copy
  for (let depth = 0; depth < picks.length; depth++) {
    if (node === null || typeof node !== 'object') break
    const keys = Object.keys(node as object)
    if (keys.length === 0) break
    const key = keys[picks[depth] % keys.length]
    const child = (node as Record<string, unknown>)[key]
    const last = depth === picks.length - 1 || child === null || typeof child !== 'object'
    if (last) {
      if (mode === 0) delete (node as Record<string, unknown>)[key]
      else (node as Record<string, unknown>)[key] = replacement
      break
    }
    node = child
  }
  return copy
}

const weird = fc.oneof(fc.constant(null), fc.constant(undefined), fc.boolean(), fc.integer(), fc.double(),
  fc.string({ maxLength: 8 }), fc.constant([]), fc.constant({}), fc.constant(-1), fc.constant(1e308), fc.constant(3),
  fc.constant('__proto__'), fc.jsonValue({ maxDepth: 2 }))
const jsonMutation = fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), weird, fc.nat({ max: 2 }))
const textMutation = fc.oneof(
  fc.nat().map((n) => (s: string) => s.slice(0, n % (s.length + 1))),
  fc.tuple(fc.nat(), fc.string({ minLength: 1, maxLength: 3 })).map(([n, c]) => (s: string) => {
    const i = n % (s.length + 1)
    return s.slice(0, i) + c + s.slice(i + 1)
  }),
  fc.tuple(fc.nat(), fc.nat({ max: 40 })).map(([n, len]) => (s: string) => {
    const i = n % (s.length + 1)
    return s.slice(0, i) + s.slice(i + len)
  })
)

describe('fuzz: state codec', () => {
  it('truncated or byte-edited encodings decode or fail with state_corrupt / state_version_unsupported only', () =>
    run('codec: text mutations/truncations', fc.array(textMutation, { minLength: 1, maxLength: 3 }), (ms) => {
      let text = valid
      for (const m of ms) text = m(text)
      expectOnlyArkErrors(() => StateCodec.decode(text), STATE_CODES)
    }))

  it('structurally mutated encodings decode or fail with the storage codes only', () =>
    run('codec: JSON mutations', fc.array(jsonMutation, { minLength: 1, maxLength: 3 }), (ms) => {
      let doc: unknown = JSON.parse(valid)
      for (const [picks, value, mode] of ms) doc = mutateJson(doc, picks, value, mode)
      expectOnlyArkErrors(() => {
        const state = StateCodec.decode(JSON.stringify(doc))
        // Whatever decodes must encode again.
        StateCodec.encode(state)
      }, STATE_CODES)
    }))

  it('SegmentedStateStorage.load with mutated header / segment values fails only with the storage codes', async () => {
    const backendState = richState('seg-fuzz')
    for (let i = 0; i < 10; i++) backendState.history.push(AgentMessage.user(`m${i} ✓`))
    const storage = new MemoryStateStorage(Object.assign(new SegmentedStorageOptions(), { segmentSize: 4, maxValueBytes: 8192 }))
    await storage.save(backendState)
    const keys = ['header', ...(await storage.memory.list('seg-fuzz'))]
    const originals = new Map(keys.map((k) => [k, storage.memory.peek('seg-fuzz', k) as string]))
    await run('SegmentedStateStorage.load: mutated stored values',
      fc.tuple(fc.nat(), fc.oneof(
        textMutation.map((m) => ({ kind: 'text' as const, m })),
        jsonMutation.map((j) => ({ kind: 'json' as const, j })))),
      async ([pick, mutation]) => {
        const key = keys[pick % keys.length]
        const original = originals.get(key) as string
        let mutated = original
        if (mutation.kind === 'text') mutated = mutation.m(original)
        else {
          try {
            mutated = JSON.stringify(mutateJson(JSON.parse(original), mutation.j[0], mutation.j[1], mutation.j[2])) ?? ''
          } catch {
            mutated = original.slice(1)
          }
        }
        const fresh = new MemoryStateStorage(new SegmentedStorageOptions(), storage.memory)
        storage.memory.poke('seg-fuzz', key, mutated)
        try {
          const loaded = await fresh.load('seg-fuzz')
          if (loaded !== undefined) StateCodec.encode(loaded.state)
        } catch (e) {
          expect(e, String(e)).toBeInstanceOf(ArkAgentError)
          expect(STATE_CODES).toContain((e as ArkAgentError).code)
        } finally {
          storage.memory.poke('seg-fuzz', key, original)
        }
      }, 2000, true)
  })
})

// ---------- tool arguments ----------

const protoKeys = fc.constantFrom('__proto__', 'constructor', 'prototype', 'polluted', 'toString', 'hasOwnProperty', 'valueOf')
function deepNest(depth: number, key: string): string {
  return `{"${key}":`.repeat(depth) + '{"polluted":true}' + '}'.repeat(depth)
}
const adversarialJson = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)),
  fc.tuple(fc.nat({ max: 3000 }), protoKeys).map(([d, k]) => deepNest(d, k)),
  fc.nat({ max: 20000 }).map((d) => '['.repeat(d) + ']'.repeat(d)),
  fc.nat({ max: 20000 }).map((d) => '{"a":'.repeat(d) + '1' + '}'.repeat(d)),
  fc.tuple(protoKeys, fc.jsonValue({ maxDepth: 3 })).map(([k, v]) => `{"${k}":${JSON.stringify(v)}}`),
  fc.tuple(protoKeys, protoKeys).map(([a, b]) => `{"${a}":{"${b}":{"polluted":"yes"}},"name":"x"}`),
  fc.nat({ max: 2_000_000 }).map((n) => `{"name":"${'x'.repeat(n)}"}`),
  fc.string({ maxLength: 50 }),
  fc.constantFrom('', 'null', '[]', '"str"', '1e999', '{"name":1e999}', '{"__proto__":null}', '{', '{"a":1,}')
)

describe('fuzz: tool argument validation', () => {
  const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort()
  const schema: Record<string, Object> = JSON.parse(JSON.stringify({
    type: 'object',
    properties: {
      name: { type: 'string', maxLength: 100000 },
      nested: { type: 'object', properties: { inner: { type: 'array', items: { type: 'number' } } } },
      constructor: { type: 'string' }
    },
    required: ['name'],
    additionalProperties: false
  })) as Record<string, Object>
  let executions = 0
  const registry = new ToolRegistry([
    new FunctionTool(new ToolDefinition('strict', 'strict', schema), async (args) => {
      executions++
      return `ok ${typeof args.name}`
    }),
    new FunctionTool(new ToolDefinition('loose', 'loose', { type: 'object' }), async (args) => {
      executions++
      // A careless tool copying its arguments (Object.assign honours own __proto__ keys as data).
      const copy = Object.assign({}, args)
      return JSON.stringify(Object.keys(copy)).slice(0, 50)
    })
  ], 0)

  it('ToolRegistry.execute always returns a result for adversarial JSON, and nothing is polluted', () =>
    run('tool arguments: adversarial JSON', fc.tuple(adversarialJson, fc.constantFrom('strict', 'loose', 'missing')),
      async ([json, tool]) => {
        const result = await registry.execute(new ToolCall('c1', tool, json), 's', 'r')
        expect(result).toBeInstanceOf(ToolResult)
        expect(result.callId).toBe('c1')
        expect(({} as Record<string, unknown>).polluted).toBeUndefined()
        expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore)
        expect(Object.prototype.toString.call([])).toBe('[object Array]')
      }, 1500, true))

  afterAll(() => {
    record('fuzz', 'tool arguments: tools actually executed', executions, 'executions')
  })
})

// ---------- pipeline ordering against a reference model ----------

type Act = { kind: 'proceed' } | { kind: 'rewrite', tag: string, newId: boolean } | { kind: 'deny' } |
  { kind: 'defer' } | { kind: 'abort' } | { kind: 'throw' }

const act: fc.Arbitrary<Act> = fc.oneof(
  { weight: 4, arbitrary: fc.constant<Act>({ kind: 'proceed' }) },
  { weight: 4, arbitrary: fc.tuple(fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 2 }), fc.boolean())
    .map(([tag, newId]) => ({ kind: 'rewrite', tag, newId }) as Act) },
  { weight: 1, arbitrary: fc.constant<Act>({ kind: 'deny' }) },
  { weight: 1, arbitrary: fc.constant<Act>({ kind: 'defer' }) },
  { weight: 1, arbitrary: fc.constant<Act>({ kind: 'abort' }) },
  { weight: 1, arbitrary: fc.constant<Act>({ kind: 'throw' }) }
)

class ScriptedToolHook extends AgentHook {
  constructor(readonly i: number, readonly a: Act, readonly log: string[]) { super() }
  get hookName(): string { return `h${this.i}` }
  async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
    this.log.push(`h${this.i}:${ctx.call.argumentsJson}`)
    switch (this.a.kind) {
      case 'rewrite': return ToolCallHookResult.proceed(
        new ToolCall(this.a.newId ? `evil${this.i}` : ctx.call.id, ctx.call.name, ctx.call.argumentsJson + this.a.tag, ctx.call.index))
      case 'deny': return ToolCallHookResult.deny(undefined, `d${this.i}`)
      case 'defer': return ToolCallHookResult.defer(`f${this.i}`)
      case 'abort': return ToolCallHookResult.abort(`a${this.i}`)
      case 'throw': throw new Error(`boom${this.i}`)
      default: return ToolCallHookResult.proceed()
    }
  }
}

class ScriptedChunkHook extends AgentHook {
  constructor(readonly i: number, readonly a: Act, readonly log: string[]) { super() }
  get hookName(): string { return `c${this.i}` }
  async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
    this.log.push(`c${this.i}:${ctx.text}`)
    switch (this.a.kind) {
      case 'rewrite': return ModelChunkHookResult.proceed(ctx.text + this.a.tag)
      case 'deny': case 'defer': return ModelChunkHookResult.drop(`d${this.i}`)
      case 'abort': return ModelChunkHookResult.abort(`a${this.i}`)
      case 'throw': throw new Error(`boom${this.i}`)
      default: return ModelChunkHookResult.proceed()
    }
  }
}

describe('fuzz: pipeline ordering (reference model)', () => {
  const view = StateView.of(new AgentState('p'))

  it('beforeToolCall: registration order, rewrites passed on with the id kept, first short-circuit wins', () =>
    run('pipeline beforeToolCall vs model', fc.array(act, { maxLength: 7 }), async (acts) => {
      const log: string[] = []
      const pipeline = new AgentHookPipeline(acts.map((a, i) => new ScriptedToolHook(i, a, log)), 0)
      const call = new ToolCall('id0', 'tool', 'x', 0)
      // The reference model.
      const expectedLog: string[] = []
      let args = 'x'
      let expected: { action: string, args?: string, error?: string } = { action: 'proceed' }
      for (let i = 0; i < acts.length; i++) {
        const a = acts[i]
        expectedLog.push(`h${i}:${args}`)
        if (a.kind === 'rewrite') { args += a.tag; continue }
        if (a.kind === 'proceed') continue
        expected = a.kind === 'throw' ? { action: 'error', error: ErrorCodes.hookFailed } : { action: a.kind }
        break
      }
      if (expected.action === 'proceed') expected.args = args
      let actual: { action: string, args?: string, error?: string }
      try {
        const r = await pipeline.beforeToolCall(new ToolCallHookContext('s', 'r', view, call, AgentMessage.assistant('', [call]), []))
        actual = { action: r.action }
        if (r.action === 'proceed') {
          actual.args = (r.call ?? call).argumentsJson
          expect((r.call ?? call).id).toBe('id0')
        }
      } catch (e) {
        expect(e).toBeInstanceOf(ArkAgentError)
        actual = { action: 'error', error: (e as ArkAgentError).code }
      }
      expect(actual).toEqual(expected)
      expect(log).toEqual(expectedLog)
    }, 1500, true))

  it('onModelChunk: rewrites chain, drop/abort short-circuit, a throw fails closed', () =>
    run('pipeline onModelChunk vs model', fc.tuple(fc.array(act, { maxLength: 7 }), fc.string({ maxLength: 5 })),
      async ([acts, text]) => {
        const log: string[] = []
        const pipeline = new AgentHookPipeline(acts.map((a, i) => new ScriptedChunkHook(i, a, log)), 0)
        const expectedLog: string[] = []
        let t = text
        let expected: { action: string, text?: string, error?: string } = { action: 'proceed' }
        for (let i = 0; i < acts.length; i++) {
          const a = acts[i]
          expectedLog.push(`c${i}:${t}`)
          if (a.kind === 'rewrite') { t += a.tag; continue }
          if (a.kind === 'proceed') continue
          expected = a.kind === 'throw' ? { action: 'error', error: ErrorCodes.hookFailed } :
            { action: a.kind === 'abort' ? 'abort' : 'drop' }
          break
        }
        if (expected.action === 'proceed') expected.text = t
        let actual: { action: string, text?: string, error?: string }
        try {
          const r = await pipeline.onModelChunk(new ModelChunkHookContext('s', 'r', view, text, false, 0, 1))
          actual = { action: r.action }
          if (r.action === 'proceed') actual.text = r.text ?? text
        } catch (e) {
          expect(e).toBeInstanceOf(ArkAgentError)
          actual = { action: 'error', error: (e as ArkAgentError).code }
        }
        expect(actual).toEqual(expected)
        expect(log).toEqual(expectedLog)
      }, 1500, true))
})
