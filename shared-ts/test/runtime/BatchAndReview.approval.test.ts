// Approval batches: how a batch is frozen (one item per call, what is decided up front), how
// decisions are checked and recorded, and how a decided batch turns back into work.
import { describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentMessage,
  AgentState,
  ApprovalDecidedEvent,
  ApprovalDecision,
  ApprovalResolvedEvent,
  ApprovalRequiredEvent,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  ErrorRetryability,
  MemoryStateStorage,
  PendingApprovalBatch,
  PendingApprovalItem,
  PersistEvent,
  RunStatus,
  ScriptedTurn,
  SessionStatus,
  StopReason,
  ToolCall,
  ToolCallHookContext,
  ToolCallHookResult,
  ToolRiskLevel
} from '../../src/index'
import {
  CountingTool,
  expectPaired,
  expectSingleTerminalLast,
  FaultyStorage,
  makeRuntime,
  Recorder,
  toolMessage
} from './helpers'

/** Decides per call id: deny, defer, or proceed, optionally rewriting the call first. */
class Verdicts extends AgentHook {
  get hookName(): string { return 'Verdicts' }
  async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
    const id = ctx.call.id
    if (id === 'd') return ToolCallHookResult.deny()
    if (id === 'dn') return ToolCallHookResult.deny(undefined, 'blocked')
    if (id === 'f') return ToolCallHookResult.defer()
    if (id === 'x') return ToolCallHookResult.defer('check it')
    if (id === 'r') return ToolCallHookResult.defer('renamed', new ToolCall('r', 'rm', '{"path":"/b"}', ctx.call.index))
    return ToolCallHookResult.proceed()
  }
}

function world(storage: MemoryStateStorage | FaultyStorage = new MemoryStateStorage()) {
  const rm = new CountingTool('rm', ToolRiskLevel.dangerous, async (args) => `removed ${String(args['path'])}`,
    { type: 'object', properties: { path: { type: 'string' } } })
  const ls = new CountingTool('ls', ToolRiskLevel.safe, async () => 'listing')
  const cat = new CountingTool('cat', ToolRiskLevel.sensitive, async () => 'contents',
    { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] })
  const turn = ScriptedTurn.text('')
    .call('d', 'ls', '{}')
    .call('f', 'rm', '{"path":"/a"}')
    .call('p', 'ls', '{}')
    .call('u', 'nope', '{}')
    .call('x', 'cat', '{}')
    .call('r', 'ls', '{}')
    .call('dn', 'ghost', '{}')
  const rt = makeRuntime([turn, ScriptedTurn.text('all done')], {
    tools: [rm.tool, ls.tool, cat.tool], hooks: [new Verdicts()], storage,
    configure: (cfg) => { cfg.autoResume = false }
  })
  return { rm, ls, cat, rt }
}

describe('freezing a batch', () => {
  it('has an item per call in model order; denied and unrunnable calls are decided up front, the rest are asked', async () => {
    const w = world()
    const rec = new Recorder()
    const outcome = await w.rt.run('tidy up', rec.observer)
    expect(outcome.status).toBe(RunStatus.suspended)
    expect(outcome.stopReason).toBe(StopReason.awaitingApproval)
    expectSingleTerminalLast(rec, ControllerEventTypes.agentSuspended)
    const batch = w.rt.getPendingApprovalBatch() as PendingApprovalBatch
    const view = batch.items.map((i) => ({
      id: i.toolCall.id, name: i.toolCall.name, args: i.toolCall.argumentsJson, risk: i.riskLevel, reason: i.reason,
      decision: i.decision, denyReason: i.denyReason, result: i.syntheticResult?.textContent(),
      code: i.syntheticResult?.errorCode
    }))
    expect(view).toEqual([
      { id: 'd', name: 'ls', args: '{}', risk: ToolRiskLevel.safe, reason: 'denied by policy', decision: 'denied',
        denyReason: 'denied by policy', result: 'Tool call denied: denied by policy', code: ErrorCodes.toolDenied },
      { id: 'f', name: 'rm', args: '{"path":"/a"}', risk: ToolRiskLevel.dangerous, reason: 'needs approval',
        decision: 'pending', denyReason: undefined, result: undefined, code: undefined },
      { id: 'p', name: 'ls', args: '{}', risk: ToolRiskLevel.safe, reason: 'part of a batch that needs approval',
        decision: 'pending', denyReason: undefined, result: undefined, code: undefined },
      // An unknown tool counts as the riskiest (it is refused anyway, never asked about).
      { id: 'u', name: 'nope', args: '{}', risk: ToolRiskLevel.dangerous, reason: "Tool 'nope' is not registered",
        decision: 'denied', denyReason: "Tool 'nope' is not registered", result: "Tool 'nope' is not registered",
        code: ErrorCodes.toolNotFound },
      { id: 'x', name: 'cat', args: '{}', risk: ToolRiskLevel.sensitive, reason: "Invalid arguments for 'cat': $.path: is required",
        decision: 'denied', denyReason: "Invalid arguments for 'cat': $.path: is required",
        result: "Invalid arguments for 'cat': $.path: is required", code: ErrorCodes.toolInvalidArguments },
      { id: 'r', name: 'rm', args: '{"path":"/b"}', risk: ToolRiskLevel.dangerous, reason: 'renamed',
        decision: 'pending', denyReason: undefined, result: undefined, code: undefined },
      // A hook's deny wins over the registry's refusal of an unknown tool.
      { id: 'dn', name: 'ghost', args: '{}', risk: ToolRiskLevel.dangerous, reason: 'blocked', decision: 'denied',
        denyReason: 'blocked', result: 'Tool call denied: blocked', code: ErrorCodes.toolDenied }
    ])
    for (const item of batch.items) {
      if (item.decision === ApprovalDecision.denied) {
        expect(item.decidedAtMs).toBe(item.createdAtMs)
      } else {
        expect(item.decidedAtMs).toBeUndefined()
      }
      expect(item.createdAtMs).toBe(batch.createdAtMs)
    }
    expect(new Set(batch.items.map((i) => i.approvalId)).size).toBe(7)
    expect(batch.runId).toBe(outcome.runId)
    expect(batch.modelMessage.toolCalls.map((c) => c.id)).toEqual(['d', 'f', 'p', 'u', 'x', 'r', 'dn'])
    // Only the undecided ones are put to the user.
    expect(w.rt.controller.listPendingApprovals().map((i) => i.toolCall.id)).toEqual(['f', 'p', 'r'])
    const snap = w.rt.snapshot()
    expect(snap.status).toBe(SessionStatus.awaitingApproval)
    expect(snap.lastStopReason).toBe(StopReason.awaitingApproval)
    // Written first, then announced, with the same batch.
    const write = rec.events.findIndex((e) => e.eventType() === ControllerEventTypes.persist &&
      (e as PersistEvent).reason === 'awaiting_approval' && (e as PersistEvent).ok)
    const required = rec.indexOf(ControllerEventTypes.approvalRequired)
    expect(write).toBeGreaterThanOrEqual(0)
    expect(required).toBeGreaterThan(write)
    const announced = rec.ofType<ApprovalRequiredEvent>(ControllerEventTypes.approvalRequired)
    expect(announced.length).toBe(1)
    expect(announced[0].batch.batchId).toBe(batch.batchId)
    expect(announced[0].batch.items.map((i) => i.decision)).toEqual(batch.items.map((i) => i.decision))
    expect(w.rm.count + w.ls.count + w.cat.count).toBe(0)

    // Approving the asked items runs them as frozen; the rest keep their answers.
    const asked = w.rt.controller.listPendingApprovals().map((i) => i.approvalId)
    for (const id of asked) {
      expect((await w.rt.controller.approve(id)).ok).toBe(true)
    }
    const resumed = await w.rt.runStream([])
    expect(resumed.status).toBe(RunStatus.completed)
    expect([w.rm.count, w.ls.count, w.cat.count]).toEqual([2, 1, 0])
    const history = w.rt.snapshot().history
    expectPaired(history)
    expect(toolMessage(history, 'f').text()).toBe('removed /a')
    expect(toolMessage(history, 'r').text()).toBe('removed /b')
    expect(toolMessage(history, 'p').text()).toBe('listing')
    expect(toolMessage(history, 'd').text()).toBe('Tool call denied: denied by policy')
    expect(toolMessage(history, 'u').errorCode).toBe(ErrorCodes.toolNotFound)
    expect(toolMessage(history, 'x').errorCode).toBe(ErrorCodes.toolInvalidArguments)
    expect(toolMessage(history, 'dn').text()).toBe('Tool call denied: blocked')
  })

  it('a batch whose write fails is not kept pending: the run fails with state_save_failed and new input is accepted', async () => {
    const storage = new FaultyStorage(new MemoryStateStorage())
    storage.failWhen = (s) => s.status === SessionStatus.awaitingApproval
    const w = world(storage)
    const rec = new Recorder()
    const outcome = await w.rt.run('tidy up', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.stateSaveFailed)
    expect(outcome.error?.message).toBe('The approval batch could not be saved, so it is not resumable: ' +
      "Saving state ('awaiting_approval') failed: injected save failure (status awaiting_approval)")
    expect(rec.ofType(ControllerEventTypes.approvalRequired)).toEqual([])
    expect(w.rt.getPendingApprovalBatch()).toBeUndefined()
    expect(w.rt.snapshot().pendingApproval).toBeUndefined()
    expect(w.rm.count + w.ls.count + w.cat.count).toBe(0)
    expectPaired(w.rt.snapshot().history)
  })
})

/** One dangerous call frozen for approval. */
async function frozen(storage: MemoryStateStorage | FaultyStorage = new MemoryStateStorage(), calls = 2) {
  const rm = new CountingTool('rm', ToolRiskLevel.dangerous)
  const turn = ScriptedTurn.text('')
  for (let i = 0; i < calls; i++) {
    turn.call(`c${i}`, 'rm', '{}')
  }
  const rt = makeRuntime([turn, ScriptedTurn.text('done')], {
    tools: [rm.tool], hooks: [new Verdicts(), new DeferAll()], storage, configure: (cfg) => { cfg.autoResume = false }
  })
  await rt.run('go')
  const ids = rt.controller.listPendingApprovals().map((i) => i.approvalId)
  expect(ids.length).toBe(calls)
  const bus = new Recorder()
  rt.controller.subscribe(ControllerEventTypes.all, (e) => bus.events.push(e))
  return { rm, rt, ids, bus }
}

class DeferAll extends AgentHook {
  get hookName(): string { return 'DeferAll' }
  async beforeToolCall(): Promise<ToolCallHookResult> {
    return ToolCallHookResult.defer('asks first')
  }
}

describe('recording decisions', () => {
  it('refuses an approval id or deny reason that is not a string, as invalid_input', async () => {
    const { rt, ids } = await frozen()
    const badId = await rt.applyApprovalDecision(42 as unknown as string, ApprovalDecision.approved)
    expect([badId.ok, badId.approvalId, badId.error?.code, badId.error?.layer, badId.error?.message]).toEqual([false, '',
      ErrorCodes.invalidInput, ErrorLayer.config,
      'An approval decision needs a string approval id'])
    expect(badId.error?.retryability).toBe(ErrorRetryability.never)
    const badReason = await rt.applyApprovalDecision(ids[0], ApprovalDecision.denied, 7 as unknown as string)
    expect([badReason.ok, badReason.approvalId, badReason.error?.code]).toEqual([false, ids[0], ErrorCodes.invalidInput])
    // An object is ApprovalDecisionOptions: a name it does not have is refused, never ignored.
    const objReason = await rt.applyApprovalDecision(ids[0], ApprovalDecision.denied, { reasn: 'typo' } as unknown as string)
    expect(objReason.error?.code).toBe(ErrorCodes.invalidInput)
    expect(objReason.error?.message).toContain('reasn')
    expect(rt.controller.listPendingApprovals().length).toBe(2)
    // null counts as no reason.
    const nullReason = await rt.applyApprovalDecision(ids[0], ApprovalDecision.denied, null as unknown as string)
    expect([nullReason.ok, nullReason.decision]).toEqual([true, ApprovalDecision.denied])
    expect(rt.getPendingApprovalBatch()?.items[0].denyReason).toBe('denied by the user')
  })

  it('refuses "pending" as a decision, and names unknown ids', async () => {
    const { rt, ids } = await frozen()
    const pending = await rt.applyApprovalDecision(ids[0], ApprovalDecision.pending)
    expect([pending.ok, pending.approvalId, pending.error?.code, pending.error?.layer, pending.error?.message]).toEqual([
      false, ids[0], ErrorCodes.invalidConfig, ErrorLayer.config, 'A decision must be approved or denied'])
    const unknown = await rt.controller.approve('apr_nope')
    expect([unknown.ok, unknown.approvalId, unknown.error?.code, unknown.error?.layer, unknown.error?.message]).toEqual([
      false, 'apr_nope', ErrorCodes.approvalUnknown, ErrorLayer.runtime, "No pending approval has id 'apr_nope'"])
  })

  it('with no batch at all, an id is unknown, or consumed when it belonged to a resumed batch', async () => {
    const rm = new CountingTool('rm', ToolRiskLevel.dangerous)
    const idle = makeRuntime([], { tools: [rm.tool] })
    const none = await idle.controller.approve('apr_1')
    expect([none.ok, none.error?.code, none.error?.message]).toEqual([false, ErrorCodes.approvalUnknown,
      "No pending approval has id 'apr_1'"])
    const { rt, ids } = await frozen()
    await rt.controller.approve(ids[0])
    await rt.controller.deny(ids[1])
    await rt.runStream([])
    const late = await rt.controller.deny(ids[0])
    expect([late.ok, late.approvalId, late.error?.code, late.error?.layer, late.error?.message]).toEqual([false, ids[0],
      ErrorCodes.approvalConsumed, ErrorLayer.runtime, `Approval '${ids[0]}' belongs to a batch that was already resumed`])
  })

  it('stores the given deny reason, "denied by the user" for none or an empty one, and no reason for an approval', async () => {
    const { rt, ids, bus } = await frozen(new MemoryStateStorage(), 4)
    const r0 = await rt.controller.deny(ids[0], 'not today')
    const r1 = await rt.controller.deny(ids[1], '')
    const r2 = await rt.controller.deny(ids[2])
    expect([r0, r1, r2].map((r) => [r.ok, r.approvalId, r.decision, r.allDecided])).toEqual([
      [true, ids[0], 'denied', false], [true, ids[1], 'denied', false], [true, ids[2], 'denied', false]])
    const r3 = await rt.controller.approve(ids[3])
    expect([r3.ok, r3.decision, r3.allDecided]).toEqual([true, 'approved', true])
    const items = (rt.getPendingApprovalBatch() as PendingApprovalBatch).items
    expect(items.map((i) => [i.decision, i.denyReason])).toEqual([['denied', 'not today'], ['denied', 'denied by the user'],
      ['denied', 'denied by the user'], ['approved', undefined]])
    for (const i of items) {
      expect(typeof i.decidedAtMs).toBe('number')
      expect(i.decidedAtMs as number).toBeGreaterThanOrEqual(i.createdAtMs)
    }
    const decided = bus.ofType<ApprovalDecidedEvent>(ControllerEventTypes.approvalDecided)
    expect(decided.map((e) => [e.item.approvalId, e.item.decision, e.item.denyReason])).toEqual([
      [ids[0], 'denied', 'not today'], [ids[1], 'denied', 'denied by the user'], [ids[2], 'denied', 'denied by the user'],
      [ids[3], 'approved', undefined]])
    const resolved = bus.ofType<ApprovalResolvedEvent>(ControllerEventTypes.approvalResolved)
    expect(resolved.length).toBe(1)
    expect(resolved[0].batch.items.every((i) => i.decision !== ApprovalDecision.pending)).toBe(true)
    expect(bus.types().indexOf(ControllerEventTypes.approvalResolved)).toBeGreaterThan(
      bus.types().lastIndexOf(ControllerEventTypes.approvalDecided))
    // Every decision was written before it was reported.
    expect(bus.persists().filter((e) => e.reason === 'approval_decision' && e.mandatory && e.ok).length).toBe(4)
    // A repeat reports the recorded decision, including whether all are decided.
    const again = await rt.controller.approve(ids[0])
    expect([again.ok, again.decision, again.allDecided]).toEqual([true, 'denied', true])
    const outcome = await rt.runStream([])
    expect(outcome.status).toBe(RunStatus.completed)
    const history = rt.snapshot().history
    const denied = toolMessage(history, 'c0')
    expect([denied.text(), denied.errorCode, denied.isError]).toEqual(["The user denied 'rm': not today", ErrorCodes.toolDenied, true])
    expect(toolMessage(history, 'c1').text()).toBe("The user denied 'rm': denied by the user")
  })

  it('a decision whose write fails is rolled back: reported as state_save_failed and can be made again', async () => {
    const storage = new FaultyStorage(new MemoryStateStorage())
    const { rm, rt, ids, bus } = await frozen(storage)
    storage.failWhen = () => true
    const failed = await rt.controller.deny(ids[0], 'nope')
    expect([failed.ok, failed.approvalId, failed.error?.code, failed.error?.layer, failed.error?.retryability]).toEqual([
      false, ids[0], ErrorCodes.stateSaveFailed, ErrorLayer.storage, ErrorRetryability.retryable])
    expect(failed.error?.message).toBe("The decision could not be saved: Saving state ('approval_decision') failed: " +
      'injected save failure (status awaiting_approval)')
    const item = (rt.getPendingApprovalBatch() as PendingApprovalBatch).items[0]
    expect([item.decision, item.denyReason, item.decidedAtMs]).toEqual([ApprovalDecision.pending, undefined, undefined])
    expect(rt.controller.listPendingApprovals().length).toBe(2)
    expect(bus.ofType(ControllerEventTypes.approvalDecided)).toEqual([])
    storage.failWhen = undefined
    const ok = await rt.controller.approve(ids[0])
    expect([ok.ok, ok.decision]).toEqual([true, ApprovalDecision.approved])
    const last = await rt.controller.approve(ids[1])
    expect(last.allDecided).toBe(true)
    await rt.runStream([])
    expect(rm.count).toBe(2)
  })
})

describe('resuming a decided batch', () => {
  /** A decided batch as an earlier build may have stored it, with a long list of consumed ids. */
  function storedDecidedBatch(sessionId: string, consumedBefore: number): AgentState {
    const calls = [new ToolCall('k1', 'rm', '{}', 0), new ToolCall('k2', 'rm', '{}', 1)]
    const message = AgentMessage.assistant('', calls)
    const denied = new PendingApprovalItem('apr_k1', calls[0], ToolRiskLevel.dangerous, 'dangerous', 10,
      ApprovalDecision.denied)
    denied.decidedAtMs = 11
    const approved = new PendingApprovalItem('apr_k2', calls[1], ToolRiskLevel.dangerous, 'dangerous', 10,
      ApprovalDecision.approved)
    approved.decidedAtMs = 12
    const state = new AgentState(sessionId)
    state.history = [AgentMessage.user('go')]
    state.status = SessionStatus.awaitingApproval
    state.activeRunId = 'run_old'
    state.lastStopReason = StopReason.awaitingApproval
    state.pendingApproval = new PendingApprovalBatch('batch_old', 'run_old', [denied, approved], message, 10)
    state.consumedApprovalIds = Array.from({ length: consumedBefore }, (_, i) => `old_${i}`)
    return state
  }

  it('a denial stored without a reason is reported to the model without one; consumed ids keep only the latest 256', async () => {
    const storage = new MemoryStateStorage()
    const rm = new CountingTool('rm', ToolRiskLevel.dangerous)
    const rt = makeRuntime([ScriptedTurn.text('done')], { tools: [rm.tool], storage })
    await storage.save(storedDecidedBatch(rt.sessionId, 255))
    const outcome = await rt.runStream([])
    expect(outcome.status).toBe(RunStatus.completed)
    expect(rm.count).toBe(1)
    const snap = rt.snapshot()
    const denied = toolMessage(snap.history, 'k1')
    expect([denied.text(), denied.errorCode, denied.isError]).toEqual(["The user denied 'rm'", ErrorCodes.toolDenied, true])
    expect(snap.pendingApproval).toBeUndefined()
    expect(snap.consumedApprovalIds.length).toBe(256)
    expect(snap.consumedApprovalIds[0]).toBe('old_1')
    expect(snap.consumedApprovalIds.slice(-2)).toEqual(['apr_k1', 'apr_k2'])
    expect((await rt.controller.approve('apr_k2')).error?.code).toBe(ErrorCodes.approvalConsumed)
    expect((await rt.controller.approve('old_0')).error?.code).toBe(ErrorCodes.approvalUnknown)
  })

  it('below the limit every consumed id is kept', async () => {
    const storage = new MemoryStateStorage()
    const rt = makeRuntime([ScriptedTurn.text('done')], { tools: [new CountingTool('rm', ToolRiskLevel.dangerous).tool], storage })
    await storage.save(storedDecidedBatch(rt.sessionId, 3))
    await rt.runStream([])
    expect(rt.snapshot().consumedApprovalIds).toEqual(['old_0', 'old_1', 'old_2', 'apr_k1', 'apr_k2'])
  })
})
