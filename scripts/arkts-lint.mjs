// ArkTS 1.1 lint of the core (as .ets). Exits non-zero on any error.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { lintArkTs, listFiles } from './arkts-lint-lib.mjs'
import { syncCore } from './sync-core.mjs'

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arkts-core-'))
try {
  const count = syncCore(tmp)
  const files = listFiles(tmp, ['.ets'])
  const result = lintArkTs(files)
  for (const m of result.messages) console.log(m.split(path.relative(process.cwd(), tmp)).join('core'))
  console.log(`ArkTS lint (core, ${count} files): ${result.errors} errors, ${result.warnings} warnings`)
  process.exitCode = result.errors > 0 ? 1 : 0
} finally {
  fs.rmSync(tmp, { recursive: true, force: true })
}
