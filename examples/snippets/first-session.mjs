// shared-ts/README.md, "A first session", verbatim between the markers; the checks after it run too
// (examples/snippets/DocSnippets.test.ts runs every file here).
import assert from 'node:assert/strict'

// ---- snippet: shared-ts/README.md ----
import { AgentRuntime, AgentRuntimeConfig, FunctionTool, MemoryStateStorage, ScriptedProvider, ScriptedTurn,
  ToolDefinition, ToolRegistry, ToolRiskLevel } from '@arkagent/core'

const deleteFile = new FunctionTool(
  new ToolDefinition('delete_file', 'Deletes a file', { type: 'object', properties: { path: { type: 'string' } } },
    ToolRiskLevel.dangerous),
  async (args) => `deleted ${args.path}`)

// A scripted model for the example; use OpenAICompatibleProvider.fromPreset(ProviderPresets.deepseek, { apiKey: key, transport: new FetchTransport() }) for a real one.
const model = ScriptedProvider.fromFunction((request) =>
  request.messages[request.messages.length - 1].role === 'user'
    ? ScriptedTurn.text('Deleting it.').call('c1', 'delete_file', '{"path":"/tmp/x"}')
    : ScriptedTurn.text('Done.'))

const config = new AgentRuntimeConfig('my-session', model)
config.tools = new ToolRegistry([deleteFile])                       // dangerous tools wait for approval (config.approvalPolicy)
config.storage = new MemoryStateStorage()                           // FileStateStorage(dir) on disk
const runtime = new AgentRuntime(config)

const outcome = await runtime.run('Delete /tmp/x')                  // suspended: awaiting approval
const batch = runtime.controller.pendingBatch()
await runtime.controller.approve(batch.items[0].approvalId)        // the continuation runs the tool once
await runtime.whenIdle()
// ---- end of snippet ----

assert.equal(outcome.stopReason, 'awaiting_approval')
const answers = runtime.snapshot().history.filter((m) => m.role === 'tool').map((m) => m.text())
assert.deepEqual(answers, ['deleted /tmp/x'])
assert.equal(runtime.snapshot().status, 'completed')
console.log('ok')
