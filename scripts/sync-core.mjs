// Copies shared-ts/src/core into a target directory as .ets files (the HAR's copy, or a lint copy).
import fs from 'node:fs'
import path from 'node:path'
import { listFiles } from './arkts-lint-lib.mjs'

export const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
export const coreDir = path.join(repoRoot, 'shared-ts', 'src', 'core')

const HEADER = '// Generated from shared-ts/src/core by `npm run sync:har`. Edit the .ts source, not this file.\n'

/** Returns a map of relative .ets path -> contents for the current core sources. */
export function renderCore() {
  const out = new Map()
  for (const file of listFiles(coreDir, ['.ts'])) {
    if (file.endsWith('.d.ts')) continue
    const rel = path.relative(coreDir, file).replace(/\.ts$/, '.ets')
    out.set(rel, HEADER + fs.readFileSync(file, 'utf8'))
  }
  return out
}

/** Writes the rendered core into `targetDir`, removing stale .ets files. */
export function syncCore(targetDir) {
  const rendered = renderCore()
  for (const old of listFiles(targetDir, ['.ets'])) {
    if (!rendered.has(path.relative(targetDir, old))) fs.rmSync(old)
  }
  for (const [rel, text] of rendered) {
    const dest = path.join(targetDir, rel)
    fs.mkdirSync(path.dirname(dest), { recursive: true })
    if (!fs.existsSync(dest) || fs.readFileSync(dest, 'utf8') !== text) fs.writeFileSync(dest, text)
  }
  return rendered.size
}
