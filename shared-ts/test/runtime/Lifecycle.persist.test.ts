// Every write of a run as the app sees it: persist events, what beforePersistState may skip or
// refuse, what a failing hook or storage does to optional and mandatory writes, and what the
// terminal write guarantees.
import { describe, expect, it } from 'vitest'
import {
  AfterRunHookContext,
  AgentHook,
  ApprovalPolicyHook,
  ArkAgentError,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  ErrorRetryability,
  HookDiagnosticEvent,
  MemoryStateStorage,
  PersistEvent,
  RunStatus,
  ScriptedTurn,
  SessionStatus,
  StatePersistenceHookContext,
  StatePersistenceHookResult,
  StopReason,
  ToolRiskLevel
} from '../../src/index'
import { CountingTool, expectSingleTerminalLast, FaultyStorage, makeRuntime, newSessionId, Recorder } from './helpers'

type Decide = (ctx: StatePersistenceHookContext) => StatePersistenceHookResult

/** Answers beforePersistState with `decide` and records what every write looked like. */
class PersistGate extends AgentHook {
  readonly seen: Array<{ reason: string, mandatory: boolean, runId: string, runError?: string, status: string }> = []
  readonly after: string[] = []
  constructor(readonly decide: Decide = () => StatePersistenceHookResult.proceed(), readonly failAfter: boolean = false) {
    super()
  }
  get hookName(): string {
    return 'Gate'
  }
  async beforePersistState(ctx: StatePersistenceHookContext): Promise<StatePersistenceHookResult> {
    this.seen.push({ reason: ctx.reason, mandatory: ctx.mandatory, runId: ctx.runId, runError: ctx.runError?.code,
      status: ctx.state.status })
    return this.decide(ctx)
  }
  async afterPersistState(ctx: StatePersistenceHookContext): Promise<void> {
    this.after.push(ctx.reason)
    if (this.failAfter) throw new Error(`observer broke on ${ctx.reason}`)
  }
}

function persists(rec: Recorder): Array<Record<string, unknown>> {
  return rec.persists().map((p) => ({ reason: p.reason, mandatory: p.mandatory, skipped: p.skipped, ok: p.ok,
    wrote: p.bytesWritten > 0, error: p.error?.code }))
}

function diagnostics(rec: Recorder): string[] {
  return rec.ofType<HookDiagnosticEvent>(ControllerEventTypes.hookDiagnostic).map((d) => `${d.slot}: ${d.message}`)
}

describe('persist events of a plain run', () => {
  it('one event per write, in order, with the reason, the mandatory flag and the bytes written; hooks see the same writes', async () => {
    const gate = new PersistGate()
    const storage = new MemoryStateStorage()
    const rt = makeRuntime([ScriptedTurn.text('hi')], { hooks: [gate], storage })
    const rec = new Recorder()
    const before = Date.now()
    const outcome = await rt.run('hello', rec.observer)
    expect(outcome.persisted).toBe(true)
    expect(persists(rec)).toEqual([
      { reason: 'after_user_input', mandatory: false, skipped: false, ok: true, wrote: true, error: undefined },
      { reason: 'after_model_text', mandatory: false, skipped: false, ok: true, wrote: true, error: undefined },
      { reason: 'terminal', mandatory: true, skipped: false, ok: true, wrote: true, error: undefined }
    ])
    for (const p of rec.persists()) expect(p.runId).toBe(outcome.runId)
    expect(gate.seen.map((s) => [s.reason, s.mandatory, s.runId])).toEqual([
      ['after_user_input', false, outcome.runId], ['after_model_text', false, outcome.runId], ['terminal', true, outcome.runId]])
    expect(gate.seen.map((s) => s.status)).toEqual([SessionStatus.running, SessionStatus.running, SessionStatus.completed])
    expect(gate.after).toEqual(['after_user_input', 'after_model_text', 'terminal'])
    // Each write stamps the state with the time it was written.
    const stored = await storage.load(rt.sessionId)
    expect(stored?.state.updatedAtMs).toBeGreaterThanOrEqual(before)
    expect(stored?.state.updatedAtMs).toBeLessThanOrEqual(Date.now())
    expect(rt.snapshot().updatedAtMs).toBe(stored?.state.updatedAtMs)
  })

  it('without storage nothing is written and no persist event is published', async () => {
    const gate = new PersistGate(() => StatePersistenceHookResult.abort('would refuse everything'))
    const rt = makeRuntime([ScriptedTurn.text('hi')], { hooks: [gate] })
    const rec = new Recorder()
    const outcome = await rt.run('hello', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.persisted).toBe(true)
    expect(rec.persists()).toEqual([])
    expect(gate.seen).toEqual([])
    expect(rt.snapshot().updatedAtMs).toBe(0)
    expect(await rt.suspend()).toBe(true)
  })

  it('a failed run hands its error to the terminal write', async () => {
    const gate = new PersistGate()
    const rt = makeRuntime([ScriptedTurn.failing(new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerServerError, 'down'))],
      { hooks: [gate], storage: new MemoryStateStorage() })
    await rt.run('hello')
    const terminal = gate.seen.filter((s) => s.reason === 'terminal')
    expect(terminal).toEqual([{ reason: 'terminal', mandatory: true, runId: terminal[0].runId, runError: ErrorCodes.providerServerError,
      status: SessionStatus.failed }])
    expect(gate.seen[0].runError).toBeUndefined()
  })
})

describe('beforePersistState', () => {
  it('skip is honoured for optional writes (event skipped, nothing stored) and ignored for mandatory ones', async () => {
    const gate = new PersistGate((ctx) => StatePersistenceHookResult.skip('not now'))
    const storage = new FaultyStorage(new MemoryStateStorage())
    const rt = makeRuntime([ScriptedTurn.text('hi')], { hooks: [gate], storage })
    const rec = new Recorder()
    const outcome = await rt.run('hello', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(persists(rec)).toEqual([
      { reason: 'after_user_input', mandatory: false, skipped: true, ok: true, wrote: false, error: undefined },
      { reason: 'after_model_text', mandatory: false, skipped: true, ok: true, wrote: false, error: undefined },
      { reason: 'terminal', mandatory: true, skipped: false, ok: true, wrote: true, error: undefined }
    ])
    expect(storage.attempts.map((s) => s.status)).toEqual([SessionStatus.completed])
    // A skipped write is not followed by afterPersistState.
    expect(gate.after).toEqual(['terminal'])
  })

  it('abort on an optional write ends the run with hook_abort naming the write and the reason; nothing is stored by it', async () => {
    const gate = new PersistGate((ctx) => ctx.reason === 'after_model_text' ? StatePersistenceHookResult.abort('no secrets on disk')
      : StatePersistenceHookResult.proceed())
    const storage = new FaultyStorage(new MemoryStateStorage())
    const rt = makeRuntime([ScriptedTurn.text('secret')], { hooks: [gate], storage })
    const rec = new Recorder()
    const outcome = await rt.run('hello', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.stopReason).toBe(StopReason.aborted)
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
    expect(outcome.error?.layer).toBe(ErrorLayer.security)
    expect(outcome.error?.retryability).toBe(ErrorRetryability.never)
    expect(outcome.error?.message).toBe("A hook refused the 'after_model_text' write: no secrets on disk")
    const refused = rec.persists().find((p) => p.reason === 'after_model_text') as PersistEvent
    expect(refused).toMatchObject({ mandatory: false, skipped: false, ok: false, bytesWritten: 0 })
    expect(refused.error?.message).toBe("A hook refused the 'after_model_text' write: no secrets on disk")
    expect(storage.attempts.map((s) => s.status)).toEqual([SessionStatus.running, SessionStatus.failed])
    expect(gate.after).toEqual(['after_user_input', 'terminal'])
    expect(diagnostics(rec)).toEqual([])
  })

  it('abort without a reason names only the write; abort with an error fails the run with that error', async () => {
    const plain = makeRuntime([ScriptedTurn.text('x')], { hooks: [new PersistGate((ctx) => ctx.mandatory
      ? StatePersistenceHookResult.proceed() : StatePersistenceHookResult.abort())], storage: new MemoryStateStorage() })
    expect((await plain.run('hello')).error?.message).toBe("A hook refused the 'after_user_input' write")
    const own = new ArkAgentError(ErrorLayer.security, 'policy_block', 'blocked by policy', ErrorRetryability.never)
    const custom = makeRuntime([ScriptedTurn.text('x')], { hooks: [new PersistGate((ctx) => ctx.mandatory
      ? StatePersistenceHookResult.proceed() : StatePersistenceHookResult.abort('ignored', own))], storage: new MemoryStateStorage() })
    const outcome = await custom.run('hello')
    expect(outcome.error).toBe(own)
  })

  it('abort on the terminal write: the outcome is not persisted and the session is marked not resumable', async () => {
    const gate = new PersistGate((ctx) => ctx.reason === 'terminal' ? StatePersistenceHookResult.abort('read-only mode')
      : StatePersistenceHookResult.proceed())
    const storage = new FaultyStorage(new MemoryStateStorage())
    const rt = makeRuntime([ScriptedTurn.text('hi')], { hooks: [gate], storage })
    const rec = new Recorder()
    const outcome = await rt.run('hello', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.persisted).toBe(false)
    expect(storage.marks).toEqual(["terminal write failed: A hook refused the 'terminal' write: read-only mode"])
    const success = expectSingleTerminalLast(rec, ControllerEventTypes.agentSuccess) as unknown as { persisted: boolean }
    expect(success.persisted).toBe(false)
    const loaded = await storage.load(rt.sessionId)
    expect(loaded?.resumable).toBe(false)
  })

  it('a throwing gate fails an optional write closed (hook_failed) and refuses a mandatory one, as an abort would', async () => {
    class Broken extends AgentHook {
      get hookName(): string { return 'Broken' }
      async beforePersistState(ctx: StatePersistenceHookContext): Promise<StatePersistenceHookResult> {
        throw new Error(`gate bug on ${ctx.reason}`)
      }
    }
    const storage = new FaultyStorage(new MemoryStateStorage())
    const rt = makeRuntime([ScriptedTurn.text('hi')], { hooks: [new Broken()], storage })
    const rec = new Recorder()
    const outcome = await rt.run('hello', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.hookFailed)
    expect(outcome.error?.message).toBe('Hook Broken.beforePersistState failed: gate bug on after_user_input')
    // The terminal write was refused like an abort: nothing written, the session marked not resumable.
    expect(outcome.persisted).toBe(false)
    expect(storage.attempts).toEqual([])
    expect(storage.marks).toEqual(['terminal write failed: Hook Broken.beforePersistState failed: gate bug on terminal'])
    expect(persists(rec)).toEqual([{ reason: 'terminal', mandatory: true, skipped: false, ok: false, wrote: false,
      error: ErrorCodes.hookFailed }])
  })
})

describe('storage failures', () => {
  it('a failing optional write is a persist diagnostic and a failed event; the run goes on and the terminal write stores all', async () => {
    const storage = new FaultyStorage(new MemoryStateStorage())
    storage.failWhen = (s) => s.status === SessionStatus.running
    const gate = new PersistGate()
    const rt = makeRuntime([ScriptedTurn.text('hi')], { hooks: [gate], storage })
    const rec = new Recorder()
    const outcome = await rt.run('hello', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.persisted).toBe(true)
    expect(persists(rec)).toEqual([
      { reason: 'after_user_input', mandatory: false, skipped: false, ok: false, wrote: false, error: ErrorCodes.stateSaveFailed },
      { reason: 'after_model_text', mandatory: false, skipped: false, ok: false, wrote: false, error: ErrorCodes.stateSaveFailed },
      { reason: 'terminal', mandatory: true, skipped: false, ok: true, wrote: true, error: undefined }
    ])
    expect(rec.persists()[0].error?.layer).toBe(ErrorLayer.storage)
    expect(diagnostics(rec)).toEqual([
      "persist: Saving state ('after_user_input') failed: injected save failure (status running)",
      "persist: Saving state ('after_model_text') failed: injected save failure (status running)"
    ])
    for (const d of rec.ofType<HookDiagnosticEvent>(ControllerEventTypes.hookDiagnostic)) expect(d.runId).toBe(outcome.runId)
    // afterPersistState follows only writes that happened.
    expect(gate.after).toEqual(['terminal'])
    expect((await storage.load(rt.sessionId))?.state.history.map((m) => m.text())).toEqual(['hello', 'hi'])
  })

  it('a storage error that is already typed is reported as it is', async () => {
    const storage = new FaultyStorage(new MemoryStateStorage())
    const typed = new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateSaveFailed, 'quota exceeded', ErrorRetryability.afterAction)
    storage.save = async (s) => {
      if (s.status === SessionStatus.running) throw typed
      return storage.inner.save(s)
    }
    const rt = makeRuntime([ScriptedTurn.text('hi')], { storage })
    const rec = new Recorder()
    await rt.run('hello', rec.observer)
    expect(rec.persists()[0].error).toBe(typed)
    expect(diagnostics(rec)[0]).toBe('persist: quota exceeded')
  })

  it('a failing terminal write: outcome and terminal event say not persisted, and the stored session is marked not resumable', async () => {
    const storage = new FaultyStorage(new MemoryStateStorage())
    storage.failWhen = (s) => s.status === SessionStatus.completed
    const rt = makeRuntime([ScriptedTurn.text('hi')], { storage })
    const rec = new Recorder()
    const outcome = await rt.run('hello', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.persisted).toBe(false)
    expect(storage.marks).toEqual(["terminal write failed: Saving state ('terminal') failed: injected save failure (status completed)"])
    const loaded = await storage.load(rt.sessionId)
    expect(loaded?.resumable).toBe(false)
    const terminal = expectSingleTerminalLast(rec, ControllerEventTypes.agentSuccess) as unknown as { persisted: boolean }
    expect(terminal.persisted).toBe(false)
  })

  it('a failed run whose terminal write fails says so on its failed event; a mark that fails too changes nothing else', async () => {
    const storage = new FaultyStorage(new MemoryStateStorage())
    storage.failWhen = (s) => s.status === SessionStatus.failed
    storage.failMarks = true
    const rt = makeRuntime([ScriptedTurn.failing(new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerServerError, 'down'))],
      { storage })
    const rec = new Recorder()
    const outcome = await rt.run('hello', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.persisted).toBe(false)
    expect(outcome.error?.message).toBe('down')
    expect(storage.marks.length).toBe(1)
    const failed = expectSingleTerminalLast(rec, ControllerEventTypes.agentFailed) as unknown as { persisted: boolean, error: ArkAgentError }
    expect(failed.persisted).toBe(false)
    expect(failed.error).toBe(outcome.error)
  })

  it('a suspension that cannot be saved fails the run with state_save_failed naming what was lost, retryable', async () => {
    const storage = new FaultyStorage(new MemoryStateStorage())
    storage.failWhen = (s) => s.status === SessionStatus.awaitingApproval
    const danger = new CountingTool('danger', ToolRiskLevel.dangerous)
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'danger', '{}')], { tools: [danger.tool], hooks: [new ApprovalPolicyHook()],
      storage })
    const rec = new Recorder()
    const outcome = await rt.run('hello', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.stateSaveFailed)
    expect(outcome.error?.layer).toBe(ErrorLayer.storage)
    expect(outcome.error?.retryability).toBe(ErrorRetryability.retryable)
    expect(outcome.error?.message).toBe("The approval batch could not be saved, so it is not resumable: Saving state ('awaiting_approval') failed: " +
      'injected save failure (status awaiting_approval)')
    expect(rec.types()).not.toContain(ControllerEventTypes.approvalRequired)
    expect(danger.count).toBe(0)
  })

  it('a refused suspension write names the hook refusal', async () => {
    const gate = new PersistGate((ctx) => ctx.reason === 'awaiting_plan_review' ? StatePersistenceHookResult.abort('no plans')
      : StatePersistenceHookResult.proceed())
    const rt = makeRuntime([ScriptedTurn.text('').call('p', 'submit_plan', '{"plan":"x"}')], { hooks: [gate],
      storage: new MemoryStateStorage(), configure: (c) => { c.planMode = true } })
    const outcome = await rt.run('go')
    expect(outcome.error?.message).toBe("The plan review could not be saved, so it is not resumable: A hook refused the 'awaiting_plan_review' write: no plans")
    // A refusal keeps its code (a decision, not a storage failure to retry).
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
  })
})

describe('afterPersistState', () => {
  it('an observer that throws becomes a diagnostic of each write and changes nothing', async () => {
    const gate = new PersistGate(undefined, true)
    const rt = makeRuntime([ScriptedTurn.text('hi')], { hooks: [gate], storage: new MemoryStateStorage(), sessionId: newSessionId() })
    const rec = new Recorder()
    const outcome = await rt.run('hello', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.persisted).toBe(true)
    expect(diagnostics(rec)).toEqual([
      'afterPersistState: Hook Gate.afterPersistState failed: observer broke on after_user_input',
      'afterPersistState: Hook Gate.afterPersistState failed: observer broke on after_model_text',
      'afterPersistState: Hook Gate.afterPersistState failed: observer broke on terminal'
    ])
    // Each diagnostic comes before the persist event of its write.
    const types = rec.types()
    expect(types.indexOf(ControllerEventTypes.hookDiagnostic)).toBeLessThan(types.indexOf(ControllerEventTypes.persist))
    expect(rec.persists().every((p) => p.ok)).toBe(true)
  })
})

describe('afterRun sees the outcome', () => {
  it('afterRun runs after the terminal write with the stop reason, error and final message', async () => {
    const seen: string[] = []
    class Watch extends AgentHook {
      async afterRun(ctx: AfterRunHookContext): Promise<void> {
        seen.push(`${ctx.stopReason}|${ctx.error?.code ?? ''}|${ctx.finalMessage?.text() ?? ''}|${ctx.state.status}`)
      }
    }
    const rt = makeRuntime([ScriptedTurn.text('answer')], { hooks: [new Watch()], storage: new MemoryStateStorage() })
    await rt.run('q')
    expect(seen).toEqual(['complete||answer|completed'])
  })
})
