// How every run ends: the terminal event and its fields, the stop reason per error, what the terminal
// write stores (error, status, no active run, no unpaired call) and what a suspension leaves alone.
import { describe, expect, it } from 'vitest'
import {
  AgentCancelledEvent,
  AgentMessage,
  AgentFailedEvent,
  AgentHook,
  AgentSuccessEvent,
  AgentSuspendedEvent,
  ApprovalPolicyHook,
  ArkAgentError,
  CancellationSource,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  ErrorRetryability,
  MemoryStateStorage,
  ModelCallHookContext,
  ModelCallHookResult,
  RunStatus,
  ScriptedTurn,
  SessionStatus,
  StatePersistenceHookContext,
  StatePersistenceHookResult,
  StopReason,
  StoredError,
  ToolRiskLevel
} from '../../src/index'
import { CountingTool, expectPaired, expectSingleTerminalLast, FaultyStorage, makeRuntime, Recorder, toolMessage } from './helpers'

class AbortModelCall extends AgentHook {
  constructor(readonly error?: ArkAgentError) { super() }
  async beforeModelCall(ctx: ModelCallHookContext): Promise<ModelCallHookResult> {
    return ModelCallHookResult.abort('stop', this.error)
  }
}

describe('stop reasons', () => {
  it.each<[string, ArkAgentError, string, RunStatus]>([
    ['a hook abort', new ArkAgentError(ErrorLayer.security, ErrorCodes.hookAbort, 'no'), StopReason.aborted, RunStatus.failed],
    ['a loop stop', new ArkAgentError(ErrorLayer.runtime, ErrorCodes.loopDetected, 'loop'), StopReason.loopDetected, RunStatus.failed],
    ['the turn limit', new ArkAgentError(ErrorLayer.runtime, ErrorCodes.maxTurns, 'limit'), StopReason.maxTurns, RunStatus.failed],
    ['any other error', new ArkAgentError(ErrorLayer.security, ErrorCodes.hookFailed, 'broken'), StopReason.error, RunStatus.failed],
    ['a cancellation', new ArkAgentError(ErrorLayer.cancelled, ErrorCodes.cancelled, 'Cancelled: bye'), StopReason.cancelled, RunStatus.cancelled]
  ])('%s ends the run with its stop reason, stored with the error', async (name, error, stopReason, status) => {
    const storage = new MemoryStateStorage()
    const rt = makeRuntime([], { hooks: [new AbortModelCall(error)], storage })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(status)
    expect(outcome.stopReason).toBe(stopReason)
    expect(outcome.error).toBe(error)
    expect(outcome.persisted).toBe(true)
    const stored = (await storage.load(rt.sessionId))!.state
    expect(stored.lastStopReason).toBe(stopReason)
    expect(stored.status).toBe(status === RunStatus.cancelled ? SessionStatus.cancelled : SessionStatus.failed)
    expect(stored.lastError).toEqual(new StoredError(error.layer, error.code, error.message))
    expect(stored.activeRunId).toBe('')
    const terminal = expectSingleTerminalLast(rec, status === RunStatus.cancelled ? ControllerEventTypes.agentCancelled
      : ControllerEventTypes.agentFailed) as AgentFailedEvent | AgentCancelledEvent
    expect(terminal.error).toBe(error)
    expect(terminal.persisted).toBe(true)
    expect(terminal.runId).toBe(outcome.runId)
  })

  it('a completed run stores no error, no active run and its stop reason; its event carries the answer', async () => {
    const storage = new MemoryStateStorage()
    const rt = makeRuntime([ScriptedTurn.text('answer')], { storage })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    const stored = (await storage.load(rt.sessionId))!.state
    expect(stored).toMatchObject({ status: SessionStatus.completed, lastStopReason: StopReason.complete, activeRunId: '' })
    expect(stored.lastError).toBeUndefined()
    const success = expectSingleTerminalLast(rec, ControllerEventTypes.agentSuccess) as AgentSuccessEvent
    expect(success.stopReason).toBe(StopReason.complete)
    expect(success.finalMessage?.text()).toBe('answer')
    expect(success.finalMessage).toBe(outcome.finalMessage)
    expect(success.persisted).toBe(true)
  })

  it('a suspended run is not written again at its end: one event, its stop reason, the session stays awaiting approval', async () => {
    const danger = new CountingTool('danger', ToolRiskLevel.dangerous)
    const storage = new FaultyStorage(new MemoryStateStorage())
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'danger', '{}')], { tools: [danger.tool], hooks: [new ApprovalPolicyHook()],
      storage, configure: (c) => { c.autoResume = false } })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.suspended)
    expect(outcome.stopReason).toBe(StopReason.awaitingApproval)
    expect(outcome.persisted).toBe(true)
    expect(outcome.error).toBeUndefined()
    expect(rec.persists().map((p) => p.reason)).toEqual(['after_user_input', 'awaiting_approval'])
    const suspended = expectSingleTerminalLast(rec, ControllerEventTypes.agentSuspended) as AgentSuspendedEvent
    expect(suspended.stopReason).toBe(StopReason.awaitingApproval)
    const snap = rt.snapshot()
    expect(snap.status).toBe(SessionStatus.awaitingApproval)
    expect(snap.lastStopReason).toBe(StopReason.awaitingApproval)
    expect(snap.pendingApproval).toBeDefined()
    expect(snap.activeRunId).toBe(outcome.runId)
  })
})

describe('a run that ends mid-batch', () => {
  it('calls that never started are answered "Not executed: the run ended" when a refused start mark ends the run', async () => {
    class NoStarts extends AgentHook {
      async beforePersistState(ctx: StatePersistenceHookContext): Promise<StatePersistenceHookResult> {
        return ctx.reason === 'tool_started' ? StatePersistenceHookResult.abort('no side effects today') : StatePersistenceHookResult.proceed()
      }
    }
    const t = new CountingTool('t')
    const storage = new MemoryStateStorage()
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 't', '{}').call('c2', 't', '{}')], { tools: [t.tool], hooks: [new NoStarts()], storage })
    const outcome = await rt.run('go')
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.message).toBe("A hook refused the 'tool_started' write: no side effects today")
    expect(t.count).toBe(0)
    const h = rt.snapshot().history
    for (const id of ['c1', 'c2']) {
      expect(toolMessage(h, id).text()).toBe('Not executed: the run ended')
      expect(toolMessage(h, id).errorCode).toBe(ErrorCodes.toolInterrupted)
      expect(toolMessage(h, id).isError).toBe(true)
    }
    expectPaired(h)
    const stored = (await storage.load(rt.sessionId))!.state
    expect(stored.toolBatch).toBeUndefined()
    expectPaired(stored.history)
  })

  it('a cancelled run answers the calls it did not start with a cancelled result', async () => {
    const source = new CancellationSource()
    const first = new CountingTool('first', ToolRiskLevel.safe, async () => { source.cancel('enough'); return 'did it' })
    const second = new CountingTool('second')
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'first', '{}').call('c2', 'second', '{}')],
      { tools: [first.tool, second.tool], storage: new MemoryStateStorage() })
    const rec = new Recorder()
    const outcome = await rt.runStream([AgentMessage.user('go')], rec.observer, source.token)
    expect(outcome.status).toBe(RunStatus.cancelled)
    expect(outcome.error?.message).toBe('Cancelled: enough')
    expect(second.count).toBe(0)
    const h = rt.snapshot().history
    expect(toolMessage(h, 'c2').text()).toBe('Not executed: the run was cancelled')
    expect(toolMessage(h, 'c2').errorCode).toBe(ErrorCodes.cancelled)
    const cancelled = expectSingleTerminalLast(rec, ControllerEventTypes.agentCancelled) as AgentCancelledEvent
    expect(cancelled.error.code).toBe(ErrorCodes.cancelled)
    expect(cancelled.persisted).toBe(true)
  })

  it('a cancelled run whose terminal write fails says so on its cancelled event', async () => {
    const source = new CancellationSource()
    const storage = new FaultyStorage(new MemoryStateStorage())
    storage.failWhen = (s) => s.status === SessionStatus.cancelled
    const rt = makeRuntime([ScriptedTurn.text('a', 'b').withDelay(1)], { storage })
    const rec = new Recorder()
    const outcome = await rt.runStream([AgentMessage.user('go')], { onEvent: (e) => {
      rec.events.push(e)
      if (e.eventType() === ControllerEventTypes.llmChunk) source.cancel('stop')
    } }, source.token)
    expect(outcome.status).toBe(RunStatus.cancelled)
    expect(outcome.persisted).toBe(false)
    const cancelled = expectSingleTerminalLast(rec, ControllerEventTypes.agentCancelled) as AgentCancelledEvent
    expect(cancelled.persisted).toBe(false)
    expect(storage.marks.length).toBe(1)
    expect(rt.snapshot().status).toBe(SessionStatus.cancelled)
  })
})

describe('the last error', () => {
  it('a failed run keeps its error in the session; the next completed run clears it', async () => {
    const storage = new MemoryStateStorage()
    const rt = makeRuntime([ScriptedTurn.failing(new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerRateLimited, 'slow down',
      ErrorRetryability.retryable)), ScriptedTurn.text('ok')], { storage })
    await rt.run('one')
    expect(rt.snapshot().lastError).toEqual(new StoredError('provider', ErrorCodes.providerRateLimited, 'slow down'))
    await rt.run('two')
    expect(rt.snapshot().lastError).toBeUndefined()
    expect((await storage.load(rt.sessionId))!.state.lastError).toBeUndefined()
  })
})
