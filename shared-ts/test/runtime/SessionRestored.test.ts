// session.restored: a restore publishes what it found, so a UI that subscribed before restore()
// resolved (an ArkUI page attaching its view model while the ability is still restoring) shows a
// restored approval batch or plan review without polling. Published once per runtime, with the state
// already in place, before any automatic continuation; never for a fresh session or a failed restore.
import { describe, expect, it } from 'vitest'
import {
  AgentState,
  ApprovalDecision,
  ApprovalPolicyHook,
  BusEvent,
  ControllerEventTypes,
  MemoryStateStorage,
  PendingApprovalItem,
  PlanReviewDecision,
  RestoreKind,
  ScriptedTurn,
  SessionRestoredEvent,
  SessionStatus,
  SUBMIT_PLAN_TOOL,
  ToolRiskLevel
} from '../../src/index'
import { CountingTool, FaultyStorage, makeRuntime, MakeOptions, newSessionId, rejectionOf } from './helpers'

/** What a listener sees at the moment the event is published. */
class Seen {
  readonly events: SessionRestoredEvent[] = []
  readonly types: string[] = []
  /** controller.pendingBatch() item ids, read inside the listener. */
  pendingInListener: string[] = []
  statusInListener = ''
}

function listen(rt: ReturnType<typeof makeRuntime>): Seen {
  const seen = new Seen()
  rt.controller.subscribeAll((e: BusEvent) => {
    seen.types.push(e.eventType())
    if (e.eventType() === ControllerEventTypes.sessionRestored) {
      seen.events.push(e as SessionRestoredEvent)
      const batch = rt.controller.pendingBatch()
      seen.pendingInListener = batch === undefined ? [] : batch.items.map((i) => i.approvalId)
      seen.statusInListener = rt.snapshot().status
    }
  })
  return seen
}

/** A session frozen on [rm (dangerous), read (safe)], stored in `storage`; returns the item ids. */
async function frozen(sessionId: string, storage: MemoryStateStorage | FaultyStorage, after: ScriptedTurn[] = [ScriptedTurn.text('done')]) {
  const opts = (): MakeOptions => ({ sessionId, storage, tools: [new CountingTool('rm', ToolRiskLevel.dangerous).tool,
    new CountingTool('read').tool], hooks: [new ApprovalPolicyHook()] })
  const first = makeRuntime([ScriptedTurn.text('cleaning').call('c1', 'rm', '{}').call('c2', 'read', '{}')], opts())
  await first.run('clean up')
  const ids = first.controller.pendingBatch()!.items.map((i) => i.approvalId)
  first.dispose()
  return { ids, relaunch: () => makeRuntime(after, opts()) }
}

describe('session.restored', () => {
  it('has the wire name session.restored and is not terminal', () => {
    expect(ControllerEventTypes.sessionRestored).toBe('session.restored')
    expect(ControllerEventTypes.isTerminal(ControllerEventTypes.sessionRestored)).toBe(false)
    const e = new SessionRestoredEvent('s', 'r', RestoreKind.idle, SessionStatus.completed, 3, [], false, 0, '')
    expect([e.eventType(), e.sessionId, e.runId, e.kind, e.historyLength, e.batch, e.planReview])
      .toEqual(['session.restored', 's', 'r', 'idle', 3, undefined, undefined])
  })

  it('a restored approval batch: published before restore() resolves, with every item, the state already in place', async () => {
    const storage = new MemoryStateStorage()
    const sessionId = newSessionId()
    const { ids, relaunch } = await frozen(sessionId, storage)
    const rt = relaunch()
    const seen = listen(rt)
    let resolved = false
    const restoring = rt.restore().then((r) => { resolved = true; return r })
    expect(seen.events).toEqual([])
    const report = await restoring
    expect(resolved).toBe(true)
    expect(seen.events.length).toBe(1)
    const e = seen.events[0]
    expect([e.sessionId, e.kind, e.lastStatus, e.allDecided, e.interruptedCalls, e.historyLength])
      .toEqual([sessionId, 'awaiting_approval', SessionStatus.awaitingApproval, false, 0, report.historyLength])
    expect(e.runId).toBe(rt.controller.pendingBatch()!.runId)
    expect(e.pendingApprovals.map((i: PendingApprovalItem) => i.approvalId)).toEqual(ids)
    expect(e.batch!.items.map((i) => `${i.toolCall.name}:${i.riskLevel}:${i.decision}`))
      .toEqual(['rm:dangerous:pending', 'read:safe:pending'])
    expect(e.planReview).toBeUndefined()
    // A listener that rebuilds from the runtime inside the event sees the restored batch.
    expect(seen.pendingInListener).toEqual(ids)
    expect(seen.statusInListener).toBe(SessionStatus.awaitingApproval)
  })

  it('is published once per runtime, and only for a stored session: not for a fresh one, without storage, or on a failed restore', async () => {
    const storage = new MemoryStateStorage()
    const { relaunch } = await frozen(newSessionId(), storage)
    const rt = relaunch()
    const seen = listen(rt)
    const [a, b] = await Promise.all([rt.restore(), rt.restore()])
    const c = await rt.restore()
    expect(a).toBe(b)
    expect(c).toBe(a)
    expect(seen.types.filter((t) => t === ControllerEventTypes.sessionRestored).length).toBe(1)

    // Only a stored session is announced: nothing for a fresh one, none without storage, none when the restore fails.
    const fresh = makeRuntime([ScriptedTurn.text('a')], { storage: new MemoryStateStorage() })
    const freshSeen = listen(fresh)
    expect((await fresh.restore()).kind).toBe(RestoreKind.fresh)
    await fresh.run('hi')
    expect(freshSeen.types).not.toContain(ControllerEventTypes.sessionRestored)
    expect(freshSeen.types[0]).toBe(ControllerEventTypes.agentStarted)

    const none = makeRuntime([])
    const noneSeen = listen(none)
    await none.restore()
    expect(noneSeen.types).toEqual([])

    const broken = new FaultyStorage(new MemoryStateStorage())
    broken.load = async () => { throw new Error('cannot read') }
    const failing = makeRuntime([], { storage: broken })
    const failingSeen = listen(failing)
    expect((await rejectionOf(failing.restore())).message).toMatch(/cannot read/)
    expect(failingSeen.types).toEqual([])
  })

  it('whichever call restores publishes it: a decision made before restore() ran', async () => {
    const storage = new MemoryStateStorage()
    const { ids, relaunch } = await frozen(newSessionId(), storage)
    const rt = relaunch()
    const seen = listen(rt)
    expect((await rt.controller.approve(ids[0])).ok).toBe(true)
    expect(seen.types[0]).toBe(ControllerEventTypes.sessionRestored)
    expect(seen.types).toContain(ControllerEventTypes.approvalDecided)
    expect(seen.events[0].pendingApprovals.map((i) => i.approvalId)).toEqual(ids)
  })

  it('decisions made before the process died: allDecided, published before the automatic continuation starts', async () => {
    const storage = new MemoryStateStorage()
    const sessionId = newSessionId()
    const opts = (autoResume = true): MakeOptions => ({ sessionId, storage,
      tools: [new CountingTool('rm', ToolRiskLevel.dangerous).tool], hooks: [new ApprovalPolicyHook()],
      configure: (cfg) => { cfg.autoResume = autoResume } })
    const first = makeRuntime([ScriptedTurn.text('').call('c1', 'rm', '{}')], opts())
    await first.run('go')
    const id = first.controller.pendingBatch()!.items[0].approvalId
    first.dispose()
    // The decision is stored; the process dies before a continuation runs.
    const decided = makeRuntime([], opts(false))
    expect((await decided.controller.approve(id)).ok).toBe(true)
    decided.dispose()
    const rt = makeRuntime([ScriptedTurn.text('removed')], opts())
    const seen = listen(rt)
    await rt.restore()
    await rt.whenIdle()
    const e = seen.events[0]
    expect([e.kind, e.allDecided, e.pendingApprovals.length, e.batch!.items[0].decision])
      .toEqual(['awaiting_approval', true, 0, ApprovalDecision.approved])
    expect(seen.types.indexOf(ControllerEventTypes.sessionRestored))
      .toBeLessThan(seen.types.indexOf(ControllerEventTypes.agentResumed))
    expect(rt.snapshot().status).toBe(SessionStatus.completed)
  })

  it('a restored plan review carries the plan; idle, interrupted and not_resumable carry their kind', async () => {
    const storage = new MemoryStateStorage()
    const planId = newSessionId()
    const planOpts = (): MakeOptions => ({ sessionId: planId, storage, configure: (cfg) => { cfg.planMode = true } })
    await makeRuntime([ScriptedTurn.text('plan').call('p1', SUBMIT_PLAN_TOOL, JSON.stringify({ plan: '1. look' }))], planOpts())
      .run('plan it')
    const planned = makeRuntime([], planOpts())
    const planSeen = listen(planned)
    await planned.restore()
    const p = planSeen.events[0]
    expect([p.kind, p.planReview!.plan, p.planReview!.decision, p.batch, p.runId])
      .toEqual(['awaiting_plan_review', '1. look', PlanReviewDecision.pending, undefined, p.planReview!.runId])

    const idleId = newSessionId()
    await makeRuntime([ScriptedTurn.text('hi')], { sessionId: idleId, storage }).run('hello')
    const idle = makeRuntime([], { sessionId: idleId, storage })
    const idleSeen = listen(idle)
    await idle.restore()
    expect([idleSeen.events[0].kind, idleSeen.events[0].lastStatus, idleSeen.events[0].historyLength])
      .toEqual(['idle', SessionStatus.completed, 2])

    // A process that died mid-run: its stored state says running, with a started call and no result.
    const deadId = newSessionId()
    const dying = new FaultyStorage(storage)
    const hang = new CountingTool('hang', ToolRiskLevel.safe, () => new Promise<string>(() => {}))
    void makeRuntime([ScriptedTurn.text('').call('h1', 'hang', '{}')], { sessionId: deadId, storage: dying, tools: [hang.tool] })
      .run('go')
    for (let i = 0; i < 200 && hang.count === 0; i++) await new Promise((r) => setTimeout(r, 2))
    dying.dead = true
    const back = makeRuntime([ScriptedTurn.text('back')], { sessionId: deadId, storage, tools: [hang.tool] })
    const backSeen = listen(back)
    await back.restore()
    expect([backSeen.events[0].kind, backSeen.events[0].lastStatus, backSeen.events[0].interruptedCalls])
      .toEqual(['interrupted', SessionStatus.running, 1])

    await storage.markNotResumable(idleId, 'terminal write failed')
    const nr = makeRuntime([], { sessionId: idleId, storage })
    const nrSeen = listen(nr)
    await nr.restore()
    expect([nrSeen.events[0].kind, nrSeen.events[0].reason]).toEqual(['not_resumable', 'terminal write failed'])
  })

  it('carries copies: changing them decides nothing', async () => {
    const storage = new MemoryStateStorage()
    const { ids, relaunch } = await frozen(newSessionId(), storage)
    const rt = relaunch()
    const seen = listen(rt)
    await rt.restore()
    const e = seen.events[0]
    for (const i of e.pendingApprovals.concat(e.batch!.items)) i.decision = ApprovalDecision.approved
    expect(rt.controller.listPendingApprovals().map((i) => i.approvalId)).toEqual(ids)
    const state: AgentState = rt.snapshot()
    expect(state.pendingApproval!.items.map((i) => i.decision)).toEqual([ApprovalDecision.pending, ApprovalDecision.pending])
  })
})
