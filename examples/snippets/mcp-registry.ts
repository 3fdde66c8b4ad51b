// docs/mcp.md, "With createAgent, give it the registry", verbatim between the markers, with what it
// takes for granted defined first: an MCP source `notes` (the example server over stdio) and a model.
import assert from 'node:assert/strict'
import { createAgent, ScriptedProvider, ScriptedTurn, ToolRegistry } from '@arkagent/core'
import { McpToolSource } from '@arkagent/core/mcp'

const notes = new McpToolSource({ name: 'notes', command: 'node', args: ['examples/mcp/notes-server.mjs'] })
const model = ScriptedProvider.fromFunction((r) => r.messages[r.messages.length - 1].role === 'tool'
  ? ScriptedTurn.text('done') : ScriptedTurn.text('').call('c1', 'notes__delete_note', '{"name":"groceries"}'))

// ---- snippet: docs/mcp.md ----
const registry = new ToolRegistry(await notes.tools())
const { runtime } = createAgent({ sessionId: 'main', model, registry, hooks: [notes.refreshHook(registry)] })
// ---- end of snippet ----

try {
  const outcome = await runtime.run('Delete my groceries note')
  assert.equal(outcome.stopReason, 'awaiting_approval')
  assert.deepEqual(runtime.controller.listPendingApprovals().map((p) => p.toolCall.name), ['notes__delete_note'])
  assert.ok(registry.definition('notes__read_note') !== undefined)
} finally {
  await notes.close()
}
console.log('ok')
