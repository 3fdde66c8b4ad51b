// A stdio MCP server that does not start is reported in its own words (the end of its stderr,
// redacted); a server that writes much to stderr while it works is never held up by it.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { ArkAgentError, ErrorCodes, SecretVault } from '../../src/index'
import { McpToolSource } from '../../src/mcp'

const repoRoot = path.resolve(__dirname, '../../..')

const sources: McpToolSource[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const s of sources.splice(0)) await s.close()
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

async function failureOf(source: McpToolSource): Promise<ArkAgentError> {
  sources.push(source)
  try {
    await source.tools()
  } catch (e) {
    expect(e).toBeInstanceOf(ArkAgentError)
    return e as ArkAgentError
  }
  throw new Error('the server started')
}

it('a server that exits at startup: the error carries the end of what it wrote to stderr', async () => {
  const e = await failureOf(new McpToolSource({ name: 'broken', command: process.execPath,
    args: ['-e', "console.error('starting'); console.error(\"Error: Cannot find module 'notes-db'\"); process.exit(3)"] }))
  expect(e.code).toBe(ErrorCodes.toolExecutionFailed)
  expect(e.message).toContain("MCP server 'broken': connecting failed")
  expect(e.message).toContain("Cannot find module 'notes-db'")
})

it('a server that fails on a missing package: the error names the package, not only stack frames', async () => {
  const e = await failureOf(new McpToolSource({ name: 'missing', command: process.execPath,
    args: ['--input-type=module', '-e', "await import('no-such-mcp-package-4711')"] }))
  expect(e.message).toContain("Cannot find package 'no-such-mcp-package-4711'")
})

// The vault is per process (each test file runs in its own): the token stays registered for the rest of this file.
it('a secret the server prints to stderr never reaches the error', async () => {
  const token = 'mcp-token-7f3a9c1e5b2d4086'
  SecretVault.register(token)
  const e = await failureOf(new McpToolSource({ name: 'leaky', command: process.execPath,
    args: ['-e', `console.error('bad token ${token}'); process.exit(1)`] }))
  expect(e.message).toContain('bad token')
  expect(e.message).not.toContain(token.slice(4, 16))
})

it('a server silent on stderr fails as before, with no stderr note', async () => {
  const e = await failureOf(new McpToolSource({ name: 'quiet', command: process.execPath, args: ['-e', 'process.exit(1)'] }))
  expect(e.message).not.toContain('stderr')
})

it('a server writing megabytes to stderr before and while it works still answers', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-stderr-'))
  dirs.push(dir)
  const script = path.join(dir, 'noisy.mjs')
  fs.writeFileSync(script, `import { notesServer } from ${JSON.stringify(path.join(repoRoot, 'examples/mcp/notes-server.mjs'))}
import { StdioServerTransport } from ${JSON.stringify(path.join(repoRoot, 'node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.js'))}
process.stderr.write('x'.repeat(4 << 20) + '\\n')
setInterval(() => process.stderr.write('y'.repeat(65536) + '\\n'), 1).unref()
await notesServer().connect(new StdioServerTransport())
`)
  const source = new McpToolSource({ name: 'noisy', command: process.execPath, args: [script] })
  sources.push(source)
  const tools = await source.tools()
  const read = tools.find((t) => t.definition.name === 'noisy__read_note')
  expect(read).toBeDefined()
  const names = tools.map((t) => t.definition.name)
  expect(names).toContain('noisy__list_notes')
})
