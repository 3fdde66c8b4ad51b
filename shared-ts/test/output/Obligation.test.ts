// A run suspended for approval keeps its schema obligation across a restore: the stored state names
// the schema (its stable id); a runtime without it, or with another one, fails closed with
// output_schema_mismatch before anything runs (no approved tool executes, the stored state stays
// as it was); the runtime with the same schema resumes and the final answer is still checked.
import { describe, expect, it } from 'vitest'
import {
  AgentRuntime,
  ErrorCodes,
  ErrorLayer,
  MemoryStateStorage,
  OutputSchema,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  SessionStatus,
  StateCodec
} from '../../src/index'
import { rejectionOf } from '../runtime/helpers'
import { runtime, ticketSchema, VALID } from './support'

async function suspended(storage: MemoryStateStorage): Promise<AgentRuntime> {
  const p = new ScriptedProvider([ScriptedTurn.text('Deploying first.').call('c1', 'deploy', '{}')])
  const rt = runtime(p, { storage, autoResume: false, sessionId: 'ob' })
  const outcome = await rt.run('deploy and file a ticket')
  expect(outcome.status).toBe(RunStatus.suspended)
  expect(rt.snapshot().outputSchema).toBe('ticket')
  const item = rt.controller.listPendingApprovals()[0]
  expect((await rt.controller.approve(item.approvalId)).ok).toBe(true)
  rt.dispose()
  return rt
}

describe('the obligation survives a suspension', () => {
  it('is stored with the run (by name) and round-trips through the codec', async () => {
    const storage = new MemoryStateStorage()
    await suspended(storage)
    const loaded = await storage.load('ob')
    expect(loaded?.state.outputSchema).toBe('ticket')
    const back = StateCodec.decode(StateCodec.encode(loaded!.state))
    expect([back.outputSchema, back.outputRepairs]).toEqual(['ticket', 0])
  })

  it('a restored runtime without the schema fails closed: output_schema_mismatch, nothing runs, the state untouched', async () => {
    const storage = new MemoryStateStorage()
    await suspended(storage)
    const p = new ScriptedProvider([ScriptedTurn.text('free text')])
    const bare = runtime(p, { storage, schema: undefined, autoResume: false, sessionId: 'ob' })
    await bare.restore()
    const e = await rejectionOf(bare.runStream([]))
    expect([e.code, e.layer]).toEqual([ErrorCodes.outputSchemaMismatch, ErrorLayer.config])
    expect(e.message).toContain("'ticket'")
    expect(p.callCount).toBe(0)
    const snap = bare.snapshot()
    expect(snap.status).toBe(SessionStatus.awaitingApproval)
    expect(snap.pendingApproval?.allDecided()).toBe(true)
    expect(snap.outputSchema).toBe('ticket')
    bare.dispose()

    const other = runtime(p, { storage, schema: OutputSchema.fromJson({ type: 'object' }, 'other'), autoResume: false, sessionId: 'ob' })
    await other.restore()
    expect((await rejectionOf(other.runStream([]))).code).toBe(ErrorCodes.outputSchemaMismatch)
    other.dispose()
  })

  it('the runtime with the same schema resumes: the approved tool runs once and the answer is still checked and repaired', async () => {
    const storage = new MemoryStateStorage()
    await suspended(storage)
    const p = new ScriptedProvider([ScriptedTurn.text('Deployed. Ticket filed.'), ScriptedTurn.text(VALID)])
    const rt = runtime(p, { storage, schema: ticketSchema(), autoResume: false, sessionId: 'ob' })
    await rt.restore()
    const outcome = await rt.runStream([])
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.output).toEqual(JSON.parse(VALID))
    expect(p.callCount).toBe(2)
    expect(rt.snapshot().outputSchema).toBe('')
    expect((await storage.load('ob'))?.state.outputSchema).toBe('')
  })
})
