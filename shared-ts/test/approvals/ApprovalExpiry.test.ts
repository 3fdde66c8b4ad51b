// Deadlines of pending approvals (docs/approvals.md): past it, an undecided item resolves as denied
// (channel expiry, a reason the model sees) — by the runtime's timer, before any later decision, and
// on restore when the deadline passed while the app was not running. The clock is the runtime's.
import { afterEach, describe, expect, it } from 'vitest'
import { ControllerEventTypes, DecisionChannel, ErrorCodes, RestoreKind, RunStatus, ScriptedTurn, SessionStatus } from '../../src/index'
import { cleanupTempDirs, toolMessage } from '../runtime/helpers'
import { ApprovalWorld, writeCall } from './support'

afterEach(() => cleanupTempDirs())

function turns(): ScriptedTurn[] {
  return [writeCall('c1', '{"path":"/tmp/a"}'), ScriptedTurn.text('done')]
}

describe('approval deadlines', () => {
  it('an approve after the deadline gets the expiry\'s denial: nothing runs, the model is told it expired', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime(turns(), (cfg) => { cfg.approvalDeadlineMs = 60_000 })
    const [id] = await ApprovalWorld.frozen(rt)
    const pending = rt.controller.listPendingApprovals()[0]
    expect(pending.expiresAtMs).toBe(w.clock.nowMs + 60_000)
    w.clock.nowMs += 60_000
    const late = await rt.controller.approve(id)
    expect([late.ok, late.decision, late.applied, late.item?.channel]).toEqual([true, 'denied', false, DecisionChannel.expiry])
    await rt.whenIdle()
    expect(w.write.count).toBe(0)
    const told = toolMessage(rt.snapshot().history, 'c1')
    expect(told.errorCode).toBe(ErrorCodes.toolDenied)
    expect(told.text()).toContain('expired')
    expect(rt.controller.listDecisions()[0].actor).toBe('runtime')
  })

  it('before the deadline a decision counts as usual', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime(turns(), (cfg) => { cfg.approvalDeadlineMs = 60_000 })
    const [id] = await ApprovalWorld.frozen(rt)
    w.clock.nowMs += 59_999
    expect((await rt.controller.approve(id)).decision).toBe('approved')
    await rt.whenIdle()
    expect(w.write.count).toBe(1)
  })

  it('the runtime\'s timer expires the batch at the deadline and the run continues by itself', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime(turns(), (cfg) => { cfg.approvalDeadlineMs = 5_000 })
    await ApprovalWorld.frozen(rt)
    const finished = new Promise<void>((resolve) => rt.controller.subscribe(ControllerEventTypes.agentSuccess, () => resolve()))
    w.clock.advance(5_000)
    await finished
    expect(rt.snapshot().status).toBe(SessionStatus.completed)
    expect(w.write.count).toBe(0)
  })

  it('a deadline that passed while the app was not running is applied on restore, before anyone is asked', async () => {
    const w = new ApprovalWorld()
    const first = w.runtime(turns(), (cfg) => { cfg.approvalDeadlineMs = 60_000 })
    const [id] = await ApprovalWorld.frozen(first)
    first.dispose()
    w.clock.nowMs += 3_600_000
    const second = w.runtime([ScriptedTurn.text('done')])
    const report = await second.restore()
    expect([report.kind, report.pendingApprovals.length, report.allDecided]).toEqual([RestoreKind.awaitingApproval, 0, true])
    await second.whenIdle()
    expect(w.write.count).toBe(0)
    expect((await second.controller.approve(id)).error?.code).toBe(ErrorCodes.approvalConsumed)
    expect(second.controller.listDecisions().map((d) => [d.approvalId, d.channel])).toEqual([[id, DecisionChannel.expiry]])
  })

  it('per-tool deadlines replace the batch deadline; 0 means none; expireApprovals() reports how many it denied', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime(turns(), (cfg) => {
      cfg.approvalDeadlineMs = 1_000
      cfg.toolApprovalDeadlineMs = { write_file: 0 }
      cfg.autoResume = false
    })
    await ApprovalWorld.frozen(rt)
    expect(rt.controller.listPendingApprovals()[0].expiresAtMs).toBeUndefined()
    w.clock.nowMs += 10_000_000
    expect(await rt.controller.expireApprovals()).toBe(0)
    const w2 = new ApprovalWorld()
    const rt2 = w2.runtime(turns(), (cfg) => {
      cfg.approvalDeadlineMs = 1_000
      cfg.toolApprovalDeadlineMs = { write_file: 30_000 }
      cfg.autoResume = false
    })
    await ApprovalWorld.frozen(rt2)
    w2.clock.nowMs += 29_999
    expect(await rt2.controller.expireApprovals()).toBe(0)
    w2.clock.nowMs += 1
    expect(await rt2.controller.expireApprovals()).toBe(1)
    expect((await rt2.runStream([])).status).toBe(RunStatus.completed)
    expect(w2.write.count).toBe(0)
  })

  it('refuses a deadline that is not a number of milliseconds', () => {
    for (const bad of [-1, Number.NaN, '5s', 2 ** 40]) {
      const w = new ApprovalWorld()
      expect(() => w.runtime(turns(), (cfg) => { cfg.approvalDeadlineMs = bad as number })).toThrow(/approvalDeadlineMs/)
      expect(() => w.runtime(turns(), (cfg) => { cfg.toolApprovalDeadlineMs = { write_file: bad as number } })).toThrow(/toolApprovalDeadlineMs/)
    }
  })
})
