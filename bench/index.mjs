// `npm run bench`: compiles bench/run.ts as the package itself is compiled (esbuild, ESM, node20, no
// keepNames — see shared-ts/build.mjs), bundled into one file with packages external, and runs it with --expose-gc.
//
// Why not tsx: tsx transforms with esbuild's keepNames, which redefines every class's `name`
// (`static { __name(this, ...) }`). On Node 20 (V8 11.3) that makes TurboFan abort optimising code
// that constructs subclasses (events, hook contexts) over and over ("StableMapDependency"), which
// costs microseconds per chunk and would measure the loader, not the code that ships.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
// Bundles go inside bench/ so their external imports resolve from bench/node_modules (the peers
// compared against, installed here on first use — never by the project's own npm install) and
// then from the root node_modules.
const benchDir = path.join(root, 'bench')
if (!existsSync(path.join(benchDir, 'node_modules', 'ai', 'package.json'))) {
  process.stderr.write('[bench] installing the peers compared against into bench/node_modules (once)\n')
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const i = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: benchDir, stdio: 'inherit' })
  if (i.status !== 0) process.exit(i.status ?? 1)
}
const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(benchDir, 'tsconfig.json')],
  { cwd: root, stdio: 'inherit' })
if (tsc.status !== 0) process.exit(tsc.status ?? 1)
const outDir = path.join(benchDir, '.cache')
mkdirSync(outDir, { recursive: true })
const entries = process.env.BENCH_ENTRY !== undefined ? [process.env.BENCH_ENTRY] : ['bench/run.ts', 'bench/device-run.ts', 'bench/compaction-run.ts', 'bench/preferences-load-run.ts',
  'bench/ui-thread-run.ts', 'bench/parallel-tools.ts']
// The HarmonyOS storages (.ets) run on the Node fakes of the system kits, as in the hypium runner.
const kitFakes = Object.fromEntries(['ArkData', 'AbilityKit', 'BasicServicesKit', 'ArkTS']
  .map((kit) => [`@kit.${kit}`, path.join(root, 'scripts', 'hypium-node', 'fakes', `${kit}.ts`)]))
for (const entry of entries) {
  const outfile = path.join(outDir, path.basename(entry).replace(/\.ts$/, '.mjs'))
  await build({
    entryPoints: [path.join(root, entry)],
    alias: kitFakes,
    loader: { '.ets': 'ts' },
    resolveExtensions: ['.ts', '.ets', '.js', '.mjs'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  })
  const r = spawnSync(process.execPath, ['--expose-gc', '--enable-source-maps', ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean), outfile, ...process.argv.slice(2)],
    { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}
