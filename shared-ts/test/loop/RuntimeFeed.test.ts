// What the runtime feeds the detector besides chunks and calls: the user's request (after the run's
// reset) and the time of every call on the runtime's clock; and what that buys through a real run.
import { describe, expect, it } from 'vitest'
import {
  AgentMessage,
  AgentRuntime,
  AgentRuntimeConfig,
  CallbackObserver,
  FunctionTool,
  LoopAction,
  LoopDetectedEvent,
  LoopDetector,
  ScriptedProvider,
  ScriptedTurn,
  StopReason,
  ToolDefinition,
  ToolRegistry,
} from '../../src/index'
import { AgentMessage as Message } from '../../src/core/model/AgentMessage'
import { ToolCall } from '../../src/core/model/ToolCall'
import { ToolResult } from '../../src/core/model/ToolResult'
import { LoopCheck, LoopDetectorPort, LoopVerdict } from '../../src/core/loop/LoopDetectorPort'
import { CancellationToken } from '../../src/core/util/Cancellation'
import { TestClock } from './corpus/runtimePlayer'

class Spy implements LoopDetectorPort {
  readonly log: string[] = []

  recordToolResult(call: ToolCall, _result: ToolResult, atMs?: number): LoopVerdict | undefined {
    this.log.push(`call ${call.name} @${atMs}`)
    return undefined
  }

  recordChunk(): LoopVerdict | undefined {
    return undefined
  }

  recordUserMessage(text: string): void {
    this.log.push(`user ${text}`)
  }

  async afterTurn(_turn: number, _history: Message[], _token: CancellationToken): Promise<LoopCheck> {
    return LoopCheck.clear
  }

  reset(): void {
    this.log.push('reset')
  }
}

function tool(name: string, answer: () => string, clock?: TestClock, stepMs: number = 0): FunctionTool {
  return new FunctionTool(new ToolDefinition(name, name, { type: 'object' }), async () => {
    if (clock !== undefined) clock.nowMs += stepMs
    return answer()
  })
}

describe('the runtime feeds the detector', () => {
  it("the run's user messages after its reset, and each call's time on the runtime's clock", async () => {
    const clock = new TestClock()
    clock.nowMs = 5000
    const provider = new ScriptedProvider([ScriptedTurn.text('').call('c1', 'status', '{}'), ScriptedTurn.text('done'),
      ScriptedTurn.text('again').call('c2', 'status', '{}'), ScriptedTurn.text('done')])
    const config = new AgentRuntimeConfig('feed', provider)
    config.tools = new ToolRegistry([tool('status', () => 'ok', clock, 30000)])
    const spy = new Spy()
    config.loopDetector = spy
    config.clock = clock
    const runtime = new AgentRuntime(config)
    await runtime.runStream([AgentMessage.user('Check the status'), AgentMessage.user('every 30 seconds')])
    await runtime.run('Once more.')
    expect(spy.log).toEqual(['reset', 'user Check the status', 'user every 30 seconds', 'call status @35000',
      'reset', 'user Once more.', 'call status @65000'])
  })

  it('a detector without recordUserMessage still runs (the method is optional)', async () => {
    const provider = new ScriptedProvider([ScriptedTurn.text('').call('c1', 'status', '{}'), ScriptedTurn.text('done')])
    const config = new AgentRuntimeConfig('optional', provider)
    config.tools = new ToolRegistry([tool('status', () => 'ok')])
    const spy = new Spy()
    Object.defineProperty(spy, 'recordUserMessage', { value: undefined })
    config.loopDetector = spy
    const outcome = await new AgentRuntime(config).run('go')
    expect(outcome.stopReason).toBe(StopReason.complete)
    expect(spy.log).toEqual(['reset', 'call status @' + spy.log[1].split('@')[1]])
  })
})

describe('through a real run with the default detector', () => {
  async function run(request: string, turns: number, stepMs: number, result: () => string): Promise<{ stop: string, actions: string[] }> {
    const clock = new TestClock()
    const provider = ScriptedProvider.fromFunction((_r, i) => (i < turns ? ScriptedTurn.text('Checking.').call(`c${i}`, 'status', '{"id":7}')
      : ScriptedTurn.text('Done.')))
    const config = new AgentRuntimeConfig('real', provider)
    config.tools = new ToolRegistry([tool('status', result, clock, stepMs)])
    config.loopDetector = new LoopDetector()
    config.clock = clock
    config.maxTurns = 1000
    const actions: string[] = []
    const outcome = await new AgentRuntime(config).runStream([AgentMessage.user(request)], new CallbackObserver((e) => {
      if (e instanceof LoopDetectedEvent) actions.push(e.action)
    }))
    return { stop: outcome.stopReason, actions }
  }

  it('"run the flaky test 10 times": ten identical answers, no warning', async () => {
    expect(await run('Run the status check 10 times.', 10, 1000, () => 'PASS (1.2s)')).toEqual({ stop: StopReason.complete, actions: [] })
  })

  it('a poll 30 s apart for ten minutes, identical answers: no warning', async () => {
    expect(await run('Tell me when it is deployed.', 20, 30000, () => '{"status":"in_progress"}')).toEqual({ stop: StopReason.complete, actions: [] })
  })

  it('the same poll a second apart, answers differing only in a timestamp: warned, then stopped', async () => {
    let n = 0
    const r = await run('Tell me when it is deployed.', 20, 1000, () => `{"status":"in_progress","checked_at":"2024-05-01T10:00:${String(n++).padStart(2, '0')}Z"}`)
    expect(r).toEqual({ stop: StopReason.loopDetected, actions: [LoopAction.warned, LoopAction.stopped] })
  })
})
