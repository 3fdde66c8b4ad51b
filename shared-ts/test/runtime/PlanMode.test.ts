// Plan mode: submit_plan suspends for review (persisted), input is blocked, approve continues,
// reject returns the reason to the model as the tool result.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentRuntime,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  FileStateStorage,
  PlanReviewDecision,
  PlanReviewRequiredEvent,
  RestoreKind,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  SessionStatus,
  StopReason,
  SUBMIT_PLAN_TOOL
} from '../../src/index'
import {
  cleanupTempDirs,
  CountingTool,
  expectPaired,
  expectSingleTerminalLast,
  loadFromDisk,
  makeRuntime,
  newSessionId,
  Recorder,
  rejectionOf,
  tempDir,
  toolMessage
} from './helpers'

afterEach(() => cleanupTempDirs())

const PLAN = '1. read the file\n2. fix the bug'

class PlanWorld {
  readonly dir = tempDir()
  readonly sessionId = newSessionId()
  readonly edit = new CountingTool('edit')

  runtime(provider: ScriptedProvider): AgentRuntime {
    return makeRuntime(provider, {
      sessionId: this.sessionId,
      tools: [this.edit.tool],
      storage: new FileStateStorage(this.dir, undefined, { lock: false }),
      configure: (cfg) => { cfg.planMode = true }
    })
  }
}

const submit = (): ScriptedTurn => ScriptedTurn.text('here is my plan').call('p1', SUBMIT_PLAN_TOOL, JSON.stringify({ plan: PLAN }))

describe('plan mode', () => {
  it('submit_plan suspends the run as awaiting_plan_review, written before plan_review.required, and survives a reload', async () => {
    const w = new PlanWorld()
    const provider = new ScriptedProvider([submit()])
    const rt = w.runtime(provider)
    const rec = new Recorder()
    const outcome = await rt.run('fix the bug', rec.observer)
    expect(outcome.status).toBe(RunStatus.suspended)
    expect(outcome.stopReason).toBe(StopReason.awaitingPlanReview)
    expectSingleTerminalLast(rec, ControllerEventTypes.agentSuspended)
    expect(provider.requests[0].tools.map((t) => t.name)).toContain(SUBMIT_PLAN_TOOL)
    const persistIdx = rec.events.findIndex((e) => e.eventType() === ControllerEventTypes.persist &&
      (e as unknown as { reason: string, ok: boolean, mandatory: boolean }).reason === 'awaiting_plan_review')
    const requiredIdx = rec.indexOf(ControllerEventTypes.planReviewRequired)
    expect(persistIdx).toBeGreaterThanOrEqual(0)
    expect(persistIdx).toBeLessThan(requiredIdx)
    expect(rec.ofType<PlanReviewRequiredEvent>(ControllerEventTypes.planReviewRequired)[0].review.plan).toBe(PLAN)
    const disk = await loadFromDisk(w.dir, w.sessionId)
    expect(disk?.state.status).toBe(SessionStatus.awaitingPlanReview)
    const report = await w.runtime(new ScriptedProvider([])).restore()
    expect(report.kind).toBe(RestoreKind.awaitingPlanReview)
    expect(report.lastStopReason).toBe(StopReason.awaitingPlanReview)
    expect(report.planReview?.plan).toBe(PLAN)
    expect(w.edit.count).toBe(0)
  })

  it('new input while a plan is pending review is refused with pending_plan_review_blocks_input', async () => {
    const w = new PlanWorld()
    const rt = w.runtime(new ScriptedProvider([submit()]))
    await rt.run('fix the bug')
    const before = rt.snapshot().history
    const err = await rejectionOf(rt.run('just do it'))
    expect(err.code).toBe(ErrorCodes.pendingPlanReviewBlocksInput)
    expect(err.layer).toBe(ErrorLayer.security)
    expect(rt.snapshot().history).toEqual(before)
    expect(rt.controller.pendingPlanReview()?.decision).toBe(PlanReviewDecision.pending)
  })

  it('approving the plan continues the run: the model is told it was approved and may use tools', async () => {
    const w = new PlanWorld()
    const provider = new ScriptedProvider([submit(), ScriptedTurn.text('editing').call('e1', 'edit', '{}'), ScriptedTurn.text('fixed')])
    const rt = w.runtime(provider)
    await rt.run('fix the bug')
    const result = await rt.controller.approvePlan()
    expect(result.ok).toBe(true)
    expect(result.decision).toBe(PlanReviewDecision.approved)
    await rt.whenIdle()
    expect(w.edit.count).toBe(1)
    const state = rt.snapshot()
    expect(state.status).toBe(SessionStatus.completed)
    expect(state.plan).toBe(PLAN)
    expectPaired(state.history)
    const planResult = toolMessage(state.history, 'p1')
    expect(planResult.isError).toBe(false)
    expect(planResult.text()).toContain('approved')
    // Once approved, submit_plan is no longer offered.
    expect(provider.requests[2].tools.map((t) => t.name)).not.toContain(SUBMIT_PLAN_TOOL)
  })

  it('rejecting the plan returns the reason to the model as the tool result', async () => {
    const w = new PlanWorld()
    const provider = new ScriptedProvider([submit(), ScriptedTurn.text('understood, I will rethink')])
    const rt = w.runtime(provider)
    await rt.run('fix the bug')
    const result = await rt.controller.rejectPlan('do not touch production')
    expect(result.ok).toBe(true)
    await rt.whenIdle()
    const seen = provider.requests[1].messages.find((m) => m.toolCallId === 'p1')
    expect(seen?.text()).toContain('do not touch production')
    expect(w.edit.count).toBe(0)
    const state = rt.snapshot()
    expect(state.plan).toBe('')
    expect(state.status).toBe(SessionStatus.completed)
    expectPaired(state.history)
  })

  it('the plan can be approved from a new runtime after a reload', async () => {
    const w = new PlanWorld()
    await w.runtime(new ScriptedProvider([submit()])).run('fix the bug')
    const rt2 = w.runtime(new ScriptedProvider([ScriptedTurn.text('').call('e1', 'edit', '{}'), ScriptedTurn.text('fixed')]))
    await rt2.restore()
    expect((await rt2.controller.approvePlan()).ok).toBe(true)
    await rt2.whenIdle()
    expect(w.edit.count).toBe(1)
    expect((await loadFromDisk(w.dir, w.sessionId))?.state.status).toBe(SessionStatus.completed)
  })

  it('other tool calls before a plan is approved are answered unrun', async () => {
    const w = new PlanWorld()
    const provider = new ScriptedProvider([ScriptedTurn.text('').call('e0', 'edit', '{}'), submit()])
    const rt = w.runtime(provider)
    const outcome = await rt.run('fix the bug')
    expect(outcome.stopReason).toBe(StopReason.awaitingPlanReview)
    expect(w.edit.count).toBe(0)
    const msg = toolMessage(rt.snapshot().history, 'e0')
    expect(msg.isError).toBe(true)
    expectPaired(rt.snapshot().history)
  })

  it('racing approve and reject of a plan: one decision wins and both callers see the same one', async () => {
    const w = new PlanWorld()
    const rt = makeRuntime(new ScriptedProvider([submit(), ScriptedTurn.text('ok')]), {
      sessionId: w.sessionId, tools: [w.edit.tool], storage: new FileStateStorage(w.dir, undefined, { lock: false }),
      configure: (cfg) => { cfg.planMode = true; cfg.autoResume = false }
    })
    await rt.run('fix the bug')
    const [r1, r2] = await Promise.all([rt.controller.approvePlan(), rt.controller.rejectPlan('no')])
    expect(r1.ok && r2.ok).toBe(true)
    expect(r2.decision).toBe(r1.decision)
    expect((await loadFromDisk(w.dir, w.sessionId))?.state.pendingPlanReview?.decision).toBe(r1.decision)
  })
})
