// `npm run bench`, section 8 (run after bench/run.ts, in its own process): the HarmonyOS storages
// on the Node fakes. Appends its rows to bench/results.json and prints them.
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { deviceStorageBench } from './device-storage'
import { fmt } from './lib'

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick')
  const rows = await deviceStorageBench(10_000, quick ? 3 : 7)
  const lines = ['', '| Section | Measure | Median | Spread (min–max) | Target | Met |', '|---|---|---|---|---|---|']
  for (const r of rows) {
    const sec = `8. HarmonyOS storage on the Node fakes (${r.backend})`
    lines.push(`| ${sec} | 10,000 msgs: full save | ${fmt(r.fullBytes)} B |  |  |  |`)
    lines.push(`| ${sec} | 10,000 msgs: autosave after +1 message | ${fmt(r.autosaveBytes)} B in ${fmt(r.autosaveMs.median, 2)} ms | ${fmt(r.autosaveMs.min, 2)}–${fmt(r.autosaveMs.max, 2)} ms |  |  |`)
    lines.push(`| ${sec} | 10,000 msgs: restore (load, fresh instance) | ${fmt(r.restoreMs.median, 2)} ms | ${fmt(r.restoreMs.min, 2)}–${fmt(r.restoreMs.max, 2)} ms |  |  |`)
    lines.push(`| ${sec} | JS heap a storage keeps after loading the session | ${fmt(r.heldBytes / 1024, 0)} KiB |  |  |  |`)
  }
  const table = lines.join('\n')
  process.stdout.write(table + '\n')
  const file = path.resolve('bench', 'results.json')
  const json = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>
  json.deviceStorage = rows
  json.deviceStorageTable = table
  await fs.writeFile(file, JSON.stringify(json, null, 2) + '\n')
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`)
  process.exit(1)
})
