// A run with a failing test must exit non-zero, whoever starts it: `npx vitest run`, an IDE, another
// CI. The run below uses the repository's own configuration, global setups included (the PostgreSQL
// server they start once lived in this process and its package's exit hook turned status 1 into 0).
import { spawn } from 'node:child_process'
import path from 'node:path'
import { expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../../..')

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null, out: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    p.stdout.on('data', (d) => { out += String(d) })
    p.stderr.on('data', (d) => { out += String(d) })
    p.once('error', reject)
    p.once('exit', (code) => resolve({ code, out }))
  })
}

it('vitest run with the repository configuration exits non-zero when a test fails (PostgreSQL global setup included)', async () => {
  const env = { ...process.env }
  // Its own server, started and stopped by the global setup as in a plain `npx vitest run`.
  delete env.ARKAGENT_PG_URL
  delete env.VITEST
  delete env.VITEST_POOL_ID
  delete env.VITEST_WORKER_ID
  delete env.NODE_OPTIONS
  const r = await run(['node_modules/vitest/vitest.mjs', 'run', '--config',
    'shared-ts/test/runners/fixtures/exit-status.vitest.config.ts'], env)
  expect(r.out).toMatch(/1 failed/)
  expect(r.out).toMatch(/1 passed/)
  expect(r.code, r.out.slice(-3000)).toBe(1)
}, 600_000)
