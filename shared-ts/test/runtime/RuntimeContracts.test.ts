// The runtime's smaller contracts, one by one: restore happens once (and again after a failure),
// decisions restore first, loop memory follows runs, what wins when a run is cancelled and fails
// at once, autosave failures are diagnostics, the public string values apps rely on.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentMessage,
  AgentState,
  ApprovalPolicyHook,
  CancellationSource,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  FileStateStorage,
  HookDiagnosticEvent,
  LoadedState,
  LoopCheck,
  LoopDetectorPort,
  LoopVerdict,
  MemoryStateStorage,
  ModelChunkHookContext,
  ModelChunkHookResult,
  PersistReason,
  RunStatus,
  SaveReport,
  ScriptedTurn,
  SessionStatus,
  StateStorage,
  StopReason,
  ToolRiskLevel
} from '../../src/index'
import { cleanupTempDirs, CountingTool, FaultyStorage, makeRuntime, newSessionId, tempDir, toolMessage } from './helpers'

afterEach(() => cleanupTempDirs())

/** Counts loads; the first `failures` loads reject. */
class CountingStorage implements StateStorage {
  loads = 0
  constructor(readonly inner: StateStorage, public failures = 0) {}
  async load(id: string): Promise<LoadedState | undefined> {
    this.loads++
    if (this.failures > 0) { this.failures--; throw new Error('disk asleep') }
    return this.inner.load(id)
  }
  save(s: AgentState): Promise<SaveReport> { return this.inner.save(s) }
  markNotResumable(id: string, r: string): Promise<void> { return this.inner.markNotResumable(id, r) }
  delete(id: string): Promise<void> { return this.inner.delete(id) }
}

describe('restore', () => {
  it('loads once: a second call and concurrent calls share one load and one report', async () => {
    const storage = new CountingStorage(new MemoryStateStorage())
    const rt = makeRuntime([ScriptedTurn.text('hi')], { storage })
    const [a, b] = await Promise.all([rt.restore(), rt.restore()])
    const c = await rt.restore()
    expect(storage.loads).toBe(1)
    expect(a).toBe(b)
    expect(c).toBe(a)
    await rt.run('hello')
    await rt.suspend()
    expect(storage.loads).toBe(1)
  })

  it('a failed restore is tried again by the next call (the failure is not cached)', async () => {
    const storage = new CountingStorage(new MemoryStateStorage(), 1)
    const rt = makeRuntime([ScriptedTurn.text('hi')], { storage })
    await expect(rt.restore()).rejects.toThrow('disk asleep')
    const report = await rt.restore()
    expect(report.kind).toBe('fresh')
    expect(storage.loads).toBe(2)
  })

  it('a decision sent to a runtime that never restored restores first and is applied', async () => {
    const storage = new MemoryStateStorage()
    const danger = new CountingTool('danger', ToolRiskLevel.dangerous)
    const sessionId = newSessionId()
    const first = makeRuntime([ScriptedTurn.text('').call('c', 'danger', '{}')], { sessionId, tools: [danger.tool],
      hooks: [new ApprovalPolicyHook()], storage })
    await first.run('go')
    const id = first.snapshot().pendingApproval!.items[0].approvalId
    const second = makeRuntime([ScriptedTurn.text('done')], { sessionId, tools: [danger.tool], hooks: [new ApprovalPolicyHook()],
      storage: new MemoryStateStorage(undefined, storage.memory) })
    expect((await second.controller.approve(id)).ok).toBe(true)
    await second.whenIdle()
    expect(second.snapshot().status).toBe(SessionStatus.completed)
    expect(danger.count).toBe(1)
  })

  it('a plan decision sent to a runtime that never restored restores first too', async () => {
    const storage = new MemoryStateStorage()
    const sessionId = newSessionId()
    const first = makeRuntime([ScriptedTurn.text('').call('p', 'submit_plan', '{"plan":"x"}')], { sessionId, storage,
      configure: (c) => { c.planMode = true } })
    await first.run('go')
    const second = makeRuntime([ScriptedTurn.text('ok')], { sessionId, storage: new MemoryStateStorage(undefined, storage.memory),
      configure: (c) => { c.planMode = true } })
    expect(second.controller.pendingPlanReview()).toBeUndefined()
    expect((await second.controller.approvePlan()).ok).toBe(true)
    await second.whenIdle()
    expect(second.snapshot().plan).toBe('x')
    expect(second.controller.pendingPlanReview()).toBeUndefined()
  })

  it('without storage, suspend() resolves true and restore reports a fresh session', async () => {
    const rt = makeRuntime([ScriptedTurn.text('hi')])
    expect(await rt.suspend()).toBe(true)
    expect((await rt.restore()).kind).toBe('fresh')
  })
})

describe('loop memory follows runs', () => {
  class Counting implements LoopDetectorPort {
    resets = 0
    recordChunk(): LoopVerdict | undefined { return undefined }
    recordToolResult(): LoopVerdict | undefined { return undefined }
    async afterTurn(): Promise<LoopCheck> { return LoopCheck.clear }
    reset(): void { this.resets++ }
  }

  it('new input resets the detector; resuming a decided batch does not', async () => {
    const detector = new Counting()
    const danger = new CountingTool('danger', ToolRiskLevel.dangerous)
    const rt = makeRuntime([ScriptedTurn.text('').call('c', 'danger', '{}'), ScriptedTurn.text('done'), ScriptedTurn.text('again')],
      { tools: [danger.tool], hooks: [new ApprovalPolicyHook()], configure: (c) => { c.loopDetector = detector; c.autoResume = false } })
    await rt.run('go')
    expect(detector.resets).toBe(1)
    await rt.controller.approve(rt.snapshot().pendingApproval!.items[0].approvalId)
    await rt.runStream([])
    expect(detector.resets).toBe(1)
    await rt.run('more')
    expect(detector.resets).toBe(2)
  })

  it('a detector that throws outside the stream fails the run with its message', async () => {
    const broken = new Counting()
    broken.afterTurn = async () => { throw new Error('detector bug') }
    const rt = makeRuntime([ScriptedTurn.text('x')], { configure: (c) => { c.loopDetector = broken } })
    const outcome = await rt.run('go')
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.message).toBe('Run failed: detector bug')
    expect(outcome.error?.layer).toBe(ErrorLayer.runtime)
  })
})

describe('cancellation and failure at once', () => {
  it('a security error wins over a cancellation that came first; any other error becomes cancelled', async () => {
    const source = new CancellationSource()
    const rt = makeRuntime([ScriptedTurn.text('a', 'b')], { hooks: [new (class extends AgentHook {
      async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
        source.cancel('stop')
        return ModelChunkHookResult.abort('policy')
      }
    })()] })
    const outcome = await rt.runStream([AgentMessage.user('go')], undefined, source.token)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
    const s2 = new CancellationSource()
    const boom = new CountingTool('boom', ToolRiskLevel.safe, async (args, ctx) => { s2.cancel('stop'); throw new Error('late failure') })
    const rt2 = makeRuntime([ScriptedTurn.text('').call('c', 'boom', '{}').call('d', 'boom', '{}')], { tools: [boom.tool] })
    const o2 = await rt2.runStream([AgentMessage.user('go')], undefined, s2.token)
    expect(o2.status).toBe(RunStatus.cancelled)
    expect(o2.error?.layer).toBe(ErrorLayer.cancelled)
    expect(toolMessage(rt2.snapshot().history, 'd').text()).toBe('Not executed: the run was cancelled')
    expect(toolMessage(rt2.snapshot().history, 'd').errorCode).toBe(ErrorCodes.cancelled)
  })
})

describe('an interrupted batch', () => {
  it('new input after an interrupted run closes out its calls that never ran, and the started one is interrupted', async () => {
    const dir = tempDir()
    const sessionId = newSessionId()
    let hang = true
    const stuck = new CountingTool('stuck', ToolRiskLevel.safe, () => hang ? new Promise<string>(() => {}) : Promise.resolve('ok'))
    const first = makeRuntime([ScriptedTurn.text('').call('s1', 'stuck', '{}').call('s2', 'stuck', '{}')],
      { sessionId, tools: [stuck.tool], storage: new FileStateStorage(dir, undefined, { lock: false }) })
    void first.run('go')
    for (let i = 0; i < 200 && stuck.count === 0; i++) await new Promise((r) => setTimeout(r, 2))
    hang = false
    const second = makeRuntime([ScriptedTurn.text('fresh start')], { sessionId, tools: [stuck.tool],
      storage: new FileStateStorage(dir, undefined, { lock: false }) })
    expect((await second.restore()).interruptedCalls).toBe(1)
    const outcome = await second.run('something else')
    expect(outcome.status).toBe(RunStatus.completed)
    const h = second.snapshot().history
    expect(toolMessage(h, 's1').errorCode).toBe(ErrorCodes.toolInterrupted)
    expect(toolMessage(h, 's1').text()).toBe("Tool 'stuck' was interrupted before it reported a result; it was not run again and may have partially run")
    expect(toolMessage(h, 's2').text()).toBe('Not executed: the run was interrupted')
    expect(stuck.count).toBe(1)
  })
})

describe('autosaves', () => {
  it('a failing after_user_input save is a diagnostic and the run goes on (like every autosave)', async () => {
    const faulty = new FaultyStorage(new MemoryStateStorage())
    faulty.failWhen = (s) => s.history.length === 1 && s.status === SessionStatus.running
    const rt = makeRuntime([ScriptedTurn.text('fine')], { storage: faulty })
    const diagnostics: string[] = []
    rt.controller.subscribe(ControllerEventTypes.hookDiagnostic, (e) => diagnostics.push(`${(e as HookDiagnosticEvent).slot}: ${(e as HookDiagnosticEvent).message}`))
    const outcome = await rt.run('hi')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(diagnostics).toEqual(["persist: Saving state ('after_user_input') failed: injected save failure (status running)"])
  })

  it('suspend() that fails says why in one diagnostic from the suspend slot', async () => {
    const faulty = new FaultyStorage(new MemoryStateStorage())
    const rt = makeRuntime([], { storage: faulty })
    faulty.inner.load = async () => { throw new Error('cannot read') }
    const diagnostics: string[] = []
    rt.controller.subscribe(ControllerEventTypes.hookDiagnostic, (e) => diagnostics.push(`${(e as HookDiagnosticEvent).slot}: ${(e as HookDiagnosticEvent).message}`))
    expect(await rt.suspend()).toBe(false)
    expect(diagnostics).toEqual(['suspend: Suspend failed: cannot read'])
  })
})

describe('public string values', () => {
  it('event types, stop reasons, persist reasons and run statuses apps match on', () => {
    expect([ControllerEventTypes.all, ControllerEventTypes.agentStarted, ControllerEventTypes.agentResumed,
      ControllerEventTypes.agentSuccess, ControllerEventTypes.agentSuspended, ControllerEventTypes.agentCancelled,
      ControllerEventTypes.agentFailed, ControllerEventTypes.beforeCallLlm, ControllerEventTypes.afterCallLlm,
      ControllerEventTypes.llmChunk, ControllerEventTypes.beforeToolCall, ControllerEventTypes.afterToolCall,
      ControllerEventTypes.approvalRequired, ControllerEventTypes.approvalDecided, ControllerEventTypes.approvalResolved,
      ControllerEventTypes.planReviewRequired, ControllerEventTypes.planReviewResolved, ControllerEventTypes.loopDetected,
      ControllerEventTypes.persist, ControllerEventTypes.hookDiagnostic, ControllerEventTypes.sessionRestored])
      .toEqual(['*', 'agent.started', 'agent.resumed',
      'agent.success', 'agent.suspended', 'agent.cancelled', 'agent.failed', 'llm.before', 'llm.after', 'llm.chunk',
      'tool.before', 'tool.after', 'approval.required', 'approval.decided', 'approval.resolved', 'plan_review.required',
      'plan_review.resolved', 'loop.detected', 'state.persist', 'hook.diagnostic', 'session.restored'])
    expect(ControllerEventTypes.terminalTypes).toEqual(['agent.success', 'agent.suspended', 'agent.cancelled', 'agent.failed'])
    for (const t of ['agent.success', 'agent.suspended', 'agent.cancelled', 'agent.failed']) expect(ControllerEventTypes.isTerminal(t)).toBe(true)
    for (const t of ['agent.started', 'llm.chunk', '*', '']) expect(ControllerEventTypes.isTerminal(t)).toBe(false)
    expect([StopReason.complete, StopReason.toolStop, StopReason.awaitingApproval, StopReason.awaitingPlanReview,
      StopReason.cancelled, StopReason.error, StopReason.aborted, StopReason.loopDetected, StopReason.maxTurns])
      .toEqual(['complete', 'tool_stop', 'awaiting_approval', 'awaiting_plan_review', 'cancelled', 'error', 'aborted',
        'loop_detected', 'max_turns'])
    expect([PersistReason.afterUserInput, PersistReason.afterModelText, PersistReason.afterToolBatch, PersistReason.toolStarted,
      PersistReason.awaitingApproval, PersistReason.approvalDecision, PersistReason.awaitingPlanReview,
      PersistReason.planReviewDecision, PersistReason.resume, PersistReason.restore, PersistReason.suspend, PersistReason.terminal])
      .toEqual(['after_user_input', 'after_model_text', 'after_tool_batch', 'tool_started', 'awaiting_approval',
        'approval_decision', 'awaiting_plan_review', 'plan_review_decision', 'resume', 'restore', 'suspend', 'terminal'])
    expect(Object.values(RunStatus)).toEqual(['completed', 'suspended', 'cancelled', 'failed'])
  })

  it('a terminal state is completed, cancelled or failed, and nothing else', () => {
    const s = new AgentState('t')
    for (const status of Object.values(SessionStatus)) {
      s.status = status
      expect(s.isTerminal()).toBe(['completed', 'cancelled', 'failed'].includes(status))
    }
    expect(new AgentState('fresh')).toMatchObject({ activeRunId: '', lastStopReason: '', loopWarned: false, plan: '',
      runCount: 0, turn: 0, status: SessionStatus.idle })
  })
})

