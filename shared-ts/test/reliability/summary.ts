// The reliability suite's numbers: each test file records rows here; the file prints its rows in
// afterAll, and the global teardown (summaryGlobalSetup.ts) prints one table for the whole run.
import fs from 'node:fs'
import path from 'node:path'

export const SUMMARY_DIR = path.resolve(__dirname, '../../../node_modules/.cache/arkagent-reliability')

export interface SummaryRow {
  section: string
  item: string
  count: number
  unit: string
  note?: string
}

const rows: SummaryRow[] = []

export function record(section: string, item: string, count: number, unit: string, note?: string): void {
  rows.push({ section, item, count, unit, note })
}

export function formatTable(all: SummaryRow[]): string {
  const header = ['section', 'item', 'count', 'unit', 'note']
  const lines = all.map((r) => [r.section, r.item, String(r.count), r.unit, r.note ?? ''])
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)))
  const fmt = (cells: string[]): string => '| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |'
  return [fmt(header), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...lines.map(fmt)].join('\n')
}

/** Stores this file's rows for the run's combined table (printed once, by summaryGlobalSetup). */
export function flush(file: string): void {
  if (rows.length === 0) return
  fs.mkdirSync(SUMMARY_DIR, { recursive: true })
  fs.writeFileSync(path.join(SUMMARY_DIR, `${file}.json`), JSON.stringify(rows))
}
