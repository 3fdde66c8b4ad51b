// docs/mcp.md, "The server talking back" (Node), verbatim between the markers: the example server
// (examples/mcp/ask-server.mjs) asks the user for a note's new name while its tool runs; the app answers
// through the controller. The model is scripted (it calls rename_note, then answers). Run from a folder
// that holds `examples/` (examples/snippets/DocSnippets.test.ts does that, in a temporary folder).
import assert from 'node:assert/strict'
import { ScriptedProvider, ScriptedTurn } from '@arkagent/core'

const model = new ScriptedProvider([new ScriptedTurn().call('c1', 'notes__rename_note', '{"from":"groceries"}'),
  ScriptedTurn.text('Renamed.')])

// ---- snippet: docs/mcp.md ----
import { AgentController, ControllerEventTypes, createAgent, ElicitationKind, ElicitationRequiredEvent,
  SamplingPolicy } from '@arkagent/core'
import { McpToolSource } from '@arkagent/core/mcp'

const controller = new AgentController()                  // made first: the source takes its serverRequests
const notes = new McpToolSource({
  name: 'notes', command: 'node', args: ['examples/mcp/ask-server.mjs'],
  elicitation: controller.serverRequests,                 // the server may ask the user (a form)...
  sampling: controller.serverRequests,                    // ...or the model (this agent's provider and hooks)
  roots: ['file:///home/me/notes'],                       // the only directories it is told of
})
controller.subscribe(ControllerEventTypes.elicitationRequired, (e) => {
  const asked = (e as ElicitationRequiredEvent).elicitation  // written to storage before this event
  if (asked.kind === ElicitationKind.input) {             // a form: asked.message, asked.requestedSchema()
    void controller.serverRequests.accept(asked.elicitationId, { to: 'shopping' })
  } else {                                                // sampling: asked.message is what the model would get
    void controller.serverRequests.decline(asked.elicitationId, 'not now')
  }
})
const { runtime } = createAgent({ sessionId: 'main', model, controller, samplingPolicy: SamplingPolicy.ask,
  tools: await notes.tools() })
const outcome = await runtime.run('Rename my groceries note')
await notes.close()
// ---- end of snippet ----

assert.equal(outcome.status, 'completed')
const result = runtime.snapshot().history.find((m) => m.toolCallId === 'c1')
assert.equal(result?.text(), 'renamed groceries to shopping')
console.log('ok')
