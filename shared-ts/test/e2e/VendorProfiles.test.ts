// Every preset against a local server speaking its vendor's dialect, through AgentRuntime and
// FetchTransport: a two-step tool loop completes; reasoning goes back exactly where the vendor
// requires it (DeepSeek and Kimi answer HTTP 400 otherwise, with their real error bodies) and
// never where it does not; usage is read where the vendor reports it (Kimi: inside the last choice),
// so the compaction calibration learns; the thinking switch maps to the vendor's parameter for each
// model family (nothing for a model without one); a compaction's summary request — its token limit
// and "thinking off" — is one the vendor accepts (OpenAI refuses `max_tokens` on gpt-5 and o-series
// models and `reasoning_effort` on gpt-4.1); local servers get no Authorization header.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentHookPipeline,
  AgentRuntime,
  AgentRuntimeConfig,
  CompactionOptions,
  ContextCompactedEvent,
  ControllerEventTypes,
  ErrorCodes,
  FetchTransport,
  FunctionTool,
  LlmAfterEvent,
  ModelChunkHookContext,
  ModelChunkHookResult,
  OpenAICompatibleProvider,
  ProviderPreset,
  ProviderPresets,
  RunStatus,
  ToolDefinition,
  ToolRegistry
} from '../../src/index'
import { CompactionWarningEvent } from '../../src/core/events/CompactionEvents'
import { WireProfile } from '../../src/core/provider/WireProfile'
import {
  DEEPSEEK_MISSING_REASONING,
  KIMI_MISSING_REASONING,
  NO_RULE,
  SUMMARY_TEXT,
  VendorDialect,
  VendorServer
} from '../provider/support/VendorServer'
import { OPENAI_RULES, QWEN_RULES } from '../provider/support/VendorRules'

const servers: VendorServer[] = []
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close()
})

async function serve(dialect: VendorDialect): Promise<VendorServer> {
  const s = await new VendorServer(dialect).start()
  servers.push(s)
  return s
}

const STEPS = ['lookup', 'lookup']

function runtime(provider: OpenAICompatibleProvider, thinking?: boolean, hooks: AgentHook[] = [],
  compaction?: CompactionOptions): AgentRuntime {
  const cfg = new AgentRuntimeConfig(`vendor-${provider.providerId}`, provider)
  cfg.tools = new ToolRegistry([new FunctionTool(new ToolDefinition('lookup', 'look something up', { type: 'object' }),
    async (args) => `found ${String(args['n'])}`)])
  cfg.hooks = new AgentHookPipeline(hooks)
  cfg.thinking = thinking
  cfg.compaction = compaction
  return new AgentRuntime(cfg)
}

/** Compaction with an explicit window (the local presets know none). */
function compaction(window: number, reserve: number, summaryTokens = 0): CompactionOptions {
  const o = new CompactionOptions()
  o.contextWindow = window
  o.outputReserve = reserve
  o.summaryMaxTokens = summaryTokens
  return o
}

type Limit = 'max_tokens' | 'max_completion_tokens'

interface Case {
  preset: ProviderPreset
  dialect: VendorDialect
  model: string
  /** Which assistant tool-call messages carry reasoning back. */
  echo: boolean
  /** What `thinking: false` / `true` put into the body. */
  off: Record<string, unknown>
  on: Record<string, unknown>
  /** The field a request's token limit goes into (the summary request has one). */
  limit: Limit
}

const KEY = 'sk-vendor-test-7a6b5c4d3e2f1a0b'

// Each vendor's dialect: the rules its server enforces, from the vendor's docs (see VendorServer, VendorRules).
const deepseek: VendorDialect = { name: 'deepseek', key: KEY, reasoningField: 'reasoning_content',
  missingReasoningBody: DEEPSEEK_MISSING_REASONING, usageChunk: 'separate', steps: STEPS }
const zhipu: VendorDialect = { name: 'zhipu', key: KEY, reasoningField: 'reasoning_content', missingReasoningBody: NO_RULE,
  usageChunk: 'on-last-choice', steps: STEPS }
const qwen: VendorDialect = { name: 'qwen', key: KEY, reasoningField: 'reasoning_content', missingReasoningBody: NO_RULE,
  usageChunk: 'separate', steps: STEPS, rules: QWEN_RULES }
// platform.moonshot.cn/docs/api/chat: a stream's usage is in its last choice, `choices[0].usage`.
const moonshot: VendorDialect = { name: 'moonshot', key: KEY, reasoningField: 'reasoning_content',
  missingReasoningBody: KIMI_MISSING_REASONING, usageChunk: 'in-choice', steps: STEPS }
const openai: VendorDialect = { name: 'openai', key: KEY, reasoningField: '', missingReasoningBody: NO_RULE,
  usageChunk: 'separate', steps: STEPS, rules: OPENAI_RULES }
const ollama: VendorDialect = { name: 'ollama', key: '', reasoningField: 'reasoning', missingReasoningBody: NO_RULE,
  usageChunk: 'separate', steps: STEPS }
const vllm: VendorDialect = { name: 'vllm', key: '', reasoningField: 'reasoning', missingReasoningBody: NO_RULE,
  usageChunk: 'separate', steps: STEPS }

/** One case per preset, with its default (or a typical) model. */
const cases: Case[] = [
  { preset: ProviderPresets.deepseek, model: 'deepseek-v4-flash', echo: true, dialect: deepseek, limit: 'max_tokens',
    off: { thinking: { type: 'disabled' } }, on: { thinking: { type: 'enabled' } } },
  { preset: ProviderPresets.zhipu, model: 'glm-4.5', echo: true, dialect: zhipu, limit: 'max_tokens',
    off: { thinking: { type: 'disabled' } }, on: { thinking: { type: 'enabled' } } },
  { preset: ProviderPresets.qwen, model: 'qwen-plus', echo: false, dialect: qwen, limit: 'max_completion_tokens',
    off: { enable_thinking: false }, on: { enable_thinking: true } },
  { preset: ProviderPresets.moonshot, model: 'kimi-k2.5', echo: true, dialect: moonshot, limit: 'max_completion_tokens',
    off: { thinking: { type: 'disabled' } }, on: { thinking: { type: 'enabled' } } },
  { preset: ProviderPresets.openai, model: 'gpt-5-mini', echo: false, dialect: openai, limit: 'max_completion_tokens',
    off: { reasoning_effort: 'minimal' }, on: {} },
  { preset: ProviderPresets.ollama, model: 'qwen3:8b', echo: false, dialect: ollama, limit: 'max_tokens',
    off: { reasoning_effort: 'none' }, on: {} },
  { preset: ProviderPresets.vllm, model: 'Qwen/Qwen3-8B', echo: false, dialect: vllm, limit: 'max_tokens',
    off: {}, on: {} }
]

/** Model families whose wire differs from their preset's default. */
const families: Case[] = [
  // No reasoning: OpenAI answers 400 unsupported_parameter to any reasoning_effort.
  { preset: ProviderPresets.openai, model: 'gpt-4.1', echo: false, dialect: openai, limit: 'max_completion_tokens',
    off: {}, on: {} },
  { preset: ProviderPresets.openai, model: 'gpt-4o', echo: false, dialect: openai, limit: 'max_completion_tokens',
    off: {}, on: {} },
  // gpt-5.1 and later: default none, no minimal.
  { preset: ProviderPresets.openai, model: 'gpt-5.1', echo: false, dialect: openai, limit: 'max_completion_tokens',
    off: { reasoning_effort: 'none' }, on: { reasoning_effort: 'medium' } },
  // o-series: low, medium, high.
  { preset: ProviderPresets.openai, model: 'o4-mini', echo: false, dialect: openai, limit: 'max_completion_tokens',
    off: { reasoning_effort: 'low' }, on: {} },
  { preset: ProviderPresets.openai, model: 'gpt-5', echo: false, dialect: openai, limit: 'max_completion_tokens',
    off: { reasoning_effort: 'minimal' }, on: {} },
  // Thinking only on GLM-4.5 and later.
  { preset: ProviderPresets.zhipu, model: 'glm-4-flash', echo: true, dialect: zhipu, limit: 'max_tokens', off: {}, on: {} },
  // Always thinks: no switch.
  { preset: ProviderPresets.moonshot, model: 'kimi-k2-thinking', echo: true, dialect: moonshot, limit: 'max_completion_tokens',
    off: {}, on: {} },
  // Does not think: no switch.
  { preset: ProviderPresets.qwen, model: 'qwen-max', echo: false, dialect: qwen, limit: 'max_completion_tokens',
    off: {}, on: {} }
]

const THINKING_FIELDS = ['thinking', 'enable_thinking', 'reasoning_effort']
const pick = (body: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(
  THINKING_FIELDS.filter((k) => k in body).map((k) => [k, body[k]]))

describe('presets against their vendors\' dialects', () => {
  for (const c of cases) {
    it(`${c.preset.id}: a two-step tool loop completes; reasoning ${c.echo ? 'goes back on tool-call turns' : 'is never sent back'}`, async () => {
      const server = await serve(c.dialect)
      const provider = OpenAICompatibleProvider.fromPreset(c.preset, { apiKey: c.dialect.key, transport: new FetchTransport(), model: c.model, baseUrl: server.baseUrl })
      const rt = runtime(provider, undefined, [], compaction(200000, 8000))
      const usage: number[] = []
      rt.controller.subscribe(ControllerEventTypes.afterCallLlm, (e) => { usage.push((e as LlmAfterEvent).response.usage.promptTokens) })
      const outcome = await rt.run('go')
      expect(outcome.error?.message).toBeUndefined()
      expect(outcome.status).toBe(RunStatus.completed)
      expect(outcome.finalMessage?.text()).toBe('Done after 2 steps.')
      expect(server.rejections).toEqual([])
      expect(server.bodies.length).toBe(3)
      // Usage is read where the vendor reports it (Kimi: choices[0].usage), so the calibration learns
      // the vendor counts more than the estimate.
      expect(usage).toEqual(server.promptTokens)
      expect(rt.snapshot().tokenCalibration).toBeGreaterThan(1)
      // Streamed reasoning is kept in history, whichever field the vendor uses.
      const assistants = rt.snapshot().history.filter((m) => m.role === 'assistant')
      expect(assistants.map((m) => m.reasoning())).toEqual(c.dialect.reasoningField === '' ? ['', '', ''] : server.reasoningSent)
      // What went back on the later requests.
      const third = server.bodies[2].messages as Array<Record<string, unknown>>
      const toolTurns = third.filter((m) => m.role === 'assistant' && Array.isArray(m.tool_calls))
      expect(toolTurns.length).toBe(2)
      for (let i = 0; i < toolTurns.length; i++) {
        if (c.echo) expect(toolTurns[i].reasoning_content).toBe(c.dialect.reasoningField === '' ? '' : server.reasoningSent[i])
        else {
          expect('reasoning_content' in toolTurns[i]).toBe(false)
          expect('reasoning' in toolTurns[i]).toBe(false)
        }
      }
      // Keys: sent as Bearer where one is needed, and no header at all for local servers.
      expect(server.authHeaders.every((h) => c.dialect.key === '' ? h === undefined : h === `Bearer ${KEY}`)).toBe(true)
    })

  }

  for (const c of [...cases, ...families]) {
    it(`${c.preset.id} ${c.model}: thinking off and on map to the vendor's switch (${JSON.stringify(c.off)}, ${
      JSON.stringify(c.on)}); unset sends none; the vendor accepts all three`, async () => {
      const server = await serve({ ...c.dialect, steps: [] })
      for (const thinking of [false, true, undefined]) {
        const provider = OpenAICompatibleProvider.fromPreset(c.preset, { apiKey: c.dialect.key, transport: new FetchTransport(), model: c.model, baseUrl: server.baseUrl })
        const outcome = await runtime(provider, thinking).run('hi')
        expect([thinking, outcome.status, outcome.error?.message]).toEqual([thinking, RunStatus.completed, undefined])
      }
      expect(server.rejections).toEqual([])
      expect(pick(server.bodies[0])).toEqual(c.off)
      expect(pick(server.bodies[1])).toEqual(c.on)
      expect(pick(server.bodies[2])).toEqual({})
    })

    it(`${c.preset.id} ${c.model}: a compaction's summary request is one the vendor accepts (${c.limit}, thinking off)`, async () => {
      const server = await serve({ ...c.dialect, steps: [] })
      const provider = OpenAICompatibleProvider.fromPreset(c.preset, { apiKey: c.dialect.key, transport: new FetchTransport(), model: c.model, baseUrl: server.baseUrl })
      const rt = runtime(provider, undefined, [], compaction(2000, 400, 200))
      const compacted: ContextCompactedEvent[] = []
      const warnings: CompactionWarningEvent[] = []
      rt.controller.subscribe(ControllerEventTypes.contextCompacted, (e) => { compacted.push(e as ContextCompactedEvent) })
      rt.controller.subscribe('context.compaction_warning', (e) => { warnings.push(e as CompactionWarningEvent) })
      for (let i = 1; i <= 40 && compacted.length === 0; i++) {
        const outcome = await rt.run(`question ${i}: ${'please consider this part of the question '.repeat(6)}`)
        expect(outcome.error?.message).toBeUndefined()
      }
      expect(server.rejections).toEqual([])
      expect(compacted.length).toBe(1)
      // A summary, not a truncation: the vendor answered the summary call.
      expect([compacted[0].truncated, compacted[0].reason.includes('no summary')]).toEqual([false, false])
      expect(warnings).toEqual([])
      expect(rt.snapshot().compaction!.summary).toBe(SUMMARY_TEXT)
      expect(server.summaryBodies.length).toBe(1)
      const body = server.summaryBodies[0]
      const other: Limit = c.limit === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens'
      expect([body[c.limit], other in body]).toEqual([200, false])
      expect(pick(body)).toEqual(c.off)
      // The main requests carry no token limit at all.
      expect(server.bodies.every((b) => !('max_tokens' in b) && !('max_completion_tokens' in b))).toBe(true)
    })
  }

  it('openai: a compaction whose summary call the vendor refuses is a truncation and a warning the app can show', async () => {
    // A generic endpoint (no OpenAI profile) speaking to OpenAI's gpt-5-mini: max_tokens, HTTP 400.
    const server = await serve({ ...openai, steps: [] })
    const provider = new OpenAICompatibleProvider({ transport: new FetchTransport(), baseUrl: server.baseUrl, apiKey: KEY,
      model: 'gpt-5-mini', providerId: 'openai-compatible', contextWindow: 2000 })
    const rt = runtime(provider, undefined, [], compaction(2000, 400, 200))
    const warnings: CompactionWarningEvent[] = []
    rt.controller.subscribe('context.compaction_warning', (e) => { warnings.push(e as CompactionWarningEvent) })
    for (let i = 1; i <= 40 && rt.snapshot().compaction === undefined; i++) {
      expect((await rt.run(`question ${i}: ${'please consider this part of the question '.repeat(6)}`)).status).toBe(RunStatus.completed)
    }
    expect(rt.snapshot().compaction!.truncated).toBe(true)
    expect(warnings.length).toBe(1)
    expect(warnings[0].code).toBe(ErrorCodes.providerBadRequest)
    expect(warnings[0].reason).toContain("Use 'max_completion_tokens' instead")
    expect(warnings[0].leftOut).toBeGreaterThan(0)
  })

  it('DeepSeek: the reasoning sent back is the reasoning as chunk hooks left it (what was shown and stored)', async () => {
    const server = await serve(cases[0].dialect)
    class Upper extends AgentHook {
      async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
        return ctx.reasoning ? ModelChunkHookResult.proceed(ctx.text.toUpperCase()) : ModelChunkHookResult.proceed()
      }
    }
    const provider = OpenAICompatibleProvider.fromPreset(ProviderPresets.deepseek, { apiKey: KEY, transport: new FetchTransport(), baseUrl: server.baseUrl })
    const outcome = await runtime(provider, undefined, [new Upper()]).run('go')
    expect(outcome.status).toBe(RunStatus.completed)
    const third = server.bodies[2].messages as Array<Record<string, unknown>>
    expect(third.filter((m) => Array.isArray(m.tool_calls)).map((m) => m.reasoning_content))
      .toEqual(server.reasoningSent.slice(0, 2).map((r) => r.toUpperCase()))
  })

  it('built by hand with DeepSeek\'s id, the provider carries DeepSeek\'s profile: the same loop completes', async () => {
    const server = await serve(cases[0].dialect)
    const provider = new OpenAICompatibleProvider({ transport: new FetchTransport(), baseUrl: server.baseUrl, apiKey: KEY,
      model: 'deepseek-v4-flash', providerId: 'deepseek' })
    const outcome = await runtime(provider).run('go')
    expect(outcome.status).toBe(RunStatus.completed)
  })

  it('with the generic profile chosen explicitly (a generic endpoint) the same loop fails with DeepSeek\'s 400', async () => {
    const server = await serve(cases[0].dialect)
    const provider = new OpenAICompatibleProvider({ transport: new FetchTransport(), baseUrl: server.baseUrl, apiKey: KEY,
      model: 'deepseek-v4-flash', providerId: 'deepseek', profile: WireProfile.generic })
    const outcome = await runtime(provider).run('go')
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.providerBadRequest)
    expect(outcome.error?.message).toContain('Missing `reasoning_content` field in the assistant message at message index 1')
  })
})
