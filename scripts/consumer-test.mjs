// Part of `npm test`: the npm package as a stranger gets it. Builds @arkagent/core, packs it,
// installs the tarball into an empty project (it must bring nothing else: its peers are optional),
// loads the main entries without the peers, runs a scripted session from plain ESM JavaScript, then
// installs the peers and runs the optional entries (@arkagent/core/mcp, @arkagent/core/zod),
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

/** What installing @arkagent/core alone may put in node_modules (the package is dist + src). */
const MAX_INSTALL_BYTES = 8 * 1024 * 1024
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/** The packages under a node_modules folder (scoped ones as @scope/name). */
function packagesIn(dir) {
  const out = []
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (name.startsWith('.')) continue
    if (name.startsWith('@')) for (const sub of fs.readdirSync(path.join(dir, name))) out.push(`${name}/${sub}`)
    else out.push(name)
  }
  return out
}

/** Bytes of the files under `p` (links not followed). */
function sizeOf(p) {
  const st = fs.lstatSync(p)
  if (!st.isDirectory()) return st.size
  let n = 0
  for (const e of fs.readdirSync(p)) n += sizeOf(path.join(p, e))
  return n
}

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
  step('the install carries @arkagent/core alone (its peers are optional)', () => {
    const installed = packagesIn(path.join(app, 'node_modules'))
    const others = installed.filter((p) => p !== '@arkagent/core')
    if (others.length > 0) throw new Error(`installed besides @arkagent/core: ${others.join(', ')}`)
    const bytes = sizeOf(path.join(app, 'node_modules'))
    if (bytes > MAX_INSTALL_BYTES) throw new Error(`node_modules holds ${mb(bytes)}, over the ${mb(MAX_INSTALL_BYTES)} budget`)
    return `1 package, ${mb(bytes)} (budget ${mb(MAX_INSTALL_BYTES)})`
  })
  step('the main entries load without the optional peers', () => {
    return run(process.execPath, ['--input-type=module', '-e',
      "const m = await import('@arkagent/core'); const c = await import('@arkagent/core/core');" +
      "console.log(Object.keys(m).length + ' exports, core ' + Object.keys(c).length)"], app).trim()
  })
  step('one class per name across the entries, named as written in stack traces', () => {
    fs.copyFileSync(path.join(repoRoot, 'scripts', 'consumer', 'names.mjs'), path.join(app, 'names.mjs'))
    return run(process.execPath, ['names.mjs'], app).trim()
  })
  for (const [entry, peer] of [['@arkagent/core/mcp', '@modelcontextprotocol/sdk'], ['@arkagent/core/zod', 'zod']]) {
    step(`${entry} without ${peer} fails naming the missing package`, () => {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', `await import('${entry}')`], { cwd: app, encoding: 'utf8' })
      if (r.status === 0) throw new Error(`${entry} loaded without ${peer}`)
      if (!r.stderr.includes(`'${peer}'`)) throw new Error(`the error does not name ${peer}:\n${r.stderr}`)
      return ''
    })
  }
  step('a scripted session from plain ESM JavaScript', () => {
    fs.copyFileSync(path.join(repoRoot, 'scripts', 'consumer', 'session.mjs'), path.join(app, 'session.mjs'))
    return run(process.execPath, ['session.mjs'], app).trim()
  })
  step('install the optional peers (the versions this repository tests with)', () => {
    const peers = ['@modelcontextprotocol/sdk', 'zod'].map((p) =>
      `${p}@${JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', p, 'package.json'), 'utf8')).version}`)
    run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...peers], app)
    return peers.join(', ')
  })
  step('@arkagent/core/mcp and @arkagent/core/zod with their peers', () => {
    fs.copyFileSync(path.join(repoRoot, 'scripts', 'consumer', 'peers.mjs'), path.join(app, 'peers.mjs'))
    fs.copyFileSync(path.join(repoRoot, 'examples', 'mcp', 'notes-server.mjs'), path.join(app, 'notes-server.mjs'))
    return run(process.execPath, ['peers.mjs'], app).trim()
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
