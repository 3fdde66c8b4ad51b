// What the validator refuses when a schema is compiled, and how it says so: an ArkAgentError
// (JsonSchemaError) of layer config, code invalid_config, never retryable, naming the keyword and its
// JSON pointer — for unknown keywords, malformed values, out-of-scope keywords, remote or dangling
// $refs, refused patterns and mixed dialects. Annotation keywords (`x-`, declared ones) are accepted.
import { describe, expect, it } from 'vitest'
import {
  ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability, JsonSchema, JsonSchemaDialect, JsonSchemaError, JsonSchemaOptions,
} from '../../src/index'

function refusal(schema: unknown, options?: JsonSchemaOptions): JsonSchemaError {
  try {
    JsonSchema.compile(schema as Record<string, Object>, options)
  } catch (e) {
    expect(e).toBeInstanceOf(JsonSchemaError)
    expect(e).toBeInstanceOf(ArkAgentError)
    const error = e as JsonSchemaError
    expect(error.layer).toBe(ErrorLayer.config)
    expect(error.code).toBe(ErrorCodes.invalidConfig)
    expect(error.retryability).toBe(ErrorRetryability.never)
    return error
  }
  throw new Error(`expected ${JSON.stringify(schema)} to be refused`)
}

const withAnnotations = (...names: string[]) => Object.assign(new JsonSchemaOptions(), { annotations: names })

describe('refusal errors name the keyword and its location', () => {
  it.each([
    [{ type: 'object', properties: { a: { type: 'string', minLength: -1 } } }, 'minLength', '/properties/a/minLength'],
    [{ required: 'x' }, 'required', '/required'],
    [{ type: 'foo' }, 'type', '/type'],
    [{ type: ['string', 'string'] }, 'type', '/type'],
    [{ maxItems: 1.5 }, 'maxItems', '/maxItems'],
    [{ multipleOf: 0 }, 'multipleOf', '/multipleOf'],
    [{ minimum: '3' }, 'minimum', '/minimum'],
    [{ enum: 'a' }, 'enum', '/enum'],
    [{ anyOf: [] }, 'anyOf', '/anyOf'],
    [{ allOf: {} }, 'allOf', '/allOf'],
    [{ properties: { a: 5 } }, '', '/properties/a'],
    [{ properties: [] }, 'properties', '/properties'],
    [{ uniqueItems: 'yes' }, 'uniqueItems', '/uniqueItems'],
    [{ title: 3 }, 'title', '/title'],
    [{ dependentRequired: { a: 'b' } }, 'dependentRequired', '/dependentRequired/a'],
    [{ $anchor: '1abc' }, '$anchor', '/$anchor'],
    [{ $id: 'http://x.test/a.json#frag' }, '$id', '/$id'],
    [{ items: [{ type: 'string' }] }, 'items', '/items'],
    [{ $defs: { a: { not: { pattern: '(' } } } }, 'pattern', '/$defs/a/not/pattern'],
  ])('%j → %s at %s', (schema, keyword, location) => {
    const e = refusal(schema)
    expect(e.keyword).toBe(keyword)
    expect(e.location).toBe(location)
    expect(e.message).toContain(`#${location}`)
    if (keyword.length > 0) expect(e.message).toContain(`'${keyword}'`)
  })

  it('escapes the location as a JSON pointer (~0, ~1)', () => {
    const e = refusal({ properties: { 'a/b~c': { minLength: -1 } } })
    expect(e.location).toBe('/properties/a~1b~0c/minLength')
  })
})

describe('unknown keywords', () => {
  it('an unknown keyword is refused (it might be an assertion), naming it', () => {
    const e = refusal({ type: 'object', properties: { path: { type: 'string', notAllowedPattern: '\\.\\.' } } })
    expect(e.keyword).toBe('notAllowedPattern')
    expect(e.location).toBe('/properties/path/notAllowedPattern')
    expect(e.message).toMatch(/refused rather than ignored/)
    expect(e.message).toMatch(/x-/)
  })

  it('a misspelt keyword is refused, not ignored', () => {
    expect(refusal({ type: 'string', maxLenght: 3 }).keyword).toBe('maxLenght')
  })

  it('keywords starting with x- are annotations: accepted with any value, asserting nothing', () => {
    const schema = JsonSchema.compile({ type: 'string', 'x-ui': { widget: 'textarea', minLength: 99 }, 'x-order': 3 })
    expect(schema.validate('short')).toBe('')
    expect(schema.validate(3)).toBe('$: expected string')
  })

  it('declared annotation keywords are accepted anywhere and assert nothing', () => {
    const options = withAnnotations('label', 'nullable')
    const schema = JsonSchema.compile({ type: 'object', label: 'Person', properties: { n: { type: 'string', nullable: true, label: 'Name' } } }, options)
    expect(schema.validate({ n: 'x' })).toBe('')
    expect(schema.validate({ n: null })).toBe('$.n: expected string')
    expect(refusal({ type: 'object', label: 'Person' }).keyword).toBe('label')
  })

  it('a keyword JSON Schema defines cannot be declared annotation-only (that would weaken it)', () => {
    for (const name of ['pattern', 'maxLength', '$ref', 'additionalItems', '$dynamicRef', 'format']) {
      expect(refusal({ type: 'string' }, withAnnotations(name)).message).toMatch(/cannot declare/)
    }
  })
})

describe('out of scope: refused at compile, saying so', () => {
  it.each([
    [{ $dynamicRef: '#items' }, '$dynamicRef'],
    [{ $defs: { a: { $dynamicAnchor: 'items' } } }, '$dynamicAnchor'],
    [{ $recursiveRef: '#' }, '$recursiveRef'],
    [{ $recursiveAnchor: true }, '$recursiveAnchor'],
    [{ $vocabulary: { 'https://json-schema.org/draft/2020-12/vocab/core': true } }, '$vocabulary'],
  ])('%j', (schema, keyword) => {
    const e = refusal(schema)
    expect(e.keyword).toBe(keyword)
    expect(e.message).toMatch(/out of scope/)
  })

  it('a remote $ref is refused (only references inside the document are supported)', () => {
    const e = refusal({ properties: { a: { $ref: 'https://example.com/schemas/address.json' } } })
    expect(e.keyword).toBe('$ref')
    expect(e.location).toBe('/properties/a/$ref')
    expect(e.message).toMatch(/leaves the document.*remote ones are refused/)
    expect(refusal({ $id: 'https://example.com/root.json', $ref: 'other.json#/$defs/x' }).message).toMatch(/https:\/\/example.com\/other.json/)
  })

  it('a $ref to nothing, or to an unknown anchor, is refused', () => {
    expect(refusal({ $ref: '#/$defs/missing' }).message).toMatch(/points at nothing/)
    expect(refusal({ $ref: '#/properties/a/items/0', properties: { a: {} } }).message).toMatch(/points at nothing/)
    expect(refusal({ $ref: '#nowhere' }).message).toMatch(/names no \$anchor/)
    expect(refusal({ $ref: '#/$defs/a~2b', $defs: {} }).message).toMatch(/not a valid JSON pointer/)
  })

  it('$schema must be 2020-12 or draft-07; below the root only an embedded resource of the same dialect', () => {
    expect(refusal({ $schema: 'http://json-schema.org/draft-04/schema#' }).message).toMatch(/only https:\/\/json-schema.org\/draft\/2020-12\/schema and http:\/\/json-schema.org\/draft-07\/schema#/)
    expect(refusal({ $schema: 'https://json-schema.org/draft/2019-09/schema' }).keyword).toBe('$schema')
    expect(refusal({ properties: { a: { $schema: JsonSchemaDialect.draft202012 } } }).location).toBe('/properties/a/$schema')
    expect(refusal({ $defs: { a: { $id: 'http://x.test/a', $schema: JsonSchemaDialect.draft07 } } }).message).toMatch(/mixing dialects/)
    expect(JsonSchema.compile({ $defs: { a: { $id: 'http://x.test/a', $schema: JsonSchemaDialect.draft202012, type: 'string' } } }).validate(1)).toBe('')
  })

  it('draft-07 keywords are refused in 2020-12 with the way out, and 2019+ keywords in draft-07', () => {
    const e = refusal({ type: 'array', items: { type: 'string' }, additionalItems: false })
    expect(e.keyword).toBe('additionalItems')
    expect(e.message).toMatch(/draft-07 keyword/)
    expect(refusal({ dependencies: { a: ['b'] } }).message).toMatch(/dependentRequired \/ dependentSchemas/)
    const d7 = { $schema: JsonSchemaDialect.draft07 }
    expect(refusal({ ...d7, prefixItems: [{}] }).message).toMatch(/not a draft-07 keyword/)
    expect(refusal({ ...d7, unevaluatedProperties: false }).keyword).toBe('unevaluatedProperties')
  })

  it('draft-07: a keyword beside $ref that would assert something is refused (draft-07 ignores it); annotations and definitions are fine', () => {
    const d7 = JsonSchemaDialect.draft07
    const e = refusal({ $schema: d7, definitions: { s: { type: 'string' } }, properties: { a: { $ref: '#/definitions/s', maxLength: 3 } } })
    expect(e.keyword).toBe('maxLength')
    expect(e.message).toMatch(/ignores keywords beside \$ref/)
    const ok = JsonSchema.compile({ $schema: d7, $ref: '#/definitions/s', description: 'a string', definitions: { s: { type: 'string' } } })
    expect(ok.validate(3)).toBe('$: expected string')
  })

  it('a pattern the linear-time engine refuses (backreference, lookaround) is refused, naming where it is', () => {
    const back = refusal({ properties: { p: { pattern: '(a)\\1' } } })
    expect(back.keyword).toBe('pattern')
    expect(back.location).toBe('/properties/p/pattern')
    expect(back.message).toMatch(/linear-time engine/)
    const look = refusal({ patternProperties: { '^(?!x)': {} } })
    expect(look.keyword).toBe('patternProperties')
    expect(look.location).toBe('/patternProperties/^(?!x)')
    expect(refusal({ pattern: '[' }).keyword).toBe('pattern')
    expect(refusal({ pattern: 5 }).message).toMatch(/must be a string/)
  })

  it('a $ref cycle that never moves into the value is refused; one through properties is fine', () => {
    expect(refusal({ $ref: '#' }).message).toMatch(/\$ref cycle that never moves into the value/)
    const e = refusal({ $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { anyOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' })
    expect(e.keyword).toBe('$ref')
    expect(e.message).toMatch(/#\/\$defs\/a.*->.*#\/\$defs\/b/)
    const tree = JsonSchema.compile({ type: 'object', properties: { kids: { type: 'array', items: { $ref: '#' } } } })
    expect(tree.validate({ kids: [{ kids: [] }, { kids: [{ kids: 'x' }] }] })).toBe('$.kids[1].kids[0].kids: expected array')
  })

  it('a duplicate $id or $anchor is refused', () => {
    expect(refusal({ $defs: { a: { $id: 'http://x.test/a' }, b: { $id: 'http://x.test/a' } } }).keyword).toBe('$id')
    expect(refusal({ $defs: { a: { $anchor: 'n' }, b: { $anchor: 'n' } } }).keyword).toBe('$anchor')
  })

  it('what is not a schema is refused: null, numbers, arrays, JSON-less values, bad options', () => {
    for (const bad of [null, 3, 'x', [], undefined]) expect(refusal(bad).reason).toMatch(/object or a boolean/)
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(refusal(cyclic).message).toMatch(/cannot be written as JSON/)
    expect(() => JsonSchema.compileJson('{ not json')).toThrow(/not JSON text/)
    expect(refusal({}, Object.assign(new JsonSchemaOptions(), { dialect: 'draft-04' })).message).toMatch(/dialect must be/)
    expect(refusal({}, Object.assign(new JsonSchemaOptions(), { maxDepth: 0 })).message).toMatch(/maxDepth/)
    expect(refusal({}, Object.assign(new JsonSchemaOptions(), { maxSteps: -1 })).message).toMatch(/maxSteps/)
  })
})
