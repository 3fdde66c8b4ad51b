// docs/compaction.md, the first example, verbatim between the markers, with what it takes for granted
// defined first: an API key, a transport, a second model for summaries and a model.
import assert from 'node:assert/strict'
import {
  CompactionOptions, createAgent, FetchTransport, OpenAICompatibleProvider, ProviderPresets, ScriptedProvider, ScriptedTurn,
} from '@arkagent/core'

const key = 'sk-snippet-test-key'
const transport = new FetchTransport()
const cheapModel = new ScriptedProvider([ScriptedTurn.text('a summary')])
const model = new ScriptedProvider([ScriptedTurn.text('hello')])

// ---- snippet: docs/compaction.md ----
// On by default through createAgent when the provider knows its window (every preset but ollama/vllm):
const { runtime } = createAgent({ sessionId: 'chat', model: OpenAICompatibleProvider.fromPreset(ProviderPresets.deepseek, { apiKey: key, transport }) })

// Explicit options (and the way to turn it on for a local server):
const o = new CompactionOptions()
o.contextWindow = 32768        // 0: the provider's
o.outputReserve = 4096         // -1: the provider's, else a quarter of the window up to 4,096
o.summaryProvider = cheapModel // optional: another model writes the summaries
createAgent({ sessionId: 'chat', model, compaction: o })   // compaction: false turns it off
// ---- end of snippet ----

assert.equal(runtime.sessionId, 'chat')
assert.equal(o.contextWindow, 32768)
// The options object configures another agent as well.
const agent = createAgent({ sessionId: 'chat2', model, compaction: o })
assert.equal((await agent.runtime.run('hi')).status, 'completed')
console.log('ok')
