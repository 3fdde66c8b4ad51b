// How runs start and resume: the refusals with their exact messages, what a new run resets, what a
// resumed run announces and writes, automatic continuation after decisions, and suspend().
import { describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentState,
  ApprovalDecision,
  AgentMessage,
  AgentResumedEvent,
  AgentStartedEvent,
  ApprovalPolicyHook,
  ArkAgentError,
  BeforeRunHookContext,
  BeforeRunHookResult,
  CancellationSource,
  CancellationToken,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  ErrorRetryability,
  HookDiagnosticEvent,
  LoopAction,
  LoopCheck,
  LoopDetectedEvent,
  LoopDetectorPort,
  LoopKind,
  LoopVerdict,
  MemoryStateStorage,
  PendingPlanReview,
  PlanReviewDecision,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  SessionStatus,
  StatePersistenceHookContext,
  StatePersistenceHookResult,
  StopReason,
  SUBMIT_PLAN_TOOL,
  ToolBatchEntry,
  ToolBatchProgress,
  ToolCall,
  ToolRiskLevel
} from '../../src/index'
import { richBatch } from '../foundations/fixtures'
import { CountingTool, FaultyStorage, makeRuntime, newSessionId, Recorder, rejectionOf, toolMessage } from './helpers'

function expectError(e: ArkAgentError, layer: ErrorLayer, code: string, retryability: ErrorRetryability, message: string): void {
  expect({ layer: e.layer, code: e.code, retryability: e.retryability, message: e.message }).toEqual({ layer, code, retryability, message })
}

/** A runtime suspended on one dangerous call awaiting approval. */
async function awaitingApproval(autoResume: boolean = false, calls: string[] = ['c1']) {
  const danger = new CountingTool('danger', ToolRiskLevel.dangerous)
  let turn = ScriptedTurn.text('')
  for (const id of calls) turn = turn.call(id, 'danger', '{}')
  const provider = new ScriptedProvider([turn, ScriptedTurn.text('done'), ScriptedTurn.text('later')])
  const storage = new FaultyStorage(new MemoryStateStorage())
  const rt = makeRuntime(provider, { tools: [danger.tool], hooks: [new ApprovalPolicyHook()], storage,
    configure: (c) => { c.autoResume = autoResume } })
  const first = await rt.run('please')
  expect(first.status).toBe(RunStatus.suspended)
  return { rt, danger, provider, storage, first }
}

async function awaitingPlan(autoResume: boolean = false) {
  const provider = new ScriptedProvider([ScriptedTurn.text('').call('p', SUBMIT_PLAN_TOOL, '{"plan":"1. look"}'), ScriptedTurn.text('done')])
  const rt = makeRuntime(provider, { storage: new MemoryStateStorage(), configure: (c) => { c.planMode = true; c.autoResume = autoResume } })
  expect((await rt.run('plan first')).status).toBe(RunStatus.suspended)
  return { rt, provider }
}

describe('refused runs', () => {
  it('a second run while one is in progress: run_in_progress (runtime, after action); the first run goes on', async () => {
    const rt = makeRuntime([ScriptedTurn.text('slow').withDelay(5), ScriptedTurn.text('next')])
    const first = rt.run('one')
    expectError(await rejectionOf(rt.run('two')), ErrorLayer.runtime, ErrorCodes.runInProgress, ErrorRetryability.afterAction,
      'A run is already in progress for this session')
    expectError(await rejectionOf(rt.runStream([])), ErrorLayer.runtime, ErrorCodes.runInProgress, ErrorRetryability.afterAction,
      'A run is already in progress for this session')
    expect(rt.isRunning).toBe(true)
    expect((await first).status).toBe(RunStatus.completed)
    expect(rt.isRunning).toBe(false)
    expect(rt.snapshot().history.map((m) => m.text())).toEqual(['one', 'slow'])
  })

  it('input that is not a message array, or a token that is not a CancellationToken: invalid_input, and the runtime stays usable', async () => {
    const rt = makeRuntime([ScriptedTurn.text('fine')])
    const notArray = await rejectionOf(rt.runStream('hello' as unknown as AgentMessage[]))
    expect(notArray.code).toBe(ErrorCodes.invalidInput)
    expect(notArray.layer).toBe(ErrorLayer.config)
    expect(notArray.retryability).toBe(ErrorRetryability.never)
    expect(notArray.message.startsWith('Invalid run input: messages')).toBe(true)
    expect(rt.isRunning).toBe(false)
    const badToken = await rejectionOf(rt.runStream([AgentMessage.user('x')], undefined, {} as unknown as CancellationToken))
    expectError(badToken, ErrorLayer.config, ErrorCodes.invalidInput, ErrorRetryability.never,
      'Invalid run input: the token must be a CancellationToken (on Node, tokenFromAbortSignal converts an AbortSignal)')
    expect(rt.isRunning).toBe(false)
    expect((await rt.run('ok')).finalMessage?.text()).toBe('fine')
    expect(rt.snapshot().history.map((m) => m.text())).toEqual(['ok', 'fine'])
  })

  it('new input while approvals are pending, and empty input before they are all decided', async () => {
    const { rt, danger } = await awaitingApproval(false, ['c1', 'c2'])
    expectError(await rejectionOf(rt.run('something else')), ErrorLayer.security, ErrorCodes.pendingApprovalBlocksInput,
      ErrorRetryability.afterAction, 'Tool approvals are pending: approve or deny them (and resume) before sending new input')
    expectError(await rejectionOf(rt.runStream([])), ErrorLayer.security, ErrorCodes.awaitingApproval, ErrorRetryability.afterAction,
      'Cannot resume: some tool approvals are still undecided')
    const items = rt.controller.listPendingApprovals()
    await rt.controller.approve(items[0].approvalId)
    // Still one undecided: no automatic or manual resume.
    expect((await rejectionOf(rt.runStream([]))).code).toBe(ErrorCodes.awaitingApproval)
    expect(rt.isRunning).toBe(false)
    expect(danger.count).toBe(0)
  })

  it('new input while a plan waits for review, and empty input before it is reviewed', async () => {
    const { rt } = await awaitingPlan()
    expectError(await rejectionOf(rt.run('skip the plan')), ErrorLayer.security, ErrorCodes.pendingPlanReviewBlocksInput,
      ErrorRetryability.afterAction, 'A plan is waiting for review: approve or reject it before sending new input')
    expectError(await rejectionOf(rt.runStream([])), ErrorLayer.security, ErrorCodes.awaitingApproval, ErrorRetryability.afterAction,
      'Cannot resume: the plan has not been reviewed yet')
    expect(rt.isRunning).toBe(false)
  })

  it('empty input with nothing to resume', async () => {
    const rt = makeRuntime([ScriptedTurn.text('x')])
    expectError(await rejectionOf(rt.runStream([])), ErrorLayer.runtime, ErrorCodes.nothingToResume, ErrorRetryability.never,
      'Nothing to resume: send a message to start a run')
    expect(rt.isRunning).toBe(false)
  })
})

describe('resuming', () => {
  it('a decided batch: agent.resumed says why, the resume write is mandatory, the approved call runs once', async () => {
    const { rt, danger, first } = await awaitingApproval()
    await rt.controller.approve(rt.controller.listPendingApprovals()[0].approvalId)
    const rec = new Recorder()
    const outcome = await rt.runStream([], rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.runId).not.toBe(first.runId)
    expect(danger.count).toBe(1)
    expect(rec.types()[0]).toBe(ControllerEventTypes.agentResumed)
    expect(rec.types()).not.toContain(ControllerEventTypes.agentStarted)
    expect((rec.events[0] as AgentResumedEvent).reason).toBe('approvals decided')
    const writes = rec.persists()
    expect(writes[0].reason).toBe('resume')
    expect(writes[0].mandatory).toBe(true)
    expect(rt.snapshot().runCount).toBe(2)
    expect(rt.snapshot().pendingApproval).toBeUndefined()
  })

  it('a reviewed plan resumes with reason "plan reviewed"', async () => {
    const { rt } = await awaitingPlan()
    await rt.controller.approvePlan()
    const rec = new Recorder()
    const outcome = await rt.runStream([], rec.observer)
    expect(outcome.finalMessage?.text()).toBe('done')
    expect((rec.events[0] as AgentResumedEvent).reason).toBe('plan reviewed')
    expect(rt.snapshot().plan).toBe('1. look')
  })

  it('a run interrupted by a dead process resumes with reason "interrupted run" and answers from the model', async () => {
    const storage = new MemoryStateStorage()
    const sessionId = newSessionId()
    const s = new AgentState(sessionId)
    s.history = [AgentMessage.user('question')]
    s.status = SessionStatus.running
    s.activeRunId = 'run_dead'
    s.runCount = 1
    await storage.save(s)
    const provider = new ScriptedProvider([ScriptedTurn.text('answer')])
    const rt = makeRuntime(provider, { sessionId, storage })
    const rec = new Recorder()
    const outcome = await rt.runStream([], rec.observer)
    expect((rec.events[0] as AgentResumedEvent).reason).toBe('interrupted run')
    expect(outcome.finalMessage?.text()).toBe('answer')
    expect(rt.snapshot().runCount).toBe(2)
    expect(rt.snapshot().activeRunId).toBe('')
  })

  it('a resume write that fails does not stop the resumed run (the terminal write still stores it)', async () => {
    const { rt, danger, storage } = await awaitingApproval()
    await rt.controller.approve(rt.controller.listPendingApprovals()[0].approvalId)
    storage.failWhen = (st) => st.status === SessionStatus.running && st.toolBatch !== undefined && !st.toolBatch.entries[0].started
    const rec = new Recorder()
    const outcome = await rt.runStream([], rec.observer)
    expect(rec.persists()[0].ok).toBe(false)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.persisted).toBe(true)
    expect(danger.count).toBe(1)
  })
})

describe('what a new run resets', () => {
  class AlwaysLooping implements LoopDetectorPort {
    resets = 0
    recordChunk(text: string): LoopVerdict | undefined {
      return text === 'loop' ? new LoopVerdict(LoopKind.content, 'loop', 3) : undefined
    }
    recordToolResult(): LoopVerdict | undefined { return undefined }
    async afterTurn(): Promise<LoopCheck> { return LoopCheck.clear }
    reset(): void { this.resets++ }
  }

  it('the loop warning of an earlier run does not carry over: new input gets its own warning before any stop', async () => {
    const detector = new AlwaysLooping()
    const rt = makeRuntime([ScriptedTurn.text('loop'), ScriptedTurn.text('fine'), ScriptedTurn.text('loop'), ScriptedTurn.text('fine again')],
      { configure: (c) => { c.loopDetector = detector } })
    const rec = new Recorder()
    expect((await rt.run('one')).status).toBe(RunStatus.completed)
    expect(rt.snapshot().loopWarned).toBe(true)
    const second = await rt.run('two', rec.observer)
    expect(second.status).toBe(RunStatus.completed)
    expect(second.finalMessage?.text()).toBe('fine again')
    expect(rec.ofType<LoopDetectedEvent>(ControllerEventTypes.loopDetected).map((e) => e.action)).toEqual([LoopAction.warned])
  })

  it('a new run clears the last error of the one before: no write of the new run carries it', async () => {
    const seen: Array<string | undefined> = []
    class Watch extends AgentHook {
      async beforePersistState(ctx: StatePersistenceHookContext): Promise<StatePersistenceHookResult> {
        seen.push(`${ctx.reason}:${ctx.state.lastError?.code ?? '-'}`)
        return StatePersistenceHookResult.proceed()
      }
    }
    const danger = new CountingTool('danger', ToolRiskLevel.dangerous)
    const rt = makeRuntime([ScriptedTurn.failing(new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerServerError, 'down')),
      ScriptedTurn.text('').call('c1', 'danger', '{}')],
    { tools: [danger.tool], hooks: [new Watch(), new ApprovalPolicyHook()], storage: new MemoryStateStorage() })
    await rt.run('one')
    expect(rt.snapshot().lastError?.code).toBe(ErrorCodes.providerServerError)
    const second = await rt.run('two')
    expect(second.status).toBe(RunStatus.suspended)
    expect(seen).toEqual(['after_user_input:-', 'terminal:provider_server_error', 'after_user_input:-', 'awaiting_approval:-'])
    expect(rt.snapshot().lastError).toBeUndefined()
  })

  it('during a run the session is running under that run id; afterwards the id is cleared and the run counted', async () => {
    const during: string[] = []
    class Watch extends AgentHook {
      async beforeRun(ctx: BeforeRunHookContext): Promise<BeforeRunHookResult> {
        during.push(`${ctx.state.status}|${ctx.state.activeRunId === ctx.runId}|${ctx.input.map((m) => m.text()).join()}`)
        return BeforeRunHookResult.proceed()
      }
    }
    const rt = makeRuntime([ScriptedTurn.text('a'), ScriptedTurn.text('b')], { hooks: [new Watch()] })
    const rec = new Recorder()
    await rt.run('x', rec.observer)
    await rt.run('y')
    expect(during).toEqual(['running|true|x', 'running|true|y'])
    expect(rt.snapshot().activeRunId).toBe('')
    expect(rt.snapshot().runCount).toBe(2)
    const started = rec.events[0] as AgentStartedEvent
    expect(started.eventType()).toBe(ControllerEventTypes.agentStarted)
    expect(started.input.map((m) => m.text())).toEqual(['x'])
  })

  it('a beforeRun abort fails the run with hook_abort naming the slot and reason; nothing enters history', async () => {
    class No extends AgentHook {
      async beforeRun(): Promise<BeforeRunHookResult> { return BeforeRunHookResult.abort('not today') }
    }
    const provider = new ScriptedProvider([ScriptedTurn.text('never')])
    const rt = makeRuntime(provider, { hooks: [new No()] })
    const outcome = await rt.run('x')
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.stopReason).toBe(StopReason.aborted)
    expect(outcome.error?.message).toBe('beforeRun hook aborted the run: not today')
    expect(provider.callCount).toBe(0)
    expect(rt.snapshot().history).toEqual([])
  })
})

describe('failures and cancellation', () => {
  it('a plain error escaping the run fails it as a runtime error "Run failed: ..."; the detector is reset only for new input', async () => {
    const resets: string[] = []
    const detector: LoopDetectorPort = {
      recordChunk: () => undefined,
      recordToolResult: () => undefined,
      afterTurn: async () => LoopCheck.clear,
      reset: () => { resets.push('reset'); if (resets.length === 1) throw new Error('reset bug') }
    }
    const danger = new CountingTool('danger', ToolRiskLevel.dangerous)
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'danger', '{}'), ScriptedTurn.text('done')],
      { tools: [danger.tool], hooks: [new ApprovalPolicyHook()], configure: (c) => { c.loopDetector = detector; c.autoResume = false } })
    const failed = await rt.run('x')
    expect(failed.status).toBe(RunStatus.failed)
    expect(failed.stopReason).toBe(StopReason.error)
    expect(failed.error?.layer).toBe(ErrorLayer.runtime)
    expect(failed.error?.code).toBe(ErrorCodes.providerError)
    expect(failed.error?.message).toBe('Run failed: reset bug')
    expect((await rt.run('y')).status).toBe(RunStatus.suspended)
    expect(resets.length).toBe(2)
    await rt.controller.approve(rt.controller.listPendingApprovals()[0].approvalId)
    expect((await rt.runStream([])).status).toBe(RunStatus.completed)
    expect(resets.length).toBe(2)
  })

  it('a failure after the token was cancelled is reported as the cancellation, with its reason', async () => {
    const source = new CancellationSource()
    const boom = new CountingTool('boom', ToolRiskLevel.safe, async () => { source.cancel('user left'); throw new Error('late') })
    const rt = makeRuntime([ScriptedTurn.text('').call('c', 'boom', '{}')], { tools: [boom.tool] })
    const rec = new Recorder()
    const outcome = await rt.runStream([AgentMessage.user('go')], rec.observer, source.token)
    expect(outcome.status).toBe(RunStatus.cancelled)
    expect(outcome.stopReason).toBe(StopReason.cancelled)
    expect(outcome.error?.message).toBe('Cancelled: user left')
    expect(rec.terminals().map((e) => e.eventType())).toEqual([ControllerEventTypes.agentCancelled])
    expect(rt.snapshot().status).toBe(SessionStatus.cancelled)
  })

  it('a run failing without cancellation is failed even if a security error ends it', async () => {
    class No extends AgentHook {
      async beforeRun(): Promise<BeforeRunHookResult> { return BeforeRunHookResult.abort() }
    }
    const rt = makeRuntime([], { hooks: [new No()] })
    const outcome = await rt.run('x')
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.message).toBe('beforeRun hook aborted the run')
  })
})

describe('decisions and automatic continuation', () => {
  it('the last approval continues the run by itself; whenIdle resolves after it', async () => {
    const { rt, danger } = await awaitingApproval(true, ['c1', 'c2'])
    const items = rt.controller.listPendingApprovals()
    const r1 = await rt.controller.approve(items[0].approvalId)
    expect(r1.ok).toBe(true)
    expect(r1.allDecided).toBe(false)
    await rt.whenIdle()
    expect(danger.count).toBe(0)
    expect(rt.snapshot().status).toBe(SessionStatus.awaitingApproval)
    await rt.controller.deny(items[1].approvalId, 'no')
    await rt.whenIdle()
    expect(danger.count).toBe(1)
    expect(rt.snapshot().status).toBe(SessionStatus.completed)
    expect(toolMessage(rt.snapshot().history, 'c2').errorCode).toBe(ErrorCodes.toolDenied)
  })

  it('a refused decision continues nothing', async () => {
    const { rt, danger, provider } = await awaitingApproval(true)
    const bad = await rt.controller.approve('no-such-id')
    expect(bad.ok).toBe(false)
    await rt.whenIdle()
    expect(provider.callCount).toBe(1)
    expect(danger.count).toBe(0)
    expect(rt.snapshot().status).toBe(SessionStatus.awaitingApproval)
  })

  it('with autoResume off, decisions only record; the app resumes', async () => {
    const { rt, danger } = await awaitingApproval(false)
    await rt.controller.approve(rt.controller.listPendingApprovals()[0].approvalId)
    await rt.whenIdle()
    expect(danger.count).toBe(0)
    expect((await rt.runStream([])).status).toBe(RunStatus.completed)
    expect(danger.count).toBe(1)
    const plan = await awaitingPlan(false)
    await plan.rt.controller.approvePlan()
    await plan.rt.whenIdle()
    expect(plan.provider.callCount).toBe(1)
  })

  it('an approved plan continues the run by itself; a refused plan decision does not', async () => {
    const { rt, provider } = await awaitingPlan(true)
    await rt.controller.approvePlan()
    await rt.whenIdle()
    expect(provider.callCount).toBe(2)
    expect(rt.snapshot().status).toBe(SessionStatus.completed)
    const repeat = await rt.controller.approvePlan()
    expect(repeat.ok).toBe(false)
    await rt.whenIdle()
    expect(provider.callCount).toBe(2)
  })

  it('a restored, fully decided batch or plan continues by itself; a refused decision changes nothing', async () => {
    // A batch whose every item was decided before the process died.
    const sid = newSessionId()
    const s = new AgentState(sid)
    s.history = [AgentMessage.user('go')]
    s.status = SessionStatus.awaitingApproval
    s.pendingApproval = richBatch('run_1')
    s.pendingApproval.items[0].decision = ApprovalDecision.denied
    s.pendingApproval.items[0].decidedAtMs = 1
    const storage = new MemoryStateStorage()
    await storage.save(s)
    const provider = new ScriptedProvider([ScriptedTurn.text('after batch')])
    const rt = makeRuntime(provider, { sessionId: sid, storage })
    const refused = await rt.controller.approve('no-such-id')
    expect(refused.ok).toBe(false)
    await rt.whenIdle()
    expect(provider.callCount).toBe(1)
    expect(rt.snapshot().status).toBe(SessionStatus.completed)
    expect(rt.snapshot().history[rt.snapshot().history.length - 1].text()).toBe('after batch')

    // A plan reviewed before the process died.
    const sid2 = newSessionId()
    const p = new AgentState(sid2)
    const call = new ToolCall('p', SUBMIT_PLAN_TOOL, '{"plan":"x"}', 0)
    p.history = [AgentMessage.user('go')]
    p.status = SessionStatus.awaitingPlanReview
    p.pendingPlanReview = new PendingPlanReview('r', 'run_1', 'x', call, AgentMessage.assistant('', [call]), 1, PlanReviewDecision.approved)
    const storage2 = new MemoryStateStorage()
    await storage2.save(p)
    const provider2 = new ScriptedProvider([ScriptedTurn.text('after plan')])
    const rt2 = makeRuntime(provider2, { sessionId: sid2, storage: storage2, configure: (c) => { c.planMode = true } })
    const bad = await rt2.applyPlanReviewDecision(PlanReviewDecision.pending)
    expect(bad.ok).toBe(false)
    await rt2.whenIdle()
    expect(provider2.callCount).toBe(1)
    expect(rt2.snapshot().history[rt2.snapshot().history.length - 1].text()).toBe('after plan')
  })

  it('the pending batch and plan the runtime hands out are copies', async () => {
    const { rt } = await awaitingApproval()
    const batch = rt.getPendingApprovalBatch()!
    batch.items.length = 0
    expect(rt.getPendingApprovalBatch()!.items.length).toBe(1)
    const { rt: planRt } = await awaitingPlan()
    const review = planRt.getPendingPlanReview()!
    review.reason = 'tampered'
    expect(planRt.getPendingPlanReview()!.reason).toBeUndefined()
    expect(makeRuntime([]).getPendingApprovalBatch()).toBeUndefined()
    expect(makeRuntime([]).getPendingPlanReview()).toBeUndefined()
  })
})

describe('suspend()', () => {
  it('a failing checkpoint write resolves false', async () => {
    const storage = new FaultyStorage(new MemoryStateStorage())
    storage.failWhen = () => true
    const rt = makeRuntime([], { storage })
    expect(await rt.suspend()).toBe(false)
    expect(storage.attempts.length).toBe(1)
  })

  it('a checkpoint on a session whose settling fails reports the failure under the interrupted run id', async () => {
    const sessionId = newSessionId()
    const s = new AgentState(sessionId)
    const call = new ToolCall('c1', 't', '{}', 0)
    s.history = [AgentMessage.user('go')]
    s.status = SessionStatus.running
    s.activeRunId = 'run_dead'
    s.toolBatch = new ToolBatchProgress('b', 'run_dead', AgentMessage.assistant('', [call]), [new ToolBatchEntry(call, true)])
    const storage = new FaultyStorage(new MemoryStateStorage())
    await storage.inner.save(s)
    storage.failWhen = () => true
    const rt = makeRuntime([], { sessionId, storage })
    const diags: HookDiagnosticEvent[] = []
    rt.controller.subscribe(ControllerEventTypes.hookDiagnostic, (e) => diags.push(e as HookDiagnosticEvent))
    expect(await rt.suspend()).toBe(false)
    expect(diags.map((d) => `${d.slot}|${d.message}|${d.runId}`))
      .toEqual(["suspend|Saving state ('restore') failed: injected save failure (status running)|run_dead"])
  })
})
