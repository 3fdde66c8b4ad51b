// docs/approvals.md, "In code", verbatim between the markers, with what it takes for granted defined
// first: a model that asks to write a file twice, and the dangerous write tool. After it, the checks:
// the edit is what ran, the second call ran on the remembered grant, and the record says who decided.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as core from '@arkagent/core'

const written: string[] = []
const writeFile = new core.FunctionTool(new core.ToolDefinition('write_file', 'Write a text file', {
  type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } }, required: ['path', 'text'],
  additionalProperties: false }, core.ToolRiskLevel.dangerous), async (args) => { written.push(String(args.path)); return 'written' })
const model = core.ScriptedProvider.fromFunction((r) => {
  const results = r.messages.filter((m) => m.role === 'tool').length
  return results === 0 ? core.ScriptedTurn.text('').call('c1', 'write_file', '{"path":"/etc/motd","text":"hi"}')
    : results === 1 ? core.ScriptedTurn.text('').call('c2', 'write_file', '{"path":"/tmp/notes/b.txt","text":"b"}')
      : core.ScriptedTurn.text('done')
})
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'approvals-'))

// ---- snippet: docs/approvals.md ----
import { createAgent, FileStateStorage, PathPrefixMatcher } from '@arkagent/core'

const { runtime, controller } = createAgent({
  sessionId: 'notes-1', model, tools: [writeFile], storage: new FileStateStorage(dir),
  approvalDeadlineMs: 10 * 60_000,                                   // undecided after 10 minutes: denied
  grantMatchers: [new PathPrefixMatcher('under', 'path')],           // "always" may be limited to a folder
})
await runtime.run('save my notes')                                  // suspends: write_file is dangerous
const [item] = controller.listPendingApprovals()                    // item.expiresAtMs: when it lapses
const decided = await controller.approve(item.approvalId, {
  arguments: { path: '/tmp/notes/a.txt', text: 'hi' },               // the edit: checked, re-gated, run as is
  actor: 'alice@example.com', reason: 'not in /etc',
  remember: 'session', matcher: 'under', matcherParam: '/tmp/notes', // and always, under /tmp/notes, this session
})
if (!decided.ok) console.log(decided.error?.message)                // e.g. approval_edit_refused: still pending
await runtime.whenIdle()                                            // the run goes on; c2 runs on the grant
for (const d of controller.listDecisions()) {
  console.log(d.actor, d.channel, d.toolCall.argumentsJson, '->', d.executedCall?.argumentsJson)
}
// ---- end of snippet ----

assert.deepEqual(written, ['/tmp/notes/a.txt', '/tmp/notes/b.txt'])
const log = controller.listDecisions()
assert.deepEqual(log.map((d) => d.channel), ['ui', 'grant'])
assert.equal(log[0].actor, 'alice@example.com')
assert.equal(log[0].executedCall?.argumentsJson, '{"path":"/tmp/notes/a.txt","text":"hi"}')
assert.equal((await controller.listGrants()).length, 1)
runtime.dispose()
fs.rmSync(dir, { recursive: true, force: true })
console.log('ok')
