// ArkTS 1.1 lint of the DevEco modules: the agent_core HAR (barrel, core copy, adapters, hypium
// suites), the entry HAP (ability and ArkUI pages) and every ArkTS snippet of the docs
// (scripts/doc-snippets.mjs: the app's AppAgent class and every snippet linted against it), against
// the project's API 12 declarations. Exits non-zero on any error, on any warning in a doc snippet
// (what a developer copies must be clean), and on any documentation problem docProblems reports
// (AppAgent shown two ways, a snippet with the approval gate off, a translation whose code differs).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { lintArkTs, listFiles, ohosEnvironment } from './arkts-lint-lib.mjs'
import { docProblems, writeArkTsSnippets } from './doc-snippets.mjs'
import { repoRoot } from './sync-core.mjs'

const har = path.join(repoRoot, 'agent_core')
const snippetDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-doc-snippets-'))
const snippets = writeArkTsSnippets(snippetDir)
const files = [
  path.join(har, 'Index.ets'),
  ...listFiles(path.join(har, 'src', 'main', 'ets'), ['.ets']),
  ...listFiles(path.join(har, 'src', 'ohosTest', 'ets'), ['.ets']),
  ...listFiles(path.join(repoRoot, 'entry', 'src', 'main', 'ets'), ['.ets']),
  ...snippets.files,
]
const env = ohosEnvironment({
  // What ohpm resolves for the entry module and the test target.
  '@arkagent/agent_core': [path.join(har, 'Index.ets')],
  '@ohos/hypium': [path.join(repoRoot, 'node_modules', '@ohos', 'hypium', 'index.d.ts')],
})
const result = lintArkTs(files, env.declarationFiles, env.pathsMap, env.ets)
const shownDir = path.relative(process.cwd(), snippetDir)
const inSnippets = (m) => m.includes(shownDir)
/** A message about a snippet file, with the documents the snippet comes from. */
function located(m) {
  if (!inSnippets(m)) return m
  for (const [file, where] of snippets.locations) {
    if (m.includes(path.relative(process.cwd(), file))) return `${m}\n    (the snippet at ${where.join(', ')})`
  }
  return m
}
for (const m of result.messages) console.log(located(m))
const snippetProblems = result.messages.filter(inSnippets).length
const problems = docProblems()
for (const p of problems) console.log(`docs: ${p}`)
fs.rmSync(snippetDir, { recursive: true, force: true })
const places = [...snippets.locations.values()].reduce((n, where) => n + where.length, 0)
console.log(`ArkTS lint (agent_core + entry + ${snippets.files.length} doc snippets from ${places} places, ` +
  `${files.length} files): ${result.errors} errors, ${result.warnings} warnings; ${problems.length} documentation problems`)
process.exitCode = result.errors > 0 || snippetProblems > 0 || problems.length > 0 ? 1 : 0
