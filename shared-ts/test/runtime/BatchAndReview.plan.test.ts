// Plan review: the reserved submit_plan tool, what counts as a plan, how a review is requested,
// decided and turned back into tool results for the model.
import { describe, expect, it } from 'vitest'
import {
  AgentMessage,
  AgentState,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  ErrorRetryability,
  MemoryStateStorage,
  PendingPlanReview,
  PlanReviewDecision,
  PlanReviewRequiredEvent,
  PlanReviewResolvedEvent,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  SessionStatus,
  StopReason,
  SUBMIT_PLAN_TOOL,
  ToolCall,
  ToolRiskLevel
} from '../../src/index'
import { PlanReviewFlow } from '../../src/core/runtime/PlanReviewFlow'
import { CountingTool, expectPaired, FaultyStorage, makeRuntime, Recorder, toolMessage } from './helpers'

const PLAN = '1. look\n2. fix'

function planRuntime(provider: ScriptedProvider, storage: MemoryStateStorage | FaultyStorage = new MemoryStateStorage(),
  autoResume = false) {
  const edit = new CountingTool('edit')
  const rt = makeRuntime(provider, {
    tools: [edit.tool], storage, configure: (cfg) => { cfg.planMode = true; cfg.autoResume = autoResume }
  })
  return { rt, edit }
}

const submit = (id = 'p1', plan: string = PLAN) => ScriptedTurn.text('my plan').call(id, SUBMIT_PLAN_TOOL, JSON.stringify({ plan }))

describe('the submit_plan tool', () => {
  it('is offered with its schema in plan mode only, and no longer once a plan was approved', async () => {
    const expected = {
      name: 'submit_plan',
      description: 'Submit your plan for the user to review before doing anything else. Wait for the review.',
      parameters: {
        type: 'object',
        properties: { plan: { type: 'string', description: 'The step-by-step plan', minLength: 1 } },
        required: ['plan'],
        additionalProperties: false
      },
      riskLevel: ToolRiskLevel.safe
    }
    const def = PlanReviewFlow.definition()
    expect({ name: def.name, description: def.description, parameters: def.parameters, riskLevel: def.riskLevel }).toEqual(expected)
    const provider = new ScriptedProvider([submit(), ScriptedTurn.text('').call('e1', 'edit', '{}'), ScriptedTurn.text('done')])
    const { rt, edit } = planRuntime(provider)
    await rt.run('fix it')
    const offered = provider.requests[0].tools.find((t) => t.name === SUBMIT_PLAN_TOOL)
    expect(offered?.parameters).toEqual(expected.parameters)
    expect((await rt.controller.approvePlan()).ok).toBe(true)
    const outcome = await rt.runStream([])
    expect(outcome.status).toBe(RunStatus.completed)
    expect(edit.count).toBe(1)
    expect(provider.requests[1].tools.map((t) => t.name)).toEqual(['edit'])
    expect(rt.snapshot().plan).toBe(PLAN)

    const plain = new ScriptedProvider([ScriptedTurn.text('hi')])
    await makeRuntime(plain, { tools: [new CountingTool('edit').tool] }).run('hello')
    expect(plain.requests[0].tools.map((t) => t.name)).toEqual(['edit'])
  })

  it.each([
    ['no arguments object', 'not json'],
    ['no plan', '{}'],
    ['an empty plan', '{"plan":""}'],
    ['a plan that is not text', '{"plan":5}'],
    ['extra fields', '{"plan":"x","more":1}']
  ])('a submission with %s is answered with the problem and nothing is reviewed', async (_name, args) => {
    const provider = new ScriptedProvider([
      ScriptedTurn.text('').call('e0', 'edit', '{}').call('p0', SUBMIT_PLAN_TOOL, args),
      ScriptedTurn.text('ok')
    ])
    const { rt, edit } = planRuntime(provider)
    const outcome = await rt.run('fix it')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(rt.snapshot().pendingPlanReview).toBeUndefined()
    const history = rt.snapshot().history
    expectPaired(history)
    const answer = toolMessage(history, 'p0')
    expect(answer.errorCode).toBe(ErrorCodes.toolInvalidArguments)
    expect(answer.isError).toBe(true)
    expect(answer.text()).toMatch(/^Invalid arguments for 'submit_plan': .+\. Submit the plan as \{"plan": "\.\.\."\}$/)
    expect(answer.text()).toBe(PlanReviewFlow.check(new ToolCall('p0', SUBMIT_PLAN_TOOL, args, 1))?.textContent())
    expect(toolMessage(history, 'e0').text()).toBe('Plan mode: submit your plan with submit_plan before using other tools')
    expect(edit.count).toBe(0)
  })

  it('names each problem of a submission', () => {
    const text = (args: string) => PlanReviewFlow.check(new ToolCall('p', SUBMIT_PLAN_TOOL, args, 0))?.textContent()
    expect(text('{"plan":"do it"}')).toBeUndefined()
    expect(text('{}')).toBe("Invalid arguments for 'submit_plan': $.plan: is required. Submit the plan as {\"plan\": \"...\"}")
    const parse = PlanReviewFlow.check(new ToolCall('p', SUBMIT_PLAN_TOOL, '[1', 0))
    expect(parse?.callId).toBe('p')
    expect(parse?.errorCode).toBe(ErrorCodes.toolInvalidArguments)
    expect(parse?.textContent()).toMatch(/^Invalid arguments for 'submit_plan': \S.*JSON.*\. Submit the plan/)
  })
})

describe('requesting a review', () => {
  it('suspends with the first submission in the message; other calls are answered unrun once it is decided', async () => {
    const provider = new ScriptedProvider([
      ScriptedTurn.text('').call('e0', 'edit', '{}').call('p1', SUBMIT_PLAN_TOOL, JSON.stringify({ plan: PLAN }))
        .call('p2', SUBMIT_PLAN_TOOL, JSON.stringify({ plan: 'other' })),
      ScriptedTurn.text('thanks')
    ])
    const { rt, edit } = planRuntime(provider)
    const rec = new Recorder()
    const outcome = await rt.run('fix it', rec.observer)
    expect(outcome.status).toBe(RunStatus.suspended)
    expect(outcome.stopReason).toBe(StopReason.awaitingPlanReview)
    const review = rt.getPendingPlanReview() as PendingPlanReview
    expect([review.plan, review.toolCall.id, review.runId, review.decision, review.reason]).toEqual([PLAN, 'p1', outcome.runId,
      PlanReviewDecision.pending, undefined])
    expect(review.modelMessage.toolCalls.map((c) => c.id)).toEqual(['e0', 'p1', 'p2'])
    const snap = rt.snapshot()
    expect([snap.status, snap.lastStopReason]).toEqual([SessionStatus.awaitingPlanReview, StopReason.awaitingPlanReview])
    const required = rec.ofType<PlanReviewRequiredEvent>(ControllerEventTypes.planReviewRequired)
    expect(required.map((e) => e.review.reviewId)).toEqual([review.reviewId])
    const approved = await rt.controller.approvePlan()
    expect([approved.ok, approved.reviewId, approved.decision]).toEqual([true, review.reviewId, PlanReviewDecision.approved])
    await rt.runStream([])
    const history = rt.snapshot().history
    expectPaired(history)
    expect(toolMessage(history, 'p1').text()).toBe('The user approved the plan. Carry it out.')
    expect(toolMessage(history, 'p1').isError).toBe(false)
    for (const id of ['e0', 'p2']) {
      const m = toolMessage(history, id)
      expect([m.errorCode, m.text()]).toEqual([ErrorCodes.toolInterrupted, 'Not executed: tools run only after the plan is approved'])
    }
    expect(edit.count).toBe(0)
    expect(rt.snapshot().pendingPlanReview).toBeUndefined()
  })

  it('a review whose write fails is not kept: the run fails with state_save_failed and new input is accepted', async () => {
    const storage = new FaultyStorage(new MemoryStateStorage())
    storage.failWhen = (s) => s.status === SessionStatus.awaitingPlanReview
    const { rt } = planRuntime(new ScriptedProvider([submit(), ScriptedTurn.text('fine')]), storage)
    const rec = new Recorder()
    const outcome = await rt.run('fix it', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.stateSaveFailed)
    expect(outcome.error?.message).toBe('The plan review could not be saved, so it is not resumable: ' +
      "Saving state ('awaiting_plan_review') failed: injected save failure (status awaiting_plan_review)")
    expect(rec.ofType(ControllerEventTypes.planReviewRequired)).toEqual([])
    expect(rt.getPendingPlanReview()).toBeUndefined()
    expect(rt.snapshot().pendingPlanReview).toBeUndefined()
    expect((await rt.run('again')).status).toBe(RunStatus.completed)
  })
})

describe('deciding a review', () => {
  async function pendingReview(storage: MemoryStateStorage | FaultyStorage = new MemoryStateStorage()) {
    const provider = new ScriptedProvider([submit(), ScriptedTurn.text('revising')])
    const { rt } = planRuntime(provider, storage)
    await rt.run('fix it')
    const bus = new Recorder()
    rt.controller.subscribe(ControllerEventTypes.all, (e) => bus.events.push(e))
    return { rt, provider, bus, reviewId: (rt.getPendingPlanReview() as PendingPlanReview).reviewId }
  }

  it('refuses a reason that is not text, "pending" as a decision, and a decision with nothing to review', async () => {
    const idle = makeRuntime([], { configure: (cfg) => { cfg.planMode = true } })
    const none = await idle.controller.approvePlan()
    expect([none.ok, none.reviewId, none.error?.code, none.error?.layer, none.error?.message]).toEqual([false, '',
      ErrorCodes.planReviewMissing, ErrorLayer.runtime, 'No plan is waiting for review'])
    const { rt, reviewId } = await pendingReview()
    const badReason = await rt.applyPlanReviewDecision(PlanReviewDecision.rejected, 12 as unknown as string)
    expect([badReason.ok, badReason.reviewId, badReason.error?.code, badReason.error?.layer, badReason.error?.message,
      badReason.error?.retryability]).toEqual([false, '', ErrorCodes.invalidInput, ErrorLayer.config,
      'A plan review reason must be a string', ErrorRetryability.never])
    const pending = await rt.applyPlanReviewDecision(PlanReviewDecision.pending)
    expect([pending.ok, pending.reviewId, pending.error?.code, pending.error?.layer, pending.error?.message]).toEqual([false,
      reviewId, ErrorCodes.invalidConfig, ErrorLayer.config, 'A plan decision must be approved or rejected'])
    expect(rt.getPendingPlanReview()?.decision).toBe(PlanReviewDecision.pending)
    // null is no reason at all.
    const nullReason = await rt.applyPlanReviewDecision(PlanReviewDecision.rejected, null as unknown as string)
    expect([nullReason.ok, nullReason.decision]).toEqual([true, PlanReviewDecision.rejected])
    expect(rt.getPendingPlanReview()?.reason).toBe('rejected by the user')
  })

  it('a rejection without a reason tells the model "rejected by the user"; the first decision wins', async () => {
    const { rt, provider, bus, reviewId } = await pendingReview()
    const rejected = await rt.controller.rejectPlan('')
    expect([rejected.ok, rejected.reviewId, rejected.decision]).toEqual([true, reviewId, PlanReviewDecision.rejected])
    const late = await rt.controller.approvePlan()
    expect([late.ok, late.reviewId, late.decision]).toEqual([true, reviewId, PlanReviewDecision.rejected])
    const resolved = bus.ofType<PlanReviewResolvedEvent>(ControllerEventTypes.planReviewResolved)
    expect(resolved.map((e) => [e.review.decision, e.review.reason])).toEqual([[PlanReviewDecision.rejected, 'rejected by the user']])
    expect(bus.persists().filter((e) => e.reason === 'plan_review_decision' && e.mandatory && e.ok).length).toBe(1)
    await rt.runStream([])
    const answer = toolMessage(rt.snapshot().history, 'p1')
    expect(answer.text()).toBe('The user rejected the plan: rejected by the user. Revise the plan and submit it again.')
    expect(answer.isError).toBe(false)
    expect(provider.requests[1].tools.map((t) => t.name)).toContain(SUBMIT_PLAN_TOOL)
    expect(rt.snapshot().plan).toBe('')
  })

  it('a rejection passes its reason on; an approval keeps a given reason and drops an empty one', async () => {
    const a = await pendingReview()
    await a.rt.controller.rejectPlan('too vague')
    await a.rt.runStream([])
    expect(toolMessage(a.rt.snapshot().history, 'p1').text())
      .toBe('The user rejected the plan: too vague. Revise the plan and submit it again.')

    const b = await pendingReview()
    await b.rt.applyPlanReviewDecision(PlanReviewDecision.approved, 'looks good')
    expect(b.rt.getPendingPlanReview()?.reason).toBe('looks good')
    const c = await pendingReview()
    await c.rt.applyPlanReviewDecision(PlanReviewDecision.approved, '')
    expect(c.rt.getPendingPlanReview()?.reason).toBeUndefined()
    expect(c.bus.ofType<PlanReviewResolvedEvent>(ControllerEventTypes.planReviewResolved)[0].review.reason).toBeUndefined()
  })

  it('a decision whose write fails is rolled back and reported as state_save_failed; it can be made again', async () => {
    const storage = new FaultyStorage(new MemoryStateStorage())
    const { rt, bus, reviewId } = await pendingReview(storage)
    storage.failWhen = () => true
    const failed = await rt.controller.rejectPlan('nope')
    expect([failed.ok, failed.reviewId, failed.error?.code, failed.error?.layer, failed.error?.message,
      failed.error?.retryability]).toEqual([false, reviewId, ErrorCodes.stateSaveFailed, ErrorLayer.storage,
      'The plan decision could not be saved', ErrorRetryability.retryable])
    const review = rt.getPendingPlanReview() as PendingPlanReview
    expect([review.decision, review.reason]).toEqual([PlanReviewDecision.pending, undefined])
    expect(bus.ofType(ControllerEventTypes.planReviewResolved)).toEqual([])
    storage.failWhen = undefined
    const ok = await rt.controller.approvePlan()
    expect([ok.ok, ok.decision]).toEqual([true, PlanReviewDecision.approved])
  })
})

describe('resuming a stored review', () => {
  function storedReview(sessionId: string, plan: string, decision: PlanReviewDecision): AgentState {
    const call = new ToolCall('sp', SUBMIT_PLAN_TOOL, JSON.stringify({ plan }), 0)
    const state = new AgentState(sessionId)
    state.history = [AgentMessage.user('plan it')]
    state.status = SessionStatus.awaitingPlanReview
    state.activeRunId = 'run_old'
    state.lastStopReason = StopReason.awaitingPlanReview
    state.pendingPlanReview = new PendingPlanReview('plan_old', 'run_old', plan, call, AgentMessage.assistant('', [call]), 5,
      decision)
    return state
  }

  it('an approved review with an empty plan still ends plan mode; a rejection stored without a reason says so', async () => {
    const storage = new MemoryStateStorage()
    const provider = new ScriptedProvider([ScriptedTurn.text('going')])
    const { rt } = planRuntime(provider, storage)
    await storage.save(storedReview(rt.sessionId, '', PlanReviewDecision.approved))
    expect((await rt.runStream([])).status).toBe(RunStatus.completed)
    expect(rt.snapshot().plan).toBe('(approved)')
    expect(provider.requests[0].tools.map((t) => t.name)).toEqual(['edit'])

    const storage2 = new MemoryStateStorage()
    const provider2 = new ScriptedProvider([ScriptedTurn.text('rethinking')])
    const second = planRuntime(provider2, storage2)
    await storage2.save(storedReview(second.rt.sessionId, PLAN, PlanReviewDecision.rejected))
    await second.rt.runStream([])
    expect(toolMessage(second.rt.snapshot().history, 'sp').text())
      .toBe('The user rejected the plan: no reason given. Revise the plan and submit it again.')
    expect(second.rt.snapshot().plan).toBe('')
  })
})
