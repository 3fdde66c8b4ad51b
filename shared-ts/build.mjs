// Builds the package: every source file compiled to its own ES module (esbuild, no bundling) and the
// declaration files (tsc).
//
// One module per source file, not bundles: each class exists once however many entries an app
// imports (@arkagent/core, /core, /mcp, /zod — a class from one entry is the class the others check
// with instanceof), and classes keep their declarations as written, so stack traces and
// `constructor.name` say AgentRuntime (a bundle turns a class that names itself into
// `var AgentRuntime = class _AgentRuntime`).
import { build } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** The files under `dir` whose name passes `keep`. */
function filesIn(dir, keep) {
  const out = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...filesIn(p, keep))
    else if (keep(entry.name)) out.push(p)
  }
  return out
}

/**
 * The sources import without extensions (the ArkTS copy needs that); ES modules and declarations
 * published for node16/nodenext need explicit ones: each relative specifier becomes the file it
 * means (`./x` → `./x.js`, a folder → `./x/index.js`), checked against the emitted files.
 */
function withExtensions(file, emitted) {
  const text = readFileSync(file, 'utf8')
  const fixed = text.replace(/((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]*)(['"])/g, (all, head, spec, tail) => {
    if (/\.(js|mjs|cjs|json)$/.test(spec)) return all
    const base = join(dirname(file), spec)
    if (existsSync(`${base}${emitted}`)) return `${head}${spec}.js${tail}`
    if (existsSync(base) && statSync(base).isDirectory() && existsSync(join(base, `index${emitted}`))) return `${head}${spec}/index.js${tail}`
    throw new Error(`${file}: cannot resolve ${spec}`)
  })
  if (fixed !== text) writeFileSync(file, fixed)
}

rmSync('dist', { recursive: true, force: true })
await build({
  entryPoints: filesIn('src', (name) => name.endsWith('.ts') && !name.endsWith('.d.ts')),
  outbase: 'src',
  outdir: 'dist',
  bundle: false,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
})
for (const file of filesIn('dist', (name) => name.endsWith('.js'))) withExtensions(file, '.js')
execFileSync(process.execPath, [new URL('../node_modules/typescript/bin/tsc', import.meta.url).pathname, '-p', 'tsconfig.build.json'], { stdio: 'inherit' })
for (const file of filesIn('dist', (name) => name.endsWith('.d.ts'))) withExtensions(file, '.d.ts')
