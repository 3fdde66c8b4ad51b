// ArkTS 1.1 lint of the DevEco modules: the agent_core HAR (barrel, core copy, adapters, hypium
// suites) and the entry HAP (ability and ArkUI pages), against the project's API 12
// declarations. Exits non-zero on any error.
import path from 'node:path'
import { lintArkTs, listFiles, ohosEnvironment } from './arkts-lint-lib.mjs'
import { repoRoot } from './sync-core.mjs'

const har = path.join(repoRoot, 'agent_core')
const files = [
  path.join(har, 'Index.ets'),
  ...listFiles(path.join(har, 'src', 'main', 'ets'), ['.ets']),
  ...listFiles(path.join(har, 'src', 'ohosTest', 'ets'), ['.ets']),
  ...listFiles(path.join(repoRoot, 'entry', 'src', 'main', 'ets'), ['.ets']),
]
const env = ohosEnvironment({
  // What ohpm resolves for the entry module and the test target.
  '@arkagent/agent_core': [path.join(har, 'Index.ets')],
  '@ohos/hypium': [path.join(repoRoot, 'node_modules', '@ohos', 'hypium', 'index.d.ts')],
})
const result = lintArkTs(files, env.declarationFiles, env.pathsMap, env.ets)
for (const m of result.messages) console.log(m)
console.log(`ArkTS lint (agent_core + entry, ${files.length} files): ${result.errors} errors, ${result.warnings} warnings`)
process.exitCode = result.errors > 0 ? 1 : 0
