// docs/scaling.md, "Set up", verbatim between the markers, against the PostgreSQL server named by
// DATABASE_URL (examples/snippets/DocSnippets.test.ts gives it a database of its own), with what it
// takes for granted defined first: a session id, a model and tools (one of them dangerous). After it,
// a second request on the same storage runs the session: the dangerous call waits, is approved, runs once.
import assert from 'node:assert/strict'
import * as core from '@arkagent/core'

const sessionId = 'user-42'
let wipes = 0
const tools = [new core.FunctionTool(new core.ToolDefinition('wipe', 'Wipe the cache', { type: 'object' },
  core.ToolRiskLevel.dangerous), async () => { wipes++; return 'wiped' })]
const model = core.ScriptedProvider.fromFunction((r) => r.messages[r.messages.length - 1].role === 'tool'
  ? core.ScriptedTurn.text('done') : core.ScriptedTurn.text('').call('c1', 'wipe', '{}'))
assert.ok(process.env.DATABASE_URL, 'DATABASE_URL names the server')

// ---- snippet: docs/scaling.md ----
import pg from 'pg'                                   // npm install pg (not a dependency of @arkagent/core)
import { createAgent, migratePostgres, PostgresStateStorage } from '@arkagent/core'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL })
// pg emits 'error' on an idle client whose connection dies (a database restart, a failover): without
// a listener Node exits. The storage sees the failure on its next query and reports it typed.
pool.on('error', (e) => console.warn('postgres:', e.message))
await migratePostgres(pool)                           // idempotent; every instance may run it at start
const storage = new PostgresStateStorage(pool)        // one per instance; options below

// Per request that touches a session:
const { runtime, controller } = createAgent({ sessionId, model, tools, storage })
try {
  await runtime.restore()                             // takes the session's lease (it may start a decided continuation)
  // ... run, or decide an approval: await controller.approve(id)
  await runtime.whenIdle()                            // the continuation, if any, ends here
} finally {
  runtime.dispose()
  await storage.release(sessionId)                    // let any instance take the session at once
}
// ---- end of snippet ----

try {
  const first = core.createAgent({ sessionId, model, tools, storage })
  try {
    await first.runtime.restore()
    assert.equal((await first.runtime.run('wipe the cache')).stopReason, 'awaiting_approval')
    assert.equal(wipes, 0)
  } finally {
    first.runtime.dispose()
    await storage.release(sessionId)
  }
  // Another request (on any instance) decides the approval.
  const second = core.createAgent({ sessionId, model, tools, storage })
  try {
    const report = await second.runtime.restore()
    await second.controller.approve(report.pendingApprovals[0].approvalId)
    await second.runtime.whenIdle()
    assert.equal(wipes, 1)
  } finally {
    second.runtime.dispose()
    await storage.release(sessionId)
  }
} finally {
  await storage.close()
  await pool.end()
}
console.log('ok')
