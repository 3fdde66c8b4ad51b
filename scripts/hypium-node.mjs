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
const fakes = Object.fromEntries(['ArkData', 'AssetStoreKit', 'NetworkKit', 'ArkTS', 'PerformanceAnalysisKit', 'AbilityKit', 'BasicServicesKit', 'TestKit',
  'BackgroundTasksKit']
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
  // hypium narrates every step with console.info/log; keep only errors (failure stacks) visible. The
  // narration also says which case is running (its specStart message), which attributes each
  // "SKIPPED '...'" line a case prints (TestEnv.skipWithout) to its suite and case.
  const quiet = { info: console.info, log: console.log, debug: console.debug }
  const skipsBySuite = new Map()
  let running = { suite: '', spec: '' }
  const listen = (...args) => {
    const text = args.map(String).join(' ')
    const suite = text.match(/OHOS_REPORT_STATUS: class=(.*)/)
    const spec = text.match(/OHOS_REPORT_STATUS: test=(.*)/)
    if (suite && spec) running = { suite: suite[1], spec: spec[1] }
    if (text.startsWith('SKIPPED ')) {
      const specs = skipsBySuite.get(running.suite) ?? new Set()
      skipsBySuite.set(running.suite, specs.add(running.spec))
    }
    if (process.env.HYPIUM_VERBOSE) quiet.info(...args)
  }
  console.info = console.log = console.debug = listen
  let result
  try {
    suites = await import(pathToFileURL(bundle).href)
    result = await suites.runSuites({ '-s timeout': '30000', '-s arkagentTestServer': server.url })
  } finally {
    Object.assign(console, quiet)
  }
  exitCode = report(result, skipsBySuite)
} finally {
  await server.close()
  fs.rmSync(tmp, { recursive: true, force: true })
  suites?.cleanUp()
}
process.exit(exitCode)

function report({ suites, report: lines, violations, skipped }, skipsBySuite) {
  let pass = 0
  let bad = 0
  let attributed = 0
  for (const suite of suites) {
    const ok = suite.specs.filter((s) => s.status === 'pass').length
    const failed = suite.specs.length - ok
    // A case that reported itself skipped passed in hypium's eyes: shown as skipped, not as passed.
    const skips = suite.specs.filter((s) => s.status === 'pass' && (skipsBySuite.get(suite.name)?.has(s.name) ?? false)).length
    attributed += skips
    pass += ok
    bad += failed
    console.log(`${failed === 0 && suite.hookError === '' ? 'ok  ' : 'FAIL'} ${suite.name}: ${ok - skips}/${suite.specs.length} passed` +
      (skips > 0 ? `, ${skips} skipped` : ''))
    for (const s of suite.specs.filter((x) => x.status !== 'pass')) console.log(`     ${s.status}: ${s.name}\n       ${s.message.split('\n').join('\n       ')}`)
    if (suite.hookError !== '') {
      bad++
      console.log(`     hook error: ${suite.hookError}`)
    }
  }
  for (const v of violations) console.log(`FAIL fake system module: ${v}`)
  // Device-only cases report themselves skipped; hypium counts them as passed, the lines above do not.
  for (const line of skipped) console.log(`     ${line}`)
  if (attributed !== skipped.length) console.log(`     (${skipped.length} skip lines, ${attributed} attributed to a case)`)
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
