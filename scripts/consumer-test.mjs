// Part of `npm test`: the npm package as a stranger gets it. Builds @arkagent/core, packs it,
// installs the tarball into an empty project, runs a scripted session from plain ESM JavaScript,
// type-checks a TypeScript consumer under moduleResolution node16 and bundler, and runs publint and
// @arethetypeswrong/cli on the tarball. Prints one line per check and "N passed, N failed".
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { repoRoot } from './sync-core.mjs'

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
let passed = 0
let failed = 0
function step(name, fn) {
  try {
    const note = fn()
    passed++
    console.log(`ok   ${name}${note ? `: ${note}` : ''}`)
  } catch (e) {
    failed++
    console.log(`FAIL ${name}\n${String(e.stdout ?? '')}${String(e.stderr ?? '')}${e.message}`.trimEnd())
  }
}
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-consumer-'))
let tarball = ''
try {
  step('build and pack @arkagent/core', () => {
    run(npm, ['run', 'build', '--silent'], repoRoot)
    const out = run(npm, ['pack', '--json', '--pack-destination', work], path.join(repoRoot, 'shared-ts'))
    const info = JSON.parse(out)[0]
    tarball = path.join(work, info.filename)
    const files = info.files.map((f) => f.path)
    for (const required of ['README.md', 'LICENSE', 'package.json', 'dist/index.js', 'dist/index.d.ts']) {
      if (!files.includes(required)) throw new Error(`the tarball lacks ${required}`)
    }
    if (files.some((f) => f.startsWith('test/') || f.includes('.test.'))) throw new Error('the tarball ships tests')
    return `${info.filename}, ${files.length} files`
  })
  const app = path.join(work, 'app')
  fs.mkdirSync(app)
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2))
  step('npm install the tarball into an empty project', () => {
    run(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], app)
    return ''
  })
  step('a scripted session from plain ESM JavaScript', () => {
    fs.copyFileSync(path.join(repoRoot, 'scripts', 'consumer', 'session.mjs'), path.join(app, 'session.mjs'))
    return run(process.execPath, ['session.mjs'], app).trim()
  })
  const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc')
  fs.copyFileSync(path.join(repoRoot, 'scripts', 'consumer', 'consumer.ts'), path.join(app, 'consumer.ts'))
  for (const [resolution, module] of [['node16', 'node16'], ['bundler', 'esnext']]) {
    step(`type-check a TypeScript consumer (moduleResolution ${resolution})`, () => {
      run(process.execPath, [tsc, '--noEmit', '--strict', '--skipLibCheck', 'false', '--target', 'es2022',
        '--module', module, '--moduleResolution', resolution, '--types', 'node', '--typeRoots',
        path.join(repoRoot, 'node_modules', '@types'), 'consumer.ts'], app)
      return ''
    })
  }
  step('publint on the tarball', () => {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules', 'publint', 'src', 'cli.js'), tarball, '--strict'],
      { encoding: 'utf8' })
    if (r.status !== 0) throw Object.assign(new Error(`publint exited ${r.status}`), { stdout: r.stdout, stderr: r.stderr })
    return r.stdout.trim().split('\n').pop()
  })
  step('@arethetypeswrong/cli on the tarball', () => {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js'),
      tarball, '--profile', 'esm-only', '--format', 'ascii'], { encoding: 'utf8' })
    if (r.status !== 0) throw Object.assign(new Error(`attw exited ${r.status}`), { stdout: r.stdout, stderr: r.stderr })
    return 'no problems'
  })
} finally {
  fs.rmSync(work, { recursive: true, force: true })
}
console.log(`${passed} passed, ${failed} failed`)
process.exitCode = failed === 0 ? 0 : 1
