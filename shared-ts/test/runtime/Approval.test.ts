// Spec 十四 "审批与可恢复" and spec 八: persistent approvals, batch freeze, kill-and-reload.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentRuntime,
  AgentSuspendedEvent,
  ApprovalDecision,
  ApprovalPolicyHook,
  ApprovalRequiredEvent,
  BusEvent,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  FileStateStorage,
  RestoreKind,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  SessionStatus,
  StopReason,
  ToolRiskLevel
} from '../../src/index'
import {
  cleanupTempDirs,
  CountingTool,
  expectPaired,
  expectSingleTerminalLast,
  FaultyStorage,
  loadFromDisk,
  makeRuntime,
  newSessionId,
  Recorder,
  rejectionOf,
  storedHistory,
  tempDir,
  toolMessage
} from './helpers'

afterEach(() => cleanupTempDirs())

/** A batch [danger (dangerous), safe (safe)] under ApprovalPolicyHook, then a final answer. */
class Scenario {
  readonly dir: string
  readonly sessionId: string
  readonly danger = new CountingTool('danger', ToolRiskLevel.dangerous, async () => 'danger done')
  readonly safe = new CountingTool('safe', ToolRiskLevel.safe, async () => 'safe done')
  readonly provider: ScriptedProvider

  constructor(dir: string = tempDir(), sessionId: string = newSessionId(), turns?: ScriptedTurn[]) {
    this.dir = dir
    this.sessionId = sessionId
    this.provider = new ScriptedProvider(turns ?? [
      ScriptedTurn.text('I will do both').call('c1', 'danger', '{}').call('c2', 'safe', '{}'),
      ScriptedTurn.text('all done')
    ])
  }

  runtime(storage: FileStateStorage | FaultyStorage = new FileStateStorage(this.dir, undefined, { lock: false }), autoResume = true): AgentRuntime {
    return makeRuntime(this.provider, {
      sessionId: this.sessionId,
      tools: [this.danger.tool, this.safe.tool],
      hooks: [new ApprovalPolicyHook()],
      storage,
      configure: (cfg) => {
        cfg.autoResume = autoResume
      }
    })
  }

  /** A second process: fresh tools, provider and storage on the same directory. */
  reloaded(turns: ScriptedTurn[] = [ScriptedTurn.text('all done')]): Scenario {
    return new Scenario(this.dir, this.sessionId, turns)
  }
}

/** Collects every bus event of a runtime (auto-resumed runs have no observer). */
function busRecorder(rt: AgentRuntime): Recorder {
  const rec = new Recorder()
  rt.controller.subscribeAll((e: BusEvent) => rec.events.push(e))
  return rec
}

describe('approvals and resumability (spec 十四)', () => {
  it('a dangerous tool call publishes approval.required and suspends the run', async () => {
    const sc = new Scenario()
    const rt = sc.runtime()
    const rec = new Recorder()
    const outcome = await rt.run('do it', rec.observer)
    expect(outcome.status).toBe(RunStatus.suspended)
    expect(outcome.stopReason).toBe(StopReason.awaitingApproval)
    const required = rec.ofType<ApprovalRequiredEvent>(ControllerEventTypes.approvalRequired)
    expect(required.length).toBe(1)
    const items = required[0].batch.items
    expect(items.map((i) => i.toolCall.id)).toEqual(['c1', 'c2'])
    expect(items[0].riskLevel).toBe(ToolRiskLevel.dangerous)
    expect(items.every((i) => i.decision === ApprovalDecision.pending)).toBe(true)
    expect(rt.controller.listPendingApprovals().map((i) => i.toolCall.name)).toEqual(['danger', 'safe'])
  })

  it('the whole batch freezes: a safe call in the same batch does not run (zero side effects)', async () => {
    const sc = new Scenario()
    const rt = sc.runtime()
    const rec = new Recorder()
    await rt.run('do it', rec.observer)
    expect(sc.danger.count).toBe(0)
    expect(sc.safe.count).toBe(0)
    expect(rec.ofType(ControllerEventTypes.beforeToolCall)).toEqual([])
    expect(rec.ofType(ControllerEventTypes.afterToolCall)).toEqual([])
    // Nothing of the frozen batch is in history yet, so nothing is unpaired.
    const history = rt.snapshot().history
    expectPaired(history)
    expect(history.some((m) => m.toolCalls.length > 0)).toBe(false)
  })

  it('the mandatory awaiting_approval write happens before approval.required is published', async () => {
    const sc = new Scenario()
    const rt = sc.runtime()
    const rec = new Recorder()
    await rt.run('do it', rec.observer)
    const types = rec.types()
    const persistIdx = rec.events.findIndex((e) => e.eventType() === ControllerEventTypes.persist &&
      (e as unknown as { reason: string }).reason === 'awaiting_approval')
    expect(persistIdx).toBeGreaterThanOrEqual(0)
    const persist = rec.persists().find((p) => p.reason === 'awaiting_approval')!
    expect(persist.ok).toBe(true)
    expect(persist.mandatory).toBe(true)
    expect(persist.skipped).toBe(false)
    const requiredIdx = types.indexOf(ControllerEventTypes.approvalRequired)
    const suspendedIdx = types.indexOf(ControllerEventTypes.agentSuspended)
    expect(persistIdx).toBeLessThan(requiredIdx)
    expect(requiredIdx).toBeLessThan(suspendedIdx)
  })

  it('a failed awaiting_approval write publishes no approval.required, fails with state_save_failed and is never reported awaiting_approval', async () => {
    const sc = new Scenario()
    const faulty = new FaultyStorage(new FileStateStorage(sc.dir, undefined, { lock: false }))
    faulty.failWhen = (s) => s.status === SessionStatus.awaitingApproval
    const rt = sc.runtime(faulty)
    const rec = new Recorder()
    const bus = busRecorder(rt)
    const outcome = await rt.run('do it', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.stateSaveFailed)
    expect(outcome.error?.layer).toBe(ErrorLayer.storage)
    expect(rec.ofType(ControllerEventTypes.approvalRequired)).toEqual([])
    expect(bus.ofType(ControllerEventTypes.approvalRequired)).toEqual([])
    expect(rec.ofType(ControllerEventTypes.agentSuspended)).toEqual([])
    expectSingleTerminalLast(rec, ControllerEventTypes.agentFailed)
    expect(rt.controller.listPendingApprovals()).toEqual([])
    expect(sc.danger.count + sc.safe.count).toBe(0)
    // A new process never sees a resumable approval.
    const report = await sc.reloaded().runtime().restore()
    expect(report.kind).not.toBe(RestoreKind.awaitingApproval)
    expect(report.pendingApprovals).toEqual([])
    expect(report.lastStatus).toBe(SessionStatus.failed)
    const loaded = await loadFromDisk(sc.dir, sc.sessionId)
    expect(loaded?.state.pendingApproval).toBeUndefined()
    expectPaired(loaded!.state.history)
  })

  it('when storage stays broken after the approval write fails, the session is marked not resumable', async () => {
    const sc = new Scenario()
    const faulty = new FaultyStorage(new FileStateStorage(sc.dir, undefined, { lock: false }))
    let broken = false
    faulty.failWhen = (s) => (broken = broken || s.status === SessionStatus.awaitingApproval)
    const rt = sc.runtime(faulty)
    const rec = new Recorder()
    const outcome = await rt.run('do it', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.stateSaveFailed)
    expect(outcome.persisted).toBe(false)
    expect(faulty.marks.length).toBe(1)
    expect(rec.ofType(ControllerEventTypes.approvalRequired)).toEqual([])
    const report = await sc.reloaded().runtime().restore()
    expect(report.kind).toBe(RestoreKind.notResumable)
    expect(report.pendingApprovals).toEqual([])
  })

  it('awaiting_approval is a resumable suspend: outcome suspended, agent.suspended terminal event, no error', async () => {
    const sc = new Scenario()
    const rt = sc.runtime()
    const rec = new Recorder()
    const outcome = await rt.run('do it', rec.observer)
    expect(outcome.status).toBe(RunStatus.suspended)
    expect(outcome.error).toBeUndefined()
    const last = expectSingleTerminalLast(rec, ControllerEventTypes.agentSuspended) as AgentSuspendedEvent
    expect(last.stopReason).toBe(StopReason.awaitingApproval)
    expect(rt.snapshot().status).toBe(SessionStatus.awaitingApproval)
    const loaded = await loadFromDisk(sc.dir, sc.sessionId)
    expect(loaded?.resumable).toBe(true)
    expect(loaded?.state.status).toBe(SessionStatus.awaitingApproval)
    expect(loaded?.state.pendingApproval?.items.length).toBe(2)
  })

  it('kill and reload: a new runtime on the same storage directory restores the pending approval', async () => {
    const sc = new Scenario()
    const rt1 = sc.runtime()
    await rt1.run('do it')
    const ids = rt1.controller.listPendingApprovals().map((i) => i.approvalId)
    // The first runtime is simply dropped (the process died).
    const sc2 = sc.reloaded()
    const rt2 = sc2.runtime()
    const report = await rt2.restore()
    expect(report.kind).toBe(RestoreKind.awaitingApproval)
    expect(report.lastStatus).toBe(SessionStatus.awaitingApproval)
    expect(report.lastStopReason).toBe(StopReason.awaitingApproval)
    expect(report.allDecided).toBe(false)
    expect(report.pendingApprovals.map((i) => i.approvalId)).toEqual(ids)
    expect(report.pendingApprovals.map((i) => i.toolCall.id)).toEqual(['c1', 'c2'])
    expect(rt2.controller.listPendingApprovals().map((i) => i.approvalId)).toEqual(ids)
  })

  it('approve after reload executes every approved call exactly once and completes the run', async () => {
    const sc = new Scenario()
    await sc.runtime().run('do it')
    const sc2 = sc.reloaded()
    const rt2 = sc2.runtime()
    await rt2.restore()
    const bus = busRecorder(rt2)
    const [a, b] = rt2.controller.listPendingApprovals()
    const r1 = await rt2.controller.approve(a.approvalId)
    expect(r1.ok).toBe(true)
    expect(r1.allDecided).toBe(false)
    expect(sc2.danger.count + sc2.safe.count).toBe(0)
    const r2 = await rt2.controller.approve(b.approvalId)
    expect(r2.ok).toBe(true)
    expect(r2.allDecided).toBe(true)
    await rt2.whenIdle()
    expect(sc2.danger.count).toBe(1)
    expect(sc2.safe.count).toBe(1)
    expect(bus.types()).toContain(ControllerEventTypes.approvalResolved)
    expect(bus.terminals().map((e) => e.eventType())).toEqual([ControllerEventTypes.agentSuccess])
    const history = await storedHistory(sc.dir, sc.sessionId)
    expectPaired(history)
    expect(toolMessage(history, 'c1').isError).toBe(false)
    expect(toolMessage(history, 'c2').isError).toBe(false)
    expect(history[history.length - 1].text()).toBe('all done')
    expect((await loadFromDisk(sc.dir, sc.sessionId))?.state.status).toBe(SessionStatus.completed)
  })

  it('deny after reload gives the model an error-flagged tool_denied result and runs only the approved call', async () => {
    const sc = new Scenario()
    await sc.runtime().run('do it')
    const sc2 = sc.reloaded()
    const rt2 = sc2.runtime()
    await rt2.restore()
    const [a, b] = rt2.controller.listPendingApprovals()
    expect((await rt2.controller.deny(a.approvalId, 'too risky')).decision).toBe(ApprovalDecision.denied)
    await rt2.controller.approve(b.approvalId)
    await rt2.whenIdle()
    expect(sc2.danger.count).toBe(0)
    expect(sc2.safe.count).toBe(1)
    const history = rt2.snapshot().history
    expectPaired(history)
    const denied = toolMessage(history, 'c1')
    expect(denied.isError).toBe(true)
    expect(denied.errorCode).toBe(ErrorCodes.toolDenied)
    expect(denied.text()).toContain('too risky')
    // The model saw the denial in its next request.
    const seen = sc2.provider.requests[0].messages.find((m) => m.toolCallId === 'c1')
    expect(seen?.errorCode).toBe(ErrorCodes.toolDenied)
    expect(rt2.snapshot().status).toBe(SessionStatus.completed)
  })

  it('an unknown approval id returns approval_unknown and an id of a consumed batch returns approval_consumed (distinct codes)', async () => {
    const sc = new Scenario()
    const rt = sc.runtime()
    await rt.run('do it')
    const unknown = await rt.controller.approve('apr_does_not_exist')
    expect(unknown.ok).toBe(false)
    expect(unknown.error?.code).toBe(ErrorCodes.approvalUnknown)
    const ids = rt.controller.listPendingApprovals().map((i) => i.approvalId)
    for (const id of ids) {
      await rt.controller.approve(id)
    }
    await rt.whenIdle()
    const consumed = await rt.controller.approve(ids[0])
    expect(consumed.ok).toBe(false)
    expect(consumed.error?.code).toBe(ErrorCodes.approvalConsumed)
    expect(consumed.error?.code).not.toBe(unknown.error?.code)
    const deniedLate = await rt.controller.deny(ids[1], 'late')
    expect(deniedLate.error?.code).toBe(ErrorCodes.approvalConsumed)
    // The consumed ids survive a reload.
    const rt3 = sc.reloaded().runtime()
    await rt3.restore()
    expect((await rt3.controller.approve(ids[0])).error?.code).toBe(ErrorCodes.approvalConsumed)
    expect((await rt3.controller.approve('apr_nope')).error?.code).toBe(ErrorCodes.approvalUnknown)
    expect(sc.danger.count).toBe(1)
  })

  it('an unregistered tool never triggers approval and gets an error-flagged tool_not_found result', async () => {
    const sc = new Scenario(tempDir(), newSessionId(), [
      ScriptedTurn.text('trying').call('g1', 'ghost_tool', '{}'),
      ScriptedTurn.text('that tool does not exist')
    ])
    const rt = sc.runtime()
    const rec = new Recorder()
    const outcome = await rt.run('use ghost', rec.observer)
    expect(rec.ofType(ControllerEventTypes.approvalRequired)).toEqual([])
    expect(outcome.status).toBe(RunStatus.completed)
    const msg = toolMessage(rt.snapshot().history, 'g1')
    expect(msg.isError).toBe(true)
    expect(msg.errorCode).toBe(ErrorCodes.toolNotFound)
    expectPaired(rt.snapshot().history)
  })

  it('new input while an approval is pending is refused with pending_approval_blocks_input (security) and history is untouched', async () => {
    const sc = new Scenario()
    const rt = sc.runtime()
    await rt.run('do it')
    const before = rt.snapshot()
    const diskBefore = await storedHistory(sc.dir, sc.sessionId)
    const rec = new Recorder()
    const err = await rejectionOf(rt.run('never mind, do something else', rec.observer))
    expect(err.code).toBe(ErrorCodes.pendingApprovalBlocksInput)
    expect(err.layer).toBe(ErrorLayer.security)
    const after = rt.snapshot()
    expect(after.history).toEqual(before.history)
    expect(after.pendingApproval?.batchId).toBe(before.pendingApproval?.batchId)
    expect(after.status).toBe(SessionStatus.awaitingApproval)
    expect((await storedHistory(sc.dir, sc.sessionId)).length).toBe(diskBefore.length)
    expect(rec.events).toEqual([])
    expect(rt.isRunning).toBe(false)
    // The batch is still decidable afterwards.
    for (const item of rt.controller.listPendingApprovals()) {
      await rt.controller.approve(item.approvalId)
    }
    await rt.whenIdle()
    expect(rt.snapshot().status).toBe(SessionStatus.completed)
    expectPaired(rt.snapshot().history)
  })

  it('resuming while items are undecided is refused with awaiting_approval', async () => {
    const sc = new Scenario()
    const rt = sc.runtime()
    await rt.run('do it')
    const err = await rejectionOf(rt.runStream([]))
    expect(err.code).toBe(ErrorCodes.awaitingApproval)
    expect(err.layer).toBe(ErrorLayer.security)
    expect(sc.danger.count + sc.safe.count).toBe(0)
  })

  it('a restored session whose decisions are all in continues by itself: whenIdle() is enough', async () => {
    const sc = new Scenario()
    const rt = sc.runtime(new FileStateStorage(sc.dir, undefined, { lock: false }), false)
    await rt.run('do it')
    for (const item of rt.controller.listPendingApprovals()) {
      await rt.controller.approve(item.approvalId)
    }
    expect(sc.danger.count + sc.safe.count).toBe(0)
    // A new process (autoResume on, the default) finds every decision in and goes on without runStream([]).
    const re = sc.reloaded()
    const next = re.runtime()
    const report = await next.restore()
    expect([report.kind, report.allDecided]).toEqual([RestoreKind.awaitingApproval, true])
    await next.whenIdle()
    expect([re.danger.count, re.safe.count]).toEqual([1, 1])
    expect(next.snapshot().status).toBe(SessionStatus.completed)
  })

  it('an explicit runStream([]) right after such a restore joins the continuation: one run, one outcome', async () => {
    const sc = new Scenario()
    const rt = sc.runtime(new FileStateStorage(sc.dir, undefined, { lock: false }), false)
    await rt.run('do it')
    for (const item of rt.controller.listPendingApprovals()) {
      await rt.controller.approve(item.approvalId)
    }
    const re = sc.reloaded()
    const next = re.runtime()
    await next.restore()
    const outcome = await next.runStream([])
    expect(outcome.status).toBe(RunStatus.completed)
    await next.whenIdle()
    expect([re.danger.count, re.safe.count]).toEqual([1, 1])
  })

  it('with autoResume off, the decided batch waits for runStream([]) and then runs', async () => {
    const sc = new Scenario()
    const rt = sc.runtime(new FileStateStorage(sc.dir, undefined, { lock: false }), false)
    await rt.run('do it')
    for (const item of rt.controller.listPendingApprovals()) {
      await rt.controller.approve(item.approvalId)
    }
    await rt.whenIdle()
    expect(sc.danger.count + sc.safe.count).toBe(0)
    const reloaded = sc.reloaded()
    const report = await reloaded.runtime(undefined, false).restore()
    expect(report.kind).toBe(RestoreKind.awaitingApproval)
    expect(report.allDecided).toBe(true)
    const rec = new Recorder()
    const outcome = await rt.runStream([], rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(rec.types()[0]).toBe(ControllerEventTypes.agentResumed)
    expect(sc.danger.count).toBe(1)
    expect(sc.safe.count).toBe(1)
    expectSingleTerminalLast(rec, ControllerEventTypes.agentSuccess)
  })
})
