// An MCP server (official SDK) over stdio, with no network, that talks back while its tools run
// (docs/mcp.md, "The server talking back"). Tools: rename_note (asks the user for the new name:
// elicitation), summarize_note (asks the client's model: sampling), where (lists the client's roots).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { z } from 'zod'
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export function askServer() {
  const notes = new Map([['groceries', 'milk, eggs, coffee']])
  const server = new McpServer({ name: 'notes', version: '1.0.0' })
  server.registerTool('rename_note', { description: 'Rename a note; asks the user for the new name',
    inputSchema: { from: z.string() }, annotations: { readOnlyHint: false, destructiveHint: false } },
  async ({ from }) => {
    const answer = await server.server.elicitInput({ message: `New name for "${from}"?`,
      requestedSchema: { type: 'object', properties: { to: { type: 'string', minLength: 1 } }, required: ['to'] } })
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: `not renamed (${answer.action})` }] }
    notes.set(answer.content.to, notes.get(from) ?? '')
    notes.delete(from)
    return { content: [{ type: 'text', text: `renamed ${from} to ${answer.content.to}` }] }
  })
  server.registerTool('summarize_note', { description: 'Summarize a note with the client\'s model',
    inputSchema: { name: z.string() }, annotations: { readOnlyHint: true } },
  async ({ name }) => {
    const answer = await server.server.createMessage({ maxTokens: 100,
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${notes.get(name) ?? ''}` } }] })
    return { content: [{ type: 'text', text: answer.content.type === 'text' ? answer.content.text : '(no text)' }] }
  })
  server.registerTool('where', { description: 'The directories the client allows', annotations: { readOnlyHint: true } },
    async () => ({ content: [{ type: 'text', text: (await server.server.listRoots()).roots.map((r) => r.uri).join('\n') }] }))
  return server
}

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await askServer().connect(new StdioServerTransport())
}
