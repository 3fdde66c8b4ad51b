// ArkTS 1.1 lint of the DevEco modules: the agent_core HAR (barrel, core copy, adapters, hypium
// suites), the entry HAP (ability and ArkUI pages) and every ArkTS snippet of the docs that builds a
// runtime (scripts/doc-snippets.mjs), against the project's API 12 declarations. Exits non-zero on
// any error, and on any warning in a doc snippet (what a developer copies must be clean).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { lintArkTs, listFiles, ohosEnvironment } from './arkts-lint-lib.mjs'
import { writeArkTsSnippets } from './doc-snippets.mjs'
import { repoRoot } from './sync-core.mjs'

const har = path.join(repoRoot, 'agent_core')
const snippetDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-doc-snippets-'))
const snippets = writeArkTsSnippets(snippetDir)
const files = [
  path.join(har, 'Index.ets'),
  ...listFiles(path.join(har, 'src', 'main', 'ets'), ['.ets']),
  ...listFiles(path.join(har, 'src', 'ohosTest', 'ets'), ['.ets']),
  ...listFiles(path.join(repoRoot, 'entry', 'src', 'main', 'ets'), ['.ets']),
  ...snippets,
]
const env = ohosEnvironment({
  // What ohpm resolves for the entry module and the test target.
  '@arkagent/agent_core': [path.join(har, 'Index.ets')],
  '@ohos/hypium': [path.join(repoRoot, 'node_modules', '@ohos', 'hypium', 'index.d.ts')],
})
const result = lintArkTs(files, env.declarationFiles, env.pathsMap, env.ets)
const inSnippets = (m) => m.includes(path.relative(process.cwd(), snippetDir))
for (const m of result.messages) console.log(m)
const snippetProblems = result.messages.filter(inSnippets).length
fs.rmSync(snippetDir, { recursive: true, force: true })
console.log(`ArkTS lint (agent_core + entry + ${snippets.length - 1} doc snippets, ${files.length} files): ` +
  `${result.errors} errors, ${result.warnings} warnings`)
process.exitCode = result.errors > 0 || snippetProblems > 0 ? 1 : 0
