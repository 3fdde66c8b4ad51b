// The validator where tools meet it: a ToolDefinition compiles its schema once and refuses one the
// validator does not fully support (naming the tool and the keyword); AgentTool validates arguments
// with the compiled schema; a `pattern` is what stands between a model and a path traversal.
import { describe, expect, it } from 'vitest'
import {
  CancellationToken, ErrorCodes, FunctionTool, JsonSchema, JsonSchemaError, JsonSchemaOptions, ToolCall, ToolDefinition,
  ToolRegistry, ToolRiskLevel,
} from '../../src/index'

const readFileSchema = {
  type: 'object',
  properties: {
    path: { type: 'string', minLength: 1, maxLength: 200, pattern: '^(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_.-]+$', not: { pattern: '(^|/)\\.\\.(/|$)' } },
  },
  required: ['path'],
  additionalProperties: false,
}

describe('tool arguments through ToolRegistry', () => {
  it('a pattern forbidding ../ blocks a traversal path end to end: the tool never runs', async () => {
    const opened: string[] = []
    const tool = new FunctionTool(new ToolDefinition('read_file', 'Reads a file in the sandbox', readFileSchema, ToolRiskLevel.safe),
      async (args) => { opened.push(args.path as string); return 'content' })
    const registry = new ToolRegistry([tool])
    const run = (args: object) => registry.execute(new ToolCall('c1', 'read_file', JSON.stringify(args), 0), 's', 'r', CancellationToken.none)

    for (const path of ['../etc/passwd', 'docs/../../secret', 'a/..', '..']) {
      const result = await run({ path })
      expect(result.isError).toBe(true)
      expect(result.errorCode).toBe(ErrorCodes.toolInvalidArguments)
      expect(result.textContent()).toMatch(/^Invalid arguments for 'read_file': \$\.path: must not match the schema in "not"$/)
    }
    expect((await run({ path: '/etc/passwd' })).textContent()).toMatch(/\$\.path: must match the pattern/)
    expect((await run({ path: 'notes/..hidden' })).isError).toBe(false)
    expect((await run({ path: 'notes/today.md' })).textContent()).toBe('content')
    expect(opened).toEqual(['notes/..hidden', 'notes/today.md'])
  })

  it('validateArguments is the definition\'s check with its compiled schema', () => {
    const tool = new FunctionTool(new ToolDefinition('t', 't', readFileSchema), async () => 'x')
    expect(tool.validateArguments({ path: 'a.txt' })).toBe('')
    expect(tool.validateArguments({ path: 'a.txt', mode: 'w' })).toBe('$.mode: is not an allowed property')
    expect(tool.validateArguments({})).toBe('$.path: is required')
  })
})

describe('ToolDefinition compiles its schema when it is made', () => {
  it('a refused schema fails construction with invalid_config naming the tool, the keyword and where it is', () => {
    let error: unknown
    try {
      new ToolDefinition('search', 'Searches', { type: 'object', properties: { q: { type: 'string', nullable: true } } })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(JsonSchemaError)
    const e = error as JsonSchemaError
    expect([e.code, e.layer, e.keyword, e.location]).toEqual([ErrorCodes.invalidConfig, 'config', 'nullable', '/properties/q/nullable'])
    expect(e.message).toMatch(/^Tool 'search' parameters refused: keyword 'nullable' at #\/properties\/q\/nullable: /)
    expect(() => new ToolDefinition('x', 'x', { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } })).toThrow(/Tool 'x' parameters refused: keyword '\$ref'/)
    expect(() => new ToolDefinition('x', 'x', { type: 'object', properties: { a: { pattern: '(a)\\1' } } })).toThrow(/keyword 'pattern'/)
  })

  it('the parameters must be a schema object (not true or false, not null)', () => {
    expect(() => new ToolDefinition('x', 'x', true as unknown as Record<string, Object>)).toThrow(/must be a JSON Schema object/)
    expect(() => new ToolDefinition('x', 'x', null as unknown as Record<string, Object>)).toThrow(/invalid_config|refused/)
  })

  it('accepts a JsonSchema compiled with the app\'s options (declared annotation keywords), and keeps it', () => {
    const options = Object.assign(new JsonSchemaOptions(), { annotations: ['nullable'] })
    const compiled = JsonSchema.compile({ type: 'object', properties: { q: { type: 'string', nullable: true } } }, options)
    const definition = new ToolDefinition('search', 'Searches', compiled)
    expect(definition.parametersJson).toBe(compiled.json)
    expect(definition.parameters).toEqual({ type: 'object', properties: { q: { type: 'string', nullable: true } } })
    expect(definition.validate({ q: 1 })).toBe('$.q: expected string')
  })

  it('hands no compiled schema to hooks: what a definition exposes cannot change how arguments are validated', () => {
    const definition = new ToolDefinition('n', 'n', { type: 'object', properties: { n: { type: 'integer', maximum: 3 } } })
    const exposed = definition.parameters
    ;((exposed.properties as Record<string, Record<string, Object>>).n).maximum = 1000
    expect('schema' in definition).toBe(false)
    expect(definition.validate({ n: 10 })).toBe('$.n: must be <= 3')
  })

  it('is immutable: changing the object it was made from changes neither the schema text nor the validation', () => {
    const params: Record<string, Object> = { type: 'object', properties: { n: { type: 'integer', maximum: 3 } } }
    const definition = new ToolDefinition('n', 'n', params)
    ;((params.properties as Record<string, Record<string, Object>>).n).maximum = 1000
    expect(definition.validate({ n: 10 })).toBe('$.n: must be <= 3')
    expect(definition.parameters).toEqual({ type: 'object', properties: { n: { type: 'integer', maximum: 3 } } })
  })
})
