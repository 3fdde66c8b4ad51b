// Tool batches: what beforeToolCall / afterToolCall verdicts do to a batch, the durable
// "started" mark written before each tool runs, and how a batch is committed to history.
import { describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentMessage,
  AgentRuntimeConfig,
  ArkAgentError,
  CancellationSource,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  ErrorRetryability,
  LoopCheck,
  LoopDetectorPort,
  LoopDetectedEvent,
  LoopKind,
  LoopVerdict,
  MemoryStateStorage,
  MessageRole,
  PersistEvent,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  StatePersistenceHookContext,
  StatePersistenceHookResult,
  StopReason,
  ToolCall,
  ToolCallHookContext,
  ToolCallHookResult,
  ToolResult,
  ToolResultHookContext,
  ToolResultHookResult
} from '../../src/index'
import { ToolBatchEntry, ToolBatchProgress } from '../../src/core/state/ToolBatchProgress'
import { BatchOutcome, GatedCall, ToolBatchExecutor } from '../../src/core/runtime/ToolBatchExecutor'
import { GrantBook } from '../../src/core/runtime/GrantBook'
import { ToolCallHookAction } from '../../src/core/hook/HookResults'
import { RuntimeServices } from '../../src/core/runtime/RuntimeServices'
import { StatePersister } from '../../src/core/runtime/StatePersister'
import { RunContext } from '../../src/core/runtime/RunContext'
import { CancellationToken } from '../../src/core/util/Cancellation'
import {
  CountingTool,
  expectPaired,
  expectSingleTerminalLast,
  FaultyStorage,
  makeRuntime,
  Recorder,
  toolMessage
} from './helpers'

type BeforeFn = (ctx: ToolCallHookContext) => Promise<ToolCallHookResult>
type AfterFn = (ctx: ToolResultHookContext) => Promise<ToolResultHookResult>

class BeforeHook extends AgentHook {
  readonly seen: string[] = []
  constructor(private readonly fn: BeforeFn) { super() }
  get hookName(): string { return 'BeforeHook' }
  async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
    this.seen.push(ctx.call.id)
    return this.fn(ctx)
  }
}

class AfterHook extends AgentHook {
  readonly seen: string[] = []
  constructor(private readonly fn: AfterFn) { super() }
  get hookName(): string { return 'AfterHook' }
  async afterToolCall(ctx: ToolResultHookContext): Promise<ToolResultHookResult> {
    this.seen.push(ctx.call.id)
    return this.fn(ctx)
  }
}

class PersistGate extends AgentHook {
  readonly reasons: Array<[string, boolean]> = []
  constructor(private readonly fn: (ctx: StatePersistenceHookContext) => StatePersistenceHookResult) { super() }
  get hookName(): string { return 'PersistGate' }
  async beforePersistState(ctx: StatePersistenceHookContext): Promise<StatePersistenceHookResult> {
    this.reasons.push([ctx.reason, ctx.mandatory])
    return this.fn(ctx)
  }
}

/** A loop detector that reports a verdict for the tool calls it is told to, and records what it saw. */
class ScriptedDetector implements LoopDetectorPort {
  readonly recorded: string[] = []
  constructor(private readonly verdicts: Map<string, LoopVerdict>) {}
  recordToolResult(call: ToolCall, result: ToolResult): LoopVerdict | undefined {
    this.recorded.push(`${call.id}=${result.textContent()}`)
    return this.verdicts.get(call.id)
  }
  recordChunk(): LoopVerdict | undefined { return undefined }
  async afterTurn(): Promise<LoopCheck> { return LoopCheck.clear }
  reset(): void {}
}

function twoTools() {
  const a = new CountingTool('alpha', undefined, async () => 'alpha ran')
  const b = new CountingTool('beta', undefined, async () => 'beta ran')
  return { a, b }
}

describe('beforeToolCall verdicts on a batch', () => {
  it.each([
    ['with a reason', ToolCallHookResult.abort('too risky'), ErrorCodes.hookAbort, ErrorLayer.security,
      'beforeToolCall hook aborted the run: too risky'],
    ['without a reason', ToolCallHookResult.abort(), ErrorCodes.hookAbort, ErrorLayer.security,
      'beforeToolCall hook aborted the run'],
    ['with its own error', ToolCallHookResult.abort('ignored', new ArkAgentError(ErrorLayer.runtime, 'custom_stop',
      'the hook says stop', ErrorRetryability.never)), 'custom_stop', ErrorLayer.runtime, 'the hook says stop']
  ])('an abort %s ends the run before any call of the batch runs', async (_name, verdict, code, layer, message) => {
    const { a, b } = twoTools()
    const hook = new BeforeHook(async (ctx) => ctx.call.id === 'c2' ? verdict : ToolCallHookResult.proceed())
    const rec = new Recorder()
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'alpha', '{}').call('c2', 'beta', '{}')],
      { tools: [a.tool, b.tool], hooks: [hook] })
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(code)
    expect(outcome.error?.layer).toBe(layer)
    expect(outcome.error?.message).toBe(message)
    expect(hook.seen).toEqual(['c1', 'c2'])
    expect(a.count + b.count).toBe(0)
    expect(rec.ofType(ControllerEventTypes.beforeToolCall)).toEqual([])
    expectSingleTerminalLast(rec, ControllerEventTypes.agentFailed)
  })

  it('denied calls get their reason (or "denied by policy") or the hook\'s own result, and nothing of theirs runs', async () => {
    const { a, b } = twoTools()
    const hook = new BeforeHook(async (ctx) => {
      if (ctx.call.id === 'd1') {
        return ToolCallHookResult.deny()
      }
      if (ctx.call.id === 'd2') {
        return ToolCallHookResult.deny(undefined, 'quota used up')
      }
      if (ctx.call.id === 'd3') {
        // A result made for another id still answers this call.
        return ToolCallHookResult.deny(ToolResult.text('elsewhere', 'cached answer'), 'served from cache')
      }
      return ToolCallHookResult.proceed()
    })
    const provider = new ScriptedProvider([
      ScriptedTurn.text('').call('d1', 'alpha', '{}').call('d2', 'beta', '{}').call('d3', 'alpha', '{}')
        .call('ok', 'beta', '{}'),
      ScriptedTurn.text('finished')
    ])
    const rt = makeRuntime(provider, { tools: [a.tool, b.tool], hooks: [hook] })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    const history = rt.snapshot().history
    expectPaired(history)
    const d1 = toolMessage(history, 'd1')
    expect([d1.text(), d1.isError, d1.errorCode]).toEqual(['Tool call denied: denied by policy', true, ErrorCodes.toolDenied])
    const d2 = toolMessage(history, 'd2')
    expect([d2.text(), d2.isError, d2.errorCode]).toEqual(['Tool call denied: quota used up', true, ErrorCodes.toolDenied])
    const d3 = toolMessage(history, 'd3')
    expect([d3.text(), d3.isError]).toEqual(['cached answer', false])
    expect(toolMessage(history, 'ok').text()).toBe('beta ran')
    expect(a.count).toBe(0)
    expect(b.count).toBe(1)
    // Only the call that ran is announced.
    expect(rec.ofType<{ call: ToolCall } & never>(ControllerEventTypes.beforeToolCall).map((e) => (e as { call: ToolCall }).call.id))
      .toEqual(['ok'])
    expect(history.filter((m) => m.role === MessageRole.tool).map((m) => m.toolCallId)).toEqual(['d1', 'd2', 'd3', 'ok'])
  })
})

describe('the started mark written before each tool runs', () => {
  it('is a mandatory tool_started write that a skipping hook cannot skip, committed before the tool body runs', async () => {
    const storage = new MemoryStateStorage()
    const gate = new PersistGate(() => StatePersistenceHookResult.skip('not now'))
    let startedOnDisk: boolean[] = []
    let sessionId = ''
    const probe = new CountingTool('probe', undefined, async () => {
      const loaded = await storage.load(sessionId)
      startedOnDisk = (loaded?.state.toolBatch?.entries ?? []).map((e) => e.started)
      return 'probed'
    })
    const rec = new Recorder()
    const rt = makeRuntime([ScriptedTurn.text('').call('p1', 'probe', '{}').call('p2', 'probe', '{}'),
      ScriptedTurn.text('done')], { tools: [probe.tool], hooks: [gate], storage })
    sessionId = rt.sessionId
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(probe.count).toBe(2)
    // Seen from the second call: both entries are marked started.
    expect(startedOnDisk).toEqual([true, true])
    const marks = rec.persists().filter((e) => e.reason === 'tool_started')
    expect(marks.length).toBe(2)
    expect(marks.every((e) => e.mandatory && e.ok && !e.skipped)).toBe(true)
    expect(gate.reasons.filter(([r]) => r === 'tool_started')).toEqual([['tool_started', true], ['tool_started', true]])
    // tool.before follows its mark, tool.after follows tool.before.
    const types = rec.types()
    const firstMark = rec.events.findIndex((e) => e.eventType() === ControllerEventTypes.persist &&
      (e as PersistEvent).reason === 'tool_started')
    expect(types.indexOf(ControllerEventTypes.beforeToolCall)).toBeGreaterThan(firstMark)
    expect(types.indexOf(ControllerEventTypes.afterToolCall)).toBeGreaterThan(types.indexOf(ControllerEventTypes.beforeToolCall))
  })

  it('a failed write leaves the call not started, runs nothing and fails the run with state_save_failed', async () => {
    const { a, b } = twoTools()
    const storage = new FaultyStorage(new MemoryStateStorage())
    storage.failWhen = (s) => s.toolBatch !== undefined && s.toolBatch.entries.some((e) => e.started)
    const rec = new Recorder()
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'alpha', '{}').call('c2', 'beta', '{}')],
      { tools: [a.tool, b.tool], storage })
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.stateSaveFailed)
    expect(outcome.error?.layer).toBe(ErrorLayer.storage)
    expect(outcome.error?.retryability).toBe(ErrorRetryability.retryable)
    expect(outcome.error?.message).toBe('Could not persist state before running a tool: ' +
      "Saving state ('tool_started') failed: injected save failure (status running)")
    expect(a.count + b.count).toBe(0)
    expect(rec.ofType(ControllerEventTypes.beforeToolCall)).toEqual([])
    const history = rt.snapshot().history
    expectPaired(history)
    // Never started, so not reported as possibly half-run.
    for (const id of ['c1', 'c2']) {
      const m = toolMessage(history, id)
      expect([m.errorCode, m.text()]).toEqual([ErrorCodes.toolInterrupted, 'Not executed: the run ended'])
    }
    expect(outcome.persisted).toBe(true)
  })

  it('a write a hook refuses ends the run with the hook\'s error as is, and the call is not started', async () => {
    const { a } = twoTools()
    const gate = new PersistGate((ctx) => ctx.reason === 'tool_started' ? StatePersistenceHookResult.abort('frozen disk') :
      StatePersistenceHookResult.proceed())
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'alpha', '{}')],
      { tools: [a.tool], hooks: [gate], storage: new MemoryStateStorage() })
    const outcome = await rt.run('go')
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
    expect(outcome.error?.layer).toBe(ErrorLayer.security)
    expect(outcome.error?.message).toBe("A hook refused the 'tool_started' write: frozen disk")
    expect(outcome.stopReason).toBe(StopReason.aborted)
    expect(a.count).toBe(0)
    const m = toolMessage(rt.snapshot().history, 'c1')
    expect([m.errorCode, m.text()]).toEqual([ErrorCodes.toolInterrupted, 'Not executed: the run ended'])
  })

  it('a refused write carrying its own error fails the run with exactly that error', async () => {
    const { a } = twoTools()
    const own = new ArkAgentError(ErrorLayer.config, 'maintenance_window', 'no writes during maintenance',
      ErrorRetryability.afterAction)
    const gate = new PersistGate((ctx) => ctx.reason === 'tool_started' ? StatePersistenceHookResult.abort('x', own) :
      StatePersistenceHookResult.proceed())
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'alpha', '{}')],
      { tools: [a.tool], hooks: [gate], storage: new MemoryStateStorage() })
    const outcome = await rt.run('go')
    expect(outcome.error?.code).toBe('maintenance_window')
    expect(outcome.error?.message).toBe('no writes during maintenance')
    expect(a.count).toBe(0)
  })
})

describe('afterToolCall verdicts on a batch', () => {
  it.each([
    ['with a reason', ToolResultHookResult.abort('bad output'), ErrorCodes.hookAbort, 'afterToolCall hook aborted the run: bad output'],
    ['without a reason', ToolResultHookResult.abort(), ErrorCodes.hookAbort, 'afterToolCall hook aborted the run'],
    ['with its own error', ToolResultHookResult.abort('x', new ArkAgentError(ErrorLayer.tool, 'leak_found', 'secret in output',
      ErrorRetryability.never)), 'leak_found', 'secret in output']
  ])('an abort %s keeps the result that ran, runs nothing after it and ends the run', async (_n, verdict, code, message) => {
    const { a, b } = twoTools()
    const hook = new AfterHook(async (ctx) => ctx.call.id === 'c1' ? verdict : ToolResultHookResult.proceed())
    const detector = new ScriptedDetector(new Map())
    const rec = new Recorder()
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'alpha', '{}').call('c2', 'beta', '{}')],
      { tools: [a.tool, b.tool], hooks: [hook], storage: new MemoryStateStorage(),
        configure: (cfg) => { cfg.loopDetector = detector } })
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(code)
    expect(outcome.error?.message).toBe(message)
    expect(a.count).toBe(1)
    expect(b.count).toBe(0)
    expect(hook.seen).toEqual(['c1'])
    // The aborted call's result is still announced and kept; the other one was never started.
    const after = rec.ofType(ControllerEventTypes.afterToolCall) as unknown as Array<{ call: ToolCall, result: ToolResult }>
    expect(after.map((e) => [e.call.id, e.result.textContent()])).toEqual([['c1', 'alpha ran']])
    expect(detector.recorded).toEqual([])
    const history = rt.snapshot().history
    expectPaired(history)
    expect(toolMessage(history, 'c1').text()).toBe('alpha ran')
    const c2 = toolMessage(history, 'c2')
    expect(c2.errorCode).toBe(ErrorCodes.toolInterrupted)
    expect(c2.text()).toBe('Not executed: a hook aborted the run')
  })

  it('a cancellation arriving between two calls stops the batch before the next call is marked started', async () => {
    const { a, b } = twoTools()
    const source = new CancellationSource()
    const hook = new AfterHook(async (ctx) => {
      if (ctx.call.id === 'c1') {
        source.cancel('user stop')
      }
      return ToolResultHookResult.proceed()
    })
    const rec = new Recorder()
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'alpha', '{}').call('c2', 'beta', '{}')],
      { tools: [a.tool, b.tool], hooks: [hook], storage: new MemoryStateStorage() })
    const outcome = await rt.runStream([AgentMessage.user('go')], rec.observer, source.token)
    expect(outcome.status).toBe(RunStatus.cancelled)
    expect([a.count, b.count]).toEqual([1, 0])
    expect(rec.persists().filter((e) => e.reason === 'tool_started').length).toBe(1)
    const history = rt.snapshot().history
    expectPaired(history)
    expect(toolMessage(history, 'c1').text()).toBe('alpha ran')
    const c2 = toolMessage(history, 'c2')
    expect([c2.errorCode, c2.text()]).toEqual([ErrorCodes.cancelled, 'Not executed: the run was cancelled'])
  })

  it('a replaced result is what the model, the event and the loop detector see; injections follow the results', async () => {
    const { a, b } = twoTools()
    const hook = new AfterHook(async (ctx) => ctx.call.id === 'c1' ?
      ToolResultHookResult.proceed(ToolResult.text('c1', 'redacted'), [AgentMessage.user('note one')]) :
      ToolResultHookResult.proceed(undefined, [AgentMessage.user('note two'), AgentMessage.user('note three')]))
    const detector = new ScriptedDetector(new Map())
    const provider = new ScriptedProvider([ScriptedTurn.text('').call('c1', 'alpha', '{}').call('c2', 'beta', '{}'),
      ScriptedTurn.text('done')])
    const rec = new Recorder()
    const rt = makeRuntime(provider, { tools: [a.tool, b.tool], hooks: [hook],
      configure: (cfg) => { cfg.loopDetector = detector } })
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    const after = rec.ofType(ControllerEventTypes.afterToolCall) as unknown as Array<{ result: ToolResult }>
    expect(after.map((e) => e.result.textContent())).toEqual(['redacted', 'beta ran'])
    expect(detector.recorded).toEqual(['c1=redacted', 'c2=beta ran'])
    const sent = provider.requests[1].messages
    const tail = sent.slice(sent.length - 5).map((m) => `${m.role}:${m.text()}`)
    expect(tail).toEqual(['tool:redacted', 'tool:beta ran', 'user:note one', 'user:note two', 'user:note three'])
  })

  it('a stop keeps the result, answers the rest unrun (keeping answers they already have) and ends the run', async () => {
    const { a, b } = twoTools()
    const c = new CountingTool('gamma')
    const deny = new BeforeHook(async (ctx) => ctx.call.id === 'c3' ? ToolCallHookResult.deny(undefined, 'no gamma') :
      ToolCallHookResult.proceed())
    const stop = new AfterHook(async (ctx) => ctx.call.id === 'c1' ? ToolResultHookResult.stop(undefined, [AgentMessage.user('halt note')]) :
      ToolResultHookResult.proceed())
    const provider = new ScriptedProvider([ScriptedTurn.text('').call('c1', 'alpha', '{}').call('c2', 'beta', '{}')
      .call('c3', 'gamma', '{}'), ScriptedTurn.text('never asked')])
    const rt = makeRuntime(provider, { tools: [a.tool, b.tool, c.tool], hooks: [deny, stop] })
    const outcome = await rt.run('go')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.stopReason).toBe(StopReason.toolStop)
    expect(provider.callCount).toBe(1)
    expect([a.count, b.count, c.count]).toEqual([1, 0, 0])
    const history = rt.snapshot().history
    expectPaired(history)
    expect(toolMessage(history, 'c1').text()).toBe('alpha ran')
    const c2 = toolMessage(history, 'c2')
    expect([c2.errorCode, c2.text(), c2.isError]).toEqual([ErrorCodes.toolInterrupted, 'Not executed: a hook stopped the run', true])
    const c3 = toolMessage(history, 'c3')
    expect([c3.errorCode, c3.text()]).toEqual([ErrorCodes.toolDenied, 'Tool call denied: no gamma'])
    expect(history[history.length - 1].text()).toBe('halt note')
  })

  it('the first loop verdict of a batch is the one acted on: later calls of the batch still run but are not fed to the detector', async () => {
    const { a, b } = twoTools()
    const verdict = new LoopVerdict(LoopKind.repeat, 'alpha:{}', 3)
    const detector = new ScriptedDetector(new Map([['c1', verdict]]))
    const rec = new Recorder()
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'alpha', '{}').call('c2', 'beta', '{}'),
      ScriptedTurn.text('ok, stopping')], { tools: [a.tool, b.tool], configure: (cfg) => { cfg.loopDetector = detector } })
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect([a.count, b.count]).toEqual([1, 1])
    expect(detector.recorded).toEqual(['c1=alpha ran'])
    const loops = rec.ofType<LoopDetectedEvent>(ControllerEventTypes.loopDetected)
    expect(loops.length).toBe(1)
    expect(loops[0].verdict.signature).toBe('alpha:{}')
  })

  it('with a verdict on a later call and none on the first, that later verdict is acted on', async () => {
    const { a, b } = twoTools()
    const detector = new ScriptedDetector(new Map([['c2', new LoopVerdict(LoopKind.repeat, 'beta:{}', 3)],
      ['c3', new LoopVerdict(LoopKind.repeat, 'gamma:{}', 4)]]))
    const rec = new Recorder()
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'alpha', '{}').call('c2', 'beta', '{}').call('c3', 'alpha', '{}'),
      ScriptedTurn.text('ok')], { tools: [a.tool, b.tool], configure: (cfg) => { cfg.loopDetector = detector } })
    await rt.run('go', rec.observer)
    const loops = rec.ofType<LoopDetectedEvent>(ControllerEventTypes.loopDetected)
    expect(loops.map((e) => e.verdict.signature)).toEqual(['beta:{}'])
  })
})

describe('batch bookkeeping (module API)', () => {
  function services(): { s: RuntimeServices, persister: StatePersister, run: RunContext } {
    const cfg = new AgentRuntimeConfig('unit', new ScriptedProvider([]))
    const s = new RuntimeServices(cfg)
    return { s, persister: new StatePersister(s), run: new RunContext('run_u', CancellationToken.none) }
  }

  it('a stop without a reason reports "stopped by afterToolCall"; with one, that reason', async () => {
    for (const [reason, expected] of [[undefined, 'stopped by afterToolCall'], ['enough', 'enough']] as const) {
      const { s, persister, run } = services()
      s.config.tools.register(new CountingTool('alpha').tool)
      s.config.hooks.register(new AfterHook(async () => ToolResultHookResult.stop(undefined, [], reason)))
      const call = new ToolCall('c1', 'alpha', '{}', 0)
      const batch = new ToolBatchProgress('b', run.runId, AgentMessage.assistant('', [call]), [new ToolBatchEntry(call, false)])
      const outcome: BatchOutcome = await new ToolBatchExecutor(s, persister, new GrantBook(s)).execute(run, batch)
      expect(outcome.stop).toBe(true)
      expect(outcome.stopReason).toBe(expected)
    }
  })

  it('a fresh outcome asks for nothing', () => {
    const o = new BatchOutcome()
    expect([o.stop, o.stopReason, o.abortError, o.injected, o.loopVerdict]).toEqual([false, '', undefined, [], undefined])
  })

  it('closing out answers started calls as interrupted and unstarted ones with the given error, keeping existing results', () => {
    const calls = [new ToolCall('a', 'x', '{}', 0), new ToolCall('b', 'y', '{}', 1), new ToolCall('c', 'z', '{}', 2)]
    const batch = new ToolBatchProgress('b', 'r', AgentMessage.assistant('', calls), [
      new ToolBatchEntry(calls[0], true, ToolResult.text('a', 'done')),
      new ToolBatchEntry(calls[1], true),
      new ToolBatchEntry(calls[2], false)
    ])
    ToolBatchExecutor.closeOut(batch, ErrorCodes.cancelled, 'Not executed: cancelled')
    expect(batch.entries.map((e) => [e.result?.textContent(), e.result?.errorCode])).toEqual([
      ['done', undefined],
      ["Tool 'y' was interrupted before it reported a result; it was not run again and may have partially run", ErrorCodes.toolInterrupted],
      ['Not executed: cancelled', ErrorCodes.cancelled]
    ])
  })

  it('a save failure without a cause still says what failed', () => {
    const e = ToolBatchExecutor.saveFailed()
    expect([e.layer, e.code, e.message, e.retryability]).toEqual([ErrorLayer.storage, ErrorCodes.stateSaveFailed,
      'Could not persist state before running a tool', ErrorRetryability.retryable])
  })

  it('progress from gated calls keeps each verdict\'s call and synthetic result, none started', () => {
    const calls = [new ToolCall('a', 'x', '{}', 0), new ToolCall('b', 'y', '{}', 1)]
    const denied = ToolResult.error('b', ErrorCodes.toolDenied, 'no')
    const progress = ToolBatchExecutor.progressFrom('bid', 'rid', AgentMessage.assistant('', calls), [
      new GatedCall(calls[0], ToolCallHookAction.proceed, ''),
      new GatedCall(calls[1], ToolCallHookAction.deny, 'no', denied)
    ])
    expect([progress.batchId, progress.runId]).toEqual(['bid', 'rid'])
    expect(progress.entries.map((e) => [e.call.id, e.started, e.result?.textContent()])).toEqual([
      ['a', false, undefined], ['b', false, 'no']])
  })
})
