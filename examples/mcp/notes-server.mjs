// An MCP server (official SDK) over stdio, with no network: notes in memory. Used by the tests and
// by `npm run chat -- --mcp "node examples/mcp/notes-server.mjs"`.
// Tools: list_notes (read-only), read_note (read-only), add_note (not destructive), delete_note
// (destructive), chart (returns an image), note_card (structured content, an embedded resource and a
// resource link), enable_archive (adds a tool: the list changes). With faults (NOTES_SERVER_FAULTS=1,
// for tests only — a real model must not be offered them): crash (the process dies mid-call), hang
// (never answers).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export function notesServer({ faults = process.env.NOTES_SERVER_FAULTS === '1' } = {}) {
  const notes = new Map([['welcome', 'Hello from the notes server.']])
  const server = new McpServer({ name: 'notes', version: '1.0.0' })
  server.registerTool('list_notes', { description: 'List the note names', annotations: { readOnlyHint: true } },
    async () => ({ content: [{ type: 'text', text: [...notes.keys()].join('\n') }] }))
  server.registerTool('read_note', { description: 'Read a note', inputSchema: { name: z.string() }, annotations: { readOnlyHint: true } },
    async ({ name }) => notes.has(name)
      ? { content: [{ type: 'text', text: notes.get(name) }] }
      : { content: [{ type: 'text', text: `No note named ${name}` }], isError: true })
  server.registerTool('add_note', { description: 'Add a note', inputSchema: { name: z.string(), text: z.string() },
    annotations: { readOnlyHint: false, destructiveHint: false } },
  async ({ name, text }) => { notes.set(name, text); return { content: [{ type: 'text', text: `saved ${name}` }] } })
  server.registerTool('delete_note', { description: 'Delete a note', inputSchema: { name: z.string() }, annotations: { destructiveHint: true } },
    async ({ name }) => { notes.delete(name); return { content: [{ type: 'text', text: `deleted ${name}` }] } })
  server.registerTool('chart', { description: 'A tiny chart as an image', annotations: { readOnlyHint: true } },
    async () => ({ content: [{ type: 'text', text: 'chart attached' }, { type: 'image', mimeType: 'image/png', data: Buffer.from('PNGDATA').toString('base64') }] }))
  server.registerTool('note_card', {
    description: 'A note as structured data, with the note itself as a resource',
    inputSchema: { name: z.string() },
    outputSchema: { name: z.string(), length: z.number() },
    annotations: { readOnlyHint: true },
  }, async ({ name }) => {
    const card = { name, length: (notes.get(name) ?? '').length }
    return {
      content: [
        { type: 'text', text: JSON.stringify(card) },
        { type: 'resource', resource: { uri: `notes://${name}`, mimeType: 'text/plain', text: notes.get(name) ?? '' } },
        { type: 'resource_link', uri: `notes://${name}`, name, mimeType: 'text/plain' },
      ],
      structuredContent: card,
    }
  })
  if (faults) {
    server.registerTool('crash', { description: 'Dies mid-call', annotations: { readOnlyHint: true } },
      async () => { setTimeout(() => process.exit(3), 5); return new Promise(() => {}) })
    server.registerTool('hang', { description: 'Never answers', annotations: { readOnlyHint: true } },
      async () => new Promise(() => {}))
  }
  server.registerTool('enable_archive', { description: 'Adds the archive_note tool', annotations: { readOnlyHint: true } },
    async () => {
      server.registerTool('archive_note', { description: 'Archive a note', inputSchema: { name: z.string() }, annotations: { readOnlyHint: false, destructiveHint: false } },
        async ({ name }) => ({ content: [{ type: 'text', text: `archived ${name}` }] }))
      return { content: [{ type: 'text', text: 'archive enabled' }] }
    })
  return server
}

// Run as a program (not imported): compared by real path, so a symlinked or relative path works too.
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await notesServer().connect(new StdioServerTransport())
}
