// The official JSON-Schema-Test-Suite (draft 2020-12 and draft-07, a copy in json-schema-test-suite/) against
// the core validator, file by file. Every required test of a supported keyword passes; every case
// that needs something out of scope ($dynamicRef, remote $ref, custom meta-schemas, draft-07 keywords
// beside $ref) is refused at compile with invalid_config — never validated wrongly. The per-file
// table is printed and must match docs/json-schema.md.
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ErrorCodes, ErrorLayer, JsonSchemaDialect, JsonSchemaOptions } from '../../src/index'
import { documentedTable, Outcome, runSuiteDir, SUITE_ROOT, table } from './suiteRunner'

/** Why a case may be refused, as the refusal's message says it. */
const REASONS: Record<string, RegExp> = {
  remote: /leaves the document .*remote ones are refused/,
  dynamic: /is not supported by this validator \(\$dynamicRef, \$dynamicAnchor, \$recursiveRef, \$recursiveAnchor and \$vocabulary are out of scope\)/,
  metaSchema: /keyword '\$schema' at #\/\$schema: .* is not supported: only /,
  refSiblings07: /draft-07 ignores keywords beside \$ref, so this one would never be checked/,
}

/** file → case description ('*': every case) → the reason it is out of scope. */
const REFUSED_2020: Record<string, Record<string, string>> = {
  'defs.json': { '*': 'remote' },
  'dynamicRef.json': { '*': 'dynamic|remote' },
  'refRemote.json': { '*': 'remote' },
  'vocabulary.json': { '*': 'metaSchema' },
  'ref.json': { 'remote ref, containing refs itself': 'remote' },
  'unevaluatedItems.json': { 'unevaluatedItems with $dynamicRef': 'dynamic' },
  'unevaluatedProperties.json': { 'unevaluatedProperties with $dynamicRef': 'dynamic' },
}
const REFUSED_07: Record<string, Record<string, string>> = {
  'definitions.json': { '*': 'remote' },
  'refRemote.json': { '*': 'remote' },
  'ref.json': {
    'remote ref, containing refs itself': 'remote',
    'ref overrides any sibling keywords': 'refSiblings07',
    '$ref prevents a sibling $id from changing the base uri': 'refSiblings07',
  },
}

const printed: string[] = []
afterAll(() => {
  console.log(printed.join('\n\n'))
})

function expectedReason(refused: Record<string, Record<string, string>>, o: Outcome): string | undefined {
  const file = refused[o.file]
  return file === undefined ? undefined : file[o.group] ?? file['*']
}

function checkRequired(name: string, dir: string, dialect: string, refused: Record<string, Record<string, string>>): void {
  const options = () => Object.assign(new JsonSchemaOptions(), { dialect })
  const { outcomes, rows } = runSuiteDir(dir, options)
  const text = table(rows)
  printed.push(`JSON-Schema-Test-Suite ${name} (required):\n${text}`)

  it('every required test of a supported keyword passes', () => {
    const failed = outcomes.filter((o) => o.refusal === undefined && !o.passed).map((o) => `${o.file} / ${o.group} / ${o.test}`)
    expect(failed).toEqual([])
  })

  it('only out-of-scope cases are refused, each at compile with invalid_config and the reason named', () => {
    const wrong: string[] = []
    for (const o of outcomes) {
      const reason = expectedReason(refused, o)
      const e = o.refusal
      if (e === undefined) {
        if (reason !== undefined) wrong.push(`${o.file} / ${o.group}: expected refused (${reason}), but it compiled`)
        continue
      }
      if (reason === undefined) {
        wrong.push(`${o.file} / ${o.group}: refused but in scope: ${e.message}`)
        continue
      }
      if (e.code !== ErrorCodes.invalidConfig || e.layer !== ErrorLayer.config || e.retryability !== 'never' ||
        e.keyword.length === 0 || !reason.split('|').some((r) => REASONS[r].test(e.message))) {
        wrong.push(`${o.file} / ${o.group}: refused for another reason than ${reason}: ${e.code} ${e.message}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('the per-file table in docs/json-schema.md is the one this run produced', () => {
    expect(documentedTable(name)).toBe(text)
  })
}

describe('JSON-Schema-Test-Suite draft 2020-12', () => {
  checkRequired('draft2020-12', path.join(SUITE_ROOT, 'draft2020-12'), JsonSchemaDialect.draft202012, REFUSED_2020)
})

describe('JSON-Schema-Test-Suite draft-07 (schemas read as draft-07)', () => {
  checkRequired('draft7', path.join(SUITE_ROOT, 'draft7'), JsonSchemaDialect.draft07, REFUSED_07)
})

describe('JSON-Schema-Test-Suite draft 2020-12, optional (reported, not required)', () => {
  it('runs every optional case and reports the outcome per file', () => {
    const { outcomes, rows } = runSuiteDir(path.join(SUITE_ROOT, 'draft2020-12', 'optional'), () => new JsonSchemaOptions())
    printed.push(`JSON-Schema-Test-Suite draft2020-12/optional (not required):\n${table(rows)}`)
    const failed = outcomes.filter((o) => o.refusal === undefined && !o.passed)
    if (failed.length > 0) printed.push(`optional failures:\n${failed.map((o) => `  ${o.file} / ${o.group} / ${o.test}`).join('\n')}`)
    // Refusals here are invalid_config too (unknown keywords, custom meta-schemas, draft-07 keywords).
    for (const o of outcomes) if (o.refusal !== undefined) expect(o.refusal.code).toBe(ErrorCodes.invalidConfig)
    expect(rows.length).toBeGreaterThan(0)
  })
})
