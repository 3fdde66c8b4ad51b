import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(__dirname, '..')

describe('npm run demo', () => {
  it('runs non-interactively and shows redaction, approval across a process exit, resume, completion and a loop stop', () => {
    const r = spawnSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'examples/demo.ts'], {
      cwd: root,
      input: '',
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' },
      timeout: 240_000,
    })
    const out = r.stdout
    expect(r.status, r.stderr).toBe(0)
    expect(out).toContain('[REDACTED]')
    expect(out).not.toContain('sk-live')
    expect(out).toMatch(/approval required for the whole batch/)
    expect(out).toMatch(/2 approvals pending on disk\. This process now exits \(pid (\d+)\)/)
    expect(out).toMatch(/new process \(pid \d+\) restored the session: awaiting_approval/)
    const pids = [...out.matchAll(/\(pid (\d+)\)/g)].map((m) => m[1])
    expect(new Set(pids).size).toBe(2)
    expect(out).toContain('✗ denied delete_file')
    expect(out).toContain('■ completed complete')
    expect(out).toContain('model warned')
    expect(out).toContain('runtime/loop_detected')
    expect(out).toContain('All demo checks passed.')
    // Only the writes a guarantee rests on are shown; the safe call's wait is explained in one line.
    expect(out).toContain('saved awaiting_approval (mandatory)')
    expect(out).not.toMatch(/saved (after_|tool_started|resume)/)
    expect(out).toContain('list_files is safe but waits too: one call needs approval, so the whole batch freezes')
    expect(out.match(/Without it: /g)).toHaveLength(3)
  })
})

describe('README quick start example', () => {
  it('is shown in the README exactly as the file is', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8')
    const start = readme.indexOf('## Use it from Node\n\n```ts\n') + '## Use it from Node\n\n```ts\n'.length
    const block = readme.slice(start, readme.indexOf('```\n', start))
    expect(block).toBe(fs.readFileSync(path.join(root, 'examples', 'quickstart.ts'), 'utf8'))
  })

  it('suspends for approval, restores in a new runtime, approves and completes', () => {
    const r = spawnSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'examples/quickstart.ts'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 240_000,
    })
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout.split('\n')).toEqual([
      'awaiting_approval',
      'user: Please wipe the cache',
      'assistant: Removing the d**n cache.',
      'tool: cache wiped',
      'assistant: Cache wiped.',
      '',
    ])
  })
})
