// Runs JSON-Schema-Test-Suite files against the core validator and tabulates the outcome per file.
import fs from 'node:fs'
import path from 'node:path'
import { JsonSchema, JsonSchemaError, JsonSchemaOptions } from '../../src/index'

/** The suite's `tests/` folder (a copy of github.com/json-schema-org/JSON-Schema-Test-Suite; JSON_SCHEMA_TEST_SUITE overrides). */
export const SUITE_ROOT = process.env.JSON_SCHEMA_TEST_SUITE ?? path.join(import.meta.dirname, 'json-schema-test-suite', 'tests')

export interface SuiteTest { description: string, data: unknown, valid: boolean }
export interface SuiteCase { description: string, schema: Record<string, Object> | boolean, tests: SuiteTest[] }

/** One test's outcome; `refusal` is the compile error when the case's schema was refused. */
export interface Outcome { file: string, group: string, test: string, passed: boolean, refusal?: JsonSchemaError }

export interface FileRow { file: string, tests: number, passed: number, failed: number, refused: number, skipped: number }

/** Every test of every `*.json` file in `dir` (sorted by file name). */
export function runSuiteDir(dir: string, options: () => JsonSchemaOptions): { outcomes: Outcome[], rows: FileRow[] } {
  const outcomes: Outcome[] = []
  const rows: FileRow[] = []
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const cases = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as SuiteCase[]
    const row: FileRow = { file, tests: 0, passed: 0, failed: 0, refused: 0, skipped: 0 }
    for (const c of cases) {
      let schema: JsonSchema | undefined
      let refusal: JsonSchemaError | undefined
      try {
        schema = JsonSchema.compile(c.schema, options())
      } catch (e) {
        if (!(e instanceof JsonSchemaError)) throw e
        refusal = e
      }
      for (const t of c.tests) {
        row.tests++
        if (schema === undefined) {
          row.refused++
          outcomes.push({ file, group: c.description, test: t.description, passed: false, refusal })
          continue
        }
        const passed = (schema.validate(t.data as Object) === '') === t.valid
        if (passed) row.passed++
        else row.failed++
        outcomes.push({ file, group: c.description, test: t.description, passed })
      }
    }
    rows.push(row)
  }
  return { outcomes, rows }
}

/** The rows as a Markdown table, with a total line. */
export function table(rows: FileRow[]): string {
  const total: FileRow = { file: '**total**', tests: 0, passed: 0, failed: 0, refused: 0, skipped: 0 }
  for (const r of rows) {
    total.tests += r.tests
    total.passed += r.passed
    total.failed += r.failed
    total.refused += r.refused
    total.skipped += r.skipped
  }
  const line = (r: FileRow) => `| ${r.file} | ${r.tests} | ${r.passed} | ${r.failed} | ${r.refused} | ${r.skipped} |`
  return ['| File | Tests | Passed | Failed | Refused at compile | Skipped |', '|---|---:|---:|---:|---:|---:|',
    ...rows.map(line), line(total)].join('\n')
}

/** The table between `<!-- suite:<name> -->` and `<!-- /suite:<name> -->` in docs/json-schema.md. */
export function documentedTable(name: string): string {
  const doc = fs.readFileSync(path.resolve(__dirname, '../../../docs/json-schema.md'), 'utf8')
  const start = doc.indexOf(`<!-- suite:${name} -->`)
  const end = doc.indexOf(`<!-- /suite:${name} -->`)
  if (start < 0 || end < 0) return ''
  return doc.slice(start + `<!-- suite:${name} -->`.length, end).trim()
}
