// Every snippet of the docs that builds a runtime is one a test runs: a Node snippet appears verbatim
// in a file under examples/, and every file in examples/snippets/ runs (with the checks after its
// snippet) and exits 0. ArkTS snippets are linted by `npm run lint:har` (scripts/doc-snippets.mjs).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { describe, expect, inject, it } from 'vitest'
// @ts-ignore plain JavaScript
import { runtimeSnippets } from '../../scripts/doc-snippets.mjs'

const root = path.resolve(import.meta.dirname, '../..')
const here = path.join(root, 'examples', 'snippets')

interface Snippet { doc: string, line: number, body: string, platform: 'arkts' | 'node' }

/** Example files (not tests) that may hold a snippet verbatim. */
function exampleFiles(dir: string): string[] {
  const out: string[] = []
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) out.push(...exampleFiles(p))
    else if (/\.(ts|mjs)$/.test(e.name) && !e.name.endsWith('.test.ts')) out.push(p)
  }
  return out
}

/** Runs a snippet file with tsx from a fresh folder that holds `examples/` (so relative paths work, and what it writes goes there). */
function run(file: string, env: Record<string, string> = {}): ReturnType<typeof spawnSync> {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-snippet-'))
  fs.symlinkSync(path.join(root, 'examples'), path.join(cwd, 'examples'))
  try {
    return spawnSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), '--tsconfig',
      path.join(root, 'tsconfig.json'), file], { cwd, encoding: 'utf8', timeout: 240_000, env: { ...process.env, ...env } })
  } finally {
    fs.rmSync(cwd, { recursive: true, force: true })
  }
}

describe('documentation snippets that build a runtime', () => {
  const snippets = runtimeSnippets(root) as Snippet[]

  it('are found (the extraction itself works)', () => {
    expect(snippets.filter((s) => s.platform === 'node').length).toBeGreaterThanOrEqual(6)
    expect(snippets.filter((s) => s.platform === 'arkts').length).toBeGreaterThanOrEqual(4)
  })

  it('each Node snippet is verbatim in a file under examples/', () => {
    const files = exampleFiles(path.join(root, 'examples')).map((f) => ({ f, text: fs.readFileSync(f, 'utf8') }))
    const missing = snippets.filter((s) => s.platform === 'node' && !files.some((x) => x.text.includes(s.body)))
      .map((s) => `${s.doc}:${s.line}`)
    expect(missing).toEqual([])
  })

  const files = fs.readdirSync(here).filter((f) => /\.(ts|mjs)$/.test(f) && !f.endsWith('.test.ts')).sort()
  for (const name of files) {
    const needsPg = name === 'scaling.ts'
    it(`examples/snippets/${name} runs and its checks pass`, async () => {
      const env: Record<string, string> = {}
      let drop = async (): Promise<void> => {}
      if (needsPg) {
        const url = inject('pgUrl')
        if (url === '') {
          console.log(`examples/snippets/${name} skipped: ${inject('pgSkipReason')}`)
          return
        }
        // A database of its own: the snippet migrates the default schema.
        const db = `snippet_${process.pid}_${Date.now()}`
        const admin = new pg.Client({ connectionString: url })
        await admin.connect()
        await admin.query(`CREATE DATABASE ${db}`)
        await admin.end()
        const u = new URL(url)
        u.pathname = `/${db}`
        env.DATABASE_URL = u.toString()
        drop = async () => {
          const c = new pg.Client({ connectionString: url })
          await c.connect()
          await c.query(`DROP DATABASE ${db} WITH (FORCE)`)
          await c.end()
        }
      }
      try {
        const r = run(path.join(here, name), env)
        expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0)
        expect(String(r.stdout).trim().split('\n').pop()).toBe('ok')
      } finally {
        await drop()
      }
    })
  }
})
