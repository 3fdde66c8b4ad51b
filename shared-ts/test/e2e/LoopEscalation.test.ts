// Warn-then-stop loop escalation through the runtime, with the real LoopDetector.
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentHookPipeline,
  AgentMessage,
  AgentRuntime,
  AgentRuntimeConfig,
  ArkAgentError,
  BusEvent,
  CallbackObserver,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  ErrorRetryability,
  FileStateStorage,
  FunctionTool,
  HookDiagnosticEvent,
  LoopAction,
  LoopDetectedEvent,
  LoopDetector,
  LoopDetectorOptions,
  LoopDiagnosisOptions,
  LoopKind,
  MessageRole,
  ModelRequest,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  SessionStatus,
  StopReason,
  ToolCallHookContext,
  ToolCallHookResult,
  ToolDefinition
} from '../../src/index'

const WARNING = 'LOOP WARNING: you keep doing the same thing. Change approach or answer.'

let dir: string

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'arkagent-loop-'))
})
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

/** Denies every shell call, as a policy would. */
class DenyShell extends AgentHook {
  async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
    return ctx.call.name === 'shell' ? ToolCallHookResult.deny(undefined, 'shell is not allowed') : ToolCallHookResult.proceed()
  }
}

/** A tool with a fixed answer per argument set, counting its executions. */
class CountingTool extends FunctionTool {
  executions = 0

  constructor(name: string, answer: (args: Record<string, Object>) => string = () => 'status: pending') {
    super(new ToolDefinition(name, `The ${name} tool`, { type: 'object', properties: {} }),
      async (args) => {
        this.executions++
        return answer(args)
      })
  }
}

class EventLog {
  readonly events: BusEvent[] = []
  readonly observer = new CallbackObserver((e) => {
    this.events.push(e)
  })

  loops(): LoopDetectedEvent[] {
    return this.events.filter((e): e is LoopDetectedEvent => e instanceof LoopDetectedEvent)
  }

  diagnostics(): HookDiagnosticEvent[] {
    return this.events.filter((e): e is HookDiagnosticEvent => e instanceof HookDiagnosticEvent)
  }

  types(): string[] {
    return this.events.map((e) => e.eventType())
  }
}

/** Whether the warning was injected since the latest user message (i.e. in the current run). */
function sawWarning(request: ModelRequest): boolean {
  const messages = request.messages
  for (let i = messages.length - 1; i >= 0 && messages[i].role !== MessageRole.user; i--) {
    if (messages[i].role === MessageRole.system && messages[i].text() === WARNING) return true
  }
  return false
}

function setup(sessionId: string, provider: ScriptedProvider, tools: CountingTool[],
  options: LoopDetectorOptions = new LoopDetectorOptions()): { runtime: AgentRuntime, config: AgentRuntimeConfig,
  detector: LoopDetector } {
  const config = new AgentRuntimeConfig(sessionId, provider)
  const detector = new LoopDetector(options)
  config.loopDetector = detector
  config.loopWarning = WARNING
  config.storage = new FileStateStorage(dir, undefined, { lock: false })
  for (const t of tools) config.tools.register(t)
  return { runtime: new AgentRuntime(config), config, detector }
}

/** Every assistant tool call is followed by its result, in order; no result without its call. */
function expectPaired(history: AgentMessage[]): void {
  const open: string[] = []
  for (const m of history) {
    if (m.role === MessageRole.assistant) {
      expect(open).toEqual([])
      for (const c of m.toolCalls) open.push(c.id)
    } else if (m.role === MessageRole.tool) {
      expect(m.toolCallId).toBe(open.shift())
    }
  }
  expect(open).toEqual([])
}

describe('loop escalation through AgentRuntime', () => {
  it('warns on the first detection, then stops the run with loop_detected when the model keeps looping', async () => {
    const provider = ScriptedProvider.fromFunction((_req, i) =>
      new ScriptedTurn().call(`call_${i + 1}`, 'read_status', '{"id": 7, "verbose": false}'))
    const tool = new CountingTool('read_status')
    const { runtime } = setup('loop-stop', provider, [tool])
    const log = new EventLog()

    const outcome = await runtime.run('Wait until the job is done', log.observer)

    // Warned after 4 identical calls (the detector is reset), stopped after 4 more.
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.stopReason).toBe(StopReason.loopDetected)
    const error = outcome.error as ArkAgentError
    expect(error.layer).toBe(ErrorLayer.runtime)
    expect(error.code).toBe(ErrorCodes.loopDetected)
    expect(error.message).toContain('read_status')
    expect(tool.executions).toBe(8)
    expect(provider.callCount).toBe(8)

    const loops = log.loops()
    expect(loops.map((e) => e.action)).toEqual([LoopAction.warned, LoopAction.stopped])
    for (const e of loops) {
      expect(e.verdict.kind).toBe(LoopKind.repeat)
      expect(e.verdict.signature).toBe('read_status:{"id":7,"verbose":false}')
      expect(e.verdict.count).toBe(4)
      expect(e.runId).toBe(outcome.runId)
    }

    // The warning is in history right after the 4th result, and the model saw it from turn 5 on.
    const history = runtime.snapshot().history
    const warnings = history.map((m, i) => [m, i] as const)
      .filter(([m]) => m.role === MessageRole.system && m.text() === WARNING)
    expect(warnings).toHaveLength(1)
    const at = warnings[0][1]
    expect(history[at - 1].role).toBe(MessageRole.tool)
    expect(history[at - 1].toolCallId).toBe('call_4')
    expect(provider.requests.map(sawWarning)).toEqual([false, false, false, false, true, true, true, true])
    expectPaired(history)

    // Event order: warned after the 4th tool result; stopped just before the single terminal event.
    const types = log.types()
    const warnedAt = log.events.indexOf(loops[0])
    expect(types.slice(0, warnedAt).filter((t) => t === ControllerEventTypes.afterToolCall)).toHaveLength(4)
    expect(types[types.length - 1]).toBe(ControllerEventTypes.agentFailed)
    expect(types.filter((t) => ControllerEventTypes.isTerminal(t))).toHaveLength(1)
    expect(log.events.indexOf(loops[1])).toBeGreaterThan(log.events.lastIndexOf(
      log.events.filter((e) => e.eventType() === ControllerEventTypes.afterToolCall).pop() as BusEvent))

    // Persisted as terminal: a fresh storage sees the failure.
    const loaded = await new FileStateStorage(dir, undefined, { lock: false }).load('loop-stop')
    expect(loaded?.resumable).toBe(true)
    expect(loaded?.state.status).toBe(SessionStatus.failed)
    expect(loaded?.state.lastStopReason).toBe(StopReason.loopDetected)
    expect(loaded?.state.lastError).toMatchObject({ layer: 'runtime', code: ErrorCodes.loopDetected })
    expect(loaded?.state.activeRunId).toBe('')
    expect(loaded?.state.toolBatch).toBeUndefined()
    expect(loaded?.state.history.length).toBe(history.length)
    expect(loaded?.state.history.filter((m) => m.role === MessageRole.system).map((m) => m.text())).toEqual([WARNING])
    expectPaired(loaded?.state.history ?? [])

    // A restarted runtime on the same storage reports the terminal state, not an interrupted run.
    const restarted = new AgentRuntime(Object.assign(new AgentRuntimeConfig('loop-stop', provider),
      { storage: new FileStateStorage(dir, undefined, { lock: false }) }))
    const report = await restarted.restore()
    expect(report.lastStatus).toBe(SessionStatus.failed)
    expect(restarted.snapshot().lastError?.code).toBe(ErrorCodes.loopDetected)
  })

  it('completes normally when the model changes behaviour after the warning', async () => {
    const provider = ScriptedProvider.fromFunction((req, i) => sawWarning(req) ?
      ScriptedTurn.text('The job is still pending; I will stop polling and report that.') :
      new ScriptedTurn().call(`call_${i + 1}`, 'read_status', '{"id":7}'))
    const tool = new CountingTool('read_status')
    const { runtime } = setup('loop-recover', provider, [tool])
    const log = new EventLog()

    const outcome = await runtime.run('Is the job done?', log.observer)

    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.stopReason).toBe(StopReason.complete)
    expect(outcome.finalMessage?.text()).toContain('stop polling')
    expect(tool.executions).toBe(4)
    expect(log.loops().map((e) => e.action)).toEqual([LoopAction.warned])
    expect(log.types()[log.types().length - 1]).toBe(ControllerEventTypes.agentSuccess)
    const loaded = await new FileStateStorage(dir, undefined, { lock: false }).load('loop-recover')
    expect(loaded?.state.status).toBe(SessionStatus.completed)
    expect(loaded?.state.lastError).toBeUndefined()

    // A new run starts with a clean slate: no warning carried over, so a fresh loop is warned first again.
    const again = await runtime.run('Check once more', log.observer)
    expect(again.status).toBe(RunStatus.completed)
    expect(log.loops().map((e) => e.action)).toEqual([LoopAction.warned, LoopAction.warned])
  })

  it('catches an A-B-A-B cycle, warns, then stops it', async () => {
    const options = new LoopDetectorOptions()
    options.cycleRepeats = 2
    const provider = ScriptedProvider.fromFunction((_req, i) => i % 2 === 0 ?
      new ScriptedTurn().call(`call_${i + 1}`, 'open_file', '{"path":"a.txt"}') :
      new ScriptedTurn().call(`call_${i + 1}`, 'close_file', '{"path":"a.txt"}'))
    const open = new CountingTool('open_file', () => 'opened')
    const close = new CountingTool('close_file', () => 'closed')
    const { runtime } = setup('loop-cycle', provider, [open, close], options)
    const log = new EventLog()

    const outcome = await runtime.run('Edit a.txt', log.observer)

    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.loopDetected)
    expect(outcome.error?.message).toContain('cycle open_file -> close_file')
    expect(open.executions + close.executions).toBe(8)
    const loops = log.loops()
    expect(loops.map((e) => e.action)).toEqual([LoopAction.warned, LoopAction.stopped])
    for (const e of loops) {
      expect(e.verdict.kind).toBe(LoopKind.cycle)
      expect(e.verdict.cycle).toEqual(['open_file', 'close_file'])
      expect(e.verdict.signature).toBe('open_file:{"path":"a.txt"} -> close_file:{"path":"a.txt"}')
      expect(e.verdict.count).toBe(2)
    }
    const loaded = await new FileStateStorage(dir, undefined, { lock: false }).load('loop-cycle')
    expect(loaded?.state.lastError?.code).toBe(ErrorCodes.loopDetected)
  })

  it('catches the default A-B-A-B-A-B cycle (three repeats)', async () => {
    const provider = ScriptedProvider.fromFunction((req, i) => sawWarning(req) ? ScriptedTurn.text('done') :
      new ScriptedTurn().call(`call_${i + 1}`, i % 2 === 0 ? 'search' : 'fetch', '{"q":"x"}'))
    const { runtime } = setup('loop-cycle3', provider, [new CountingTool('search'), new CountingTool('fetch')])
    const log = new EventLog()
    const outcome = await runtime.run('go', log.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(provider.callCount).toBe(7)
    expect(log.loops().map((e) => [e.action, e.verdict.kind, e.verdict.count])).toEqual([
      [LoopAction.warned, LoopKind.cycle, 3]
    ])
  })

  it('escalates a content loop (chanting text) the same way: warn, then stop', async () => {
    const line = 'I will check the deployment status once more.\n'
    const provider = ScriptedProvider.fromFunction(() => ScriptedTurn.text(...Array.from({ length: 8 }, () => line)))
    const { runtime } = setup('loop-content', provider, [])
    const log = new EventLog()

    const outcome = await runtime.run('Is it deployed?', log.observer)

    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.loopDetected)
    expect(provider.callCount).toBe(2)
    expect(log.loops().map((e) => [e.action, e.verdict.kind])).toEqual([
      [LoopAction.warned, LoopKind.content], [LoopAction.stopped, LoopKind.content]
    ])
    expect(log.loops()[0].verdict.signature).toContain('deployment status')
    expect(provider.requests.map(sawWarning)).toEqual([false, true])
    const loaded = await new FileStateStorage(dir, undefined, { lock: false }).load('loop-content')
    expect(loaded?.state.status).toBe(SessionStatus.failed)
    expect(loaded?.state.lastError?.code).toBe(ErrorCodes.loopDetected)
  })

  it('a call a hook denies, retried by the model, is caught as a repeat: warned, then stopped, never run', async () => {
    const provider = ScriptedProvider.fromFunction((_req, i) =>
      new ScriptedTurn().say('Trying the clean-up again.').call(`call_${i + 1}`, 'shell', '{"cmd":"rm -rf /var/data"}'))
    const tool = new CountingTool('shell')
    const { config } = setup('loop-denied', provider, [tool])
    config.maxTurns = 30
    config.hooks = new AgentHookPipeline([new DenyShell()])
    const runtime = new AgentRuntime(config)
    const log = new EventLog()

    const outcome = await runtime.run('Free some disk space', log.observer)

    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.stopReason).toBe(StopReason.loopDetected)
    expect(tool.executions).toBe(0)
    expect(provider.callCount).toBe(8)
    expect(log.loops().map((e) => [e.action, e.verdict.kind, e.verdict.count])).toEqual([
      [LoopAction.warned, LoopKind.repeat, 4], [LoopAction.stopped, LoopKind.repeat, 4]
    ])
    expectPaired(runtime.snapshot().history)
  })

  it('a model looping inside its reasoning is warned, then stopped', async () => {
    const thought = 'Wait, let me recompute the total of the first column. '
    const provider = ScriptedProvider.fromFunction(() => new ScriptedTurn().think(thought.repeat(20)).say('The total is 42.'))
    const { runtime } = setup('loop-reasoning', provider, [])
    const log = new EventLog()
    const first = await runtime.run('Add up the column', log.observer)
    expect(first.status).toBe(RunStatus.failed)
    expect(first.error?.code).toBe(ErrorCodes.loopDetected)
    expect(provider.callCount).toBe(2)
    expect(log.loops().map((e) => [e.action, e.verdict.kind, e.verdict.reason])).toEqual([
      [LoopAction.warned, LoopKind.content, 'repeated in the reasoning'],
      [LoopAction.stopped, LoopKind.content, 'repeated in the reasoning']
    ])
  })

  it('lets honest repetitive work (same tool, new arguments each time) complete', async () => {
    const pages = 12
    const provider = ScriptedProvider.fromFunction((_req, i) => i < pages ?
      new ScriptedTurn().call(`call_${i + 1}`, 'read_page', JSON.stringify({ page: i + 1 })) :
      ScriptedTurn.text('Read all 12 pages.'))
    const tool = new CountingTool('read_page', (args) => `contents of page ${String(args.page)}`)
    const { runtime, config } = setup('loop-honest', provider, [tool])
    config.maxTurns = 20
    const log = new EventLog()

    const outcome = await runtime.run('Read the whole document', log.observer)

    expect(outcome.status).toBe(RunStatus.completed)
    expect(tool.executions).toBe(pages)
    expect(log.loops()).toEqual([])
    expect(runtime.snapshot().history.some((m) => m.role === MessageRole.system)).toBe(false)
  })

  it('also leaves same-arguments polling alone when its result changes', async () => {
    let polls = 0
    const provider = ScriptedProvider.fromFunction((req, i) => i < 6 ?
      new ScriptedTurn().call(`call_${i + 1}`, 'poll', '{}') : ScriptedTurn.text('finished'))
    const tool = new CountingTool('poll', () => `progress ${++polls * 10}%`)
    const { runtime } = setup('loop-progress', provider, [tool])
    const log = new EventLog()
    const outcome = await runtime.run('wait for it', log.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(log.loops()).toEqual([])
  })

  it('degrades a failing LLM diagnosis into hook.diagnostic events without failing the run', async () => {
    const diagnosisModel = ScriptedProvider.fromFunction(() => ScriptedTurn.failing(
      new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerServerError, 'diagnosis backend HTTP 503',
        ErrorRetryability.retryable)))
    const options = new LoopDetectorOptions()
    const diagnosis = new LoopDiagnosisOptions(diagnosisModel)
    diagnosis.afterTurns = 1
    diagnosis.interval = 1
    options.diagnosis = diagnosis
    const provider = ScriptedProvider.fromFunction((_req, i) => i < 3 ?
      new ScriptedTurn().call(`call_${i + 1}`, 'read_page', JSON.stringify({ page: i + 1 })) :
      ScriptedTurn.text('All pages read.'))
    const { runtime } = setup('loop-diagnosis', provider, [new CountingTool('read_page')], options)
    const log = new EventLog()

    const outcome = await runtime.run('Read three pages', log.observer)

    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.finalMessage?.text()).toBe('All pages read.')
    expect(diagnosisModel.callCount).toBe(4)
    const diagnostics = log.diagnostics()
    expect(diagnostics).toHaveLength(4)
    for (const d of diagnostics) {
      expect(d.slot).toBe('loopDetector')
      expect(d.message).toContain('loop diagnosis failed')
      expect(d.message).toContain('diagnosis backend HTTP 503')
      expect(d.message).toContain('no heuristic verdict')
      expect(d.eventType()).toBe(ControllerEventTypes.hookDiagnostic)
    }
    expect(log.loops()).toEqual([])
    expect(runtime.snapshot().status).toBe(SessionStatus.completed)
  })

  it('falls back to the heuristic verdict when the diagnosis fails while the agent loops', async () => {
    const diagnosisModel = ScriptedProvider.fromFunction(() => ScriptedTurn.failing(
      new ArkAgentError(ErrorLayer.transport, ErrorCodes.transportNetwork, 'connection refused',
        ErrorRetryability.retryable)))
    const options = new LoopDetectorOptions()
    const diagnosis = new LoopDiagnosisOptions(diagnosisModel)
    diagnosis.afterTurns = 1
    diagnosis.interval = 1
    options.diagnosis = diagnosis
    const provider = ScriptedProvider.fromFunction((_req, i) =>
      new ScriptedTurn().call(`call_${i + 1}`, 'read_status', '{}'))
    const { runtime } = setup('loop-diagnosis-fallback', provider, [new CountingTool('read_status')], options)
    const log = new EventLog()

    const outcome = await runtime.run('poll', log.observer)

    // The heuristics still drive the escalation; the failing diagnosis only adds diagnostics.
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.loopDetected)
    expect(log.loops().map((e) => e.action)).toEqual([LoopAction.warned, LoopAction.stopped])
    expect(provider.callCount).toBe(8)
    expect(log.diagnostics().length).toBeGreaterThan(0)
    expect(log.diagnostics().every((d) => d.slot === 'loopDetector')).toBe(true)
  })

  it('gives the model a turn to react: a diagnosis in the same turn as the warning does not stop the run', async () => {
    // The diagnosis model is sure the agent loops; it first runs at the end of turn 4, the turn in
    // which the heuristics already warned.
    const diagnosisModel = ScriptedProvider.fromFunction(() =>
      ScriptedTurn.text('{"looping": true, "confidence": 0.95, "reason": "same status call again and again"}'))
    const options = new LoopDetectorOptions()
    const diagnosis = new LoopDiagnosisOptions(diagnosisModel)
    diagnosis.afterTurns = 4
    diagnosis.interval = 100
    options.diagnosis = diagnosis
    const provider = ScriptedProvider.fromFunction((req, i) => sawWarning(req) ? ScriptedTurn.text('Giving up polling.') :
      new ScriptedTurn().call(`call_${i + 1}`, 'read_status', '{}'))
    const { runtime } = setup('loop-same-turn', provider, [new CountingTool('read_status')], options)
    const log = new EventLog()

    const outcome = await runtime.run('poll', log.observer)

    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.finalMessage?.text()).toBe('Giving up polling.')
    expect(log.loops().map((e) => e.action)).toEqual([LoopAction.warned])
  })

  it('stops on a confident diagnosis after the warning was given', async () => {
    const diagnosisModel = ScriptedProvider.fromFunction(() =>
      ScriptedTurn.text('```json\n{"looping": true, "confidence": 0.9, "reason": "no progress"}\n```'))
    const options = new LoopDetectorOptions()
    options.repeatThreshold = 20 // heuristics effectively off for this run
    options.maxCyclePeriod = 1
    const diagnosis = new LoopDiagnosisOptions(diagnosisModel)
    diagnosis.afterTurns = 2
    diagnosis.interval = 2
    options.diagnosis = diagnosis
    const provider = ScriptedProvider.fromFunction((_req, i) =>
      new ScriptedTurn().call(`call_${i + 1}`, 'think', '{}'))
    const { runtime } = setup('loop-diagnosed', provider, [new CountingTool('think')], options)
    const log = new EventLog()

    const outcome = await runtime.run('go', log.observer)

    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.loopDetected)
    expect(provider.callCount).toBe(4)
    const loops = log.loops()
    expect(loops.map((e) => [e.action, e.verdict.kind])).toEqual([
      [LoopAction.warned, LoopKind.diagnosis], [LoopAction.stopped, LoopKind.diagnosis]
    ])
    expect(loops[0].verdict.confidence).toBe(0.9)
    expect(loops[0].verdict.reason).toBe('no progress')
  })
})
