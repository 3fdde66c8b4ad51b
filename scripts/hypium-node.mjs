// Runs the HAR's hypium suites (agent_core/src/ohosTest/ets/test) under Node with the real
// @ohos/hypium runner. The .ets files are bundled with esbuild as TypeScript; @kit.* system
// modules map to Node fakes (scripts/hypium-node/fakes) that keep the device behaviour the
// adapters depend on; HTTP goes to a real server on 127.0.0.1. Prints per-suite results and a
// test count; exits non-zero on any failure, error, hook error, fake violation or empty run.
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { repoRoot } from './sync-core.mjs'
import { startTestServer } from './hypium-node/test-server.mjs'

const here = path.join(repoRoot, 'scripts', 'hypium-node')
const fakes = Object.fromEntries(['ArkData', 'AssetStoreKit', 'NetworkKit', 'ArkTS', 'PerformanceAnalysisKit', 'AbilityKit', 'BasicServicesKit', 'TestKit']
  .map((kit) => [`@kit.${kit}`, path.join(here, 'fakes', `${kit}.ts`)]))

// ArkUI component files (`struct` with @Component) cannot run without the ArkUI runtime: under Node
// each exported struct becomes an undefined export. Their logic lives in plain classes (e.g.
// AgentViewModel), which the suites test; the components themselves are checked by lint:har.
const arkUiComponents = {
  name: 'arkui-components',
  setup(b) {
    b.onLoad({ filter: /\.ets$/ }, (args) => {
      const text = fs.readFileSync(args.path, 'utf8')
      if (!/^\s*@Component\b/m.test(text)) return undefined
      const names = [...text.matchAll(/^export\s+struct\s+(\w+)/gm)].map((m) => m[1])
      return { contents: names.map((n) => `export const ${n} = undefined`).join('\n'), loader: 'ts' }
    })
  },
}

// Inside the repository, so the bundle's external imports (sql.js) resolve from node_modules.
const cacheDir = path.join(repoRoot, 'node_modules', '.cache')
fs.mkdirSync(cacheDir, { recursive: true })
const tmp = fs.mkdtempSync(path.join(cacheDir, 'hypium-node-'))
const bundle = path.join(tmp, 'suites.mjs')
const server = await startTestServer()
let exitCode = 1
let suites
try {
  await build({
    entryPoints: [path.join(here, 'entry.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20',
    outfile: bundle, logLevel: 'error', sourcemap: 'inline',
    loader: { '.ets': 'ts' }, resolveExtensions: ['.ets', '.ts', '.js', '.mjs'], alias: fakes,
    // sql.js finds its .wasm next to itself at run time: load it from node_modules, not the bundle.
    external: ['sql.js'],
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    plugins: [arkUiComponents],
  })
  // hypium narrates every step with console.info/log; keep only errors (failure stacks) visible.
  const quiet = { info: console.info, log: console.log, debug: console.debug }
  if (!process.env.HYPIUM_VERBOSE) console.info = console.log = console.debug = () => {}
  let result
  try {
    suites = await import(pathToFileURL(bundle).href)
    result = await suites.runSuites({ '-s timeout': '30000', '-s arkagentTestServer': server.url })
  } finally {
    Object.assign(console, quiet)
  }
  exitCode = report(result)
} finally {
  await server.close()
  fs.rmSync(tmp, { recursive: true, force: true })
  suites?.cleanUp()
}
process.exit(exitCode)

function report({ suites, report: lines, violations, skipped }) {
  let pass = 0
  let bad = 0
  for (const suite of suites) {
    const ok = suite.specs.filter((s) => s.status === 'pass').length
    const failed = suite.specs.length - ok
    pass += ok
    bad += failed
    console.log(`${failed === 0 && suite.hookError === '' ? 'ok  ' : 'FAIL'} ${suite.name}: ${ok}/${suite.specs.length} passed`)
    for (const s of suite.specs.filter((x) => x.status !== 'pass')) console.log(`     ${s.status}: ${s.name}\n       ${s.message.split('\n').join('\n       ')}`)
    if (suite.hookError !== '') {
      bad++
      console.log(`     hook error: ${suite.hookError}`)
    }
  }
  for (const v of violations) console.log(`FAIL fake system module: ${v}`)
  // Device-only cases report themselves skipped; hypium (and the per-suite lines above) count them as passed.
  for (const line of skipped) console.log(`     ${line}`)
  // Cross-check with hypium's own device report line.
  const summary = lines.join('').match(/OHOS_REPORT_RESULT: stream=Tests run: (\d+), Failure: (\d+), Error: (\d+), Pass: (\d+)/)
  const total = pass + bad
  console.log(summary ? `hypium's own report (a skip counts as a pass there): ${summary[0].replace('OHOS_REPORT_RESULT: stream=', '')}` :
    'hypium: no OHOS_REPORT_RESULT line')
  // A device-only case that reported itself skipped passed in hypium's eyes; it is not counted as passed here.
  console.log(`hypium suites under Node: ${suites.length} suites, ${total} tests, ${skipped.length} skipped, ` +
    `${pass - skipped.length} passed, ${bad} failed`)
  const consistent = summary !== null && Number(summary[1]) === total && Number(summary[4]) === pass
  return bad === 0 && violations.length === 0 && total > 0 && consistent ? 0 : 1
}
