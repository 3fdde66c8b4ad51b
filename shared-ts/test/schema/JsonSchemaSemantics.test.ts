// What the validator decides and how it reports it: the "<path>: <what>" messages, lengths in code
// points, exact multipleOf, JSON equality for enum/const/uniqueItems, the keywords the former
// validator got wrong, references, annotations for unevaluated*, and the shapes where ajv 8 departs
// from the spec (left out of the differential test, pinned here).
import { describe, expect, it } from 'vitest'
import { JsonSchema, JsonSchemaDialect, JsonSchemaOptions, SchemaValidator } from '../../src/index'

const v = (schema: unknown, value: unknown) => JsonSchema.compile(schema as Record<string, Object>).validate(value as Object)

describe('problems are reported as "<path>: <what>"', () => {
  it('paths: $ for the root, .name for identifiers, ["…"] for other keys, [i] for items', () => {
    const schema = { type: 'object', properties: { list: { type: 'array', items: { type: 'object', properties: { 'a b': { type: 'string' }, ok: { type: 'integer' } } } } } }
    expect(v(schema, { list: [{ ok: 1 }, { ok: 1.5 }] })).toBe('$.list[1].ok: expected integer')
    expect(v(schema, { list: [{ 'a b': 3 }] })).toBe('$.list[0]["a b"]: expected string')
    expect(v(schema, 'x')).toBe('$: expected object')
  })

  it('keeps the former messages: is required, expected <type>, is not an allowed property, must be one of', () => {
    const schema = { type: 'object', properties: { plan: { type: 'string', minLength: 1 }, mode: { enum: ['a', 'b'] } }, required: ['plan'], additionalProperties: false }
    expect(v(schema, {})).toBe('$.plan: is required')
    expect(v(schema, { plan: 3 })).toBe('$.plan: expected string')
    expect(v(schema, { plan: '' })).toBe('$.plan: must have at least 1 characters')
    expect(v(schema, { plan: 'p', extra: 1 })).toBe('$.extra: is not an allowed property')
    expect(v(schema, { plan: 'p', mode: 'c' })).toBe('$.mode: must be one of ["a","b"]')
    expect(v({ type: ['string', 'null'] }, 1)).toBe('$: expected one of string, null')
    expect(v({ minimum: 1, maximum: 3 }, 0)).toBe('$: must be >= 1')
    expect(v({ exclusiveMaximum: 3 }, 3)).toBe('$: must be < 3')
  })

  it('errors(value, max) lists several problems; validate gives the first', () => {
    const schema = JsonSchema.compile({ type: 'object', required: ['a', 'b'], properties: { c: { type: 'string' } } })
    expect(schema.errors({ c: 1 }, 10)).toEqual(['$.a: is required', '$.b: is required', '$.c: expected string'])
    expect(schema.errors({ c: 1 }, 2)).toHaveLength(2)
    expect(schema.errors({ a: 1, b: 2, c: 'x' })).toEqual([])
    expect(schema.isValid({ a: 1, b: 2 })).toBe(true)
  })

  it('anyOf, oneOf, not, propertyNames and contains say what failed', () => {
    expect(v({ anyOf: [{ type: 'string' }, { type: 'number' }] }, true)).toBe('$: must match at least one schema in anyOf (the first fails: $: expected string)')
    expect(v({ oneOf: [{ type: 'number' }, { type: 'integer' }] }, 1)).toBe('$: must match exactly one schema in oneOf; it matches oneOf[0] and oneOf[1]')
    expect(v({ not: { type: 'string' } }, 'x')).toBe('$: must not match the schema in "not"')
    expect(v({ propertyNames: { maxLength: 3 } }, { long: 1 })).toBe('$: property name "long" is not allowed by propertyNames: it must have at most 3 characters')
    expect(v({ contains: { type: 'string' }, minContains: 2 }, ['a', 1])).toBe('$: must contain at least 2 items matching "contains"')
    expect(v({ prefixItems: [{}], items: false }, [1, 2])).toBe('$[1]: is not allowed: the array may have at most 1 items')
  })

  it('a value that is not JSON (undefined, NaN, a function) is invalid, whatever the schema', () => {
    expect(v({}, undefined)).toBe('$: is not a JSON value')
    expect(v({ type: 'number' }, NaN)).toBe('$: is not a JSON value')
    expect(v({ properties: { f: {} } }, { f: () => 1 })).toBe('$.f: is not a JSON value')
    expect(v({ required: ['a'] }, { a: undefined })).toBe('$.a: is required')
  })
})

describe('the keywords the former validator got wrong', () => {
  it('maxLength and minLength count Unicode code points, not UTF-16 units', () => {
    expect(v({ maxLength: 2 }, '💩💩')).toBe('')
    expect(v({ maxLength: 1 }, '💩💩')).toBe('$: must have at most 1 characters')
    expect(v({ minLength: 2 }, '💩')).toBe('$: must have at least 2 characters')
    expect(v({ minLength: 3, maxLength: 3 }, '中文字')).toBe('')
    expect(v({ maxLength: 1 }, '\ud800\ud800')).toBe('$: must have at most 1 characters')
  })

  it('additionalProperties beside patternProperties: names a pattern matches are not additional', () => {
    const schema = { patternProperties: { '^x-': { type: 'string' } }, properties: { id: {} }, additionalProperties: false }
    expect(v(schema, { id: 1, 'x-a': 'b' })).toBe('')
    expect(v(schema, { 'x-a': 1 })).toBe('$["x-a"]: expected string')
    expect(v(schema, { other: 1 })).toBe('$.other: is not an allowed property')
  })

  it('enum and const compare JSON values: objects by content whatever the key order, 1 equals 1.0, true is not 1', () => {
    expect(v({ enum: [{ a: 1, b: [1, 2] }] }, { b: [1, 2.0], a: 1 })).toBe('')
    expect(v({ enum: [{ a: 1 }] }, { a: 1, b: 2 })).not.toBe('')
    expect(v({ const: 1 }, 1.0)).toBe('')
    expect(v({ const: 1 }, true)).toBe('$: must be equal to 1')
    expect(v({ const: null }, 0)).toBe('$: must be equal to null')
    expect(v({ enum: [[0]] }, [false])).not.toBe('')
    expect(v({ const: { a: 0 } }, { a: -0 })).toBe('')
  })

  it('uniqueItems uses the same equality', () => {
    expect(v({ uniqueItems: true }, [{ a: 1, b: 2 }, { b: 2, a: 1 }])).toBe('$: must not contain duplicates; items 0 and 1 are equal')
    expect(v({ uniqueItems: true }, [1, 1.0])).not.toBe('')
    expect(v({ uniqueItems: true }, [1, true, '1', [1], { 1: 1 }])).toBe('')
  })

  it('items and prefixItems: a tuple, then the rest', () => {
    const schema = { prefixItems: [{ type: 'string' }, { type: 'number' }], items: { type: 'boolean' } }
    expect(v(schema, ['a', 1, true, false])).toBe('')
    expect(v(schema, ['a', 'b'])).toBe('$[1]: expected number')
    expect(v(schema, ['a', 1, 'x'])).toBe('$[2]: expected boolean')
    expect(v({ items: { type: 'string' } }, ['a', 2])).toBe('$[1]: expected string')
  })

  it('an integer is a number with no fractional part: 1.0 is an integer, 1.5 is not', () => {
    expect(v({ type: 'integer' }, 1.0)).toBe('')
    expect(v({ type: 'integer' }, 1e21)).toBe('')
    expect(v({ type: 'integer' }, 1.5)).toBe('$: expected integer')
  })

  it('multipleOf is decided exactly on decimal values (no floating-point division)', () => {
    expect(v({ multipleOf: 0.01 }, 0.07)).toBe('')
    expect(v({ multipleOf: 0.1 }, 0.3)).toBe('')
    expect(v({ multipleOf: 0.0001 }, 0.0075)).toBe('')
    expect(v({ multipleOf: 0.1 }, 0.30000000000000004)).toBe('$: must be a multiple of 0.1')
    expect(v({ multipleOf: 0.123456789 }, 1e308)).toBe('$: must be a multiple of 0.123456789')
    expect(v({ multipleOf: 1e-8 }, 12391239123)).toBe('')
    expect(v({ multipleOf: 3 }, 1e21)).toBe('$: must be a multiple of 3')
    expect(v({ multipleOf: 5 }, 1e21)).toBe('')
    expect(v({ multipleOf: 1.5 }, -4.5)).toBe('')
    expect(v({ multipleOf: 2 }, 0)).toBe('')
  })

  it('pattern is an unanchored search with u-flag semantics', () => {
    expect(v({ pattern: 'b' }, 'abc')).toBe('')
    expect(v({ pattern: '^b' }, 'abc')).toBe('$: must match the pattern "^b"')
    expect(v({ pattern: '^.$' }, '💩')).toBe('')
    expect(v({ pattern: '^\\p{L}+$' }, 'héllo')).toBe('')
    expect(v({ pattern: 'x' }, 5)).toBe('')
  })
})

describe('references', () => {
  it('resolves #, JSON pointers with ~0, ~1 and percent-escapes, and #anchors', () => {
    const schema = {
      $defs: { 'tilde~field': { type: 'integer' }, 'slash/field': { type: 'string' }, 'percent%field': { type: 'boolean' }, named: { $anchor: 'pos', minimum: 0 } },
      properties: {
        t: { $ref: '#/$defs/tilde~0field' }, s: { $ref: '#/$defs/slash~1field' }, p: { $ref: '#/$defs/percent%25field' },
        a: { $ref: '#pos' }, self: { $ref: '#' },
      },
    }
    expect(v(schema, { t: 1, s: 'x', p: true, a: 3, self: { t: 2 } })).toBe('')
    expect(v(schema, { t: 'x' })).toBe('$.t: expected integer')
    expect(v(schema, { s: 1 })).toBe('$.s: expected string')
    expect(v(schema, { p: 1 })).toBe('$.p: expected boolean')
    expect(v(schema, { a: -1 })).toBe('$.a: must be >= 0')
    expect(v(schema, { self: { self: { t: 'x' } } })).toBe('$.self.self.t: expected integer')
  })

  it('$ref applies beside sibling keywords (2020-12)', () => {
    expect(v({ $defs: { s: { type: 'string' } }, $ref: '#/$defs/s', maxLength: 2 }, 'abc')).toBe('$: must have at most 2 characters')
  })

  it('an embedded resource ($id) is a base for the $refs inside it and a target by its URI', () => {
    const schema = {
      $id: 'https://example.com/root.json',
      $defs: { addr: { $id: 'address.json', $defs: { zip: { type: 'string', pattern: '^\\d{5}$' } }, properties: { zip: { $ref: '#/$defs/zip' } } } },
      properties: { home: { $ref: 'address.json' }, work: { $ref: 'https://example.com/address.json' } },
    }
    expect(v(schema, { home: { zip: '12345' }, work: { zip: '54321' } })).toBe('')
    expect(v(schema, { work: { zip: 'abc' } })).toBe('$.work.zip: must match the pattern "^\\\\d{5}$"')
  })

  it('definitions (draft-07 style) is a container in 2020-12 too', () => {
    expect(v({ definitions: { s: { type: 'string' } }, properties: { a: { $ref: '#/definitions/s' } } }, { a: 1 })).toBe('$.a: expected string')
  })

  it('booleans are schemas: true accepts anything, false nothing', () => {
    expect(v(true, { anything: [1] })).toBe('')
    expect(v(false, null)).toBe('$: is not allowed')
    expect(v({ properties: { gone: false } }, { gone: 1 })).toBe('$.gone: is not allowed')
  })

  it('annotations assert nothing: format, content*, title, default, examples, deprecated', () => {
    const schema = { type: 'string', format: 'email', contentMediaType: 'application/json', contentEncoding: 'base64', title: 't', default: 'x', examples: ['a'], deprecated: true, readOnly: true }
    expect(v(schema, 'not an email')).toBe('')
  })
})

describe('draft-07 dialect', () => {
  const d7 = JsonSchemaDialect.draft07
  it('items as an array with additionalItems, and dependencies (names and schemas)', () => {
    const schema = { $schema: d7, items: [{ type: 'string' }], additionalItems: { type: 'number' }, dependencies: {} }
    expect(v(schema, ['a', 1, 2])).toBe('')
    expect(v(schema, ['a', 'b'])).toBe('$[1]: expected number')
    const deps = { $schema: d7, dependencies: { card: ['billing'], ship: { required: ['address'] } } }
    expect(v(deps, { card: 1 })).toBe('$.billing: is required when "card" is present')
    expect(v(deps, { ship: 1 })).toBe('$.address: is required')
    expect(v(deps, { other: 1 })).toBe('')
  })

  it('$id "#name" is an anchor in draft-07', () => {
    expect(v({ $schema: d7, definitions: { a: { $id: '#num', type: 'number' } }, properties: { x: { $ref: '#num' } } }, { x: 'y' })).toBe('$.x: expected number')
  })

  it('a schema without $schema is read in the dialect the options name', () => {
    const schema = JsonSchema.compile({ items: [{ type: 'string' }] }, Object.assign(new JsonSchemaOptions(), { dialect: d7 }))
    expect(schema.dialect).toBe(d7)
    expect(schema.validate([1])).toBe('$[0]: expected string')
  })
})

describe('unevaluatedProperties and unevaluatedItems follow the annotations of passing subschemas only', () => {
  it('see through allOf, $ref, dependentSchemas and a passing if', () => {
    const schema = { $defs: { b: { properties: { b: {} } } }, allOf: [{ properties: { a: {} } }], $ref: '#/$defs/b', dependentSchemas: { c: { properties: { d: {} } } }, if: { properties: { e: {} } }, unevaluatedProperties: false }
    expect(v(schema, { a: 1, b: 1, c: 1, d: 1, e: 1 })).toBe('$.c: is not an allowed property')
    expect(v({ ...schema, properties: { c: {} } }, { a: 1, b: 1, c: 1, d: 1, e: 1 })).toBe('')
  })

  it('drop the annotations of a failing anyOf/oneOf branch (where ajv 8 keeps item annotations)', () => {
    expect(v({ unevaluatedItems: false, anyOf: [{}, { prefixItems: [true], const: 5 }] }, [1])).toBe('$[0]: is not allowed: no keyword evaluated this item (unevaluatedItems)')
    expect(v({ unevaluatedItems: false, oneOf: [{}, { prefixItems: [true], const: 5 }] }, [1])).not.toBe('')
    expect(v({ unevaluatedItems: false, anyOf: [{ prefixItems: [true], minItems: 5 }, {}] }, [1])).not.toBe('')
    expect(v({ unevaluatedItems: false, anyOf: [{ prefixItems: [true] }, { const: 5 }] }, [1])).toBe('')
  })

  it('count the items contains matched (where ajv 8 ignores them)', () => {
    expect(v({ unevaluatedItems: false, allOf: [{ contains: {} }] }, [1])).toBe('')
    expect(v({ contains: { type: 'string' }, unevaluatedItems: false }, ['a', 1])).toBe('$[1]: is not allowed: no keyword evaluated this item (unevaluatedItems)')
  })

  it('keep the annotations of a passing if whatever branch follows, drop a failing one\'s (where ajv 8 does the opposite)', () => {
    expect(v({ unevaluatedProperties: false, if: { properties: { a: true } } }, { a: 1 })).toBe('')
    expect(v({ unevaluatedProperties: false, if: { properties: { a: { type: 'number' } } }, then: true }, { a: 1 })).toBe('')
    expect(v({ unevaluatedProperties: false, if: { properties: { a: true }, const: 5 }, then: false, else: true }, { a: 1 })).toBe('$.a: is not an allowed property')
    expect(v({ unevaluatedProperties: false, if: { unevaluatedProperties: true, const: 5 }, then: false, else: true }, { a: 1 })).not.toBe('')
  })

  it('contains beside prefixItems still needs a match on an empty array (where ajv 8 passes it)', () => {
    expect(v({ prefixItems: [{ type: 'string' }], contains: { const: 1 } }, [])).toBe('$: must contain an item matching "contains"')
    expect(v({ prefixItems: [false], contains: {} }, [])).not.toBe('')
  })
})

describe('SchemaValidator (compatibility)', () => {
  it('validates with the new validator and throws invalid_config for a refused schema', () => {
    expect(SchemaValidator.validate({ type: 'object', properties: { city: { type: 'string' } } }, { city: 3 })).toBe('$.city: expected string')
    expect(() => SchemaValidator.validate({ type: 'object', foo: 1 }, {})).toThrow(/keyword 'foo'/)
  })
})
