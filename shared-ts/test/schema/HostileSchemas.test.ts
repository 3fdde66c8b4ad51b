// Schemas and values from a hostile server or model: nothing hangs, nothing overflows the stack.
// Deep nesting is refused (schema) or invalid (value) at the depth limit; $ref cycles that make no
// progress are refused at compile; catastrophic patterns run in linear time; an exponential fan-out
// of $refs hits the step budget; deep values are compared without recursion. No timer is asserted:
// the test timeout is the hang detector (performance is measured in the bench).
import { describe, expect, it } from 'vitest'
import { JsonSchema, JsonSchemaError, JsonSchemaOptions } from '../../src/index'

function nested(depth: number, wrap: (inner: unknown) => unknown, leaf: unknown): unknown {
  let out = leaf
  for (let i = 0; i < depth; i++) out = wrap(out)
  return out
}

describe('hostile schemas', () => {
  it('a schema nested 100,000 deep is refused at the depth limit, not with a stack overflow', () => {
    const text = '{"not":'.repeat(100000) + '{}' + '}'.repeat(100000)
    expect(() => JsonSchema.compileJson(text)).toThrow(JsonSchemaError)
    expect(() => JsonSchema.compileJson(text)).toThrow(/nested deeper than 256/)
    expect(() => JsonSchema.compile(nested(300, (s) => ({ properties: { a: s } }), {}) as Record<string, Object>)).toThrow(/nested deeper/)
    expect(JsonSchema.compile(nested(200, (s) => ({ items: s }), {}) as Record<string, Object>).validate([[1]])).toBe('')
  })

  it('$ref cycles with no progress ({"$ref": "#"}, a → b → a through allOf/anyOf/not/if) are refused at compile', () => {
    const cycles: unknown[] = [
      { $ref: '#' },
      { $defs: { a: { $ref: '#/$defs/a' } }, properties: { x: { $ref: '#/$defs/a' } } },
      { $defs: { a: { not: { $ref: '#/$defs/b' } }, b: { if: { $ref: '#/$defs/a' } } }, $ref: '#/$defs/a' },
      { $defs: { a: { oneOf: [{ $ref: '#/$defs/b' }] }, b: { dependentSchemas: { k: { $ref: '#/$defs/a' } } } } },
      { $id: 'https://x.test/s', $defs: { a: { $anchor: 'loop', allOf: [{ $ref: 'https://x.test/s#loop' }] } } },
    ]
    for (const schema of cycles) {
      expect(() => JsonSchema.compile(schema as Record<string, Object>)).toThrow(/\$ref cycle that never moves into the value/)
    }
  })

  it('a recursive schema against a value nested 100,000 deep is invalid at the depth limit, not a stack overflow', () => {
    const schema = JsonSchema.compile({ type: 'array', items: { $ref: '#' } })
    const deep = JSON.parse('['.repeat(100000) + ']'.repeat(100000))
    expect(schema.validate(deep)).toMatch(/: nested too deeply$/)
    expect(schema.validate(JSON.parse('['.repeat(50) + ']'.repeat(50)))).toBe('')
    const tighter = Object.assign(new JsonSchemaOptions(), { maxDepth: 20 })
    expect(JsonSchema.compile({ type: 'array', items: { $ref: '#' } }, tighter).validate(JSON.parse('['.repeat(30) + ']'.repeat(30)))).toMatch(/nested too deeply/)
  })

  it('enum, const and uniqueItems compare values nested 100,000 deep without recursion', () => {
    const deep = JSON.parse('['.repeat(100000) + '1' + ']'.repeat(100000))
    const same = JSON.parse('['.repeat(100000) + '1' + ']'.repeat(100000))
    expect(JsonSchema.compile({ uniqueItems: true }).validate([deep, same])).toMatch(/items 0 and 1 are equal/)
    expect(JsonSchema.compile({ enum: [1, 2] }).validate(deep)).toMatch(/must be one of/)
    expect(JsonSchema.compile({ const: 1 }).validate(deep)).toMatch(/must be equal to 1/)
  })

  it('an exponential fan-out of $refs stops at the step budget: invalid, never a pass', () => {
    // Each level applies the next one twice (through anyOf and allOf): 2^40 applications if unbounded.
    const defs: Record<string, unknown> = { l40: { type: 'string' } }
    for (let i = 39; i >= 0; i--) defs[`l${i}`] = { allOf: [{ $ref: `#/$defs/l${i + 1}` }, { $ref: `#/$defs/l${i + 1}` }] }
    const schema = JsonSchema.compile({ $defs: defs, $ref: '#/$defs/l0' } as Record<string, Object>)
    expect(schema.validate('x')).toMatch(/validation took more than 1000000 steps; the value is refused/)
    // Never a pass through `not`: the guard makes the whole value invalid.
    const negated = JsonSchema.compile({ $defs: defs, not: { $ref: '#/$defs/l0' } } as Record<string, Object>)
    expect(negated.validate('x')).toMatch(/steps/)
    expect(negated.validate(5)).toBe('')
  })

  it('a catastrophic pattern runs in linear time (no native RegExp backtracking)', () => {
    const schema = JsonSchema.compile({ type: 'object', properties: { s: { pattern: '^(a+)+$' } }, patternProperties: { '^(x|x)*y$': {} } })
    const evil = 'a'.repeat(50000) + '!'
    expect(schema.validate({ s: evil })).toBe('$.s: must match the pattern "^(a+)+$"')
    expect(schema.validate({ ['x'.repeat(20000)]: 1 })).toBe('')
  })

  it('multipleOf on extreme exponents is decided exactly', () => {
    expect(JsonSchema.compile({ multipleOf: 5e-324 }).validate(1.7976931348623157e308)).toBe('')
    expect(JsonSchema.compile({ multipleOf: 3e-300 }).validate(1e300)).toBe('$: must be a multiple of 3e-300')
  })

  it('a large value (100,000 items, unique check) is validated (items compared by their canonical JSON keys, not pairwise)', () => {
    const schema = JsonSchema.compile({ type: 'array', uniqueItems: true, items: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } })
    const items = Array.from({ length: 100000 }, (_, i) => ({ id: i, tag: `t${i % 7}` }))
    expect(schema.validate(items)).toBe('')
  })
})
