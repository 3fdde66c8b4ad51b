// `npm run demo`: a scripted agent session on real files, across real process exits.
// No API key, no network, no input needed. `npm run demo -- --dir D` keeps the data in D.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { FileStateStorage } from '../shared-ts/src/index'
import { c, heading } from './demo-support'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '..')
const dirArg = process.argv.indexOf('--dir')
const dir = dirArg > 0 ? path.resolve(process.argv[dirArg + 1]) : fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-demo-'))
const sandbox = path.join(dir, 'sandbox')
fs.rmSync(path.join(dir, 'sessions'), { recursive: true, force: true })
fs.mkdirSync(sandbox, { recursive: true })
for (const name of ['report.pdf', 'notes.txt', 'cache.tmp']) fs.writeFileSync(path.join(sandbox, name), `${name}\n`)

function phase(name: string): number {
  const tsx = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs')
  const r = spawnSync(process.execPath, [tsx, path.join(here, 'demo-session.ts'), name, dir], {
    stdio: 'inherit',
    env: { ...process.env, ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {}) },
  })
  return r.status ?? 1
}

async function main(): Promise<void> {
  console.log(c.bold('ArkAgent demo') + c.dim(`  — data in ${dir}`))
  console.log(c.dim('A scripted model, real files, real process exits. Every event below comes from the event bus.'))

  heading('1. Streaming with a redaction hook, then a batch frozen for approval',
    'the service key would be on screen and in the stored history, and the delete would run unasked.')
  const askStatus = phase('ask')
  heading('2. The process exited. A new one restores the session from disk and decides',
    'the question would die with the process, and a crash mid-tool could run a tool twice (each call is marked started on disk first).')
  const decideStatus = phase('decide')
  heading('3. An agent that loops: warned once, then stopped',
    'the agent would call check_build until maxTurns — 25 model calls, each one paid for.')
  const loopStatus = phase('loop')

  heading('Summary (read back from disk)')
  const storage = new FileStateStorage(path.join(dir, 'sessions'))
  const cleanup = await storage.load('cleanup')
  const looping = await storage.load('looping')
  const history = cleanup?.state.history ?? []
  const stored = history.map((m) => m.text()).join('\n')
  const checks: Array<[string, boolean]> = [
    ['the secret never reached the screen or the stored history', stored.includes('[REDACTED]') && !stored.includes('sk-live')],
    ['the approval batch survived the process exit', askStatus === 0 && decideStatus === 0],
    ['after approval the run completed with both tool results', cleanup?.state.status === 'completed' &&
      history.filter((m) => m.role === 'tool').length === 2],
    ['the denied deletion did not happen', fs.existsSync(path.join(sandbox, 'cache.tmp'))],
    ['the looping agent was stopped with loop_detected', loopStatus === 0 && looping?.state.lastError?.code === 'loop_detected'],
  ]
  for (const [what, ok] of checks) console.log(`  ${ok ? c.green('✓') : c.red('✗')} ${what}`)
  const failed = checks.filter(([, ok]) => !ok).length
  console.log(failed === 0 ? c.green('\nAll demo checks passed.') : c.red(`\n${failed} demo check(s) failed.`))
  if (dirArg < 0) fs.rmSync(dir, { recursive: true, force: true })
  process.exitCode = failed === 0 ? 0 : 1
}

main().catch((e: unknown) => {
  console.error(e)
  process.exitCode = 1
})
