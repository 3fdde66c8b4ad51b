// zod 4's JSON Schema output (what zodTool puts in a ToolDefinition) must compile, and where that JSON
// Schema says exactly what zod checks, the core validator must agree with zod's own safeParse on
// values around the edges (mutations of a valid example: a field dropped, replaced, added, stretched).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { JsonSchema } from '../../src/index'
import { zodTool } from '../../src/zod'
import { cases } from '../support/scale'

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

/** zod object schemas whose JSON Schema (io: input) is exact, each with a valid example. */
const EXACT: [string, z.ZodObject, Json][] = [
  ['scalars', z.object({ s: z.string(), n: z.number(), i: z.number().int(), b: z.boolean() }), { s: 'x', n: 1.5, i: 2, b: true }],
  ['optional and defaults', z.object({ a: z.string().optional(), d: z.number().default(3), m: z.string().min(1).max(4) }), { m: 'ab' }],
  ['bounds', z.object({ n: z.number().min(0).max(10), e: z.number().gt(0).lt(1), len: z.string().length(3), c: z.int32() }), { n: 5, e: 0.5, len: 'abc', c: 7 }],
  ['multipleOf (dyadic)', z.object({ half: z.number().multipleOf(0.5), even: z.number().int().multipleOf(2) }), { half: 1.5, even: 4 }],
  ['enum and literals', z.object({ mode: z.enum(['fast', 'slow']), kind: z.literal('x'), many: z.literal([1, 2, null]) }), { mode: 'fast', kind: 'x', many: 2 }],
  ['unions and nullable', z.object({ u: z.union([z.string(), z.number()]), n: z.string().nullable(), o: z.object({ g: z.boolean() }).nullable() }), { u: 1, n: null, o: { g: false } }],
  ['discriminated union', z.object({ shape: z.discriminatedUnion('kind', [z.object({ kind: z.literal('circle'), r: z.number() }), z.object({ kind: z.literal('square'), side: z.number() })]) }), { shape: { kind: 'circle', r: 1 } }],
  ['regex strings', z.object({ slug: z.string().regex(/^[a-z0-9-]+$/), code: z.string().regex(/^[A-Z]{2}\d{3}$/), t: z.string().startsWith('ab').endsWith('z').includes('m') }), { slug: 'a-b', code: 'AB123', t: 'abmz' }],
  ['formats with patterns', z.object({ id: z.uuid(), when: z.iso.datetime(), date: z.iso.date() }), { id: '123e4567-e89b-12d3-a456-426614174000', when: '2020-01-01T00:00:00Z', date: '2020-02-29' }],
  ['arrays and tuples', z.object({ tags: z.array(z.string()).min(1).max(3), pair: z.tuple([z.string(), z.number()]), rest: z.tuple([z.string()], z.number()) }), { tags: ['a'], pair: ['a', 1], rest: ['a', 1, 2] }],
  ['records', z.object({ scores: z.record(z.string(), z.number()), fixed: z.record(z.enum(['a', 'b']), z.string()) }), { scores: { x: 1 }, fixed: { a: 'x', b: 'y' } }],
  ['nested and strict', z.strictObject({ user: z.object({ name: z.string(), address: z.strictObject({ city: z.string(), zip: z.string().regex(/^\d{5}$/) }) }) }), { user: { name: 'n', address: { city: 'c', zip: '12345' } } }],
  ['loose object and intersections', z.object({ l: z.looseObject({ a: z.string() }), both: z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })) }), { l: { a: 'x', extra: 1 }, both: { a: 'x', b: 1 } }],
  ['described with meta', z.object({ city: z.string().describe('City name').meta({ title: 'City', examples: ['Hangzhou'], deprecated: false }) }), { city: 'Hangzhou' }],
]

const Node: z.ZodType = z.lazy(() => z.object({ value: z.number(), children: z.array(Node) }))
const Cat = z.object({ name: z.string() }).meta({ id: 'Cat' })
/** Schemas that compile but are not compared (recursion through $defs, ids, transforms, refinements). */
const COMPILE_ONLY: [string, z.ZodObject][] = [
  ['recursive (lazy)', z.object({ tree: Node })],
  ['registered ids', z.object({ a: Cat, b: Cat })],
  ['refined and transformed', z.object({ n: z.string().transform((s) => s.length), r: z.number().refine((x) => x % 3 === 0) })],
  ['emails and urls', z.object({ email: z.email(), url: z.url(), any: z.any(), unknown: z.unknown() })],
]

const SCALARS: Json[] = [null, true, false, 0, -1, 1, 1.5, 2, 4, 10, 11, 1e21, '', 'a', 'abc', 'abcde', 'AB123', 'circle', 'fast', [], {}, ['a'], [1, 'a']]

/** Every path into a JSON value. */
function paths(value: Json, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at)
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out))
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out)
  return out
}

function edit(value: Json, path: (string | number)[], change: (parent: Json, key: string | number) => void): Json {
  const copy = JSON.parse(JSON.stringify(value)) as Json
  if (path.length === 0) return copy
  let parent = copy as Record<string | number, Json>
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>
  change(parent as Json, path[path.length - 1])
  return copy
}

/** A valid example, or a mutation of it at one place. */
function around(example: Json): fc.Arbitrary<Json> {
  const all = paths(example)
  return fc.oneof(
    fc.constant(example),
    fc.tuple(fc.constantFrom(...all), fc.constantFrom(...SCALARS)).map(([p, v]) => p.length === 0 ? v : edit(example, p, (o, k) => { (o as Record<string | number, Json>)[k] = v })),
    fc.constantFrom(...all.filter((p) => p.length > 0)).map((p) => edit(example, p, (o, k) => {
      if (Array.isArray(o)) o.splice(k as number, 1)
      else delete (o as Record<string, Json>)[k as string]
    })),
    fc.tuple(fc.constantFrom(...all), fc.constantFrom(...SCALARS)).map(([p, v]) => edit(example, [...p, 'x'], (o) => {
      if (Array.isArray(o)) o.push(v)
      else if (o !== null && typeof o === 'object') (o as Record<string, Json>).extra = v
    })),
  )
}

describe('zod schemas and the core validator', () => {
  it('every zod object schema of the broad set gives a zodTool whose definition compiles', () => {
    for (const [name, schema] of [...EXACT.map(([n, s]) => [n, s] as const), ...COMPILE_ONLY]) {
      const tool = zodTool({ name: 'tool', description: name, schema, execute: () => 'ok' })
      expect(tool.definition.validate({}), name).toBeTypeOf('string')
      expect(JsonSchema.compileJson(tool.definition.parametersJson).isObject, name).toBe(true)
    }
  })

  it('agrees with zod\'s safeParse around valid examples where the JSON Schema is exact', () => {
    let compared = 0
    let invalid = 0
    for (const [name, schema, example] of EXACT) {
      const tool = zodTool({ name: 'tool', description: name, schema, execute: () => 'ok' })
      expect(schema.safeParse(example).success, `${name}: the example is valid`).toBe(true)
      fc.assert(fc.property(around(example), (value) => {
        compared++
        const core = tool.definition.validate(value as Object)
        const zod = schema.safeParse(value).success
        if (!zod) invalid++
        if ((core === '') !== zod) throw new Error(`${name}: ${JSON.stringify(value)}: core ${core === '' ? 'valid' : core}, zod ${zod}`)
      }), { seed: 4, numRuns: cases(150) })
    }
    console.log(`zod vs core: ${EXACT.length} schemas, ${compared} values (${invalid} invalid), 0 disagreements`)
    // Both verdicts are well represented.
    expect(invalid).toBeGreaterThan(compared / 4)
    expect(invalid).toBeLessThan(compared * 3 / 4)
  })

  it('custom meta keywords are refused unless declared as annotations (x- ones always pass)', () => {
    const labelled = z.object({ a: z.string().meta({ label: 'A' }) })
    expect(() => zodTool({ name: 't', description: 't', schema: labelled, execute: () => 'ok' })).toThrow(/Tool 't' parameters refused: keyword 'label'/)
    expect(zodTool({ name: 't', description: 't', schema: labelled, annotations: ['label'], execute: () => 'ok' }).definition.parameters)
      .toMatchObject({ properties: { a: { label: 'A' } } })
    expect(() => zodTool({ name: 't', description: 't', schema: z.object({ a: z.string().meta({ 'x-ui': 'wide' }) }), execute: () => 'ok' })).not.toThrow()
  })
})
