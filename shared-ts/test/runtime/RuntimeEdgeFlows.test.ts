// Runtime paths pinned by exact outcomes: resumed work that ends the run, interrupted runs with
// odd histories, ids of frozen work, restore reports of inconsistent stored states, and what a
// cancelled run reports whatever error arrives after the cancellation.
import { describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentMessage,
  AgentState,
  ApprovalDecision,
  ArkAgentError,
  CancellationSource,
  CancellationToken,
  ErrorCodes,
  ErrorLayer,
  ErrorRetryability,
  LoopCheck,
  LoopDetectorPort,
  LoopVerdict,
  MemoryStateStorage,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ModelStreamSink,
  RestoreKind,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  SessionStatus,
  ToolBatchEntry,
  ToolBatchProgress,
  ToolCall,
  ToolCallHookContext,
  ToolCallHookResult,
  ToolResultHookContext,
  ToolResultHookResult,
  ToolRiskLevel
} from '../../src/index'
import { CountingTool, FaultyStorage, makeRuntime, newSessionId, rejectionOf } from './helpers'

/** Defers calls whose id starts with 'f'; optionally stops the run after any tool ran. */
class DeferAndStop extends AgentHook {
  constructor(readonly stopAfter: boolean = false) {
    super()
  }
  get hookName(): string { return 'DeferAndStop' }
  async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
    return ctx.call.id.startsWith('f') ? ToolCallHookResult.defer() : ToolCallHookResult.proceed()
  }
  async afterToolCall(ctx: ToolResultHookContext): Promise<ToolResultHookResult> {
    return this.stopAfter ? ToolResultHookResult.stop() : ToolResultHookResult.proceed()
  }
}

/** A loop detector whose parts can be made to fail. */
class OddDetector implements LoopDetectorPort {
  chunkError?: Error
  afterTurnAction?: () => Promise<LoopCheck>
  recordToolResult(): LoopVerdict | undefined { return undefined }
  recordChunk(): LoopVerdict | undefined {
    if (this.chunkError !== undefined) throw this.chunkError
    return undefined
  }
  afterTurn(): Promise<LoopCheck> {
    return this.afterTurnAction !== undefined ? this.afterTurnAction() : Promise.resolve(LoopCheck.clear)
  }
  reset(): void {}
}

describe('resumed work', () => {
  it('a decided batch whose tool stops the run ends it with tool_stop without asking the model again', async () => {
    const ls = new CountingTool('ls')
    const provider = new ScriptedProvider([ScriptedTurn.text('').call('f1', 'ls', '{}'), ScriptedTurn.text('asked again')])
    const rt = makeRuntime(provider, { tools: [ls.tool], hooks: [new DeferAndStop(true)], storage: new MemoryStateStorage(),
      configure: (cfg) => { cfg.autoResume = false } })
    const first = await rt.run('go')
    expect(first.stopReason).toBe('awaiting_approval')
    const batch = rt.getPendingApprovalBatch()
    expect(batch?.batchId).toMatch(/^batch_/)
    expect((await rt.controller.approve(batch!.items[0].approvalId)).ok).toBe(true)
    const outcome = await rt.runStream([])
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.stopReason).toBe('tool_stop')
    expect(ls.count).toBe(1)
    expect(provider.requests.length).toBe(1)
  })

  it('a run interrupted before any history was written resumes by asking the model', async () => {
    const storage = new MemoryStateStorage()
    const sessionId = newSessionId()
    const s = new AgentState(sessionId)
    s.status = SessionStatus.running
    s.activeRunId = 'run_dead'
    s.runCount = 1
    await storage.save(s)
    const provider = new ScriptedProvider([ScriptedTurn.text('answer')])
    const rt = makeRuntime(provider, { sessionId, storage })
    const outcome = await rt.runStream([])
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.finalMessage?.text()).toBe('answer')
    expect(provider.requests.length).toBe(1)
  })

  it('an interrupted run whose history ends with the model asking for tools is not finished on that message', async () => {
    const storage = new MemoryStateStorage()
    const sessionId = newSessionId()
    const s = new AgentState(sessionId)
    s.history = [AgentMessage.user('question'), AgentMessage.assistant('let me look', [new ToolCall('c1', 'ls', '{}', 0)])]
    s.status = SessionStatus.running
    s.activeRunId = 'run_dead'
    s.runCount = 1
    await storage.save(s)
    const provider = new ScriptedProvider([ScriptedTurn.text('answer')])
    const rt = makeRuntime(provider, { sessionId, storage })
    const outcome = await rt.runStream([])
    expect(outcome.finalMessage?.text()).toBe('answer')
    expect(provider.requests.length).toBe(1)
  })

  it('new input after an interrupted batch pairs its calls and adds nothing else to history', async () => {
    const storage = new MemoryStateStorage()
    const sessionId = newSessionId()
    const s = new AgentState(sessionId)
    const calls = AgentMessage.assistant('', [new ToolCall('a', 'ls', '{}', 0), new ToolCall('b', 'ls', '{}', 1)])
    s.history = [AgentMessage.user('first')]
    s.status = SessionStatus.running
    s.activeRunId = 'run_dead'
    s.runCount = 1
    s.toolBatch = new ToolBatchProgress('batch_x', 'run_dead', calls, [
      new ToolBatchEntry(calls.callAt(0), true), new ToolBatchEntry(calls.callAt(1), false)])
    await storage.save(s)
    const ls = new CountingTool('ls')
    const rt = makeRuntime([ScriptedTurn.text('fresh')], { sessionId, storage, tools: [ls.tool] })
    const outcome = await rt.run('second')
    expect(outcome.status).toBe(RunStatus.completed)
    const h = rt.snapshot().history
    expect(h.map((m) => `${m.role}:${m.toolCallId ?? ''}:${m.errorCode ?? ''}`)).toEqual([
      'user::', 'assistant::', `tool:a:${ErrorCodes.toolInterrupted}`, `tool:b:${ErrorCodes.toolInterrupted}`,
      'user::', 'assistant::'])
    expect(ls.count).toBe(0)
  })
})

describe('ids of frozen and running work', () => {
  it('the batch being run is stored under a batch_ id while its tool runs', async () => {
    const storage = new MemoryStateStorage()
    const sessionId = newSessionId()
    const seen: Array<string | undefined> = []
    const probe = new CountingTool('probe', ToolRiskLevel.safe, async () => {
      const loaded = await storage.load(sessionId)
      seen.push(loaded?.state.toolBatch?.batchId)
      return 'ok'
    })
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'probe', '{}'), ScriptedTurn.text('done')],
      { sessionId, storage, tools: [probe.tool] })
    await rt.run('go')
    expect(seen.length).toBe(1)
    expect(seen[0]).toMatch(/^batch_/)
  })

  it('a plan under review has a plan_ id, and a restored review reports no reason', async () => {
    const storage = new MemoryStateStorage()
    const sessionId = newSessionId()
    const rt = makeRuntime([ScriptedTurn.text('').call('p1', 'submit_plan', JSON.stringify({ plan: '1. look' }))],
      { sessionId, storage, configure: (cfg) => { cfg.planMode = true; cfg.autoResume = false } })
    const outcome = await rt.run('plan')
    expect(outcome.stopReason).toBe('awaiting_plan_review')
    expect(rt.getPendingPlanReview()?.reviewId).toMatch(/^plan_/)
    const again = makeRuntime([], { sessionId, storage, configure: (cfg) => { cfg.planMode = true } })
    const report = await again.restore()
    expect(report.kind).toBe(RestoreKind.awaitingPlanReview)
    expect(report.reason).toBe('')
  })
})

describe('restoring inconsistent stored states', () => {
  async function suspended(planMode: boolean): Promise<{ storage: MemoryStateStorage, sessionId: string }> {
    const storage = new MemoryStateStorage()
    const sessionId = newSessionId()
    const turn = planMode ? ScriptedTurn.text('').call('p1', 'submit_plan', JSON.stringify({ plan: '1. look' })) :
      ScriptedTurn.text('').call('f1', 'ls', '{}')
    const rt = makeRuntime([turn], { sessionId, storage, tools: [new CountingTool('ls').tool], hooks: [new DeferAndStop()],
      configure: (cfg) => { cfg.planMode = planMode; cfg.autoResume = false } })
    await rt.run('go')
    return { storage, sessionId }
  }

  async function rewrite(storage: MemoryStateStorage, sessionId: string, edit: (s: AgentState) => void): Promise<void> {
    const loaded = await storage.load(sessionId)
    const state = loaded!.state
    edit(state)
    await storage.save(state)
  }

  it('a pending batch under a finished status is not reported as awaiting approval', async () => {
    const { storage, sessionId } = await suspended(false)
    await rewrite(storage, sessionId, (s) => { s.status = SessionStatus.completed })
    const report = await makeRuntime([], { sessionId, storage }).restore()
    expect(report.kind).toBe(RestoreKind.idle)
  })

  it('an awaiting-approval status without a batch is not reported as awaiting approval', async () => {
    const { storage, sessionId } = await suspended(false)
    await rewrite(storage, sessionId, (s) => { s.pendingApproval = undefined })
    const report = await makeRuntime([], { sessionId, storage }).restore()
    expect(report.kind).toBe(RestoreKind.idle)
  })

  it('a pending plan under a finished status is not reported as awaiting plan review', async () => {
    const { storage, sessionId } = await suspended(true)
    await rewrite(storage, sessionId, (s) => { s.status = SessionStatus.completed })
    const report = await makeRuntime([], { sessionId, storage }).restore()
    expect(report.kind).toBe(RestoreKind.idle)
  })

  it('an awaiting-plan-review status without a plan is not reported as awaiting plan review', async () => {
    const { storage, sessionId } = await suspended(true)
    await rewrite(storage, sessionId, (s) => { s.pendingPlanReview = undefined })
    const report = await makeRuntime([], { sessionId, storage }).restore()
    expect(report.kind).toBe(RestoreKind.idle)
  })
})

describe('failures inside a run', () => {
  it('a loop detector that throws while recording a streamed chunk fails the run with that error', async () => {
    const detector = new OddDetector()
    detector.chunkError = new Error('detector broke')
    const rt = makeRuntime([ScriptedTurn.text('some text')], { configure: (cfg) => { cfg.loopDetector = detector } })
    const outcome = await rt.run('hi')
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.providerError)
    expect(outcome.error?.message).toBe('Model call failed: detector broke')
  })

  it('a tool_started write that fails stops the run with state_save_failed naming the cause', async () => {
    const faulty = new FaultyStorage(new MemoryStateStorage())
    faulty.failWhen = (s) => s.toolBatch !== undefined && s.toolBatch.entries.some((e) => e.started)
    const ls = new CountingTool('ls')
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'ls', '{}'), ScriptedTurn.text('done')],
      { storage: faulty, tools: [ls.tool] })
    const outcome = await rt.run('go')
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.stateSaveFailed)
    expect(outcome.error?.message).toBe("Could not persist state before running a tool: Saving state ('tool_started') failed: injected save failure (status running)")
    expect(ls.count).toBe(0)
  })

  it('a run cancelled while the loop detector fails reports the cancellation, not the detector error', async () => {
    const source = new CancellationSource()
    const detector = new OddDetector()
    detector.afterTurnAction = async () => {
      source.cancel('user stop')
      throw new Error('diagnosis broke')
    }
    const rt = makeRuntime([ScriptedTurn.text('answer')], { configure: (cfg) => { cfg.loopDetector = detector } })
    const outcome = await rt.run('hi', undefined, source.token)
    expect(outcome.status).toBe(RunStatus.cancelled)
    expect(outcome.error?.code).toBe(ErrorCodes.cancelled)
  })

  it('a provider that fails after the run was cancelled reports the cancellation, whatever it threw', async () => {
    const source = new CancellationSource()
    const provider: ModelProvider = {
      providerId: 'cancel-then-throw',
      async streamModel(_r: ModelRequest, _s: ModelStreamSink, _t: CancellationToken): Promise<ModelResponse> {
        source.cancel('user stop')
        throw new ArkAgentError(ErrorLayer.security, ErrorCodes.hookAbort, 'gateway refused', ErrorRetryability.never)
      }
    }
    const rt = makeRuntime(provider)
    const outcome = await rt.run('hi', undefined, source.token)
    expect(outcome.status).toBe(RunStatus.cancelled)
    expect(outcome.error?.code).toBe(ErrorCodes.cancelled)
  })
})

describe('decisions and continuation', () => {
  it('a decision that leaves items undecided does not start a continuation: resuming right away is refused as awaiting approval', async () => {
    const ls = new CountingTool('ls')
    const rt = makeRuntime([ScriptedTurn.text('').call('f1', 'ls', '{}').call('f2', 'ls', '{}'), ScriptedTurn.text('done')],
      { tools: [ls.tool], hooks: [new DeferAndStop()], storage: new MemoryStateStorage() })
    await rt.run('go')
    const items = rt.getPendingApprovalBatch()!.items
    const decided = await rt.applyApprovalDecision(items[0].approvalId, ApprovalDecision.approved)
    // Resumed in the very next step: the session must not look busy with a continuation.
    const err = await rejectionOf(rt.runStream([]))
    expect(decided.ok).toBe(true)
    expect(decided.allDecided).toBe(false)
    expect(err.code).toBe(ErrorCodes.awaitingApproval)
    expect(ls.count).toBe(0)
  })
})
