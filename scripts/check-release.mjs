// Part of `npm test`: one version everywhere, and a changelog entry for it. The npm package
// (shared-ts/package.json), the HAR (agent_core/oh-package.json5), the root package.json and the
// demo app (AppScope/app.json5 versionName) must agree; CHANGELOG.md must have a "## [<version>]"
// entry, and the HAR's CHANGELOG.md must be the same file.
import fs from 'node:fs'
import path from 'node:path'
import { repoRoot } from './sync-core.mjs'

const root = process.argv[2] ?? repoRoot
const read = (rel) => fs.readFileSync(path.join(root, rel), 'utf8')
const json5Field = (rel, field) => {
  const m = new RegExp(`"${field}"\\s*:\\s*"([^"]+)"`).exec(read(rel))
  return m === null ? undefined : m[1]
}
const versions = {
  'package.json': JSON.parse(read('package.json')).version,
  'shared-ts/package.json': JSON.parse(read('shared-ts/package.json')).version,
  'agent_core/oh-package.json5': json5Field('agent_core/oh-package.json5', 'version'),
  'AppScope/app.json5 (versionName)': json5Field('AppScope/app.json5', 'versionName'),
}
const problems = []
const version = versions['shared-ts/package.json']
for (const [where, v] of Object.entries(versions)) {
  if (v !== version) problems.push(`${where} has version ${v ?? '(none)'}, @arkagent/core has ${version}`)
}
const changelog = read('CHANGELOG.md')
if (!new RegExp(`^## \\[${version.replace(/\./g, '\\.')}\\]`, 'm').test(changelog)) problems.push(`CHANGELOG.md has no "## [${version}]" entry`)
if (read('agent_core/CHANGELOG.md') !== changelog) problems.push('agent_core/CHANGELOG.md differs from CHANGELOG.md (copy it)')
for (const file of ['LICENSE', 'shared-ts/LICENSE', 'agent_core/LICENSE', 'shared-ts/README.md', 'agent_core/README.md']) {
  if (!fs.existsSync(path.join(root, file))) problems.push(`${file} is missing`)
}
if (problems.length > 0) {
  for (const p of problems) console.error(`  ${p}`)
  console.error(`release check: ${problems.length} problem(s)`)
  process.exit(1)
}
console.log(`release check: version ${version} everywhere, changelog entry present, licenses and READMEs in place`)
