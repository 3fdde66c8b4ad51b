// Plays a labelled corpus case through a real AgentRuntime with the default LoopDetector, the way
// the held-out corpus is scored: the case's turns become ScriptedProvider turns (text and reasoning
// streamed in 1–8 character chunks, then the turn's tool calls), FunctionTools answer every call with
// its recorded result (a hook denies the calls recorded as never executed, with their error result),
// a test clock is set to each call's time (its `atMs`, else 1000 ms after the previous call), and a
// user event starts a run (a case without one starts with a neutral request). An onTurnCompletion
// hook keeps the run going while its script has turns left. The runtime escalates as in production:
// the first verdict injects the warning and the script goes on; the next one stops the run.
import {
  AgentHook,
  AgentHookPipeline,
  AgentMessage,
  AgentRuntime,
  AgentRuntimeConfig,
  CallbackObserver,
  FunctionTool,
  LlmChunkEvent,
  LoopAction,
  LoopDetectedEvent,
  LoopDetector,
  ScriptedProvider,
  ScriptedTurn,
  StopReason,
  ToolCallHookContext,
  ToolCallHookResult,
  ToolDefinition,
  ToolRegistry,
  ToolResult,
  TurnCompletionHookContext,
  TurnCompletionHookResult,
} from '../../../src/index'
import { Clock } from '../../../src/core/transport/Clock'
import { CancellationToken } from '../../../src/core/util/Cancellation'
import { callTimes, CorpusCase, CorpusEvent } from './runCorpus'

/** A clock that reads what the player sets. */
export class TestClock implements Clock {
  nowMs: number = 0

  now(): number {
    return this.nowMs
  }

  sleep(ms: number, token: CancellationToken): Promise<void> {
    this.nowMs += ms
    token.throwIfCancelled()
    return Promise.resolve()
  }

  setTimer(ms: number, callback: () => void): () => void {
    const timer = setTimeout(callback, 0)
    return (): void => clearTimeout(timer)
  }
}

/** A recorded tool name as the registry accepts it (`orders.search` → `orders_search`; the same name maps alike). */
export function toolNameOf(recorded: string): string {
  const name = recorded.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64)
  return name.length > 0 ? name : 'tool'
}

interface ScriptTurn {
  /** Event index of the turn's first event. */
  first: number
  pieces: Array<{ index: number, text: string, reasoning: boolean }>
  calls: Array<{ index: number, name: string, args: string }>
}

interface ScriptRun {
  /** The user messages the run starts with. */
  input: string[]
  turns: ScriptTurn[]
}

/** Splits a case into runs (at user events after other events) and turns. */
export function scriptOf(c: CorpusCase): ScriptRun[] {
  const runs: ScriptRun[] = []
  let run: ScriptRun = { input: [], turns: [] }
  let current: ScriptTurn | undefined
  const close = (): void => {
    if (current !== undefined && (current.pieces.length > 0 || current.calls.length > 0)) run.turns.push(current)
    current = undefined
  }
  c.events.forEach((e: CorpusEvent, i: number) => {
    if (e.t === 'user') {
      close()
      if (run.turns.length > 0) {
        runs.push(run)
        run = { input: [], turns: [] }
      }
      run.input.push(e.v)
      return
    }
    if (e.t === 'turn') {
      close()
      return
    }
    if (current === undefined) current = { first: i, pieces: [], calls: [] }
    if (e.t === 'call') current.calls.push({ index: i, name: toolNameOf(e.name), args: JSON.stringify(e.args) })
    else current.pieces.push({ index: i, text: e.v, reasoning: e.t === 'reasoning' })
  })
  close()
  if (run.turns.length > 0 || run.input.length > 0) runs.push(run)
  return runs
}

export interface RuntimeCaseResult {
  id: string
  label: 'legit' | 'loop'
  family: string
  lang: 'en' | 'zh'
  /** Event index where the first verdict (the warning) came (-1: none). */
  warnedAt: number
  warnKind?: string
  /** The run was ended with loop_detected. */
  stopped: boolean
  /** A run ended otherwise than complete or loop_detected (a player bug). */
  problem?: string
}

function rng(seed: number): () => number {
  let a = seed >>> 0
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The request used for a case that has no user event. */
export const DEFAULT_REQUEST = 'Please help me with this task.'

/** Plays one case through an AgentRuntime with the default LoopDetector; see the file comment. */
export async function playThroughRuntime(c: CorpusCase, seed: number = 1): Promise<RuntimeCaseResult> {
  const rand = rng(seed)
  const times = callTimes(c)
  const clock = new TestClock()
  const runs = scriptOf(c)
  const byIndex = new Map<number, Extract<CorpusEvent, { t: 'call' }>>()
  c.events.forEach((e, i) => {
    if (e.t === 'call') byIndex.set(i, e)
  })
  const indexOf = (callId: string): number => Number(callId.substring(1))
  /** Event index being played, for placing a verdict. */
  let cursor = 0
  /** The text and reasoning events of the turn being streamed, and how many of their characters came so far. */
  let streaming: Array<{ index: number, text: string }> = []
  let streamed = 0
  let runIndex = 0
  let turnIndex = 0

  const provider = ScriptedProvider.fromFunction((): ScriptedTurn => {
    const turns = runs[runIndex].turns
    if (turnIndex >= turns.length) return ScriptedTurn.text('')
    const t = turns[turnIndex++]
    cursor = t.first
    streaming = t.pieces
    streamed = 0
    const scripted = new ScriptedTurn()
    for (const p of t.pieces) {
      for (let pos = 0; pos < p.text.length;) {
        const n = 1 + Math.floor(rand() * 8)
        const piece = p.text.substring(pos, pos + n)
        pos += n
        if (p.reasoning) scripted.think(piece)
        else scripted.say(piece)
      }
    }
    for (const call of t.calls) scripted.call(`c${call.index}`, call.name, call.args)
    return scripted
  })

  class Player extends AgentHook {
    async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
      const i = indexOf(ctx.call.id)
      const e = byIndex.get(i)
      clock.nowMs = times.get(i) ?? clock.nowMs
      cursor = i
      if (e !== undefined && !e.executed) {
        return ToolCallHookResult.deny(ToolResult.error(ctx.call.id, e.error ?? 'tool_denied', e.result), 'denied (corpus)')
      }
      return ToolCallHookResult.proceed()
    }

    async onTurnCompletion(ctx: TurnCompletionHookContext): Promise<TurnCompletionHookResult> {
      return turnIndex < runs[runIndex].turns.length ? TurnCompletionHookResult.continueRun() : TurnCompletionHookResult.accept()
    }
  }

  const tools = [...new Set([...byIndex.values()].map((e) => toolNameOf(e.name)))].map((name) =>
    new FunctionTool(new ToolDefinition(name, `corpus tool ${name}`, { type: 'object' }), async (_args, context) => {
      const i = indexOf(context.call.id)
      const e = byIndex.get(i)
      clock.nowMs = times.get(i) ?? clock.nowMs
      cursor = i
      if (e === undefined) return ToolResult.error(context.call.id, 'tool_execution_failed', 'not in the corpus')
      return e.error !== undefined ? ToolResult.error(context.call.id, e.error, e.result) : e.result
    }))

  const config = new AgentRuntimeConfig(`corpus-${c.id}`, provider)
  config.tools = new ToolRegistry(tools)
  config.hooks = new AgentHookPipeline([new Player()])
  config.loopDetector = new LoopDetector()
  config.clock = clock
  config.maxTurns = 100000
  const runtime = new AgentRuntime(config)

  const result: RuntimeCaseResult = { id: c.id, label: c.label, family: c.family, lang: c.lang, warnedAt: -1, stopped: false }
  const observer = new CallbackObserver((event) => {
    if (event instanceof LlmChunkEvent) {
      // A verdict on streamed content is placed at the event whose characters were streaming.
      streamed += event.text.length
      let end = 0
      for (const piece of streaming) {
        end += piece.text.length
        if (streamed <= end) { cursor = piece.index; break }
      }
      return
    }
    if (!(event instanceof LoopDetectedEvent)) return
    if (event.action === LoopAction.warned && result.warnedAt < 0) {
      result.warnedAt = cursor
      result.warnKind = event.verdict.kind
    }
    if (event.action === LoopAction.stopped) result.stopped = true
  })
  for (runIndex = 0; runIndex < runs.length; runIndex++) {
    turnIndex = 0
    const input = runs[runIndex].input.length > 0 ? runs[runIndex].input : [DEFAULT_REQUEST]
    const outcome = await runtime.runStream(input.map((t) => AgentMessage.user(t)), observer)
    if (outcome.stopReason === StopReason.loopDetected) break
    if (outcome.stopReason !== StopReason.complete) {
      result.problem = `${outcome.stopReason}: ${outcome.error?.message ?? ''}`
      break
    }
  }
  return result
}

export interface RuntimeScore {
  legit: number
  loops: number
  /** Legitimate cases that got the warning (a false alarm: the model is made to answer again). */
  warned: RuntimeCaseResult[]
  /** Legitimate cases stopped with loop_detected. */
  stopped: RuntimeCaseResult[]
  caught: RuntimeCaseResult[]
  missed: RuntimeCaseResult[]
  /** Loops warned about before they started (false alarms too). */
  early: RuntimeCaseResult[]
  /** Cases the player could not play to the end. */
  problems: RuntimeCaseResult[]
}

export async function scoreThroughRuntime(cases: CorpusCase[], seed: number = 1): Promise<RuntimeScore> {
  const score: RuntimeScore = { legit: 0, loops: 0, warned: [], stopped: [], caught: [], missed: [], early: [], problems: [] }
  for (const c of cases) {
    const r = await playThroughRuntime(c, seed)
    if (r.problem !== undefined) score.problems.push(r)
    if (c.label === 'legit') {
      score.legit++
      if (r.warnedAt >= 0) score.warned.push(r)
      if (r.stopped) score.stopped.push(r)
    } else {
      score.loops++
      if (r.warnedAt < 0) score.missed.push(r)
      else if (r.warnedAt < (c.loopFrom ?? 0)) score.early.push(r)
      else score.caught.push(r)
    }
  }
  return score
}
