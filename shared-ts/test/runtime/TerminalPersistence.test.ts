// Spec 十四 "终态持久化" and spec 九 / 十一: mandatory terminal writes, markNotResumable, layered error codes.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentMessage,
  AgentSuccessEvent,
  ArkAgentError,
  BeforeRunHookContext,
  BeforeRunHookResult,
  CancellationSource,
  CancellationToken,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  FileStateStorage,
  LoopAction,
  LoopCheck,
  LoopDetectedEvent,
  LoopDetectorPort,
  LoopKind,
  LoopVerdict,
  PersistReason,
  RestoreKind,
  RunStatus,
  ScriptedTurn,
  SessionStatus,
  StatePersistenceHookContext,
  StatePersistenceHookResult,
  StopReason,
  ToolCall,
  ToolCallHookContext,
  ToolCallHookResult,
  ToolResult,
  ToolRiskLevel,
  ApprovalPolicyHook
} from '../../src/index'
import {
  cleanupTempDirs,
  CountingTool,
  expectPaired,
  expectSingleTerminalLast,
  FaultyStorage,
  loadFromDisk,
  makeRuntime,
  newSessionId,
  Recorder,
  rejectionOf,
  tempDir,
  toolMessage
} from './helpers'

afterEach(() => cleanupTempDirs())

/** beforePersistState answering with `decide(reason)`; records every context it saw. */
class PersistGate extends AgentHook {
  readonly seen: Array<{ reason: string, mandatory: boolean }> = []
  readonly decide: (ctx: StatePersistenceHookContext) => StatePersistenceHookResult

  constructor(decide: (ctx: StatePersistenceHookContext) => StatePersistenceHookResult) {
    super()
    this.decide = decide
  }

  async beforePersistState(ctx: StatePersistenceHookContext): Promise<StatePersistenceHookResult> {
    this.seen.push({ reason: ctx.reason, mandatory: ctx.mandatory })
    return this.decide(ctx)
  }
}

/** A loop detector that calls every tool result a loop. */
class AlwaysLoop implements LoopDetectorPort {
  resets = 0
  recordToolResult(call: ToolCall, result: ToolResult): LoopVerdict | undefined {
    return new LoopVerdict(LoopKind.repeat, `${call.name}:{}`, 3)
  }

  recordChunk(text: string): LoopVerdict | undefined {
    return undefined
  }

  async afterTurn(turn: number, history: AgentMessage[], token: CancellationToken): Promise<LoopCheck> {
    return LoopCheck.clear
  }

  reset(): void {
    this.resets++
  }
}

class AbortBeforeRun extends AgentHook {
  async beforeRun(ctx: BeforeRunHookContext): Promise<BeforeRunHookResult> {
    return BeforeRunHookResult.abort('input rejected by policy')
  }
}

class DenyTool extends AgentHook {
  async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
    return ToolCallHookResult.deny(undefined, 'not on weekends')
  }
}

describe('terminal persistence (spec 十四)', () => {
  it('autosaves can be skipped by beforePersistState, but the terminal write is mandatory and lands on disk', async () => {
    const dir = tempDir()
    const sessionId = newSessionId()
    const gate = new PersistGate(() => StatePersistenceHookResult.skip('too noisy'))
    const tool = new CountingTool('lookup')
    const rt = makeRuntime([ScriptedTurn.text('looking').call('c1', 'lookup', '{}'), ScriptedTurn.text('the answer')],
      { sessionId, tools: [tool.tool], hooks: [gate], storage: new FileStateStorage(dir, undefined, { lock: false }) })
    const rec = new Recorder()
    const outcome = await rt.run('question', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    const persists = rec.persists()
    const optional = persists.filter((p) => !p.mandatory)
    expect(optional.map((p) => p.reason)).toEqual([PersistReason.afterUserInput, PersistReason.afterToolBatch,
      PersistReason.afterModelText])
    expect(optional.every((p) => p.skipped && p.bytesWritten === 0)).toBe(true)
    const terminal = persists.filter((p) => p.reason === PersistReason.terminal)
    expect(terminal.length).toBe(1)
    expect(terminal[0].mandatory).toBe(true)
    expect(terminal[0].skipped).toBe(false)
    expect(terminal[0].ok).toBe(true)
    // The hook was asked and told the write was mandatory; its skip was ignored.
    expect(gate.seen.find((s) => s.reason === PersistReason.terminal)?.mandatory).toBe(true)
    const loaded = await loadFromDisk(dir, sessionId)
    expect(loaded?.state.status).toBe(SessionStatus.completed)
    expect(loaded?.state.history[loaded.state.history.length - 1].text()).toBe('the answer')
    expectPaired(loaded!.state.history)
  })

  it('a completed run persists a terminal completed state', async () => {
    const dir = tempDir()
    const sessionId = newSessionId()
    const rt = makeRuntime([ScriptedTurn.text('done')], { sessionId, storage: new FileStateStorage(dir, undefined, { lock: false }) })
    const rec = new Recorder()
    await rt.run('hi', rec.observer)
    expect(rec.persists().filter((p) => p.reason === PersistReason.terminal && p.ok).length).toBe(1)
    const loaded = await loadFromDisk(dir, sessionId)
    expect(loaded?.state.status).toBe(SessionStatus.completed)
    expect(loaded?.state.lastStopReason).toBe(StopReason.complete)
    expect(loaded?.state.activeRunId).toBe('')
    const report = await makeRuntime([], { sessionId, storage: new FileStateStorage(dir, undefined, { lock: false }) }).restore()
    expect(report.kind).toBe(RestoreKind.idle)
    expect(report.lastStatus).toBe(SessionStatus.completed)
  })

  it('a cancelled run persists a terminal cancelled state', async () => {
    const dir = tempDir()
    const sessionId = newSessionId()
    const source = new CancellationSource()
    const rt = makeRuntime([ScriptedTurn.text('a', 'b', 'c', 'd').withDelay(15)],
      { sessionId, storage: new FileStateStorage(dir, undefined, { lock: false }) })
    const rec = new Recorder()
    const outcome = await rt.runStream([AgentMessage.user('go')], {
      onEvent: (e) => {
        rec.events.push(e)
        if (e.eventType() === ControllerEventTypes.llmChunk) {
          source.cancel('user pressed stop')
        }
      }
    }, source.token)
    expect(outcome.status).toBe(RunStatus.cancelled)
    expect(rec.persists().filter((p) => p.reason === PersistReason.terminal && p.ok && p.mandatory).length).toBe(1)
    const loaded = await loadFromDisk(dir, sessionId)
    expect(loaded?.state.status).toBe(SessionStatus.cancelled)
    expect(loaded?.state.lastError?.code).toBe(ErrorCodes.cancelled)
    expect(loaded?.state.lastStopReason).toBe(StopReason.cancelled)
  })

  it('a failed run persists a terminal failed state with its error', async () => {
    const dir = tempDir()
    const sessionId = newSessionId()
    const rt = makeRuntime([ScriptedTurn.failing(new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerServerError,
      'upstream 500'))], { sessionId, storage: new FileStateStorage(dir, undefined, { lock: false }) })
    const rec = new Recorder()
    const outcome = await rt.run('hi', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(rec.persists().filter((p) => p.reason === PersistReason.terminal && p.ok && p.mandatory).length).toBe(1)
    const loaded = await loadFromDisk(dir, sessionId)
    expect(loaded?.state.status).toBe(SessionStatus.failed)
    expect(loaded?.state.lastError?.code).toBe(ErrorCodes.providerServerError)
    expect(loaded?.state.lastError?.layer).toBe(ErrorLayer.provider)
  })

  it('a failed terminal write calls markNotResumable and a reload reports not_resumable', async () => {
    const dir = tempDir()
    const sessionId = newSessionId()
    const faulty = new FaultyStorage(new FileStateStorage(dir, undefined, { lock: false }))
    faulty.failWhen = (s) => s.status === SessionStatus.completed
    const rt = makeRuntime([ScriptedTurn.text('done')], { sessionId, storage: faulty })
    const rec = new Recorder()
    const outcome = await rt.run('hi', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.persisted).toBe(false)
    const success = expectSingleTerminalLast(rec, ControllerEventTypes.agentSuccess) as AgentSuccessEvent
    expect(success.persisted).toBe(false)
    const terminal = rec.persists().filter((p) => p.reason === PersistReason.terminal)
    expect(terminal.length).toBe(1)
    expect(terminal[0].ok).toBe(false)
    expect(terminal[0].error?.code).toBe(ErrorCodes.stateSaveFailed)
    expect(faulty.marks.length).toBe(1)
    const loaded = await loadFromDisk(dir, sessionId)
    expect(loaded?.resumable).toBe(false)
    const rt2 = makeRuntime([ScriptedTurn.text('fresh start')], { sessionId, storage: new FileStateStorage(dir, undefined, { lock: false }) })
    const report = await rt2.restore()
    expect(report.kind).toBe(RestoreKind.notResumable)
    // The conversation can go on with new input; nothing resumes.
    expect((await rejectionOf(rt2.runStream([]))).code).toBe(ErrorCodes.nothingToResume)
    expect((await rt2.run('again')).status).toBe(RunStatus.completed)
  })

  it('a beforePersistState abort is honoured for the mandatory terminal write: not persisted, marked not resumable', async () => {
    const dir = tempDir()
    const sessionId = newSessionId()
    const gate = new PersistGate((ctx) => ctx.reason === PersistReason.terminal ?
      StatePersistenceHookResult.abort('inconsistent') : StatePersistenceHookResult.proceed())
    const rt = makeRuntime([ScriptedTurn.text('done')], { sessionId, hooks: [gate], storage: new FileStateStorage(dir, undefined, { lock: false }) })
    const outcome = await rt.run('hi')
    expect(outcome.persisted).toBe(false)
    const report = await makeRuntime([], { sessionId, storage: new FileStateStorage(dir, undefined, { lock: false }) }).restore()
    expect(report.kind).toBe(RestoreKind.notResumable)
  })

  it('a beforePersistState abort on an optional autosave fails the run (abort is never downgraded to a skip)', async () => {
    const dir = tempDir()
    const sessionId = newSessionId()
    const gate = new PersistGate((ctx) => ctx.reason === PersistReason.afterModelText ?
      StatePersistenceHookResult.abort('audit log unavailable') : StatePersistenceHookResult.proceed())
    const rt = makeRuntime([ScriptedTurn.text('done')], { sessionId, hooks: [gate], storage: new FileStateStorage(dir, undefined, { lock: false }) })
    const rec = new Recorder()
    const outcome = await rt.run('hi', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
    expect(outcome.error?.layer).toBe(ErrorLayer.security)
    expectSingleTerminalLast(rec, ControllerEventTypes.agentFailed)
  })

  it('a beforePersistState abort on the tool_started mark keeps the tool from running and fails with hook_abort', async () => {
    const tool = new CountingTool('act')
    const gate = new PersistGate((ctx) => ctx.reason === PersistReason.toolStarted ?
      StatePersistenceHookResult.abort('no') : StatePersistenceHookResult.proceed())
    const rt = makeRuntime([ScriptedTurn.text('x').call('c1', 'act', '{}'), ScriptedTurn.text('done')],
      { tools: [tool.tool], hooks: [gate], storage: new FileStateStorage(tempDir(), undefined, { lock: false }) })
    const outcome = await rt.run('hi')
    expect(tool.count).toBe(0)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
    expectPaired(rt.snapshot().history)
  })
})

describe('error codes per layer (spec 十一)', () => {
  it('a hook abort ends the run with hook_abort in the security layer (stop reason aborted)', async () => {
    const dir = tempDir()
    const sessionId = newSessionId()
    const rt = makeRuntime([ScriptedTurn.text('never')], { sessionId, hooks: [new AbortBeforeRun()],
      storage: new FileStateStorage(dir, undefined, { lock: false }) })
    const outcome = await rt.run('hi')
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
    expect(outcome.error?.layer).toBe(ErrorLayer.security)
    expect(outcome.stopReason).toBe(StopReason.aborted)
    expect((await loadFromDisk(dir, sessionId))?.state.lastError?.code).toBe(ErrorCodes.hookAbort)
  })

  it('a denied tool gets an error-flagged tool_denied result and the run goes on', async () => {
    const tool = new CountingTool('act')
    const rt = makeRuntime([ScriptedTurn.text('x').call('c1', 'act', '{}'), ScriptedTurn.text('ok, I will not')],
      { tools: [tool.tool], hooks: [new DenyTool()] })
    const outcome = await rt.run('hi')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(tool.count).toBe(0)
    const msg = toolMessage(rt.snapshot().history, 'c1')
    expect(msg.isError).toBe(true)
    expect(msg.errorCode).toBe(ErrorCodes.toolDenied)
    expect(msg.text()).toContain('not on weekends')
  })

  it('awaiting approval is a suspend (stop reason awaiting_approval), and resuming it early is refused with awaiting_approval (security)', async () => {
    const tool = new CountingTool('rm', ToolRiskLevel.dangerous)
    const rt = makeRuntime([ScriptedTurn.text('x').call('c1', 'rm', '{}')],
      { tools: [tool.tool], hooks: [new ApprovalPolicyHook()] })
    const outcome = await rt.run('hi')
    expect(outcome.status).toBe(RunStatus.suspended)
    expect(outcome.stopReason).toBe(StopReason.awaitingApproval)
    expect(outcome.error).toBeUndefined()
    const err = await rejectionOf(rt.runStream([]))
    expect(err.code).toBe(ErrorCodes.awaitingApproval)
    expect(err.layer).toBe(ErrorLayer.security)
  })

  it('a repeated loop after the warning ends the run with loop_detected in the runtime layer', async () => {
    const tool = new CountingTool('ping')
    const detector = new AlwaysLoop()
    const rt = makeRuntime([
      ScriptedTurn.text('').call('p1', 'ping', '{}'),
      ScriptedTurn.text('').call('p2', 'ping', '{}'),
      ScriptedTurn.text('never reached')
    ], { tools: [tool.tool], configure: (cfg) => { cfg.loopDetector = detector } })
    const rec = new Recorder()
    const outcome = await rt.run('hi', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.loopDetected)
    expect(outcome.error?.layer).toBe(ErrorLayer.runtime)
    expect(outcome.stopReason).toBe(StopReason.loopDetected)
    const loops = rec.ofType<LoopDetectedEvent>(ControllerEventTypes.loopDetected)
    expect(loops.map((l) => l.action)).toEqual([LoopAction.warned, LoopAction.stopped])
    // The warning reached the model as an injected message before its second turn.
    const history = rt.snapshot().history
    expect(history.some((m) => m.role === 'system' && m.text().includes('repeating'))).toBe(true)
    expectPaired(history)
    expect(tool.count).toBe(2)
  })

  it('a cancelled run ends with cancelled in the cancelled layer', async () => {
    const source = new CancellationSource()
    source.cancel('before start')
    const rt = makeRuntime([ScriptedTurn.text('never')])
    const rec = new Recorder()
    const outcome = await rt.runStream([AgentMessage.user('hi')], rec.observer, source.token)
    expect(outcome.status).toBe(RunStatus.cancelled)
    expect(outcome.stopReason).toBe(StopReason.cancelled)
    expect(outcome.error?.code).toBe(ErrorCodes.cancelled)
    expect(outcome.error?.layer).toBe(ErrorLayer.cancelled)
    expectSingleTerminalLast(rec, ControllerEventTypes.agentCancelled)
  })
})
