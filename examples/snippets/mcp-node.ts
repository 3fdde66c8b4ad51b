// docs/mcp.md, "Ten lines (Node)", verbatim between the markers. DeepSeek is played by a local fake
// of its streaming API (global fetch, which FetchTransport uses): the model asks to delete a note,
// and the destructive MCP call must wait for approval. Run from a folder that holds `examples/`
// (examples/snippets/DocSnippets.test.ts does that, in a temporary folder).
import assert from 'node:assert/strict'

const seen: string[] = []
process.env.DEEPSEEK_API_KEY = process.env.DEEPSEEK_API_KEY ?? 'sk-snippet-test-key'
globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const url = String(input instanceof Request ? input.url : input)
  assert.ok(url.startsWith('https://api.deepseek.com/'), url)
  const body = JSON.parse(String(init?.body)) as { tools?: Array<{ function: { name: string } }> }
  seen.push(...(body.tools ?? []).map((t) => t.function.name))
  const chunk = (o: object): string => `data: ${JSON.stringify(o)}\n\n`
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-chat' }
  const sse = chunk({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'Deleting it.' }, finish_reason: null }] }) +
    chunk({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function',
      function: { name: 'notes__delete_note', arguments: '{"name":"groceries"}' } }] }, finish_reason: null }] }) +
    chunk({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }) + 'data: [DONE]\n\n'
  return new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } })
}

// ---- snippet: docs/mcp.md ----
import { createAgent, FetchTransport, FileStateStorage, OpenAICompatibleProvider, ProviderPresets } from '@arkagent/core'
import { McpToolSource } from '@arkagent/core/mcp'

const notes = new McpToolSource({ name: 'notes', command: 'node', args: ['examples/mcp/notes-server.mjs'] })
const { runtime, controller } = createAgent({
  sessionId: 'main',
  model: OpenAICompatibleProvider.fromPreset(ProviderPresets.deepseek, { apiKey: process.env.DEEPSEEK_API_KEY ?? '', transport: new FetchTransport() }),
  tools: await notes.tools(),                       // notes__read_note, notes__delete_note, ...
  storage: new FileStateStorage('.sessions'),
})
const outcome = await runtime.run('Clean up my notes')  // a destructive MCP tool waits: controller.approve(...)
await notes.close()                                     // ends the server process (Node would wait for it)
// ---- end of snippet ----

assert.ok(seen.includes('notes__delete_note'), 'the model was offered the MCP tools')
assert.equal(outcome.stopReason, 'awaiting_approval')
assert.deepEqual(controller.listPendingApprovals().map((p) => [p.toolCall.name, p.riskLevel]),
  [['notes__delete_note', 'dangerous']])
console.log('ok')
