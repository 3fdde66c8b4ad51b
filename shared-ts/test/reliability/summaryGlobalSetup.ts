// vitest globalSetup: clears the reliability rows before a run and prints one combined table after.
import fs from 'node:fs'
import path from 'node:path'
import { formatTable, SUMMARY_DIR, SummaryRow } from './summary'

const ORDER = ['CrashSweep', 'Integrity', 'Fuzz', 'ThrownValues', 'Races', 'Load', 'HostileHooks']

export function setup(): void {
  fs.rmSync(SUMMARY_DIR, { recursive: true, force: true })
}

export function teardown(): void {
  if (!fs.existsSync(SUMMARY_DIR)) return
  const files = fs.readdirSync(SUMMARY_DIR).filter((f) => f.endsWith('.json'))
  files.sort((a, b) => ORDER.indexOf(a.replace('.json', '')) - ORDER.indexOf(b.replace('.json', '')))
  const all: SummaryRow[] = []
  for (const f of files) all.push(...(JSON.parse(fs.readFileSync(path.join(SUMMARY_DIR, f), 'utf8')) as SummaryRow[]))
  if (all.length === 0) return
  console.log(`\n== reliability summary (${files.length} suites)\n${formatTable(all)}\n`)
}
