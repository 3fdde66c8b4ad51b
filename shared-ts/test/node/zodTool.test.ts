import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AgentRuntime, AgentRuntimeConfig, ErrorCodes, ErrorLayer, MessageRole, RunStatus, ScriptedProvider,
  ScriptedTurn, SchemaValidator, ToolCall, ToolExecutionContext, ToolRegistry, ToolRiskLevel } from '../../src/index'
import { zodTool } from '../../src/zod'
import { CancellationToken } from '../../src/core/util/Cancellation'

const weatherSchema = z.object({
  city: z.string().min(1).describe('City name'),
  unit: z.enum(['celsius', 'fahrenheit']).default('celsius'),
  days: z.number().int().min(1).max(7).optional(),
  filters: z.object({ minTemp: z.number(), tags: z.array(z.string()).default([]) }).optional()
})

type WeatherArgs = z.output<typeof weatherSchema>

function weatherTool(seen: WeatherArgs[] = []) {
  return zodTool({
    name: 'get_weather',
    description: 'Weather forecast for a city',
    schema: weatherSchema,
    riskLevel: ToolRiskLevel.sensitive,
    execute: async (args, ctx) => {
      seen.push(args)
      expect(ctx).toBeInstanceOf(ToolExecutionContext)
      return `${args.city}: 21 ${args.unit === 'celsius' ? 'C' : 'F'}`
    }
  })
}

describe('zodTool definition', () => {
  it('builds a plain JSON-Schema object for OpenAI function parameters, without $schema', () => {
    const tool = weatherTool()
    const def = tool.definition
    expect(def.name).toBe('get_weather')
    expect(def.description).toBe('Weather forecast for a city')
    expect(def.riskLevel).toBe(ToolRiskLevel.sensitive)
    const params = def.parameters as Record<string, unknown>
    expect(params).not.toHaveProperty('$schema')
    expect(params).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1, description: 'City name' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius' },
        days: { type: 'integer', minimum: 1, maximum: 7 },
        filters: {
          type: 'object',
          properties: { minTemp: { type: 'number' }, tags: { type: 'array', items: { type: 'string' }, default: [] } },
          required: ['minTemp']
        }
      },
      // Input side: a defaulted field is optional for the model.
      required: ['city']
    })
    // Plain data: survives a JSON round trip unchanged, plain prototypes all the way down.
    expect(JSON.parse(JSON.stringify(params))).toEqual(params)
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype)
    expect(Object.getPrototypeOf(params.properties)).toBe(Object.prototype)
  })

  it('defaults to risk level safe and accepts an empty object schema', () => {
    const tool = zodTool({ name: 'now', description: 'Current time', schema: z.object({}), execute: () => 'noon' })
    expect(tool.definition.riskLevel).toBe(ToolRiskLevel.safe)
    expect(tool.definition.parameters).toEqual({ type: 'object', properties: {} })
  })

  it('rejects non-object schemas and schemas JSON Schema cannot express, as config errors', () => {
    expect(() => zodTool({ name: 'bad', description: '', schema: z.string(), execute: () => '' }))
      .toThrow(expect.objectContaining({ layer: ErrorLayer.config, code: ErrorCodes.invalidConfig }))
    expect(() => zodTool({ name: 'bad', description: '', schema: z.object({ when: z.date() }), execute: () => '' }))
      .toThrow(/cannot be expressed as JSON Schema/)
  })

  it('produces a schema the core SchemaValidator agrees with for simple cases', () => {
    const params = weatherTool().definition.parameters
    expect(SchemaValidator.validate(params, { city: 'Hangzhou' })).toBe('')
    expect(SchemaValidator.validate(params, { city: 3 })).toBe('$.city: expected string')
  })
})

describe('zodTool validation', () => {
  it('names the path of the first issue', () => {
    const tool = weatherTool()
    expect(tool.validateArguments({ city: 'Hangzhou' })).toBe('')
    expect(tool.validateArguments({ city: 42 })).toBe('$.city: expected string, received number')
    expect(tool.validateArguments({})).toBe('$.city: expected string, received undefined')
    expect(tool.validateArguments({ city: 'x', filters: { minTemp: 1, tags: ['a', 7] } }))
      .toBe('$.filters.tags[1]: expected string, received number')
    expect(tool.validateArguments({ city: 'x', days: 9 })).toMatch(/^\$\.days: .*7/)
    expect(tool.validateArguments({ city: 'x', unit: 'kelvin' })).toMatch(/^\$\.unit: /)
  })

  it('keeps custom messages and quotes odd keys', () => {
    const tool = zodTool({
      name: 'odd', description: '',
      schema: z.object({ 'user name': z.string({ error: 'give the user name as text' }) }),
      execute: () => ''
    })
    expect(tool.validateArguments({ 'user name': 1 })).toBe('$["user name"]: give the user name as text')
  })
})

describe('zodTool through ToolRegistry', () => {
  it('executes valid arguments with the parsed value (defaults applied)', async () => {
    const seen: WeatherArgs[] = []
    const registry = new ToolRegistry([weatherTool(seen)])
    const result = await registry.execute(new ToolCall('c1', 'get_weather', '{"city":"Hangzhou","filters":{"minTemp":3}}'),
      's', 'r')
    expect(result.isError).toBe(false)
    expect(result.textContent()).toBe('Hangzhou: 21 C')
    expect(seen).toEqual([{ city: 'Hangzhou', unit: 'celsius', filters: { minTemp: 3, tags: [] } }])
  })

  it('passes transformed values to execute, running the transform once', async () => {
    let transforms = 0
    const seen: unknown[] = []
    const tool = zodTool({
      name: 'count',
      description: 'Counts characters',
      schema: z.object({ text: z.string().transform((s) => { transforms++; return s.length }) }),
      execute: (args) => {
        seen.push(args.text)
        return String(args.text * 2)
      }
    })
    const result = await new ToolRegistry([tool]).execute(new ToolCall('c1', 'count', '{"text":"abcd"}'), 's', 'r')
    expect(result.textContent()).toBe('8')
    expect(seen).toEqual([4])
    expect(transforms).toBe(1)
  })

  it('answers invalid arguments with a tool_invalid_arguments result naming the field, without executing', async () => {
    const seen: WeatherArgs[] = []
    const registry = new ToolRegistry([weatherTool(seen)])
    const result = await registry.execute(new ToolCall('c2', 'get_weather', '{"city":"x","days":"three"}'), 's', 'r')
    expect(result.isError).toBe(true)
    expect(result.errorCode).toBe(ErrorCodes.toolInvalidArguments)
    expect(result.callId).toBe('c2')
    expect(result.textContent()).toBe("Invalid arguments for 'get_weather': $.days: expected number, received string")
    expect(seen).toEqual([])
  })

  it('validates when execute is called directly', async () => {
    const tool = weatherTool()
    const ctx = new ToolExecutionContext('s', 'r', new ToolCall('c', 'get_weather', '{}'), CancellationToken.none)
    await expect(tool.execute({ city: 'Paris' }, ctx)).resolves.toBe('Paris: 21 C')
    await expect(tool.execute({ city: false }, ctx)).rejects.toMatchObject({
      code: ErrorCodes.toolInvalidArguments, message: expect.stringContaining('$.city: expected string')
    })
  })
})

describe('zodTool through AgentRuntime', () => {
  it('feeds the invalid-arguments error back to the model, which corrects itself', async () => {
    const seen: WeatherArgs[] = []
    const provider = new ScriptedProvider([
      new ScriptedTurn().call('call_1', 'get_weather', '{"city": 12}'),
      new ScriptedTurn().call('call_2', 'get_weather', '{"city": "Hangzhou", "unit": "fahrenheit"}'),
      ScriptedTurn.text('It is 21 F in Hangzhou.')
    ])
    const config = new AgentRuntimeConfig('zod-session', provider)
    config.tools.register(weatherTool(seen))
    const runtime = new AgentRuntime(config)
    const outcome = await runtime.run('Weather in Hangzhou?')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.finalMessage?.text()).toBe('It is 21 F in Hangzhou.')
    expect(seen).toEqual([{ city: 'Hangzhou', unit: 'fahrenheit' }])

    const history = runtime.snapshot().history
    const toolMessages = history.filter((m) => m.role === MessageRole.tool)
    expect(toolMessages.map((m) => [m.toolCallId, m.isError, m.errorCode ?? ''])).toEqual([
      ['call_1', true, ErrorCodes.toolInvalidArguments],
      ['call_2', false, '']
    ])
    expect(toolMessages[0].text()).toBe("Invalid arguments for 'get_weather': $.city: expected string, received number")
    // The model saw the zod-derived schema and, on turn 2, the error naming the field.
    const firstRequest = provider.requests[0]
    expect(firstRequest.tools.map((t) => t.name)).toEqual(['get_weather'])
    expect(firstRequest.tools[0].parameters).not.toHaveProperty('$schema')
    const secondRequest = provider.requests[1]
    const lastSeen = secondRequest.messages[secondRequest.messages.length - 1]
    expect(lastSeen.role).toBe(MessageRole.tool)
    expect(lastSeen.text()).toContain('$.city')
  })
})
