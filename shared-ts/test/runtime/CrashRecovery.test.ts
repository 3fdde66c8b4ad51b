// Crash safety: at-most-once tool execution across a crash, interrupted runs, suspend() mid-run.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentRuntime,
  ApprovalPolicyHook,
  ControllerEventTypes,
  ErrorCodes,
  FileStateStorage,
  LoadedState,
  ModelChunkHookContext,
  ModelChunkHookResult,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ModelStreamSink,
  PersistReason,
  RestoreKind,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  SessionStatus,
  StateStorage,
  ToolRiskLevel
} from '../../src/index'
import {
  cleanupTempDirs,
  CountingTool,
  expectPaired,
  FaultyStorage,
  loadFromDisk,
  makeRuntime,
  newSessionId,
  Recorder,
  sleep,
  tempDir,
  toolMessage
} from './helpers'

afterEach(() => cleanupTempDirs())

/** A model that never answers (the process dies while waiting for it). No timers are left behind. */
class HangingProvider implements ModelProvider {
  readonly providerId = 'hanging'
  calls = 0
  streamModel(request: ModelRequest, sink: ModelStreamSink): Promise<ModelResponse> {
    this.calls++
    return new Promise<ModelResponse>(() => {})
  }
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) {
    await sleep(2)
  }
  expect(cond()).toBe(true)
}

/** Tools shared by every "process" of a test, so execution counts add up across runtimes. */
class World {
  readonly dir = tempDir()
  readonly sessionId = newSessionId()
  hang = true
  readonly danger = new CountingTool('danger', ToolRiskLevel.dangerous, () =>
    this.hang ? new Promise<string>(() => {}) : Promise.resolve('danger done'))
  readonly safe = new CountingTool('safe', ToolRiskLevel.safe, async () => 'safe done')

  runtime(turns: ScriptedTurn[] | ModelProvider, storage: StateStorage = new FileStateStorage(this.dir, undefined, { lock: false }),
    autoResume = false): AgentRuntime {
    return makeRuntime(turns, {
      sessionId: this.sessionId,
      tools: [this.danger.tool, this.safe.tool],
      hooks: [new ApprovalPolicyHook()],
      storage,
      configure: (cfg) => { cfg.autoResume = autoResume }
    })
  }

  async load(): Promise<LoadedState> {
    const loaded = await loadFromDisk(this.dir, this.sessionId)
    expect(loaded).toBeDefined()
    return loaded as LoadedState
  }
}

const batchTurn = (): ScriptedTurn => ScriptedTurn.text('both').call('c1', 'danger', '{}').call('c2', 'safe', '{}')

describe('crash between approval and execution', () => {
  it('a tool whose execution never returns before the process dies is not run again: restore reports interrupted and answers it tool_interrupted', async () => {
    const w = new World()
    const rt1 = w.runtime([batchTurn()])
    await rt1.run('do both')
    for (const item of rt1.controller.listPendingApprovals()) {
      await rt1.controller.approve(item.approvalId)
    }
    // Resume; the dangerous tool starts and never returns. Then the process "dies" (rt1 is dropped).
    void rt1.runStream([])
    await until(() => w.danger.count === 1)
    const onDisk = await w.load()
    expect(onDisk.state.status).toBe(SessionStatus.running)
    expect(onDisk.state.toolBatch?.entries[0].started).toBe(true)
    expect(onDisk.state.toolBatch?.entries[0].result).toBeUndefined()
    expectPaired(onDisk.state.history)

    w.hang = false
    const provider2 = new ScriptedProvider([ScriptedTurn.text('recovered')])
    const rt2 = w.runtime(provider2)
    const report = await rt2.restore()
    expect(report.kind).toBe(RestoreKind.interrupted)
    expect(report.interruptedCalls).toBe(1)
    const rec = new Recorder()
    const outcome = await rt2.runStream([], rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(rec.types()[0]).toBe(ControllerEventTypes.agentResumed)
    expect(w.danger.count).toBe(1)
    expect(w.safe.count).toBe(1)
    const history = rt2.snapshot().history
    expectPaired(history)
    expect(toolMessage(history, 'c1').errorCode).toBe(ErrorCodes.toolInterrupted)
    expect(toolMessage(history, 'c2').text()).toBe('safe done')
    // The model learned the call was interrupted.
    expect(provider2.requests[0].messages.find((m) => m.toolCallId === 'c1')?.errorCode).toBe(ErrorCodes.toolInterrupted)
    expect((await w.load()).state.status).toBe(SessionStatus.completed)
  })

  it('storage dying right after the tool_started mark: the started tool ran once, the next call never ran without its mark, and a new runtime does not run the first again', async () => {
    const w = new World()
    w.hang = false
    const faulty = new FaultyStorage(new FileStateStorage(w.dir, undefined, { lock: false }))
    const rt1 = w.runtime([batchTurn()], faulty)
    await rt1.run('do both')
    for (const item of rt1.controller.listPendingApprovals()) {
      await rt1.controller.approve(item.approvalId)
    }
    faulty.dieAfter = (s) => s.toolBatch !== undefined && s.toolBatch.entries.some((e) => e.started)
    const outcome1 = await rt1.runStream([])
    expect(w.danger.count).toBe(1)
    // c2's write-ahead mark could not be written, so c2 did not run (fail closed).
    expect(w.safe.count).toBe(0)
    expect(outcome1.status).toBe(RunStatus.failed)
    expect(outcome1.error?.code).toBe(ErrorCodes.stateSaveFailed)
    expect(outcome1.persisted).toBe(false)

    const rt2 = w.runtime([ScriptedTurn.text('recovered')])
    const report = await rt2.restore()
    expect(report.kind).toBe(RestoreKind.interrupted)
    expect(report.interruptedCalls).toBe(1)
    const outcome2 = await rt2.runStream([])
    expect(outcome2.status).toBe(RunStatus.completed)
    expect(w.danger.count).toBe(1)
    expect(w.safe.count).toBe(1)
    const history = rt2.snapshot().history
    expectPaired(history)
    expect(toolMessage(history, 'c1').errorCode).toBe(ErrorCodes.toolInterrupted)
    expect(toolMessage(history, 'c2').isError).toBe(false)
  })

  it('new input after an interrupted batch closes it out: every call answered, none run again', async () => {
    const w = new World()
    const rt1 = w.runtime([batchTurn()])
    await rt1.run('do both')
    for (const item of rt1.controller.listPendingApprovals()) {
      await rt1.controller.approve(item.approvalId)
    }
    void rt1.runStream([])
    await until(() => w.danger.count === 1)
    const rt2 = w.runtime([ScriptedTurn.text('ok, something else')])
    expect((await rt2.restore()).kind).toBe(RestoreKind.interrupted)
    const outcome = await rt2.run('forget that, say hi')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(w.danger.count).toBe(1)
    expect(w.safe.count).toBe(0)
    const history = rt2.snapshot().history
    expectPaired(history)
    expect(toolMessage(history, 'c1').errorCode).toBe(ErrorCodes.toolInterrupted)
    expect(toolMessage(history, 'c2').isError).toBe(true)
    expect(history[history.length - 2].text()).toBe('forget that, say hi')
  })
})

describe('interrupted runs', () => {
  it('a run active when the process died (status running on disk) restores as interrupted and runStream([]) resumes it to a terminal state', async () => {
    const w = new World()
    const hanging = new HangingProvider()
    const rt1 = w.runtime(hanging)
    const rec1 = new Recorder()
    void rt1.run('what is the time?', rec1.observer)
    await until(() => rec1.persists().some((p) => p.reason === PersistReason.afterUserInput && p.ok) && hanging.calls === 1)
    expect((await w.load()).state.status).toBe(SessionStatus.running)

    const rt2 = w.runtime([ScriptedTurn.text('it is noon')])
    const report = await rt2.restore()
    expect(report.kind).toBe(RestoreKind.interrupted)
    expect(report.interruptedCalls).toBe(0)
    const rec = new Recorder()
    const outcome = await rt2.runStream([], rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(rec.types()[0]).toBe(ControllerEventTypes.agentResumed)
    expect(rt2.snapshot().history.map((m) => m.text())).toEqual(['what is the time?', 'it is noon'])
    const disk = await w.load()
    expect(disk.state.status).toBe(SessionStatus.completed)
    expect((await w.runtime([]).restore()).kind).toBe(RestoreKind.idle)
  })
})

describe('suspend() during a run', () => {
  it('suspend() while the model streams writes a consistent state (no partial answer) and the run still completes', async () => {
    const w = new World()
    // A chunk hook holds the stream after its first chunk, so the checkpoint is taken mid-stream.
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => { release = resolve })
    let held = false
    class Hold extends AgentHook {
      async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
        if (ctx.chunkIndex === 1) {
          held = true
          await gate
        }
        return ModelChunkHookResult.proceed()
      }
    }
    const rt = makeRuntime([ScriptedTurn.text('part1 ', 'part2 ', 'part3')], {
      sessionId: w.sessionId, hooks: [new Hold()], storage: new FileStateStorage(w.dir, undefined, { lock: false })
    })
    const bus = new Recorder()
    rt.controller.subscribe(ControllerEventTypes.persist, (e) => bus.events.push(e))
    const rec = new Recorder()
    const run = rt.run('tell me', rec.observer)
    await until(() => held)
    expect(rec.chunkText()).toBe('part1 ')
    expect(await rt.suspend()).toBe(true)
    const mid = await w.load()
    expect(mid.state.status).toBe(SessionStatus.running)
    expect(mid.state.history.map((m) => m.text())).toEqual(['tell me'])
    expectPaired(mid.state.history)
    const p = bus.persists().find((e) => e.reason === PersistReason.suspend)
    expect(p?.mandatory).toBe(true)
    expect(p?.ok).toBe(true)
    release()
    const outcome = await run
    expect(outcome.status).toBe(RunStatus.completed)
    const end = await w.load()
    expect(end.state.status).toBe(SessionStatus.completed)
    expect(end.state.history.map((m) => m.text())).toEqual(['tell me', 'part1 part2 part3'])
  })

  it('suspend() while a tool runs writes the batch as in flight, never an unpaired call in history', async () => {
    const w = new World()
    let release: (v: string) => void = () => {}
    const slow = new CountingTool('slow', ToolRiskLevel.safe, () => new Promise<string>((resolve) => { release = resolve }))
    const rt = makeRuntime([ScriptedTurn.text('').call('s1', 'slow', '{}'), ScriptedTurn.text('done')],
      { sessionId: w.sessionId, tools: [slow.tool], storage: new FileStateStorage(w.dir, undefined, { lock: false }) })
    const run = rt.run('go')
    await until(() => slow.count === 1)
    expect(await rt.suspend()).toBe(true)
    const mid = await w.load()
    expectPaired(mid.state.history)
    expect(mid.state.history.some((m) => m.toolCalls.length > 0)).toBe(false)
    expect(mid.state.toolBatch?.entries[0].started).toBe(true)
    release('slow done')
    const outcome = await run
    expect(outcome.status).toBe(RunStatus.completed)
    const end = await w.load()
    expectPaired(end.state.history)
    expect(toolMessage(end.state.history, 's1').text()).toBe('slow done')
  })
})

describe('suspend() before restore', () => {
  it('suspend() on a runtime that never restored keeps the stored session instead of overwriting it', async () => {
    const w = new World()
    const first = makeRuntime([ScriptedTurn.text('hello')], { sessionId: w.sessionId, storage: new FileStateStorage(w.dir, undefined, { lock: false }) })
    await first.run('hi')
    const fresh = makeRuntime([], { sessionId: w.sessionId, storage: new FileStateStorage(w.dir, undefined, { lock: false }) })
    expect(await fresh.suspend()).toBe(true)
    const disk = await w.load()
    expect(disk.state.history.map((m) => m.text())).toEqual(['hi', 'hello'])
    expect(disk.state.status).toBe(SessionStatus.completed)
  })
})
