// `npm run bench`, section 11 (its own process): the preferences 2 s load wait on the Node fake's
// device model (bench/preferences-load.ts). Appends its rows to bench/results.json and prints them.
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { preferencesLoadBench } from './preferences-load'
import { fmt } from './lib'

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick')
  const result = await preferencesLoadBench(quick ? [16, 40] : [4, 16, 24, 30, 34, 40])
  const sec = '11. Preferences load wait (Node fake, device model)'
  const mibPerS = (result.bytesPerMs * 1000) / (1024 * 1024)
  const lines = ['', '| Section | Measure | Median | Spread (min–max) | Target | Met |', '|---|---|---|---|---|---|']
  lines.push(`| ${sec} | load model (one loader thread per app) | ${fmt(mibPerS, 1)} MiB/s; a call gives up after 2 s |  |  |  |`)
  for (const r of result.rows) {
    lines.push(`| ${sec} | file of ${r.aheadMiB} MiB loading ahead (${fmt(r.modelMs)} ms): unguarded read / put behind it | ` +
      `${r.readEmpty ? 'read EMPTY' : 'read ok'}, ${r.putLost ? 'put LOST' : 'put kept'} |  | no loss | ${r.readEmpty || r.putLost ? 'no' : 'yes'} |`)
    lines.push(`| ${sec} | same, PreferencesStateStorage loading a session behind it | ${r.storageExact ? 'exact' : 'WRONG'} in ` +
      `${fmt(r.storageMs)} ms |  | exact | ${r.storageExact ? 'yes' : 'no'} |`)
  }
  const bites = result.bitesAtMiB
  lines.push(`| ${sec} | smallest file ahead that empties a read behind it | ${bites !== undefined ? `${bites} MiB` : 'none measured'} ` +
    `(2 s × ${fmt(mibPerS, 1)} MiB/s = ${fmt(2 * mibPerS)} MiB ≈ ${fmt((2 * mibPerS * 1024 * 1024) / result.fileBytesPerMessage)} chat messages) |  |  |  |`)
  lines.push(`| ${sec} | PreferencesLimits.maxFileBytes (default) | ${result.defaultLimitMiB} MiB ≈ ` +
    `${fmt((result.defaultLimitMiB * 1024 * 1024) / result.fileBytesPerMessage)} chat messages, ${fmt((result.defaultLimitMiB * 1024) / mibPerS)} ms of load |  |  |  |`)
  const table = lines.join('\n')
  process.stdout.write(table + '\n')
  const file = path.resolve('bench', 'results.json')
  const json = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>
  json.preferencesLoad = result
  json.preferencesLoadTable = table
  await fs.writeFile(file, JSON.stringify(json, null, 2) + '\n')
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`)
  process.exit(1)
})
