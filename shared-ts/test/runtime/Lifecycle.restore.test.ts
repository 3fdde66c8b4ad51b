// What restore() reports for every kind of stored session, and what it settles before the first run:
// inconsistent statuses, sessions marked not resumable, interrupted batches and a failing settle write.
import { describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentMessage,
  AgentState,
  ApprovalDecision,
  ControllerEventTypes,
  ErrorCodes,
  MemoryStateStorage,
  PendingPlanReview,
  PersistEvent,
  PlanReviewDecision,
  RestoreKind,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  SessionStatus,
  StatePersistenceHookResult,
  StoredError,
  ToolBatchEntry,
  ToolBatchProgress,
  ToolCall,
  ToolResult
} from '../../src/index'
import { richBatch } from '../foundations/fixtures'
import { CountingTool, expectPaired, FaultyStorage, makeRuntime, newSessionId, Recorder, rejectionOf, toolMessage } from './helpers'

/** A stored session with a short conversation and the given status. */
function stored(sessionId: string, status: SessionStatus): AgentState {
  const s = new AgentState(sessionId)
  s.history = [AgentMessage.user('hello'), AgentMessage.assistant('hi there')]
  s.status = status
  s.lastStopReason = 'complete'
  s.runCount = 1
  return s
}

/** A running session that died in the middle of a batch: a done call, a started one, one never started. */
function diedMidBatch(sessionId: string): AgentState {
  const s = new AgentState(sessionId)
  const calls = [new ToolCall('done', 't', '{}', 0), new ToolCall('started', 't', '{}', 1), new ToolCall('later', 't', '{}', 2)]
  const message = AgentMessage.assistant('', calls)
  // The model message enters history with its results when the batch commits.
  s.history = [AgentMessage.user('go')]
  s.status = SessionStatus.running
  s.activeRunId = 'run_dead'
  s.runCount = 1
  s.turn = 1
  s.toolBatch = new ToolBatchProgress('batch_dead', 'run_dead', message, [
    new ToolBatchEntry(calls[0], true, ToolResult.text('done', 'finished')),
    new ToolBatchEntry(calls[1], true),
    new ToolBatchEntry(calls[2], false)
  ])
  return s
}

async function storageWith(state: AgentState): Promise<MemoryStateStorage> {
  const storage = new MemoryStateStorage()
  await storage.save(state)
  return storage
}

describe('what restore reports', () => {
  it('nothing stored (or no storage): a fresh session', async () => {
    for (const storage of [undefined, new MemoryStateStorage()]) {
      const report = await makeRuntime([], { storage }).restore()
      expect(report).toMatchObject({ kind: RestoreKind.fresh, lastStatus: '', lastStopReason: '', historyLength: 0,
        pendingApprovals: [], allDecided: false, interruptedCalls: 0, reason: '' })
      expect(report.planReview).toBeUndefined()
    }
  })

  it('a finished session is idle with its last status, stop reason and history length', async () => {
    const sessionId = newSessionId()
    const rt = makeRuntime([ScriptedTurn.text('again')], { sessionId, storage: await storageWith(stored(sessionId, SessionStatus.completed)) })
    const report = await rt.restore()
    expect(report).toMatchObject({ kind: RestoreKind.idle, lastStatus: 'completed', lastStopReason: 'complete', historyLength: 2,
      pendingApprovals: [], allDecided: false, interruptedCalls: 0, reason: '' })
    expect(rt.snapshot().history.map((m) => m.text())).toEqual(['hello', 'hi there'])
    expect((await rt.run('more')).status).toBe(RunStatus.completed)
    expect(rt.snapshot().history.length).toBe(4)
  })

  it.each([
    [SessionStatus.awaitingApproval, 'awaiting_approval'],
    [SessionStatus.awaitingPlanReview, 'awaiting_plan_review']
  ])('a stored %s status without its pending work restores as idle and accepts new input', async (status, name) => {
    const sessionId = newSessionId()
    const rt = makeRuntime([ScriptedTurn.text('fresh')], { sessionId, storage: await storageWith(stored(sessionId, status)) })
    const report = await rt.restore()
    expect(report.kind).toBe(RestoreKind.idle)
    expect(report.lastStatus).toBe(name)
    expect(report.pendingApprovals).toEqual([])
    expect(report.planReview).toBeUndefined()
    expect((await rt.run('next')).status).toBe(RunStatus.completed)
  })

  it('a session waiting for approvals lists the undecided items, and says when all are decided', async () => {
    const sessionId = newSessionId()
    const s = stored(sessionId, SessionStatus.awaitingApproval)
    s.pendingApproval = richBatch('run_1')
    const report = await makeRuntime([], { sessionId, storage: await storageWith(s) }).restore()
    expect(report.kind).toBe(RestoreKind.awaitingApproval)
    expect(report.lastStatus).toBe('awaiting_approval')
    expect(report.pendingApprovals.map((i) => i.approvalId)).toEqual(['appr_a'])
    expect(report.allDecided).toBe(false)
    expect(report.reason).toBe('')

    const sid2 = newSessionId()
    const decided = stored(sid2, SessionStatus.awaitingApproval)
    decided.pendingApproval = richBatch('run_1')
    decided.pendingApproval.items[0].decision = ApprovalDecision.approved
    decided.pendingApproval.items[0].decidedAtMs = 5
    const report2 = await makeRuntime([], { sessionId: sid2, storage: await storageWith(decided) }).restore()
    expect(report2.kind).toBe(RestoreKind.awaitingApproval)
    expect(report2.pendingApprovals).toEqual([])
    expect(report2.allDecided).toBe(true)
  })

  it('a session waiting for a plan review reports a copy of the review', async () => {
    const sessionId = newSessionId()
    const s = stored(sessionId, SessionStatus.awaitingPlanReview)
    const call = new ToolCall('p', 'submit_plan', '{"plan":"step 1"}', 0)
    s.history.push(AgentMessage.assistant('', [call]))
    s.pendingPlanReview = new PendingPlanReview('review_1', 'run_1', 'step 1', call, AgentMessage.assistant('', [call]), 10)
    const rt = makeRuntime([], { sessionId, storage: await storageWith(s) })
    const report = await rt.restore()
    expect(report.kind).toBe(RestoreKind.awaitingPlanReview)
    expect(report.lastStatus).toBe('awaiting_plan_review')
    expect(report.planReview?.plan).toBe('step 1')
    expect(report.planReview?.decision).toBe(PlanReviewDecision.pending)
    report.planReview!.decision = PlanReviewDecision.approved
    expect(rt.controller.pendingPlanReview()?.decision).toBe(PlanReviewDecision.pending)
  })

  it('a session marked not resumable keeps its conversation, drops the work in flight and fails with the reason', async () => {
    const sessionId = newSessionId()
    const s = diedMidBatch(sessionId)
    s.pendingApproval = richBatch('run_dead')
    const storage = await storageWith(s)
    await storage.markNotResumable(sessionId, 'terminal write failed: disk full')
    const tool = new CountingTool('t')
    const rt = makeRuntime([ScriptedTurn.text('starting over')], { sessionId, storage, tools: [tool.tool] })
    const report = await rt.restore()
    expect(report).toMatchObject({ kind: RestoreKind.notResumable, lastStatus: 'running', historyLength: 1,
      pendingApprovals: [], allDecided: false, interruptedCalls: 0, reason: 'terminal write failed: disk full' })
    const snap = rt.snapshot()
    expect(snap.status).toBe(SessionStatus.failed)
    expect(snap.pendingApproval).toBeUndefined()
    expect(snap.pendingPlanReview).toBeUndefined()
    expect(snap.toolBatch).toBeUndefined()
    expect(snap.activeRunId).toBe('')
    expect(snap.lastError).toEqual(new StoredError('storage', ErrorCodes.sessionNotResumable, 'terminal write failed: disk full'))
    // Nothing to resume; new input starts a run (no pending batch blocks it) and runs no dropped call.
    expect((await rejectionOf(rt.runStream([]))).code).toBe(ErrorCodes.nothingToResume)
    expect((await rt.run('again')).status).toBe(RunStatus.completed)
    expect(tool.count).toBe(0)
  })
})

describe('an interrupted run', () => {
  it('a started call without a result gets tool_interrupted, written at once under the dead run id; resuming runs only what never started', async () => {
    const sessionId = newSessionId()
    const storage = new FaultyStorage(await storageWith(diedMidBatch(sessionId)))
    const tool = new CountingTool('t')
    const provider = new ScriptedProvider([ScriptedTurn.text('all done')])
    const rt = makeRuntime(provider, { sessionId, storage, tools: [tool.tool] })
    const bus = new Recorder()
    rt.controller.subscribeAll((e) => bus.events.push(e))
    const report = await rt.restore()
    expect(report).toMatchObject({ kind: RestoreKind.interrupted, lastStatus: 'running', interruptedCalls: 1,
      reason: 'the process stopped while a run was active', historyLength: 1 })
    expect(storage.attempts.length).toBe(1)
    const writes = bus.persists()
    expect(writes.map((p) => [p.reason, p.mandatory, p.ok, p.runId])).toEqual([['restore', true, true, 'run_dead']])
    const onDisk = (await storage.load(sessionId))?.state.toolBatch?.entries.map((e) => e.result?.errorCode)
    expect(onDisk).toEqual([undefined, ErrorCodes.toolInterrupted, undefined])
    const outcome = await rt.runStream([])
    expect(outcome.status).toBe(RunStatus.completed)
    expect(tool.count).toBe(1)
    const h = rt.snapshot().history
    expect(toolMessage(h, 'done').text()).toBe('finished')
    expect(toolMessage(h, 'started').errorCode).toBe(ErrorCodes.toolInterrupted)
    expect(toolMessage(h, 'later').text()).toBe('ok')
    expectPaired(h)
  })

  it('a running session without a batch is interrupted with nothing to settle and writes nothing', async () => {
    const sessionId = newSessionId()
    const s = stored(sessionId, SessionStatus.running)
    s.history = [AgentMessage.user('question')]
    const storage = new FaultyStorage(await storageWith(s))
    const provider = new ScriptedProvider([ScriptedTurn.text('answer')])
    const rt = makeRuntime(provider, { sessionId, storage })
    const report = await rt.restore()
    expect(report.kind).toBe(RestoreKind.interrupted)
    expect(report.interruptedCalls).toBe(0)
    expect(storage.attempts).toEqual([])
    const outcome = await rt.runStream([])
    expect(outcome.finalMessage?.text()).toBe('answer')
    expect(provider.callCount).toBe(1)
  })

  it('a batch whose calls all have results or never started settles nothing', async () => {
    const sessionId = newSessionId()
    const s = diedMidBatch(sessionId)
    s.toolBatch!.entries[1].result = ToolResult.text('started', 'came back')
    const storage = new FaultyStorage(await storageWith(s))
    const report = await makeRuntime([], { sessionId, storage }).restore()
    expect(report.kind).toBe(RestoreKind.interrupted)
    expect(report.interruptedCalls).toBe(0)
    expect(storage.attempts).toEqual([])
  })

  it('when the settling write fails, restore rejects with the storage error and a later restore tries again', async () => {
    const sessionId = newSessionId()
    const storage = new FaultyStorage(await storageWith(diedMidBatch(sessionId)))
    storage.failWhen = () => true
    const tool = new CountingTool('t')
    const rt = makeRuntime([ScriptedTurn.text('x')], { sessionId, storage, tools: [tool.tool] })
    const err = await rejectionOf(rt.restore())
    expect(err.code).toBe(ErrorCodes.stateSaveFailed)
    expect(err.message).toBe("Saving state ('restore') failed: injected save failure (status running)")
    // A run refuses to start on an unsettled session, and runs nothing.
    const runErr = await rejectionOf(rt.runStream([]))
    expect(runErr.code).toBe(ErrorCodes.stateSaveFailed)
    expect(rt.isRunning).toBe(false)
    expect(tool.count).toBe(0)
    storage.failWhen = undefined
    const report = await rt.restore()
    expect(report.kind).toBe(RestoreKind.interrupted)
    expect(report.interruptedCalls).toBe(1)
  })

  it('a settle write refused by a hook rejects restore with the refusal', async () => {
    const sessionId = newSessionId()
    const storage = await storageWith(diedMidBatch(sessionId))
    class NoRestoreWrites extends AgentHook {
      async beforePersistState(): Promise<StatePersistenceHookResult> {
        return StatePersistenceHookResult.abort('read only')
      }
    }
    const rt = makeRuntime([], { sessionId, storage, hooks: [new NoRestoreWrites()] })
    const err = await rejectionOf(rt.restore())
    expect(err.code).toBe(ErrorCodes.hookAbort)
    expect(err.message).toBe("A hook refused the 'restore' write: read only")
  })

  it('suspend() writes the restored state back, never an empty one', async () => {
    const sessionId = newSessionId()
    const storage = new FaultyStorage(await storageWith(stored(sessionId, SessionStatus.completed)))
    const rt = makeRuntime([], { sessionId, storage })
    const rec = new Recorder()
    rt.controller.subscribe(ControllerEventTypes.persist, (e) => rec.events.push(e))
    expect(await rt.suspend()).toBe(true)
    expect(storage.attempts.map((s) => s.history.length)).toEqual([2])
    expect((rec.events[0] as PersistEvent).reason).toBe('suspend')
    expect((rec.events[0] as PersistEvent).mandatory).toBe(true)
  })
})
