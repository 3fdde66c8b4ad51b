// The agent loop turn by turn, as a user sees it: when loop verdicts warn or stop, what happens to
// tool calls made while the agent repeats itself, turn completion, plan-mode refusals and limits.
import { describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentMessage,
  BeforeRunHookContext,
  BeforeRunHookResult,
  CancellationSource,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  HookDiagnosticEvent,
  LoopAction,
  LoopCheck,
  LoopDetectedEvent,
  LoopDetectorPort,
  LoopKind,
  LoopVerdict,
  MessageRole,
  PersistEvent,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  SessionStatus,
  StopReason,
  SUBMIT_PLAN_TOOL,
  ToolCall,
  ToolResult,
  ToolResultHookContext,
  ToolResultHookResult,
  TurnCompletionHookContext,
  TurnCompletionHookResult
} from '../../src/index'
import { MemoryStateStorage } from '../../src/index'
import { CountingTool, expectPaired, expectSingleTerminalLast, makeRuntime, Recorder, toolMessage } from './helpers'

const WARNING = 'Loop warning: try something else.'

/** A detector driven by the test: chunks containing `chantOn` are a content loop; afterTurn plays `checks`. */
class ScriptedDetector implements LoopDetectorPort {
  chantOn?: string
  chantVerdict: LoopVerdict = new LoopVerdict(LoopKind.content, 'again again', 3)
  toolVerdict?: (call: ToolCall) => LoopVerdict | undefined
  readonly checks: LoopCheck[] = []
  readonly afterTurns: number[] = []
  readonly chunks: string[] = []
  readonly toolResults: string[] = []
  resets = 0
  onAfterTurn?: () => void

  recordChunk(text: string): LoopVerdict | undefined {
    this.chunks.push(text)
    return this.chantOn !== undefined && text.includes(this.chantOn) ? this.chantVerdict : undefined
  }

  recordToolResult(call: ToolCall, result: ToolResult): LoopVerdict | undefined {
    this.toolResults.push(call.id)
    return this.toolVerdict !== undefined ? this.toolVerdict(call) : undefined
  }

  async afterTurn(turn: number): Promise<LoopCheck> {
    this.afterTurns.push(turn)
    if (this.onAfterTurn !== undefined) this.onAfterTurn()
    return this.checks.length > 0 ? this.checks.shift() as LoopCheck : LoopCheck.clear
  }

  reset(): void {
    this.resets++
  }
}

class TurnCompletions extends AgentHook {
  readonly seen: Array<{ turn: number, text: string }> = []
  constructor(readonly answer: (ctx: TurnCompletionHookContext) => TurnCompletionHookResult = () => TurnCompletionHookResult.accept()) {
    super()
  }
  async onTurnCompletion(ctx: TurnCompletionHookContext): Promise<TurnCompletionHookResult> {
    this.seen.push({ turn: ctx.turn, text: ctx.message.text() })
    return this.answer(ctx)
  }
}

function loops(rec: Recorder): Array<{ action: LoopAction, kind: string, signature: string }> {
  return rec.ofType<LoopDetectedEvent>(ControllerEventTypes.loopDetected)
    .map((e) => ({ action: e.action, kind: e.verdict.kind, signature: e.verdict.signature }))
}

describe('chanting while calling tools', () => {
  it('a repeating answer with tool calls runs none of them: each gets an error result, the model is warned and asked again', async () => {
    const detector = new ScriptedDetector()
    detector.chantOn = 'again'
    const tool = new CountingTool('t')
    const provider = new ScriptedProvider([
      ScriptedTurn.text('again and again').call('c1', 't', '{}').call('c2', 't', '{"x":1}'),
      ScriptedTurn.text('fine, done')
    ])
    const completions = new TurnCompletions()
    const storage = new MemoryStateStorage()
    const rt = makeRuntime(provider, { tools: [tool.tool], hooks: [completions], storage,
      configure: (c) => { c.loopDetector = detector; c.loopWarning = WARNING } })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.finalMessage?.text()).toBe('fine, done')
    expect(tool.count).toBe(0)
    expect(detector.toolResults).toEqual([])
    const h = rt.snapshot().history
    for (const id of ['c1', 'c2']) {
      const m = toolMessage(h, id)
      expect(m.text()).toBe('Not executed: the agent was repeating itself')
      expect(m.isError).toBe(true)
      expect(m.errorCode).toBe(ErrorCodes.toolInterrupted)
    }
    expect(h.map((m) => m.role)).toEqual([MessageRole.user, MessageRole.assistant, MessageRole.tool, MessageRole.tool,
      MessageRole.system, MessageRole.assistant])
    expect(h[4].text()).toBe(WARNING)
    expectPaired(h)
    // The second request carries the unrun results and the warning.
    const second = provider.requests[1].messages
    expect(second[second.length - 1].text()).toBe(WARNING)
    expect(loops(rec)).toEqual([{ action: LoopAction.warned, kind: LoopKind.content, signature: 'again again' }])
    // The warning resets the detector (once at the start of the run, once on the warning).
    expect(detector.resets).toBe(2)
    // The chanting turn is not a completed turn; the turn after it is turn 2.
    expect(completions.seen).toEqual([{ turn: 2, text: 'fine, done' }])
    // No end-of-turn check for the chanting turn: the warning already went out.
    expect(detector.afterTurns).toEqual([2])
    // The warning is written right away, before the next model call.
    const warnWrite = rec.persists().find((p) => p.reason === 'after_tool_batch')
    expect(warnWrite).toBeDefined()
    expect(rec.types().indexOf(ControllerEventTypes.loopDetected)).toBeLessThan(rec.events.indexOf(warnWrite as PersistEvent))
    expect(rec.events.indexOf(warnWrite as PersistEvent)).toBeLessThan(rec.types().lastIndexOf(ControllerEventTypes.beforeCallLlm))
    const stored = await storage.load(rt.sessionId)
    expect(stored?.state.loopWarned).toBe(true)
    expectSingleTerminalLast(rec, ControllerEventTypes.agentSuccess)
  })

  it('chanting again after the warning stops the run with loop_detected, naming the kind, a 120-character signature, the count and the cycle', async () => {
    const detector = new ScriptedDetector()
    detector.chantOn = 'again'
    const longSignature = 'x'.repeat(119) + 'YZ'
    detector.chantVerdict = new LoopVerdict(LoopKind.cycle, longSignature, 4, ['open', 'close'])
    const tool = new CountingTool('t')
    const rt = makeRuntime([
      ScriptedTurn.text('again').call('c1', 't', '{}'),
      ScriptedTurn.text('again').call('c2', 't', '{}'),
      ScriptedTurn.text('never asked')
    ], { tools: [tool.tool], configure: (c) => { c.loopDetector = detector } })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.stopReason).toBe(StopReason.loopDetected)
    expect(outcome.error?.code).toBe(ErrorCodes.loopDetected)
    expect(outcome.error?.layer).toBe(ErrorLayer.runtime)
    expect(outcome.error?.message).toBe(`Stopped a loop after a warning: cycle of '${'x'.repeat(119)}Y' x4 (cycle open -> close)`)
    expect(tool.count).toBe(0)
    expect(loops(rec).map((l) => l.action)).toEqual([LoopAction.warned, LoopAction.stopped])
    expect(toolMessage(rt.snapshot().history, 'c2').text()).toBe('Not executed: the agent was repeating itself')
    expectPaired(rt.snapshot().history)
    expect(rt.snapshot().status).toBe(SessionStatus.failed)
  })

  it('a stop without a cycle names no cycle', async () => {
    const detector = new ScriptedDetector()
    detector.chantOn = 'again'
    detector.chantVerdict = new LoopVerdict(LoopKind.content, 'again', 2)
    const rt = makeRuntime([ScriptedTurn.text('again'), ScriptedTurn.text('again')],
      { configure: (c) => { c.loopDetector = detector } })
    const outcome = await rt.run('go')
    expect(outcome.error?.message).toBe("Stopped a loop after a warning: content of 'again' x2")
    // A text-only chanting turn keeps the answer and warns; it is not checked again at the end of the turn.
    expect(detector.afterTurns).toEqual([])
    expect(rt.snapshot().history.map((m) => m.text())).toEqual(['go', 'again', 'You appear to be repeating the same actions ' +
      'without progress. Stop repeating them: change your approach or give your final answer.', 'again'])
  })
})

describe('end-of-turn loop checks', () => {
  it('a verdict at the end of an answer warns and asks the model again instead of completing; its diagnostics are published', async () => {
    const detector = new ScriptedDetector()
    detector.checks.push(new LoopCheck(new LoopVerdict(LoopKind.diagnosis, 'same answer', 2), ['diagnosis said loop', 'second note']))
    const completions = new TurnCompletions()
    const provider = new ScriptedProvider([ScriptedTurn.text('first'), ScriptedTurn.text('second')])
    const rt = makeRuntime(provider, { hooks: [completions], configure: (c) => { c.loopDetector = detector; c.loopWarning = WARNING } })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.finalMessage?.text()).toBe('second')
    expect(provider.callCount).toBe(2)
    expect(completions.seen).toEqual([{ turn: 2, text: 'second' }])
    expect(detector.afterTurns).toEqual([1, 2])
    expect(rt.snapshot().history.map((m) => m.text())).toEqual(['go', 'first', WARNING, 'second'])
    const diags = rec.ofType<HookDiagnosticEvent>(ControllerEventTypes.hookDiagnostic).map((d) => `${d.slot}: ${d.message}`)
    expect(diags).toEqual(['loopDetector: diagnosis said loop', 'loopDetector: second note'])
    expect(loops(rec)).toEqual([{ action: LoopAction.warned, kind: LoopKind.diagnosis, signature: 'same answer' }])
  })

  it('after a tool batch, an end-of-turn verdict warns before the next model call; a second one stops the run', async () => {
    const detector = new ScriptedDetector()
    const verdict = new LoopVerdict(LoopKind.repeat, 't:{}', 3)
    detector.checks.push(new LoopCheck(verdict), new LoopCheck(verdict))
    const tool = new CountingTool('t')
    const provider = new ScriptedProvider([
      ScriptedTurn.text('').call('c1', 't', '{}'),
      ScriptedTurn.text('').call('c2', 't', '{}'),
      ScriptedTurn.text('never')
    ])
    const rt = makeRuntime(provider, { tools: [tool.tool], configure: (c) => { c.loopDetector = detector; c.loopWarning = WARNING } })
    const outcome = await rt.run('go')
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.message).toBe("Stopped a loop after a warning: repeat of 't:{}' x3")
    expect(tool.count).toBe(2)
    expect(detector.afterTurns).toEqual([1, 2])
    expect(provider.callCount).toBe(2)
    expect(provider.requests[1].messages.map((m) => m.text()).slice(-1)).toEqual([WARNING])
  })

  it('a warning given by the tool results of a batch is not followed by an end-of-turn check of the same turn', async () => {
    const detector = new ScriptedDetector()
    detector.toolVerdict = (call) => call.id === 'c1' ? new LoopVerdict(LoopKind.repeat, 'sig', 3) : undefined
    detector.checks.push(new LoopCheck(new LoopVerdict(LoopKind.diagnosis, 'would stop', 2)))
    const tool = new CountingTool('t')
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 't', '{}'), ScriptedTurn.text('done')],
      { tools: [tool.tool], configure: (c) => { c.loopDetector = detector } })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    // Turn 1 warned through its tool result; turn 2's end-of-turn verdict is then the second detection.
    expect(detector.afterTurns).toEqual([2])
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.message).toBe("Stopped a loop after a warning: diagnosis of 'would stop' x2")
    expect(loops(rec).map((l) => l.action)).toEqual([LoopAction.warned, LoopAction.stopped])
  })

  it('a run cancelled while the end-of-turn check runs ends cancelled, not completed', async () => {
    const detector = new ScriptedDetector()
    const source = new CancellationSource()
    detector.onAfterTurn = () => source.cancel('user left')
    const completions = new TurnCompletions()
    const rt = makeRuntime([ScriptedTurn.text('answer')], { hooks: [completions], configure: (c) => { c.loopDetector = detector } })
    const outcome = await rt.runStream([AgentMessage.user('go')], undefined, source.token)
    expect(outcome.status).toBe(RunStatus.cancelled)
    expect(outcome.error?.code).toBe(ErrorCodes.cancelled)
    expect(completions.seen).toEqual([])
  })

  it('without a detector the run is never checked for loops', async () => {
    const rt = makeRuntime([ScriptedTurn.text('same'), ScriptedTurn.text('same')])
    expect((await rt.run('a')).status).toBe(RunStatus.completed)
    expect((await rt.run('b')).status).toBe(RunStatus.completed)
    expect(rt.snapshot().loopWarned).toBe(false)
  })
})

describe('turn completion', () => {
  it('continueRun appends its messages in order and calls the model again; accept ends the run with that answer', async () => {
    let n = 0
    const completions = new TurnCompletions(() => ++n === 1
      ? TurnCompletionHookResult.continueRun([AgentMessage.user('check once more'), AgentMessage.system('be brief')])
      : TurnCompletionHookResult.accept())
    const provider = new ScriptedProvider([ScriptedTurn.text('draft'), ScriptedTurn.text('final')])
    const rt = makeRuntime(provider, { hooks: [completions] })
    const outcome = await rt.run('go')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.stopReason).toBe(StopReason.complete)
    expect(outcome.finalMessage?.text()).toBe('final')
    expect(completions.seen).toEqual([{ turn: 1, text: 'draft' }, { turn: 2, text: 'final' }])
    expect(rt.snapshot().history.map((m) => m.text())).toEqual(['go', 'draft', 'check once more', 'be brief', 'final'])
    expect(provider.requests[1].messages.map((m) => m.text())).toEqual(['go', 'draft', 'check once more', 'be brief'])
  })

  it('an abort from onTurnCompletion fails the run with hook_abort and the reason', async () => {
    const rt = makeRuntime([ScriptedTurn.text('answer')], { hooks: [new TurnCompletions(() => TurnCompletionHookResult.abort('not good enough'))] })
    const outcome = await rt.run('go')
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.stopReason).toBe(StopReason.aborted)
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
    expect(outcome.error?.message).toBe('onTurnCompletion hook aborted the run: not good enough')
  })

  it('a tool result hook that stops the batch ends the run with tool_stop after the results are committed', async () => {
    class Stopper extends AgentHook {
      async afterToolCall(ctx: ToolResultHookContext): Promise<ToolResultHookResult> {
        return ToolResultHookResult.stop()
      }
    }
    const tool = new CountingTool('t')
    const provider = new ScriptedProvider([ScriptedTurn.text('').call('c1', 't', '{}'), ScriptedTurn.text('never')])
    const rt = makeRuntime(provider, { tools: [tool.tool], hooks: [new Stopper()] })
    const outcome = await rt.run('go')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.stopReason).toBe(StopReason.toolStop)
    expect(outcome.finalMessage).toBeUndefined()
    expect(provider.callCount).toBe(1)
    expect(toolMessage(rt.snapshot().history, 'c1').text()).toBe('ok')
  })
})

describe('limits and input', () => {
  it('maxTurns 1 allows exactly one model call and names the limit', async () => {
    const tool = new CountingTool('t')
    const provider = new ScriptedProvider([ScriptedTurn.text('').call('c1', 't', '{}'), ScriptedTurn.text('never')])
    const rt = makeRuntime(provider, { tools: [tool.tool], configure: (c) => { c.maxTurns = 1 } })
    const outcome = await rt.run('go')
    expect(provider.callCount).toBe(1)
    expect(tool.count).toBe(1)
    expect(outcome.stopReason).toBe(StopReason.maxTurns)
    expect(outcome.error?.message).toBe('The run reached its limit of 1 model turns')
    expect(rt.snapshot().turn).toBe(1)
  })

  it('the turn counter of the session grows by one per model call across runs', async () => {
    const tool = new CountingTool('t')
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 't', '{}'), ScriptedTurn.text('a'), ScriptedTurn.text('b')],
      { tools: [tool.tool] })
    await rt.run('one')
    expect(rt.snapshot().turn).toBe(2)
    await rt.run('two')
    expect(rt.snapshot().turn).toBe(3)
  })

  it('a beforeRun hook that replaces the input with nothing still calls the model, even when history ends with an answer', async () => {
    let empty = false
    class Empty extends AgentHook {
      async beforeRun(ctx: BeforeRunHookContext): Promise<BeforeRunHookResult> {
        return empty ? BeforeRunHookResult.proceed([]) : BeforeRunHookResult.proceed()
      }
    }
    const provider = new ScriptedProvider([ScriptedTurn.text('first answer'), ScriptedTurn.text('hello anyway')])
    const rt = makeRuntime(provider, { hooks: [new Empty()] })
    await rt.run('question')
    empty = true
    const outcome = await rt.run('secret')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.finalMessage?.text()).toBe('hello anyway')
    expect(provider.callCount).toBe(2)
    expect(provider.requests[1].messages.map((m) => m.text())).toEqual(['question', 'first answer'])
    expect(rt.snapshot().history.map((m) => m.text())).toEqual(['question', 'first answer', 'hello anyway'])
  })

  it('a beforeRun hook that rewrites the input puts the rewrite in history, not the original', async () => {
    class Rewrite extends AgentHook {
      async beforeRun(ctx: BeforeRunHookContext): Promise<BeforeRunHookResult> {
        return BeforeRunHookResult.proceed([AgentMessage.user('redacted'), AgentMessage.user('second')])
      }
    }
    const provider = new ScriptedProvider([ScriptedTurn.text('ok')])
    const rt = makeRuntime(provider, { hooks: [new Rewrite()] })
    await rt.run('secret')
    expect(rt.snapshot().history.map((m) => m.text())).toEqual(['redacted', 'second', 'ok'])
  })
})

describe('plan mode', () => {
  it('the model is offered submit_plan only while no plan is approved', async () => {
    const provider = new ScriptedProvider([ScriptedTurn.text('').call('p', SUBMIT_PLAN_TOOL, '{"plan":"do it"}'), ScriptedTurn.text('done')])
    const tool = new CountingTool('t')
    const rt = makeRuntime(provider, { tools: [tool.tool], configure: (c) => { c.planMode = true } })
    const first = await rt.run('go')
    expect(first.status).toBe(RunStatus.suspended)
    expect(first.stopReason).toBe(StopReason.awaitingPlanReview)
    expect(provider.requests[0].tools.map((t) => t.name)).toEqual(['t', SUBMIT_PLAN_TOOL])
    await rt.controller.approvePlan()
    await rt.whenIdle()
    expect(provider.requests[1].tools.map((t) => t.name)).toEqual(['t'])
    const plain = new ScriptedProvider([ScriptedTurn.text('x')])
    await makeRuntime(plain, { tools: [tool.tool] }).run('go')
    expect(plain.requests[0].tools.map((t) => t.name)).toEqual(['t'])
  })

  it('other tools before a plan are not run: each call is answered with what to do, and an invalid submission with why', async () => {
    const tool = new CountingTool('t')
    const provider = new ScriptedProvider([
      ScriptedTurn.text('').call('c1', 't', '{}'),
      ScriptedTurn.text('').call('c2', 't', '{}').call('p', SUBMIT_PLAN_TOOL, '{"plan":""}'),
      ScriptedTurn.text('giving up')
    ])
    const rt = makeRuntime(provider, { tools: [tool.tool], configure: (c) => { c.planMode = true } })
    const outcome = await rt.run('go')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(tool.count).toBe(0)
    const h = rt.snapshot().history
    const why = 'Plan mode: submit your plan with submit_plan before using other tools'
    expect(toolMessage(h, 'c1').text()).toBe(why)
    expect(toolMessage(h, 'c2').text()).toBe(why)
    expect(toolMessage(h, 'c2').errorCode).toBe(ErrorCodes.toolInterrupted)
    expect(toolMessage(h, 'p').errorCode).toBe(ErrorCodes.toolInvalidArguments)
    expect(toolMessage(h, 'p').text()).toContain("Invalid arguments for 'submit_plan'")
    expectPaired(h)
  })
})
