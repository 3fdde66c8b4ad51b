// LinearRegex on every pattern of the JSON-Schema-Test-Suite files that exercise regexes.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { LinearRegex, RegexSyntaxError } from '../../src/core/schema/regex/LinearRegex'

import { SUITE_ROOT } from './suiteRunner'

const SUITE = path.join(SUITE_ROOT, 'draft2020-12')
const FILES = ['pattern.json', 'patternProperties.json', 'optional/ecmascript-regex.json', 'optional/non-bmp-regex.json']

interface SuiteCase { description: string; schema: unknown; tests: Array<{ description: string; data: unknown }> }

/** Every `pattern` string and `patternProperties` key in a schema, at any depth. */
function patternsOf(schema: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) patternsOf(item, out)
  } else if (schema !== null && typeof schema === 'object') {
    const record = schema as Record<string, unknown>
    if (typeof record.pattern === 'string') out.add(record.pattern)
    const props = record.patternProperties
    if (props !== null && typeof props === 'object') for (const key of Object.keys(props)) out.add(key)
    for (const value of Object.values(record)) patternsOf(value, out)
  }
  return out
}

/** The strings a pattern is matched against: string data, and the property names of object data. */
function stringsOf(data: unknown, out: string[]): string[] {
  if (typeof data === 'string') out.push(data)
  else if (Array.isArray(data)) for (const item of data) stringsOf(item, out)
  else if (data !== null && typeof data === 'object') {
    for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
      out.push(key)
      stringsOf(value, out)
    }
  }
  return out
}

describe('LinearRegex on the JSON-Schema-Test-Suite regex patterns (draft 2020-12)', () => {
  const suiteAvailable = fs.existsSync(SUITE)

  it.skipIf(!suiteAvailable)('agrees with native RegExp on every test string of every suite pattern, refusing none', () => {
    const agreed: string[] = []
    const refused: string[] = []
    let comparisons = 0
    for (const file of FILES) {
      const groups = JSON.parse(fs.readFileSync(path.join(SUITE, file), 'utf8')) as SuiteCase[]
      for (const group of groups) {
        const inputs: string[] = []
        for (const test of group.tests) stringsOf(test.data, inputs)
        for (const source of patternsOf(group.schema, new Set<string>())) {
          const native = new RegExp(source, 'u')
          let linear: LinearRegex
          try {
            linear = LinearRegex.compile(source)
          } catch (e) {
            expect(e).toBeInstanceOf(RegexSyntaxError)
            refused.push(`${file}: /${source}/ (${(e as Error).message})`)
            continue
          }
          for (const input of inputs) {
            comparisons++
            expect(linear.test(input), `/${source}/u on ${JSON.stringify(input)} (${file}: ${group.description})`)
              .toBe(native.test(input))
          }
          agreed.push(`${file}: /${source}/`)
        }
      }
    }
    const distinct = new Set(agreed.map((a) => a.slice(a.indexOf('/'))))
    console.log(`[LinearRegex suite] ${agreed.length} schema patterns (${distinct.size} distinct) agree with native ` +
      `RegExp on ${comparisons} strings; ${refused.length} refused${refused.length > 0 ? ':\n  ' + refused.join('\n  ') : ''}`)
    expect(refused).toEqual([])
    expect(distinct.size).toBeGreaterThanOrEqual(25)
  })
})
