// Every preset against a local server speaking its vendor's dialect, through AgentRuntime and
// FetchTransport: a two-step tool loop completes; reasoning goes back exactly where the vendor
// requires it (DeepSeek and Kimi answer HTTP 400 otherwise, with their real error bodies) and
// never where it does not; the thinking switch maps to the vendor's parameter; local servers get
// no Authorization header.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentHookPipeline,
  AgentRuntime,
  AgentRuntimeConfig,
  ErrorCodes,
  FetchTransport,
  FunctionTool,
  ModelChunkHookContext,
  ModelChunkHookResult,
  OpenAICompatibleProvider,
  ProviderPreset,
  ProviderPresets,
  RunStatus,
  ToolDefinition,
  ToolRegistry
} from '../../src/index'
import {
  DEEPSEEK_MISSING_REASONING,
  KIMI_MISSING_REASONING,
  NO_RULE,
  VendorDialect,
  VendorServer
} from '../provider/support/VendorServer'

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

function runtime(provider: OpenAICompatibleProvider, thinking?: boolean, hooks: AgentHook[] = []): AgentRuntime {
  const cfg = new AgentRuntimeConfig(`vendor-${provider.providerId}`, provider)
  cfg.tools = new ToolRegistry([new FunctionTool(new ToolDefinition('lookup', 'look something up', { type: 'object' }),
    async (args) => `found ${String(args['n'])}`)])
  cfg.hooks = new AgentHookPipeline(hooks)
  cfg.thinking = thinking
  return new AgentRuntime(cfg)
}

interface Case {
  preset: ProviderPreset
  dialect: VendorDialect
  model: string
  /** Which assistant tool-call messages carry reasoning back. */
  echo: boolean
  /** What `thinking: false` / `true` put into the body. */
  off: Record<string, unknown>
  on: Record<string, unknown>
}

const KEY = 'sk-vendor-test-7a6b5c4d3e2f1a0b'

const cases: Case[] = [
  { preset: ProviderPresets.deepseek, model: 'deepseek-v4-flash', echo: true,
    dialect: { name: 'deepseek', key: KEY, reasoningField: 'reasoning_content', missingReasoningBody: DEEPSEEK_MISSING_REASONING, usageChunk: 'separate', steps: STEPS },
    off: { thinking: { type: 'disabled' } }, on: { thinking: { type: 'enabled' } } },
  { preset: ProviderPresets.zhipu, model: 'glm-4.5', echo: true,
    dialect: { name: 'zhipu', key: KEY, reasoningField: 'reasoning_content', missingReasoningBody: NO_RULE, usageChunk: 'on-last-choice', steps: STEPS },
    off: { thinking: { type: 'disabled' } }, on: { thinking: { type: 'enabled' } } },
  { preset: ProviderPresets.qwen, model: 'qwen-plus', echo: false,
    dialect: { name: 'qwen', key: KEY, reasoningField: 'reasoning_content', missingReasoningBody: NO_RULE, usageChunk: 'separate', steps: STEPS },
    off: { enable_thinking: false }, on: { enable_thinking: true } },
  { preset: ProviderPresets.moonshot, model: 'kimi-k2-thinking', echo: true,
    dialect: { name: 'moonshot', key: KEY, reasoningField: 'reasoning_content', missingReasoningBody: KIMI_MISSING_REASONING, usageChunk: 'separate', steps: STEPS },
    off: { thinking: { type: 'disabled' } }, on: { thinking: { type: 'enabled' } } },
  { preset: ProviderPresets.openai, model: 'gpt-5-mini', echo: false,
    dialect: { name: 'openai', key: KEY, reasoningField: '', missingReasoningBody: NO_RULE, usageChunk: 'separate', steps: STEPS },
    off: { reasoning_effort: 'minimal' }, on: {} },
  { preset: ProviderPresets.ollama, model: 'qwen3:8b', echo: false,
    dialect: { name: 'ollama', key: '', reasoningField: 'reasoning', missingReasoningBody: NO_RULE, usageChunk: 'separate', steps: STEPS },
    off: { reasoning_effort: 'none' }, on: {} },
  { preset: ProviderPresets.vllm, model: 'Qwen/Qwen3-8B', echo: false,
    dialect: { name: 'vllm', key: '', reasoningField: 'reasoning', missingReasoningBody: NO_RULE, usageChunk: 'separate', steps: STEPS },
    off: {}, on: {} }
]

describe('presets against their vendors\' dialects', () => {
  for (const c of cases) {
    it(`${c.preset.id}: a two-step tool loop completes; reasoning ${c.echo ? 'goes back on tool-call turns' : 'is never sent back'}`, async () => {
      const server = await serve(c.dialect)
      const provider = OpenAICompatibleProvider.fromPreset(c.preset, c.dialect.key, new FetchTransport(), c.model, server.baseUrl)
      const rt = runtime(provider)
      const outcome = await rt.run('go')
      expect(outcome.error?.message).toBeUndefined()
      expect(outcome.status).toBe(RunStatus.completed)
      expect(outcome.finalMessage?.text()).toBe('Done after 2 steps.')
      expect(server.rejections).toEqual([])
      expect(server.bodies.length).toBe(3)
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

    it(`${c.preset.id}: thinking off and on map to the vendor's switch; unset sends none`, async () => {
      const server = await serve({ ...c.dialect, steps: [] })
      for (const thinking of [false, true, undefined]) {
        const provider = OpenAICompatibleProvider.fromPreset(c.preset, c.dialect.key, new FetchTransport(), c.model, server.baseUrl)
        expect((await runtime(provider, thinking).run('hi')).status).toBe(RunStatus.completed)
      }
      const pick = (body: Record<string, unknown>) => Object.fromEntries(
        ['thinking', 'enable_thinking', 'reasoning_effort'].filter((k) => k in body).map((k) => [k, body[k]]))
      expect(pick(server.bodies[0])).toEqual(c.off)
      expect(pick(server.bodies[1])).toEqual(c.on)
      expect(pick(server.bodies[2])).toEqual({})
    })
  }

  it('DeepSeek: the reasoning sent back is the reasoning as chunk hooks left it (what was shown and stored)', async () => {
    const server = await serve(cases[0].dialect)
    class Upper extends AgentHook {
      async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
        return ctx.reasoning ? ModelChunkHookResult.proceed(ctx.text.toUpperCase()) : ModelChunkHookResult.proceed()
      }
    }
    const provider = OpenAICompatibleProvider.fromPreset(ProviderPresets.deepseek, KEY, new FetchTransport(), '', server.baseUrl)
    const outcome = await runtime(provider, undefined, [new Upper()]).run('go')
    expect(outcome.status).toBe(RunStatus.completed)
    const third = server.bodies[2].messages as Array<Record<string, unknown>>
    expect(third.filter((m) => Array.isArray(m.tool_calls)).map((m) => m.reasoning_content))
      .toEqual(server.reasoningSent.slice(0, 2).map((r) => r.toUpperCase()))
  })

  it('without the DeepSeek profile (a generic endpoint) the same loop fails with DeepSeek\'s 400', async () => {
    const server = await serve(cases[0].dialect)
    const provider = new OpenAICompatibleProvider({ transport: new FetchTransport(), baseUrl: server.baseUrl, apiKey: KEY,
      model: 'deepseek-v4-flash', providerId: 'deepseek' })
    const outcome = await runtime(provider).run('go')
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.providerBadRequest)
    expect(outcome.error?.message).toContain('Missing `reasoning_content` field in the assistant message at message index 1')
  })
})
