// `npm test`: type check, ArkTS lint, the vitest suites; ends with "N passed, N failed".
// Each check (type check, lint) counts as one test; hypium and vitest contribute their own test counts.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const extraArgs = process.argv.slice(2)
let passed = 0
let failed = 0
const lines = []

function check(name, cmd, args) {
  console.log(`\n== ${name}`)
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' })
  if (r.status === 0) passed++
  else failed++
  lines.push(`${r.status === 0 ? 'ok  ' : 'FAIL'} ${name}`)
}

/** Scripts that count their own tests (hypium, the consumer test): last line "… P passed, F failed". */
function counted(name, script) {
  console.log(`\n== ${name}`)
  const r = spawnSync(process.execPath, [script], { cwd: root, encoding: 'utf8' })
  process.stdout.write(r.stdout ?? '')
  process.stderr.write(r.stderr ?? '')
  const m = /(\d+) passed, (\d+) failed\s*$/.exec((r.stdout ?? '').trim())
  if (m === null) {
    failed++
    lines.push(`FAIL ${name}: no test count (exit ${r.status})`)
    return
  }
  const [p, f] = [Number(m[1]), Number(m[2])]
  passed += p
  failed += f
  if (r.status !== 0 && f === 0) failed++
  lines.push(`${r.status === 0 && f === 0 ? 'ok  ' : 'FAIL'} ${name}: ${p} passed, ${f} failed`)
}

check('type check', process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json', '--noEmit'])
check('ArkTS lint (core)', process.execPath, ['scripts/arkts-lint.mjs'])
for (const extra of ['scripts/check-har-sync.mjs', 'scripts/arkts-lint-har.mjs', 'scripts/check-release.mjs',
  'scripts/check-consumer-rules.mjs', 'scripts/check-architecture.mjs']) {
  if (fs.existsSync(path.join(root, extra))) check(path.basename(extra, '.mjs'), process.execPath, [extra])
}
if (fs.existsSync(path.join(root, 'scripts/hypium-node.mjs'))) counted('hypium (HAR suites under Node)', 'scripts/hypium-node.mjs')
// The npm package as a stranger installs it (build, pack, install, run, type-check, publint, attw).
if (fs.existsSync(path.join(root, 'scripts/consumer-test.mjs'))) counted('consumer (packed @arkagent/core)', 'scripts/consumer-test.mjs')
// The public API: the reference builds without warnings, every export documented; the report matches.
if (fs.existsSync(path.join(root, 'scripts/api-check.mjs'))) counted('API reference and report', 'scripts/api-check.mjs')

console.log('\n== vitest')
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-vitest-')), 'report.json')
const v = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json',
  `--outputFile.json=${report}`, ...extraArgs], { cwd: root, stdio: 'inherit' })
if (fs.existsSync(report)) {
  const json = JSON.parse(fs.readFileSync(report, 'utf8'))
  passed += json.numPassedTests
  failed += json.numFailedTests
  lines.push(`${json.numFailedTests === 0 && v.status === 0 ? 'ok  ' : 'FAIL'} vitest: ${json.numPassedTests} passed, ${json.numFailedTests} failed`)
  if (v.status !== 0 && json.numFailedTests === 0) {
    failed++
    lines.push('FAIL vitest exited non-zero (a suite failed to load or an error outside tests)')
  } else if (json.numTotalTests === 0 || (json.success === false && json.numFailedTests === 0)) {
    // vitest can exit 0 after an error in its global setup, having run nothing.
    failed++
    lines.push(`FAIL vitest ${json.numTotalTests === 0 ? 'ran no test' : 'reported an error outside the tests'}`)
  }
} else {
  failed++
  lines.push('FAIL vitest produced no report')
}

console.log('\n== summary')
for (const l of lines) console.log(l)
console.log(`${passed} passed, ${failed} failed`)
process.exitCode = failed === 0 ? 0 : 1
