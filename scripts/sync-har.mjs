// `npm run sync:har`: copies shared-ts/src/core into the HAR as .ets (the committed copy).
import path from 'node:path'
import { repoRoot, syncCore } from './sync-core.mjs'

export const harCoreDir = path.join(repoRoot, 'agent_core', 'src', 'main', 'ets', 'core')

if (import.meta.url === `file://${process.argv[1]}`) {
  const count = syncCore(harCoreDir)
  console.log(`synced ${count} core files into ${path.relative(repoRoot, harCoreDir)}`)
}
