// Structured output through every preset, against a local server on 127.0.0.1 speaking the vendor's
// documented JSON mode (VendorRules.JSON_MODE_RULES, on top of the vendor's other rules): the request
// asks the way the wire profile says (`response_format` json_schema for OpenAI, Ollama and vLLM;
// json_object for DeepSeek, GLM, Qwen and Kimi — whose prompt then carries the schema and the word
// JSON), the two-step tool loop runs unconstrained, the final JSON answer is checked locally and
// comes back as RunOutcome.output; an invalid answer over HTTP gets its repair turn; a schema whose
// root is not an object is only instructed.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentHookPipeline,
  AgentRuntime,
  AgentRuntimeConfig,
  FetchTransport,
  FunctionTool,
  OpenAICompatibleProvider,
  OutputMode,
  OutputSchema,
  ProviderPreset,
  ProviderPresets,
  RunStatus,
  ToolDefinition,
  ToolRegistry
} from '../../src/index'
import { DEEPSEEK_MISSING_REASONING, KIMI_MISSING_REASONING, NO_RULE, VendorDialect, VendorServer } from '../provider/support/VendorServer'
import { both, JSON_MODE_RULES, NO_RULES, OPENAI_RULES, QWEN_RULES, type RequestRule } from '../provider/support/VendorRules'

const servers: VendorServer[] = []
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close()
})

const KEY = 'sk-structured-test-1a2b3c4d5e6f7a8b'
const ANSWER = { city: 'Hangzhou', days: 3, sights: ['West Lake'] }
const PLAN = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 }, sights: { type: 'array', items: { type: 'string' } } },
  required: ['city', 'days', 'sights'],
  additionalProperties: false
}

interface Case { preset: ProviderPreset, model: string, mode: OutputMode, reasoningField: VendorDialect['reasoningField'],
  usage: VendorDialect['usageChunk'], key: string, missing: (i: number) => string, rules: RequestRule }

const cases: Case[] = [
  { preset: ProviderPresets.openai, model: 'gpt-5-mini', mode: OutputMode.jsonSchema, reasoningField: '', usage: 'separate', key: KEY,
    missing: NO_RULE, rules: OPENAI_RULES },
  { preset: ProviderPresets.openai, model: 'gpt-4.1', mode: OutputMode.jsonSchema, reasoningField: '', usage: 'separate', key: KEY,
    missing: NO_RULE, rules: OPENAI_RULES },
  { preset: ProviderPresets.openai, model: 'gpt-3.5-turbo', mode: OutputMode.jsonObject, reasoningField: '', usage: 'separate',
    key: KEY, missing: NO_RULE, rules: OPENAI_RULES },
  { preset: ProviderPresets.deepseek, model: 'deepseek-v4-flash', mode: OutputMode.jsonObject, reasoningField: 'reasoning_content',
    usage: 'separate', key: KEY, missing: DEEPSEEK_MISSING_REASONING, rules: NO_RULES },
  { preset: ProviderPresets.zhipu, model: 'glm-4.5', mode: OutputMode.jsonObject, reasoningField: 'reasoning_content',
    usage: 'on-last-choice', key: KEY, missing: NO_RULE, rules: NO_RULES },
  { preset: ProviderPresets.qwen, model: 'qwen-plus', mode: OutputMode.jsonObject, reasoningField: 'reasoning_content',
    usage: 'separate', key: KEY, missing: NO_RULE, rules: QWEN_RULES },
  { preset: ProviderPresets.moonshot, model: 'kimi-k2.5', mode: OutputMode.jsonObject, reasoningField: 'reasoning_content',
    usage: 'in-choice', key: KEY, missing: KIMI_MISSING_REASONING, rules: NO_RULES },
  { preset: ProviderPresets.ollama, model: 'qwen3:8b', mode: OutputMode.jsonSchema, reasoningField: 'reasoning', usage: 'separate',
    key: '', missing: NO_RULE, rules: NO_RULES },
  { preset: ProviderPresets.vllm, model: 'Qwen/Qwen3-8B', mode: OutputMode.jsonSchema, reasoningField: 'reasoning', usage: 'separate',
    key: '', missing: NO_RULE, rules: NO_RULES }
]

async function serve(c: Case, steps: string[], answers: string[]): Promise<VendorServer> {
  let n = 0
  const s = await new VendorServer({ name: c.preset.id, key: c.key, reasoningField: c.reasoningField, missingReasoningBody: c.missing,
    usageChunk: c.usage, steps, rules: both(c.rules, JSON_MODE_RULES[c.preset.id]),
    finalAnswer: () => answers[Math.min(n++, answers.length - 1)] }).start()
  servers.push(s)
  return s
}

function runtime(provider: OpenAICompatibleProvider, schema: OutputSchema): AgentRuntime {
  const cfg = new AgentRuntimeConfig(`so-${provider.providerId}`, provider)
  cfg.tools = new ToolRegistry([new FunctionTool(new ToolDefinition('lookup', 'look something up', { type: 'object' }),
    async (args) => `found ${String(args['n'])}`)])
  cfg.hooks = new AgentHookPipeline([])
  cfg.outputSchema = schema
  return new AgentRuntime(cfg)
}

const formatOf = (body: Record<string, unknown>): Record<string, unknown> | undefined =>
  body.response_format as Record<string, unknown> | undefined

describe('structured output per preset', () => {
  for (const c of cases) {
    it(`${c.preset.id} ${c.model}: asks with ${c.mode}, the tool loop runs, the JSON answer is the output`, async () => {
      const server = await serve(c, ['lookup', 'lookup'], [JSON.stringify(ANSWER)])
      const provider = OpenAICompatibleProvider.fromPreset(c.preset, { apiKey: c.key, transport: new FetchTransport(), model: c.model, baseUrl: server.baseUrl })
      expect(provider.outputModeFor('')).toBe(c.mode)
      const outcome = await runtime(provider, OutputSchema.fromJson(PLAN, 'trip_plan')).run('plan a trip')
      expect(outcome.error?.message).toBeUndefined()
      expect(server.rejections).toEqual([])
      expect(outcome.status).toBe(RunStatus.completed)
      expect(outcome.output).toEqual(ANSWER)
      expect(server.bodies.length).toBe(3)
      for (const body of server.bodies) {
        const format = formatOf(body)
        const system = (body.messages as Array<{ role: string, content: string }>)[0]
        expect(system.role).toBe('system')
        if (c.mode === OutputMode.jsonSchema) {
          expect(format).toEqual({ type: 'json_schema', json_schema: { name: 'trip_plan', schema: PLAN, strict: false } })
          expect(system.content).not.toContain(JSON.stringify(PLAN))
        } else {
          expect(format).toEqual({ type: 'json_object' })
          expect(system.content).toContain(JSON.stringify(PLAN))
        }
        expect(system.content).toContain('JSON')
      }
    })
  }

  it('an invalid answer over HTTP gets a repair turn naming the failure, then the valid one is the output', async () => {
    const c = cases.find((x) => x.preset.id === 'deepseek')!
    const server = await serve(c, [], ['Here is your plan: Hangzhou, 3 days', '{"city":"Hangzhou","days":0,"sights":[]}',
      JSON.stringify(ANSWER)])
    const provider = OpenAICompatibleProvider.fromPreset(c.preset, { apiKey: c.key, transport: new FetchTransport(), model: c.model, baseUrl: server.baseUrl })
    const outcome = await runtime(provider, OutputSchema.fromJson(PLAN, 'trip_plan')).run('plan a trip')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.output).toEqual(ANSWER)
    expect(server.bodies.length).toBe(3)
    const lastUser = (i: number): string => {
      const users = (server.bodies[i].messages as Array<{ role: string, content: string }>).filter((m) => m.role === 'user')
      return users[users.length - 1].content
    }
    expect(lastUser(1)).toContain('the answer is not JSON')
    expect(lastUser(2)).toContain('$.days')
  })

  it('a schema whose root is not an object is only instructed: no response_format, still checked', async () => {
    for (const c of [cases[0], cases[3]]) {
      const server = await serve(c, [], ['["a","b"]'])
      const provider = OpenAICompatibleProvider.fromPreset(c.preset, { apiKey: c.key, transport: new FetchTransport(), model: c.model, baseUrl: server.baseUrl })
      const outcome = await runtime(provider, OutputSchema.fromJson({ type: 'array', items: { type: 'string' } }, 'names'))
        .run('names please')
      expect(server.rejections).toEqual([])
      expect(outcome.output).toEqual(['a', 'b'])
      expect(formatOf(server.bodies[0])).toBeUndefined()
    }
  })

  it('the servers refuse what the vendors refuse (the rules are live)', () => {
    const body = (format: Record<string, unknown>, text = 'hi'): Record<string, unknown> => ({ model: 'm',
      messages: [{ role: 'user', content: text }], response_format: format })
    expect(JSON_MODE_RULES.deepseek(body({ type: 'json_schema', json_schema: {} }))?.status).toBe(400)
    expect(JSON_MODE_RULES.deepseek(body({ type: 'json_object' }))?.status).toBe(400)
    expect(JSON_MODE_RULES.deepseek(body({ type: 'json_object' }, 'answer in JSON'))).toBeUndefined()
    expect(JSON_MODE_RULES.zhipu(body({ type: 'json_schema' }))?.status).toBe(400)
    expect(JSON_MODE_RULES.qwen(body({ type: 'json_object' }))?.status).toBe(400)
    expect(JSON_MODE_RULES.openai(body({ type: 'json_schema', json_schema: { name: 'a b', schema: { type: 'object' } } }))?.status)
      .toBe(400)
  })
})
