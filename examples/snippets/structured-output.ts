// docs/structured-output.md, the first example, verbatim between the markers, with what it takes for granted
// defined first: a model (here one that answers with a ticket).
import assert from 'node:assert/strict'
import { ScriptedProvider, ScriptedTurn } from '@arkagent/core'

const model = new ScriptedProvider([ScriptedTurn.text('{"title":"Printer on fire (floor 3)","priority":"high"}')])

// ---- snippet: docs/structured-output.md ----
import { createAgent, OutputSchema } from '@arkagent/core'

const ticket = OutputSchema.fromJson({
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1 },
    priority: { enum: ['low', 'high'] },
  },
  required: ['title', 'priority'],
  additionalProperties: false,
}, 'ticket')

const agent = createAgent({
  sessionId: 'support-42',
  model,                     // e.g. OpenAICompatibleProvider.fromPreset(ProviderPresets.deepseek, { apiKey: key, transport })
  outputSchema: ticket,      // or the JSON Schema object itself (named 'final_answer')
  outputRepairs: 2,          // repair turns for invalid answers (the default)
})
const outcome = await agent.runtime.run('The printer on floor 3 is on fire')
if (outcome.hasOutput) {
  console.log(outcome.output) // { title: 'Printer on fire (floor 3)', priority: 'high' }
}
// ---- end of snippet ----

assert.equal(outcome.status, 'completed')
assert.deepEqual(outcome.output, { title: 'Printer on fire (floor 3)', priority: 'high' })
assert.equal(model.requests[0].output?.name, 'ticket')
console.log('ok')
