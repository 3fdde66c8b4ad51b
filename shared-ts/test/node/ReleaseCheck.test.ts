// The release check (scripts/check-release.mjs, part of `npm test`) on copies of the repository's
// release files: it passes as committed and fails on each kind of drift.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

const root = path.resolve(__dirname, '../../..')
const FILES = ['package.json', 'shared-ts/package.json', 'agent_core/oh-package.json5', 'AppScope/app.json5', 'CHANGELOG.md',
  'agent_core/CHANGELOG.md', 'LICENSE', 'shared-ts/LICENSE', 'agent_core/LICENSE', 'shared-ts/README.md', 'agent_core/README.md']
const dirs: string[] = []
afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }) })

function copy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-release-'))
  dirs.push(dir)
  for (const f of FILES) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true })
    fs.copyFileSync(path.join(root, f), path.join(dir, f))
  }
  return dir
}

function check(dir: string): { status: number | null, out: string } {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'check-release.mjs'), dir], { encoding: 'utf8' })
  return { status: r.status, out: `${r.stdout}${r.stderr}` }
}

function edit(dir: string, file: string, from: RegExp, to: string): void {
  const p = path.join(dir, file)
  fs.writeFileSync(p, fs.readFileSync(p, 'utf8').replace(from, to))
}

describe('release check', () => {
  it('passes on the committed files', () => {
    expect(check(copy()).status).toBe(0)
  })

  it('fails when the HAR, the npm package, the root or the app drift apart', () => {
    for (const [file, from, to] of [
      ['agent_core/oh-package.json5', /"version": "[^"]+"/, '"version": "9.9.9"'],
      ['package.json', /"version": "[^"]+"/, '"version": "9.9.9"'],
      ['AppScope/app.json5', /"versionName": "[^"]+"/, '"versionName": "9.9.9"'],
    ] as const) {
      const dir = copy()
      edit(dir, file, from, to)
      const r = check(dir)
      expect(r.status).toBe(1)
      expect(r.out).toContain('9.9.9')
    }
  })

  it('fails without a changelog entry for the version, or when the HAR changelog is not the same file', () => {
    const noEntry = copy()
    edit(noEntry, 'CHANGELOG.md', /^## \[\d+\.\d+\.\d+\].*$/m, '## [0.0.0]')
    expect(check(noEntry).out).toContain('has no "## [')
    const differs = copy()
    fs.appendFileSync(path.join(differs, 'agent_core/CHANGELOG.md'), '\nextra\n')
    expect(check(differs).out).toContain('agent_core/CHANGELOG.md differs')
  })

  it('fails when a license or README is missing', () => {
    const dir = copy()
    fs.rmSync(path.join(dir, 'agent_core/LICENSE'))
    expect(check(dir).out).toContain('agent_core/LICENSE is missing')
  })
})
