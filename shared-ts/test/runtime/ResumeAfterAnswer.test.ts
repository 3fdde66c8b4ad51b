// A finished run never calls the model again: a process killed after the final answer was stored
// but before the terminal write restores as interrupted, and resuming it completes the run from
// the stored answer (terminal record, afterRun once) without a model call.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AfterRunHookContext,
  AgentHook,
  AgentMessage,
  AgentState,
  ControllerEventTypes,
  FileStateStorage,
  MessageRole,
  RestoreKind,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  SessionStatus,
  TurnCompletionHookContext,
  TurnCompletionHookResult
} from '../../src/index'
import { cleanupTempDirs, CountingTool, FaultyStorage, loadFromDisk, makeRuntime, newSessionId, Recorder, tempDir } from './helpers'

afterEach(() => cleanupTempDirs())

/** The save that stores the final answer while the run is still active. */
function answerStored(text: string): (s: AgentState) => boolean {
  return (s) => s.status === SessionStatus.running && s.history.length > 0 &&
    s.history[s.history.length - 1].role === MessageRole.assistant && s.history[s.history.length - 1].text() === text
}

class Observe extends AgentHook {
  afterRuns: string[] = []
  completions: number[] = []
  continueOnce = false

  async onTurnCompletion(ctx: TurnCompletionHookContext): Promise<TurnCompletionHookResult> {
    this.completions.push(ctx.turn)
    if (this.continueOnce) {
      this.continueOnce = false
      return TurnCompletionHookResult.continueRun([AgentMessage.user('and one more thing')])
    }
    return TurnCompletionHookResult.accept()
  }

  async afterRun(ctx: AfterRunHookContext): Promise<void> {
    this.afterRuns.push(ctx.stopReason)
  }
}

async function crashAfterAnswer(dir: string, sessionId: string, charge: CountingTool): Promise<void> {
  const faulty = new FaultyStorage(new FileStateStorage(dir, undefined, { lock: false }))
  faulty.dieAfter = answerStored('Paid.')
  const first = makeRuntime([ScriptedTurn.text('paying').call('p1', 'charge', '{}'), ScriptedTurn.text('Paid.')],
    { sessionId, tools: [charge.tool], storage: faulty })
  const outcome = await first.run('pay the invoice')
  // The process "died" right after the answer's save: the terminal write never reached the disk.
  expect(outcome.persisted).toBe(false)
  const onDisk = (await loadFromDisk(dir, sessionId))!
  expect(onDisk.state.status).toBe(SessionStatus.running)
  expect(onDisk.state.history[onDisk.state.history.length - 1].text()).toBe('Paid.')
}

describe('a restored run that already has its final answer', () => {
  it('completes from the stored answer: no model call, one afterRun, the terminal state on disk', async () => {
    const dir = tempDir()
    const sessionId = newSessionId()
    const charge = new CountingTool('charge')
    await crashAfterAnswer(dir, sessionId, charge)
    expect(charge.count).toBe(1)

    const observe = new Observe()
    const model = ScriptedProvider.fromFunction(() => ScriptedTurn.text('').call('again', 'charge', '{}'))
    const second = makeRuntime(model, { sessionId, tools: [charge.tool], hooks: [observe],
      storage: new FileStateStorage(dir, undefined, { lock: false }) })
    const report = await second.restore()
    expect(report.kind).toBe(RestoreKind.interrupted)
    const rec = new Recorder()
    const outcome = await second.runStream([], rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.finalMessage?.text()).toBe('Paid.')
    expect(outcome.persisted).toBe(true)
    expect(model.callCount).toBe(0)
    expect(charge.count).toBe(1)
    expect(observe.completions).toEqual([0])
    expect(observe.afterRuns).toEqual(['complete'])
    expect(rec.types()).not.toContain(ControllerEventTypes.beforeCallLlm)
    expect(rec.terminals().map((e) => e.eventType())).toEqual([ControllerEventTypes.agentSuccess])
    const onDisk = (await loadFromDisk(dir, sessionId))!
    expect(onDisk.state.status).toBe(SessionStatus.completed)
    expect(onDisk.state.history.map((m) => m.text())).toEqual(['pay the invoice', 'paying', 'ok', 'Paid.'])
  })

  it('an onTurnCompletion hook may still continue the restored run: then the model is asked, once', async () => {
    const dir = tempDir()
    const sessionId = newSessionId()
    const charge = new CountingTool('charge')
    await crashAfterAnswer(dir, sessionId, charge)
    const observe = new Observe()
    observe.continueOnce = true
    const model = new ScriptedProvider([ScriptedTurn.text('Nothing else to do.')])
    const second = makeRuntime(model, { sessionId, tools: [charge.tool], hooks: [observe],
      storage: new FileStateStorage(dir, undefined, { lock: false }) })
    await second.restore()
    const outcome = await second.runStream([])
    expect(outcome.status).toBe(RunStatus.completed)
    expect(model.callCount).toBe(1)
    expect(model.requests[0].messages.map((m) => m.text()).slice(-2)).toEqual(['Paid.', 'and one more thing'])
    expect(outcome.finalMessage?.text()).toBe('Nothing else to do.')
    expect(observe.completions).toEqual([0, 1])
    expect(observe.afterRuns).toEqual(['complete'])
  })

  it('new input after such a restore starts a normal run (the stored answer stays in history once)', async () => {
    const dir = tempDir()
    const sessionId = newSessionId()
    const charge = new CountingTool('charge')
    await crashAfterAnswer(dir, sessionId, charge)
    const model = new ScriptedProvider([ScriptedTurn.text('You are welcome.')])
    const second = makeRuntime(model, { sessionId, tools: [charge.tool],
      storage: new FileStateStorage(dir, undefined, { lock: false }) })
    await second.restore()
    const outcome = await second.run('thanks')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(model.callCount).toBe(1)
    expect(second.snapshot().history.filter((m) => m.text() === 'Paid.').length).toBe(1)
  })
})
