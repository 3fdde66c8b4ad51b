// The streamed answer as the user sees it: which chunks reach the chunk hooks, the llm.chunk events,
// history and the loop detector; what a chunk-hook abort does to the rest of the stream; and that a
// finished stream leaves no timer behind.
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  AgentHook,
  AgentMessage,
  ArkAgentError,
  CancellationToken,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  ErrorRetryability,
  FinishReason,
  LoopCheck,
  LoopDetectedEvent,
  LoopDetectorPort,
  LoopKind,
  LoopVerdict,
  ModelChunkHookContext,
  ModelChunkHookResult,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ModelStreamSink,
  RunStatus,
  ScriptedTurn,
  StreamingEvent,
  ToolCall,
  Usage
} from '../../src/index'
import { makeRuntime, Recorder } from './helpers'

afterEach(() => {
  vi.useRealTimers()
})

/** Streams the given events, then answers with `final` (or throws `endWith`); records how each onEvent settled. */
class EventProvider implements ModelProvider {
  readonly providerId = 'events'
  readonly settled: string[] = []
  constructor(readonly events: StreamingEvent[], readonly final: ModelResponse, readonly swallow: boolean = false,
    readonly endWith?: Error) {}

  async streamModel(request: ModelRequest, sink: ModelStreamSink, token: CancellationToken): Promise<ModelResponse> {
    for (const e of this.events) {
      if (this.swallow) {
        try {
          await sink.onEvent(e)
          this.settled.push(`ok ${e.text}`)
        } catch (err) {
          this.settled.push(`rejected ${e.text}: ${(err as Error).message}`)
        }
      } else {
        await sink.onEvent(e)
        this.settled.push(`ok ${e.text}`)
      }
    }
    if (this.endWith !== undefined) throw this.endWith
    return this.final
  }
}

function answer(text: string, reasoning: string = '', calls: ToolCall[] = []): ModelResponse {
  return new ModelResponse(AgentMessage.assistant(text, calls, reasoning), calls.length > 0 ? FinishReason.toolCalls : FinishReason.stop,
    new Usage(1, 1), 'm')
}

/** Records every chunk it sees; `decide` may rewrite, drop or abort. */
class ChunkSpy extends AgentHook {
  readonly seen: Array<{ text: string, reasoning: boolean, index: number, turn: number }> = []
  constructor(readonly decide: (ctx: ModelChunkHookContext) => ModelChunkHookResult = () => ModelChunkHookResult.proceed()) {
    super()
  }
  async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
    this.seen.push({ text: ctx.text, reasoning: ctx.reasoning, index: ctx.chunkIndex, turn: ctx.turn })
    return this.decide(ctx)
  }
}

function chunkEvents(rec: Recorder): string[] {
  return rec.ofType<{ text: string, reasoning: boolean } & ReturnType<Recorder['terminals']>[number]>(ControllerEventTypes.llmChunk)
    .map((e) => `${e.reasoning ? 'r' : 't'}:${e.text}`)
}

/** Returns a verdict for every chunk containing '!' (each with the chunk as signature). */
class ChunkDetector implements LoopDetectorPort {
  readonly chunks: string[] = []
  recordChunk(text: string, reasoning?: boolean): LoopVerdict | undefined {
    this.chunks.push(reasoning === true ? `r:${text}` : text)
    return text.includes('!') ? new LoopVerdict(LoopKind.content, text, 3) : undefined
  }
  recordToolResult(): LoopVerdict | undefined { return undefined }
  async afterTurn(): Promise<LoopCheck> { return LoopCheck.clear }
  reset(): void {}
}

describe('chunks through the hooks', () => {
  it('text and reasoning chunks reach the hooks numbered in order; other stream events do not; kept text is the rewritten text', async () => {
    const spy = new ChunkSpy((ctx) => ctx.text === 'secret' ? ModelChunkHookResult.proceed('[redacted]')
      : ctx.text === 'noise' ? ModelChunkHookResult.drop() : ModelChunkHookResult.proceed())
    const provider = new EventProvider([
      StreamingEvent.reasoning('think '),
      StreamingEvent.text('the '),
      StreamingEvent.toolCallDelta(0, 'id', 'name', '{}'),
      StreamingEvent.usageEvent(new Usage(3, 4)),
      StreamingEvent.text('secret'),
      StreamingEvent.text('noise'),
      StreamingEvent.text(' end')
    ], answer('the secretnoise end', 'think '))
    const rt = makeRuntime(provider, { hooks: [spy] })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(spy.seen).toEqual([
      { text: 'think ', reasoning: true, index: 0, turn: 1 },
      { text: 'the ', reasoning: false, index: 1, turn: 1 },
      { text: 'secret', reasoning: false, index: 2, turn: 1 },
      { text: 'noise', reasoning: false, index: 3, turn: 1 },
      { text: ' end', reasoning: false, index: 4, turn: 1 }
    ])
    expect(chunkEvents(rec)).toEqual(['r:think ', 't:the ', 't:[redacted]', 't: end'])
    expect(outcome.finalMessage?.text()).toBe('the [redacted] end')
    expect(outcome.finalMessage?.reasoning()).toBe('think ')
    expect(provider.settled.length).toBe(7)
  })

  it('without chunk hooks, chunks go straight to the events and history', async () => {
    const rt = makeRuntime([new ScriptedTurn().think('hmm').say('a').say('b')])
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(chunkEvents(rec)).toEqual(['r:hmm', 't:a', 't:b'])
    expect(outcome.finalMessage?.text()).toBe('ab')
    expect(outcome.finalMessage?.reasoning()).toBe('hmm')
  })

  it('chunk events reach a bus listener without an observer, and an observer without a bus listener', async () => {
    const busOnly = makeRuntime([ScriptedTurn.text('x', 'y')])
    const bus = new Recorder()
    busOnly.controller.subscribeAll((e) => bus.events.push(e))
    await busOnly.run('go')
    expect(chunkEvents(bus)).toEqual(['t:x', 't:y'])
    const observerOnly = makeRuntime([ScriptedTurn.text('x', 'y')], { hooks: [new ChunkSpy()] })
    const rec = new Recorder()
    await observerOnly.run('go', rec.observer)
    expect(chunkEvents(rec)).toEqual(['t:x', 't:y'])
  })

  it('an empty chunk, or one a hook rewrites to nothing, is not published and not kept', async () => {
    const detector = new ChunkDetector()
    const spy = new ChunkSpy((ctx) => ctx.text === 'erase' ? ModelChunkHookResult.proceed('') : ModelChunkHookResult.proceed())
    const rt = makeRuntime([ScriptedTurn.text('a', '', 'erase', 'b').think('')], { hooks: [spy], configure: (c) => { c.loopDetector = detector } })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(spy.seen.map((s) => s.text)).toEqual(['a', '', 'erase', 'b', ''])
    expect(chunkEvents(rec)).toEqual(['t:a', 't:b'])
    expect(detector.chunks).toEqual(['a', 'b'])
    expect(outcome.finalMessage?.text()).toBe('ab')
    const plain = makeRuntime([ScriptedTurn.text('', 'z', '')])
    const rec2 = new Recorder()
    await plain.run('go', rec2.observer)
    expect(chunkEvents(rec2)).toEqual(['t:z'])
  })

  it('reasoning is fed to the loop detector marked as reasoning; the first verdict of a stream wins and later chunks are not checked', async () => {
    const detector = new ChunkDetector()
    const rt = makeRuntime([new ScriptedTurn().think('think').say('one').say('two!').say('three!').say('four'), ScriptedTurn.text('ok')],
      { configure: (c) => { c.loopDetector = detector } })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(detector.chunks).toEqual(['r:think', 'one', 'two!', 'ok'])
    const loops = rec.ofType<LoopDetectedEvent>(ControllerEventTypes.loopDetected)
    expect(loops.map((l) => l.verdict.signature)).toEqual(['two!'])
    // The chanting answer is still kept whole.
    expect(rt.snapshot().history[1].text()).toBe('onetwo!three!four')
  })
})

describe('a chunk hook that aborts', () => {
  it('with a reason: hook_abort names it; without one the message stops at the stream', async () => {
    for (const [reason, message] of [['too spicy', 'A chunk hook aborted the stream: too spicy'], [undefined, 'A chunk hook aborted the stream']]) {
      const rt = makeRuntime([ScriptedTurn.text('fine', 'bad', 'more')], { hooks: [new ChunkSpy((ctx) => ctx.text === 'bad'
        ? ModelChunkHookResult.abort(reason) : ModelChunkHookResult.proceed())] })
      const rec = new Recorder()
      const outcome = await rt.run('go', rec.observer)
      expect(outcome.status).toBe(RunStatus.failed)
      expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
      expect(outcome.error?.layer).toBe(ErrorLayer.security)
      expect(outcome.error?.retryability).toBe(ErrorRetryability.never)
      expect(outcome.error?.message).toBe(message)
      expect(chunkEvents(rec)).toEqual(['t:fine'])
    }
  })

  it('with its own error: the run fails with that error', async () => {
    const own = new ArkAgentError(ErrorLayer.security, 'content_policy', 'blocked content', ErrorRetryability.never)
    const rt = makeRuntime([ScriptedTurn.text('bad')], { hooks: [new ChunkSpy(() => ModelChunkHookResult.abort('ignored', own))] })
    const outcome = await rt.run('go')
    expect(outcome.error).toBe(own)
  })

  it('a provider that ignores the rejection and keeps streaming gets every later chunk refused; none is shown or kept', async () => {
    const spy = new ChunkSpy((ctx) => ctx.text === 'STOP' ? ModelChunkHookResult.abort('halt') : ModelChunkHookResult.proceed())
    const provider = new EventProvider([StreamingEvent.text('a'), StreamingEvent.text('STOP'), StreamingEvent.text('b'),
      StreamingEvent.reasoning('c')], answer('aSTOPb', 'c'), true, new Error('provider gave up'))
    const rt = makeRuntime(provider, { hooks: [spy] })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.message).toBe('A chunk hook aborted the stream: halt')
    expect(spy.seen.map((s) => s.text)).toEqual(['a', 'STOP'])
    expect(provider.settled).toEqual(['ok a', 'rejected STOP: A chunk hook aborted the stream: halt',
      'rejected b: A chunk hook aborted the stream: halt', 'rejected c: A chunk hook aborted the stream: halt'])
    expect(chunkEvents(rec)).toEqual(['t:a'])
    expect(rt.snapshot().history.map((m) => m.text())).toEqual(['go'])
  })
})

describe('the chunk watchdog', () => {
  it('a finished stream leaves no timer pending, whether it completed or failed', async () => {
    vi.useFakeTimers()
    const failing = ScriptedTurn.text('c', 'd')
    failing.error = new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerServerError, 'down')
    failing.errorAfterChunks = 1
    const rt = makeRuntime([ScriptedTurn.text('a', 'b'), failing], { hooks: [new ChunkSpy()], configure: (c) => { c.hookTimeoutMs = 1000 } })
    expect((await rt.run('one')).status).toBe(RunStatus.completed)
    expect(vi.getTimerCount()).toBe(0)
    expect((await rt.run('two')).status).toBe(RunStatus.failed)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('a chunk hook that hangs past the hook timeout fails the run with hook_timeout', async () => {
    vi.useFakeTimers()
    class Hang extends AgentHook {
      get hookName(): string { return 'Hang' }
      onModelChunk(): Promise<ModelChunkHookResult> { return new Promise<ModelChunkHookResult>(() => {}) }
    }
    const rt = makeRuntime([ScriptedTurn.text('a')], { hooks: [new Hang()], configure: (c) => { c.hookTimeoutMs = 100 } })
    const pending = rt.run('go')
    await vi.advanceTimersByTimeAsync(200)
    const outcome = await pending
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.hookTimeout)
    expect(vi.getTimerCount()).toBe(0)
  })
})
