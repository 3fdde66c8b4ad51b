// Fails when agent_core/src/main/ets/core differs from a fresh sync of shared-ts/src/core, or when
// the HAR's hvigorfile (whose syncArkAgentCore task runs before PreBuild) would produce something else.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { build } from 'esbuild'
import { listFiles } from './arkts-lint-lib.mjs'
import { renderCore, repoRoot } from './sync-core.mjs'
import { harCoreDir } from './sync-har.mjs'

const problems = []
const rel = (p) => path.relative(repoRoot, p)

/** Differences between the rendered core and the .ets files under `dir`. */
function diff(dir, expected) {
  const out = []
  const present = new Set(listFiles(dir, ['.ets']).map((f) => path.relative(dir, f)))
  for (const [file, text] of expected) {
    if (!present.has(file)) out.push(`missing ${file}`)
    else if (fs.readFileSync(path.join(dir, file), 'utf8') !== text) out.push(`differs ${file}`)
  }
  for (const file of present) if (!expected.has(file)) out.push(`stale ${file}`)
  return out
}

/** Names in `export { ... }` / `export type { ... }` lists. */
function exportedNames(file) {
  const names = new Set()
  for (const m of fs.readFileSync(file, 'utf8').matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const n of m[1].split(',')) if (n.trim()) names.add(n.trim().split(/\s+as\s+/).pop())
  }
  return names
}

const expected = renderCore()
// The HAR barrel must re-export every public name of the core, by name.
const barrel = exportedNames(path.join(repoRoot, 'agent_core', 'Index.ets'))
for (const name of exportedNames(path.join(repoRoot, 'shared-ts', 'src', 'core', 'index.ts'))) {
  if (!barrel.has(name)) problems.push(`agent_core/Index.ets: does not re-export '${name}' from the core`)
}
for (const d of diff(harCoreDir, expected)) problems.push(`${rel(harCoreDir)}: ${d}`)

// Run the hvigorfile's sync task under Node (hvigor's plugin stubbed) into a scratch module dir.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'har-sync-'))
try {
  const moduleDir = path.join(tmp, 'agent_core')
  fs.mkdirSync(moduleDir)
  fs.symlinkSync(path.join(repoRoot, 'shared-ts'), path.join(tmp, 'shared-ts'))
  const bundle = path.join(moduleDir, 'hvigorfile.cjs')
  await build({
    entryPoints: [path.join(repoRoot, 'agent_core', 'hvigorfile.ts')], bundle: true, platform: 'node', format: 'cjs',
    outfile: bundle, logLevel: 'error',
    plugins: [{ name: 'hvigor-stub', setup(b) {
      b.onResolve({ filter: /^@ohos\/hvigor-ohos-plugin$/ }, () => ({ path: 'hvigor', namespace: 'stub' }))
      b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export const harTasks = {}', loader: 'js' }))
    } }],
  })
  const { createRequire } = await import('node:module')
  const hvigorfile = createRequire(import.meta.url)(bundle)
  // Loading the file must change nothing (an IDE sync only evaluates it); running its task syncs.
  if (fs.existsSync(path.join(moduleDir, 'src'))) problems.push('hvigorfile: loading it wrote files (must only register a task)')
  const registered = []
  for (const plugin of hvigorfile.default.plugins) plugin.apply({ registerTask: (task) => registered.push(task) })
  const task = registered.find((t) => t.name === 'syncArkAgentCore')
  if (task === undefined || !(task.postDependencies ?? []).includes('default@PreBuild')) {
    problems.push('hvigorfile: no syncArkAgentCore task before default@PreBuild')
  } else {
    task.run()
  }
  for (const d of diff(path.join(moduleDir, 'src', 'main', 'ets', 'core'), expected)) problems.push(`hvigorfile sync: ${d}`)
} finally {
  fs.rmSync(tmp, { recursive: true, force: true })
}

// Every string resource the HAR's code names exists in both languages, and the languages name the same strings:
// a missing one is a build error in DevEco (and English text left in code would not be translated).
{
  const harDir = path.join(repoRoot, 'agent_core')
  const res = (lang) => JSON.parse(fs.readFileSync(path.join(harDir, 'src/main/resources', lang, 'element/string.json'), 'utf8'))
    .string.map((e) => e.name)
  const base = new Set(res('base'))
  const zh = new Set(res('zh_CN'))
  for (const n of base) if (!zh.has(n)) problems.push(`resources: '${n}' has no zh_CN string`)
  for (const n of zh) if (!base.has(n)) problems.push(`resources: '${n}' is in zh_CN only`)
  const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(path.join(d, e.name)) : e.name.endsWith('.ets') ? [path.join(d, e.name)] : [])
  for (const f of walk(path.join(harDir, 'src/main/ets'))) {
    for (const m of fs.readFileSync(f, 'utf8').matchAll(/\$r\('app\.string\.([A-Za-z0-9_]+)'/g)) {
      if (!base.has(m[1])) problems.push(`resources: ${rel(f)} names app.string.${m[1]}, which does not exist`)
    }
  }
}

if (problems.length > 0) {
  for (const p of problems.slice(0, 30)) console.error(`  ${p}`)
  console.error(`HAR check failed (${problems.length} problems): for the core, run \`npm run sync:har\`, commit agent_core/src/main/ets/core and re-export new core names in agent_core/Index.ets; for a resource, add the string to base and zh_CN.`)
  process.exitCode = 1
} else {
  console.log(`HAR core copy is in sync (${expected.size} files; the hvigorfile sync agrees).`)
}
