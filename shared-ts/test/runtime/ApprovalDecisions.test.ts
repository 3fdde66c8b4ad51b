// Spec 6.4 / 8.3: approve/deny idempotency and precise errors, through AgentController.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentRuntime,
  ApprovalDecision,
  ApprovalPolicyHook,
  ControllerEventTypes,
  ErrorCodes,
  FileStateStorage,
  RunStatus,
  ScriptedTurn,
  SessionStatus,
  ToolRiskLevel
} from '../../src/index'
import {
  cleanupTempDirs,
  CountingTool,
  expectPaired,
  FaultyStorage,
  loadFromDisk,
  makeRuntime,
  newSessionId,
  Recorder,
  tempDir
} from './helpers'

afterEach(() => cleanupTempDirs())

class World {
  readonly dir = tempDir()
  readonly sessionId = newSessionId()
  readonly rm = new CountingTool('rm', ToolRiskLevel.dangerous)
  readonly mv = new CountingTool('mv', ToolRiskLevel.dangerous)

  runtime(storage: FileStateStorage | FaultyStorage = new FileStateStorage(this.dir, undefined, { lock: false }), autoResume = true): AgentRuntime {
    return makeRuntime([ScriptedTurn.text('').call('c1', 'rm', '{}').call('c2', 'mv', '{}'), ScriptedTurn.text('done')], {
      sessionId: this.sessionId,
      tools: [this.rm.tool, this.mv.tool],
      hooks: [new ApprovalPolicyHook()],
      storage,
      configure: (cfg) => { cfg.autoResume = autoResume }
    })
  }
}

async function suspended(w: World, rt: AgentRuntime): Promise<string[]> {
  const outcome = await rt.run('clean up')
  expect(outcome.status).toBe(RunStatus.suspended)
  return rt.controller.listPendingApprovals().map((i) => i.approvalId)
}

describe('approval decisions', () => {
  it('approving twice: the second call returns ok with the current decision and changes nothing', async () => {
    const w = new World()
    const rt = w.runtime(undefined, false)
    const [a] = await suspended(w, rt)
    const bus = new Recorder()
    rt.controller.subscribe(ControllerEventTypes.approvalDecided, (e) => bus.events.push(e))
    const first = await rt.controller.approve(a)
    const second = await rt.controller.approve(a)
    expect(first.ok).toBe(true)
    expect(second.ok).toBe(true)
    expect(second.decision).toBe(ApprovalDecision.approved)
    expect(second.allDecided).toBe(false)
    expect(bus.events.length).toBe(1)
  })

  it('deny after approve returns ok with the first decision, approved (first decision wins)', async () => {
    const w = new World()
    const rt = w.runtime()
    const [a, b] = await suspended(w, rt)
    await rt.controller.approve(a)
    const late = await rt.controller.deny(a, 'changed my mind')
    expect(late.ok).toBe(true)
    expect(late.decision).toBe(ApprovalDecision.approved)
    await rt.controller.approve(b)
    await rt.whenIdle()
    expect(w.rm.count).toBe(1)
  })

  it('an unknown id returns approval_unknown and a consumed id returns approval_consumed', async () => {
    const w = new World()
    const rt = w.runtime()
    const ids = await suspended(w, rt)
    expect((await rt.controller.deny('apr_bogus')).error?.code).toBe(ErrorCodes.approvalUnknown)
    await rt.controller.approve(ids[0])
    await rt.controller.deny(ids[1], 'no')
    await rt.whenIdle()
    const consumed = await rt.controller.approve(ids[1])
    expect(consumed.ok).toBe(false)
    expect(consumed.error?.code).toBe(ErrorCodes.approvalConsumed)
    expect((await rt.controller.approve('apr_bogus')).error?.code).toBe(ErrorCodes.approvalUnknown)
  })

  it('the last decision reports allDecided and the run continues by itself', async () => {
    const w = new World()
    const rt = w.runtime()
    const [a, b] = await suspended(w, rt)
    expect((await rt.controller.approve(a)).allDecided).toBe(false)
    const last = await rt.controller.approve(b)
    expect(last.allDecided).toBe(true)
    await rt.whenIdle()
    expect(w.rm.count).toBe(1)
    expect(w.mv.count).toBe(1)
    expect(rt.snapshot().status).toBe(SessionStatus.completed)
  })

  it('racing approve and deny on the same item: one decision wins, both callers see it, and the tool runs at most once', async () => {
    const w = new World()
    const rt = w.runtime()
    const [a, b] = await suspended(w, rt)
    await rt.controller.approve(b)
    const [r1, r2] = await Promise.all([rt.controller.approve(a), rt.controller.deny(a, 'no')])
    expect(r1.ok && r2.ok).toBe(true)
    expect(r1.decision).toBe(r2.decision)
    await rt.whenIdle()
    expect(w.rm.count).toBe(r1.decision === ApprovalDecision.approved ? 1 : 0)
    expect(w.mv.count).toBe(1)
    expectPaired(rt.snapshot().history)
  })

  it('a racing second decision is never told a decision that is not durable (the first one\'s write failed)', async () => {
    const w = new World()
    const faulty = new FaultyStorage(new FileStateStorage(w.dir, undefined, { lock: false }))
    const rt = w.runtime(faulty, false)
    const [a] = await suspended(w, rt)
    let failures = 0
    faulty.failWhen = (s) => s.pendingApproval !== undefined && s.pendingApproval.items.some((i) => !i.isPending()) &&
      failures++ === 0
    const [r1, r2] = await Promise.all([rt.controller.approve(a), rt.controller.deny(a, 'no')])
    expect(r1.ok).toBe(false)
    expect(r1.error?.code).toBe(ErrorCodes.stateSaveFailed)
    const durable = (await loadFromDisk(w.dir, w.sessionId))?.state.pendingApproval?.find(a)?.decision
    const current = rt.controller.pendingBatch()?.find(a)?.decision
    if (r2.ok) {
      expect(r2.decision).toBe(durable)
      expect(r2.decision).toBe(current)
    } else {
      expect(durable).toBe(ApprovalDecision.pending)
    }
    expect(r2.ok).toBe(true)
    expect(r2.decision).toBe(ApprovalDecision.denied)
  })

  it('a decision whose write fails is not recorded: state_save_failed, the item stays pending and can be decided again', async () => {
    const w = new World()
    const faulty = new FaultyStorage(new FileStateStorage(w.dir, undefined, { lock: false }))
    const rt = w.runtime(faulty, false)
    const [a] = await suspended(w, rt)
    faulty.failWhen = (s) => s.pendingApproval !== undefined && s.pendingApproval.items.some((i) => !i.isPending())
    const failed = await rt.controller.approve(a)
    expect(failed.ok).toBe(false)
    expect(failed.error?.code).toBe(ErrorCodes.stateSaveFailed)
    expect(rt.controller.listPendingApprovals().map((i) => i.approvalId)).toContain(a)
    faulty.failWhen = undefined
    const retried = await rt.controller.deny(a, 'no after all')
    expect(retried.ok).toBe(true)
    expect(retried.decision).toBe(ApprovalDecision.denied)
    const disk = await loadFromDisk(w.dir, w.sessionId)
    expect(disk?.state.pendingApproval?.find(a)?.decision).toBe(ApprovalDecision.denied)
  })

  it('a disposed runtime leaves its controller without a host: approval_host_missing', async () => {
    const w = new World()
    const rt = w.runtime()
    const [a] = await suspended(w, rt)
    rt.dispose()
    const r = await rt.controller.approve(a)
    expect(r.ok).toBe(false)
    expect(r.error?.code).toBe(ErrorCodes.approvalHostMissing)
    expect(w.rm.count).toBe(0)
  })
})
