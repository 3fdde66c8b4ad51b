// Run lifecycle: one terminal event and one afterRun per run, entry refusals, limits, cancellation.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AfterRunHookContext,
  AgentHook,
  AgentMessage,
  AgentRuntime,
  ApprovalPolicyHook,
  ArkAgentError,
  BeforeRunHookContext,
  BeforeRunHookResult,
  BusEvent,
  CancellationSource,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  FileStateStorage,
  RunOutcome,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  StopReason,
  ToolRiskLevel
} from '../../src/index'
import {
  cleanupTempDirs,
  CountingTool,
  expectPaired,
  expectSingleTerminalLast,
  makeRuntime,
  newSessionId,
  Recorder,
  rejectionOf,
  tempDir,
  toolMessage
} from './helpers'

afterEach(() => cleanupTempDirs())

class AfterRunCounter extends AgentHook {
  readonly runs: Array<{ runId: string, stopReason: string, code?: string }> = []
  async afterRun(ctx: AfterRunHookContext): Promise<void> {
    this.runs.push({ runId: ctx.runId, stopReason: ctx.stopReason, code: ctx.error?.code })
  }
}

class AbortingBeforeRun extends AgentHook {
  async beforeRun(ctx: BeforeRunHookContext): Promise<BeforeRunHookResult> {
    return ctx.input[0].text() === 'forbidden' ? BeforeRunHookResult.abort('no') : BeforeRunHookResult.proceed()
  }
}

/** Runs `input` with a fresh recorder and checks the single-terminal-last invariant plus ids. */
async function runChecked(rt: AgentRuntime, input: AgentMessage[], source?: CancellationSource,
  onEvent?: (e: BusEvent) => void): Promise<{ outcome: RunOutcome, rec: Recorder }> {
  const rec = new Recorder()
  const outcome = await rt.runStream(input, {
    onEvent: (e) => {
      rec.events.push(e)
      if (onEvent !== undefined) onEvent(e)
    }
  }, source?.token)
  expectSingleTerminalLast(rec)
  for (const e of rec.events) {
    expect(e.sessionId).toBe(rt.sessionId)
    expect(e.runId).toBe(outcome.runId)
  }
  return { outcome, rec }
}

describe('one terminal event and one afterRun per run', () => {
  it('afterRun runs exactly once per run on every terminal path and each run ends with exactly one terminal event, last', async () => {
    const counter = new AfterRunCounter()
    const rm = new CountingTool('rm', ToolRiskLevel.dangerous)
    const provider = new ScriptedProvider([
      ScriptedTurn.text('hello'), // completed
      ScriptedTurn.text('').call('c1', 'rm', '{}'), // suspended
      ScriptedTurn.text('removed'), // resumed run completes
      ScriptedTurn.failing(new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerServerError, 'boom')), // failed
      ScriptedTurn.text('slow', 'slow', 'slow').withDelay(20) // cancelled
    ])
    const bus = new Recorder()
    const rt = makeRuntime(provider, { tools: [rm.tool], hooks: [counter, new ApprovalPolicyHook(), new AbortingBeforeRun()],
      storage: new FileStateStorage(tempDir(), undefined, { lock: false }), configure: (cfg) => { cfg.autoResume = false } })
    rt.controller.subscribeAll((e) => bus.events.push(e))
    const outcomes: RunOutcome[] = []
    outcomes.push((await runChecked(rt, [AgentMessage.user('hi')])).outcome)
    outcomes.push((await runChecked(rt, [AgentMessage.user('remove it')])).outcome)
    await rt.controller.approve(rt.controller.listPendingApprovals()[0].approvalId)
    outcomes.push((await runChecked(rt, [])).outcome)
    outcomes.push((await runChecked(rt, [AgentMessage.user('fail please')])).outcome)
    const source = new CancellationSource()
    outcomes.push((await runChecked(rt, [AgentMessage.user('slow please')], source, (e) => {
      if (e.eventType() === ControllerEventTypes.llmChunk) source.cancel('stop')
    })).outcome)
    outcomes.push((await runChecked(rt, [AgentMessage.user('forbidden')])).outcome)
    expect(outcomes.map((o) => o.status)).toEqual([RunStatus.completed, RunStatus.suspended, RunStatus.completed,
      RunStatus.failed, RunStatus.cancelled, RunStatus.failed])
    expect(counter.runs.map((r) => r.runId)).toEqual(outcomes.map((o) => o.runId))
    expect(counter.runs.map((r) => r.stopReason)).toEqual([StopReason.complete, StopReason.awaitingApproval,
      StopReason.complete, StopReason.error, StopReason.cancelled, StopReason.aborted])
    // On the bus too: per run id, exactly one terminal event and nothing of that run after it
    // (decisions made later about a suspended run's batch are tagged with that run's id: skipped here).
    const decisionEvent = (e: BusEvent): boolean => e.eventType() === ControllerEventTypes.approvalDecided ||
      e.eventType() === ControllerEventTypes.approvalResolved ||
      (e.eventType() === ControllerEventTypes.persist && (e as unknown as { reason: string }).reason === 'approval_decision')
    for (const o of outcomes) {
      const ofRun = bus.events.filter((e) => e.runId === o.runId && !decisionEvent(e))
      expect(ofRun.filter((e) => ControllerEventTypes.isTerminal(e.eventType())).length).toBe(1)
      expect(ControllerEventTypes.isTerminal(ofRun[ofRun.length - 1].eventType())).toBe(true)
    }
    expectPaired(rt.snapshot().history)
  })

  it('refused runs (pending approval, concurrent run, nothing to resume) publish nothing and call no afterRun', async () => {
    const counter = new AfterRunCounter()
    const rm = new CountingTool('rm', ToolRiskLevel.dangerous)
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'rm', '{}')], { tools: [rm.tool], hooks: [counter, new ApprovalPolicyHook()] })
    const empty = new Recorder()
    expect((await rejectionOf(rt.runStream([], empty.observer))).code).toBe(ErrorCodes.nothingToResume)
    await rt.run('remove')
    expect(counter.runs.length).toBe(1)
    expect((await rejectionOf(rt.run('other', empty.observer))).code).toBe(ErrorCodes.pendingApprovalBlocksInput)
    expect(empty.events).toEqual([])
    expect(counter.runs.length).toBe(1)
  })
})

describe('run entry', () => {
  it('a second concurrent runStream is refused with run_in_progress and the first run is unaffected', async () => {
    const rt = makeRuntime([ScriptedTurn.text('a', 'b', 'c').withDelay(10), ScriptedTurn.text('second')])
    const first = rt.run('one')
    expect(rt.isRunning).toBe(true)
    const err = await rejectionOf(rt.run('two'))
    expect(err.code).toBe(ErrorCodes.runInProgress)
    expect(err.layer).toBe(ErrorLayer.runtime)
    const outcome = await first
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.finalMessage?.text()).toBe('abc')
    expect(rt.snapshot().history.map((m) => m.text())).toEqual(['one', 'abc'])
    // Once the first run ended, a new one may start.
    expect((await rt.run('three')).finalMessage?.text()).toBe('second')
  })

  it('empty input with nothing to resume is refused with nothing_to_resume', async () => {
    const rt = makeRuntime([ScriptedTurn.text('x')], { storage: new FileStateStorage(tempDir(), undefined, { lock: false }) })
    const err = await rejectionOf(rt.runStream([]))
    expect(err.code).toBe(ErrorCodes.nothingToResume)
    await rt.run('hi')
    expect((await rejectionOf(rt.runStream([]))).code).toBe(ErrorCodes.nothingToResume)
    expect(rt.isRunning).toBe(false)
  })

  it('max_turns: a model that keeps calling tools is stopped after maxTurns model turns (runtime layer)', async () => {
    const tool = new CountingTool('step')
    let n = 0
    const provider = ScriptedProvider.fromFunction(() => ScriptedTurn.text('').call(`c${++n}`, 'step', `{}`))
    const rt = makeRuntime(provider, { tools: [tool.tool], configure: (cfg) => { cfg.maxTurns = 3 } })
    const rec = new Recorder()
    const outcome = await rt.run('loop forever', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.maxTurns)
    expect(outcome.error?.layer).toBe(ErrorLayer.runtime)
    expect(outcome.stopReason).toBe(StopReason.maxTurns)
    expect(provider.callCount).toBe(3)
    expect(tool.count).toBe(3)
    expectPaired(rt.snapshot().history)
    expectSingleTerminalLast(rec, ControllerEventTypes.agentFailed)
  })
})

describe('cancellation', () => {
  it('cancelling mid-stream ends the run cancelled (cancelled layer) and keeps the text shown so far, marked cancelled', async () => {
    const source = new CancellationSource()
    const rt = makeRuntime([ScriptedTurn.text('one ', 'two ', 'three ', 'four').withDelay(15)],
      { storage: new FileStateStorage(tempDir(), undefined, { lock: false }) })
    const { outcome, rec } = await runChecked(rt, [AgentMessage.user('go')], source, (e) => {
      if (e.eventType() === ControllerEventTypes.llmChunk) source.cancel('user stop')
    })
    expect(outcome.status).toBe(RunStatus.cancelled)
    expect(outcome.error?.code).toBe(ErrorCodes.cancelled)
    expect(outcome.error?.layer).toBe(ErrorLayer.cancelled)
    expect(rec.types()).not.toContain(ControllerEventTypes.afterCallLlm)
    expect(rec.terminals()[0].eventType()).toBe(ControllerEventTypes.agentCancelled)
    const answers = rt.snapshot().history.filter((m) => m.role === 'assistant')
    expect(answers.length).toBe(1)
    expect(answers[0].text()).toBe(rec.chunkText())
    expect(answers[0].text().length).toBeGreaterThan(0)
    expect(answers[0].errorCode).toBe(ErrorCodes.cancelled)
    expect(answers[0].hasToolCalls()).toBe(false)
  })

  it('cancelling while a tool awaits its token ends the run cancelled and history has no unpaired tool call', async () => {
    const source = new CancellationSource()
    let sawCancel = false
    const tool = new CountingTool('wait', ToolRiskLevel.safe, (args, ctx) => new Promise<string>((resolve, reject) => {
      ctx.token.onCancel((reason) => {
        sawCancel = true
        reject(new Error(`aborted: ${reason}`))
      })
    }))
    const other = new CountingTool('after')
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'wait', '{}').call('c2', 'after', '{}'), ScriptedTurn.text('never')],
      { tools: [tool.tool, other.tool], storage: new FileStateStorage(tempDir(), undefined, { lock: false }) })
    const { outcome } = await runChecked(rt, [AgentMessage.user('go')], source, (e) => {
      if (e.eventType() === ControllerEventTypes.beforeToolCall) {
        setTimeout(() => source.cancel('user stop'), 5)
      }
    })
    expect(sawCancel).toBe(true)
    expect(outcome.status).toBe(RunStatus.cancelled)
    expect(outcome.error?.layer).toBe(ErrorLayer.cancelled)
    expect(other.count).toBe(0)
    const history = rt.snapshot().history
    expectPaired(history)
    expect(toolMessage(history, 'c1').isError).toBe(true)
    expect(toolMessage(history, 'c2').isError).toBe(true)
    expect(toolMessage(history, 'c2').errorCode).toBe(ErrorCodes.cancelled)
  })
})

describe('events', () => {
  it('every event of a run carries the session id and the run id, on the observer and on the bus', async () => {
    const sessionId = newSessionId()
    const tool = new CountingTool('t')
    const rt = makeRuntime([ScriptedTurn.text('a').call('c1', 't', '{}'), ScriptedTurn.text('b')],
      { sessionId, tools: [tool.tool], storage: new FileStateStorage(tempDir(), undefined, { lock: false }) })
    const bus = new Recorder()
    rt.controller.subscribeAll((e) => bus.events.push(e))
    const { outcome, rec } = await runChecked(rt, [AgentMessage.user('go')])
    expect(outcome.runId.length).toBeGreaterThan(0)
    expect(rec.events.length).toBeGreaterThan(5)
    for (const e of bus.events) {
      expect(e.sessionId).toBe(sessionId)
      expect(e.runId).toBe(outcome.runId)
    }
    expect(bus.types()).toEqual(rec.types())
  })
})

describe('side channels never alter the run', () => {
  it('an observer that throws on every event does not change the outcome or the event sequence', async () => {
    const rt = makeRuntime([ScriptedTurn.text('a', 'b')])
    const bus = new Recorder()
    rt.controller.subscribeAll((e) => bus.events.push(e))
    rt.controller.subscribeAll(() => { throw new Error('listener bug') })
    const outcome = await rt.run('go', { onEvent: () => { throw new Error('observer bug') } })
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.finalMessage?.text()).toBe('ab')
    expect(ControllerEventTypes.isTerminal(bus.events[bus.events.length - 1].eventType())).toBe(true)
  })

  it('an afterRun hook hanging past hookTimeoutMs becomes a diagnostic and the outcome stands', async () => {
    class Hang extends AgentHook {
      afterRun(): Promise<void> {
        return new Promise<void>(() => {})
      }
    }
    const rt = makeRuntime([ScriptedTurn.text('fine')], { hooks: [new Hang()], configure: (cfg) => { cfg.hookTimeoutMs = 30 } })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    const diag = rec.events.find((e) => e.eventType() === ControllerEventTypes.hookDiagnostic) as unknown as { slot: string, message: string }
    expect(diag.slot).toBe('afterRun')
    expect(diag.message).toContain('30 ms')
    expectSingleTerminalLast(rec, ControllerEventTypes.agentSuccess)
  })
})
