// Builds the ESM bundle with esbuild and the declaration files with tsc.
import { build } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'

rmSync('dist', { recursive: true, force: true })
await build({
  entryPoints: { index: 'src/index.ts', core: 'src/core/index.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
})
execFileSync(process.execPath, [new URL('../node_modules/typescript/bin/tsc', import.meta.url).pathname, '-p', 'tsconfig.build.json'], { stdio: 'inherit' })

// The sources import without extensions (the ArkTS copy needs that). Declarations published for
// ESM consumers under moduleResolution node16/nodenext need explicit ones: rewrite each relative
// specifier to the file it means (`./x` → `./x.js`, a folder → `./x/index.js`).
import { readdirSync, readFileSync, writeFileSync, existsSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'

function declarations(dir) {
  const out = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...declarations(p))
    else if (entry.name.endsWith('.d.ts')) out.push(p)
  }
  return out
}

for (const file of declarations('dist')) {
  const text = readFileSync(file, 'utf8')
  const fixed = text.replace(/((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]*)(['"])/g, (all, head, spec, tail) => {
    if (/\.(js|mjs|cjs|json)$/.test(spec)) return all
    const base = join(dirname(file), spec)
    if (existsSync(`${base}.d.ts`)) return `${head}${spec}.js${tail}`
    if (existsSync(base) && statSync(base).isDirectory() && existsSync(join(base, 'index.d.ts'))) return `${head}${spec}/index.js${tail}`
    throw new Error(`${file}: cannot resolve ${spec}`)
  })
  if (fixed !== text) writeFileSync(file, fixed)
}
