// `npm run bench`, section 10 (its own process, after the others): the longest stretch the runtime
// holds the thread it runs on (the app's UI thread on HarmonyOS, unless the app moves it), per
// operation, for a 10,000-message session. Appends its rows to bench/results.json and prints them.
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { FRAME_MS, uiThreadBench } from './ui-thread'
import { THREAD_CLOCK } from './stretch'
import { fmt } from './lib'

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick')
  const rows = await uiThreadBench(10_000, quick ? 3 : 7)
  const lines = ['', '| Section | Measure | Median | Spread (min–max) | Target | Met |', '|---|---|---|---|---|---|']
  for (const r of rows) {
    const sec = `10. UI thread, 10,000 msgs (${r.storage})`
    const met = r.longestThread.max < FRAME_MS
    lines.push(`| ${sec} | ${r.operation}: longest hold of the JS thread (${THREAD_CLOCK}) | ${fmt(r.longestThread.median, 2)} ms | ${fmt(r.longestThread.min, 2)}–${fmt(r.longestThread.max, 2)} ms | < ${FRAME_MS} ms (one frame) | ${met ? 'yes' : '**no**'} |`)
    lines.push(`| ${sec} | ${r.operation}: longest synchronous stretch, wall clock | ${fmt(r.longest.median, 2)} ms | ${fmt(r.longest.min, 2)}–${fmt(r.longest.max, 2)} ms |  |  |`)
    lines.push(`| ${sec} | ${r.operation}: process CPU time in that stretch (GC threads included) | ${fmt(r.longestCpu.median, 2)} ms | ${fmt(r.longestCpu.min, 2)}–${fmt(r.longestCpu.max, 2)} ms |  |  |`)
    lines.push(`| ${sec} | ${r.operation}: whole operation | ${fmt(r.total.median, 1)} ms | ${fmt(r.total.min, 1)}–${fmt(r.total.max, 1)} ms |  |  |`)
  }
  const table = lines.join('\n')
  process.stdout.write(table + '\n')
  const file = path.resolve('bench', 'results.json')
  const json = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>
  json.uiThread = rows
  json.uiThreadTable = table
  await fs.writeFile(file, JSON.stringify(json, null, 2) + '\n')
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`)
  process.exit(1)
})
