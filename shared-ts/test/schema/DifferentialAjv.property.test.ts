// The core validator against ajv (Ajv2020: strict false, allErrors false, unicodeRegExp true,
// validateFormats false) on generated schemas of the supported keywords — nested, with $defs and
// $ref — and generated values on their boundaries: the boolean verdicts must agree, every time.
// multipleOf stays with integers and dyadic fractions (ajv divides in floating point; the core
// decides on exact decimals, and for these both are exact). Patterns are ones both engines accept.
import Ajv2020 from 'ajv/dist/2020'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { JsonSchema } from '../../src/index'
import { cases } from '../support/scale'
import { ajvDeviation, Json, literalsOf, rootSchemas, values } from './arbitraries'

const VALUES_PER_SCHEMA = 6

describe('the core validator agrees with ajv', () => {
  it('gives the same verdict as ajv on generated schemas and boundary values (0 disagreements)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: false, unicodeRegExp: true, validateFormats: false })
    let compared = 0
    let schemas = 0
    // ajv 8 itself throws on some unevaluatedProperties shapes ("Cannot set properties of undefined"):
    // those values are counted and left out of the comparison.
    let ajvThrew = 0
    // Schemas with a shape where ajv departs from the spec (ajvDeviation): left out, counted.
    let deviating = 0
    const disagreements: string[] = []
    fc.assert(fc.property(
      rootSchemas().chain((schema) => fc.tuple(fc.constant(schema),
        fc.array(values(literalsOf(schema as Json)), { minLength: VALUES_PER_SCHEMA, maxLength: VALUES_PER_SCHEMA }))),
      ([generatedSchema, generatedData]) => {
        // Plain JSON data (fast-check builds dictionaries without a prototype).
        const schema = JSON.parse(JSON.stringify(generatedSchema)) as Json
        const data = JSON.parse(JSON.stringify(generatedData)) as Json[]
        const mine = JsonSchema.compile(schema as Record<string, Object>)
        if (ajvDeviation(schema).length > 0) {
          deviating++
          return true
        }
        const theirs = ajv.compile(schema as object)
        schemas++
        for (const value of data) {
          const a = mine.validate(value as Object) === ''
          let b: boolean
          try {
            b = theirs(value) as boolean
          } catch {
            ajvThrew++
            continue
          }
          compared++
          if (a !== b) disagreements.push(`${JSON.stringify(schema)} on ${JSON.stringify(value)}: core ${a}, ajv ${b}`)
        }
        ajv.removeSchema()
        return true
      }), { seed: Number(process.env.DIFF_SEED ?? 20201212), numRuns: cases(Number(process.env.DIFF_RUNS ?? 3000)) })
    console.log(`differential vs ajv: ${schemas} schemas, ${compared} cases compared, ${disagreements.length} disagreements ` +
      `(left out: ${ajvThrew} values where ajv threw, ${deviating} schemas of a shape where ajv departs from the spec)`)
    expect(disagreements.slice(0, 5)).toEqual([])
    expect(disagreements.length).toBe(0)
    expect(ajvThrew).toBeLessThan(compared / 100)
    expect(deviating).toBeLessThan((schemas + deviating) / 10)
    expect(compared).toBeGreaterThanOrEqual(cases(Number(process.env.DIFF_RUNS ?? 3000)) * VALUES_PER_SCHEMA * 0.8)
  })
})
