// One model turn: the request the model gets, model-call hooks, providers that do not stream or
// misbehave, cancellation mid-answer, and tool call ids made usable.
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  AgentHook,
  AgentMessage,
  ArkAgentError,
  CancellationSource,
  CancellationToken,
  ContentPart,
  ContentPartType,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  ErrorRetryability,
  FinishReason,
  MessageRole,
  ModelCallHookContext,
  ModelCallHookResult,
  ModelChunkHookContext,
  ModelChunkHookResult,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ModelResponseHookContext,
  ModelResponseHookResult,
  ModelStreamSink,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  StreamingEvent,
  ToolCall,
  Usage
} from '../../src/index'
import { ModelTurn } from '../../src/core/runtime/ModelTurn'
import { CountingTool, expectPaired, makeRuntime, Recorder, toolMessage } from './helpers'

/** A provider driven by a function; it sees the sink and token like a real one. */
class FnProvider implements ModelProvider {
  readonly providerId = 'fn'
  readonly requests: ModelRequest[] = []
  constructor(private readonly fn: (sink: ModelStreamSink, token: CancellationToken, n: number) => Promise<ModelResponse>) {}
  async streamModel(request: ModelRequest, sink: ModelStreamSink, token: CancellationToken): Promise<ModelResponse> {
    this.requests.push(request)
    return this.fn(sink, token, this.requests.length - 1)
  }
}

class ModelHooks extends AgentHook {
  readonly attempts: number[] = []
  readonly turns: number[] = []
  constructor(private readonly opts: {
    before?: (ctx: ModelCallHookContext) => ModelCallHookResult
    chunk?: (ctx: ModelChunkHookContext) => ModelChunkHookResult
    after?: (ctx: ModelResponseHookContext) => ModelResponseHookResult
  }) { super() }
  get hookName(): string { return 'ModelHooks' }
  async beforeModelCall(ctx: ModelCallHookContext): Promise<ModelCallHookResult> {
    return this.opts.before !== undefined ? this.opts.before(ctx) : ModelCallHookResult.proceed()
  }
  async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
    return this.opts.chunk !== undefined ? this.opts.chunk(ctx) : ModelChunkHookResult.proceed()
  }
  async afterModelCall(ctx: ModelResponseHookContext): Promise<ModelResponseHookResult> {
    this.attempts.push(ctx.attempt)
    this.turns.push(ctx.turn)
    return this.opts.after !== undefined ? this.opts.after(ctx) : ModelResponseHookResult.proceed()
  }
}

function parts(m: AgentMessage): Array<[ContentPartType, string]> {
  return m.content.map((p: ContentPart) => [p.type, p.text])
}

describe('the request', () => {
  it('starts with the system prompt when one is set, then the history; without one, the history alone', async () => {
    const withPrompt = new ScriptedProvider([ScriptedTurn.text('hi')])
    const rt = makeRuntime(withPrompt, { configure: (cfg) => { cfg.systemPrompt = 'Be brief.'; cfg.model = 'm-1' } })
    await rt.run('hello')
    const sent = withPrompt.requests[0]
    expect(sent.messages.map((m) => `${m.role}:${m.text()}`)).toEqual(['system:Be brief.', 'user:hello'])
    expect(sent.model).toBe('m-1')
    // The prompt is sent, never stored.
    expect(rt.snapshot().history.map((m) => m.role)).toEqual([MessageRole.user, MessageRole.assistant])

    const bare = new ScriptedProvider([ScriptedTurn.text('hi')])
    await makeRuntime(bare).run('hello')
    expect(bare.requests[0].messages.map((m) => `${m.role}:${m.text()}`)).toEqual(['user:hello'])
  })

  it('a request rewritten by beforeModelCall is what the model gets and what llm.before shows', async () => {
    const provider = new ScriptedProvider([ScriptedTurn.text('answer')])
    const hook = new ModelHooks({ before: (ctx) => ModelCallHookResult.proceed(
      ctx.request.withMessages([AgentMessage.user('rewritten question')])) })
    const rec = new Recorder()
    const rt = makeRuntime(provider, { hooks: [hook] })
    await rt.run('original question', rec.observer)
    expect(provider.requests[0].messages.map((m) => m.text())).toEqual(['rewritten question'])
    const before = rec.ofType(ControllerEventTypes.beforeCallLlm) as unknown as Array<{ turn: number, request: ModelRequest }>
    expect(before.map((e) => [e.turn, e.request.messages.map((m) => m.text())])).toEqual([[1, ['rewritten question']]])
  })
})

describe('beforeModelCall verdicts', () => {
  it.each([
    ['with a reason', ModelCallHookResult.abort('offline'), ErrorCodes.hookAbort, 'beforeModelCall hook aborted the run: offline'],
    ['without a reason', ModelCallHookResult.abort(), ErrorCodes.hookAbort, 'beforeModelCall hook aborted the run'],
    ['with its own error', ModelCallHookResult.abort('x', new ArkAgentError(ErrorLayer.config, 'budget_spent', 'no budget left',
      ErrorRetryability.never)), 'budget_spent', 'no budget left']
  ])('an abort %s ends the run without calling the model', async (_n, verdict, code, message) => {
    const provider = new ScriptedProvider([ScriptedTurn.text('never')])
    const rec = new Recorder()
    const rt = makeRuntime(provider, { hooks: [new ModelHooks({ before: () => verdict })] })
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect([outcome.error?.code, outcome.error?.message]).toEqual([code, message])
    expect(provider.callCount).toBe(0)
    expect(rec.ofType(ControllerEventTypes.beforeCallLlm)).toEqual([])
  })

  it('a canned response skips the model and still passes afterModelCall and llm.after', async () => {
    const provider = new ScriptedProvider([])
    const hook = new ModelHooks({ before: () => ModelCallHookResult.respond(
      new ModelResponse(AgentMessage.assistant('from cache'), FinishReason.stop)) })
    const rec = new Recorder()
    const rt = makeRuntime(provider, { hooks: [hook] })
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.finalMessage?.text()).toBe('from cache')
    expect(provider.callCount).toBe(0)
    expect(hook.attempts).toEqual([0])
    expect(rec.ofType(ControllerEventTypes.beforeCallLlm)).toEqual([])
    const after = rec.ofType(ControllerEventTypes.afterCallLlm) as unknown as Array<{ response: ModelResponse }>
    expect(after.map((e) => e.response.message.text())).toEqual(['from cache'])
  })
})

describe('afterModelCall verdicts', () => {
  it('retries are bounded by maxModelRetries and the error names the limit and the reason', async () => {
    for (const [reason, suffix] of [['still bad', ' (still bad)'], [undefined, '']] as const) {
      const provider = new ScriptedProvider([ScriptedTurn.text('a'), ScriptedTurn.text('b'), ScriptedTurn.text('c')])
      const hook = new ModelHooks({ after: () => ModelResponseHookResult.retry(reason) })
      const rt = makeRuntime(provider, { hooks: [hook], configure: (cfg) => { cfg.maxModelRetries = 1 } })
      const outcome = await rt.run('go')
      expect(outcome.status).toBe(RunStatus.failed)
      expect([outcome.error?.code, outcome.error?.layer, outcome.error?.message, outcome.error?.retryability]).toEqual([
        ErrorCodes.retryLimitExceeded, ErrorLayer.runtime, `afterModelCall asked for more than 1 retries${suffix}`,
        ErrorRetryability.never])
      expect(provider.callCount).toBe(2)
      expect(hook.attempts).toEqual([0, 1])
      // Discarded answers never reach history.
      expect(rt.snapshot().history.filter((m) => m.role === MessageRole.assistant)).toEqual([])
    }
  })

  it('a retry within the limit calls the model again and keeps only the accepted answer', async () => {
    const provider = new ScriptedProvider([ScriptedTurn.text('draft'), ScriptedTurn.text('final')])
    const hook = new ModelHooks({ after: (ctx) => ctx.attempt === 0 ? ModelResponseHookResult.retry() : ModelResponseHookResult.proceed() })
    const rt = makeRuntime(provider, { hooks: [hook] })
    const outcome = await rt.run('go')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.finalMessage?.text()).toBe('final')
    expect(hook.attempts).toEqual([0, 1])
    expect(hook.turns).toEqual([1, 1])
    expect(rt.snapshot().history.map((m) => m.text())).toEqual(['go', 'final'])
  })

  it.each([
    ['with a reason', ModelResponseHookResult.abort('unsafe'), ErrorCodes.hookAbort, 'afterModelCall hook aborted the run: unsafe'],
    ['without a reason', ModelResponseHookResult.abort(), ErrorCodes.hookAbort, 'afterModelCall hook aborted the run']
  ])('an abort %s ends the run and keeps nothing of the answer', async (_n, verdict, code, message) => {
    const rt = makeRuntime([ScriptedTurn.text('bad answer')], { hooks: [new ModelHooks({ after: () => verdict })] })
    const outcome = await rt.run('go')
    expect([outcome.error?.code, outcome.error?.message]).toEqual([code, message])
    expect(rt.snapshot().history.map((m) => m.text())).toEqual(['go'])
  })

  it('a replaced response is what is kept and shown', async () => {
    const rec = new Recorder()
    const rt = makeRuntime([ScriptedTurn.text('raw')], { hooks: [new ModelHooks({
      after: () => ModelResponseHookResult.proceed(new ModelResponse(AgentMessage.assistant('polished'))) })] })
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.finalMessage?.text()).toBe('polished')
    const after = rec.ofType(ControllerEventTypes.afterCallLlm) as unknown as Array<{ turn: number, response: ModelResponse }>
    expect(after.map((e) => [e.turn, e.response.message.text()])).toEqual([[1, 'polished']])
  })
})

describe('providers that do not stream', () => {
  it('an answer returned whole still passes the chunk hooks, reasoning first, and is stored as rewritten', async () => {
    const provider = new FnProvider(async () => new ModelResponse(AgentMessage.assistant('hello there', [], 'thinking'),
      FinishReason.stop, new Usage(1, 2)))
    const seen: Array<[string, boolean]> = []
    const hook = new ModelHooks({ chunk: (ctx) => {
      seen.push([ctx.text, ctx.reasoning])
      return ModelChunkHookResult.proceed(ctx.text.toUpperCase())
    } })
    const rec = new Recorder()
    const rt = makeRuntime(provider, { hooks: [hook] })
    const outcome = await rt.run('go', rec.observer)
    expect(seen).toEqual([['thinking', true], ['hello there', false]])
    expect(parts(outcome.finalMessage as AgentMessage)).toEqual([[ContentPartType.reasoning, 'THINKING'],
      [ContentPartType.text, 'HELLO THERE']])
    expect(rec.chunkText()).toBe('HELLO THERE')
    expect(rec.chunkText(true)).toBe('THINKING')
  })

  it('an answer with only text (or only tool calls) feeds just what it has', async () => {
    const seen: Array<[string, boolean]> = []
    const hook = new ModelHooks({ chunk: (ctx) => { seen.push([ctx.text, ctx.reasoning]); return ModelChunkHookResult.proceed() } })
    const tool = new CountingTool('t')
    const provider = new FnProvider(async (_s, _t, n) => n === 0 ?
      new ModelResponse(AgentMessage.assistant('', [new ToolCall('c1', 't', '{}', 0)]), FinishReason.toolCalls) :
      new ModelResponse(AgentMessage.assistant('only text')))
    const rt = makeRuntime(provider, { hooks: [hook], tools: [tool.tool] })
    const outcome = await rt.run('go')
    expect(outcome.finalMessage?.text()).toBe('only text')
    expect(seen).toEqual([['only text', false]])
    expect(tool.count).toBe(1)
  })

  it('a streamed answer is not fed twice', async () => {
    const seen: string[] = []
    const hook = new ModelHooks({ chunk: (ctx) => { seen.push(ctx.text); return ModelChunkHookResult.proceed() } })
    const rt = makeRuntime([ScriptedTurn.text('a', 'b')], { hooks: [hook] })
    const outcome = await rt.run('go')
    expect(seen).toEqual(['a', 'b'])
    expect(outcome.finalMessage?.text()).toBe('ab')
  })
})

describe('timers', () => {
  afterEach(() => { vi.useRealTimers() })

  it('a streamed turn with chunk hooks leaves no timer behind, whether it succeeds or fails', async () => {
    vi.useFakeTimers()
    const hook = new ModelHooks({ chunk: () => ModelChunkHookResult.proceed() })
    const ok = makeRuntime([ScriptedTurn.text('a', 'b')], { hooks: [hook], configure: (cfg) => { cfg.hookTimeoutMs = 60000 } })
    expect((await ok.run('go')).status).toBe(RunStatus.completed)
    expect(vi.getTimerCount()).toBe(0)
    const failing = makeRuntime(new FnProvider(async (sink) => {
      await sink.onEvent(StreamingEvent.text('part'))
      throw new Error('dropped')
    }), { hooks: [hook], configure: (cfg) => { cfg.hookTimeoutMs = 60000 } })
    expect((await failing.run('go')).status).toBe(RunStatus.failed)
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('providers that fail or misbehave', () => {
  it.each([
    ['nothing', undefined],
    ['null', null],
    ['a plain object', { message: AgentMessage.assistant('x') }],
    ['a user message', new ModelResponse(AgentMessage.user('not an answer'))]
  ])('returning %s is provider_malformed_response', async (_n, value) => {
    const provider = new FnProvider(async () => value as unknown as ModelResponse)
    const rt = makeRuntime(provider)
    const outcome = await rt.run('go')
    expect(outcome.status).toBe(RunStatus.failed)
    expect([outcome.error?.code, outcome.error?.layer, outcome.error?.retryability]).toEqual([
      ErrorCodes.providerMalformedResponse, ErrorLayer.provider, ErrorRetryability.never])
    expect(outcome.error?.message).toMatch(/^The provider returned an invalid response: response/)
    expect(rt.snapshot().history.map((m) => m.role)).toEqual([MessageRole.user])
  })

  it('a thrown value is a provider_error naming the model call; a typed error passes as is', async () => {
    const plain = makeRuntime(new FnProvider(async () => { throw new Error('socket closed') }))
    const a = await plain.run('go')
    expect([a.error?.code, a.error?.layer, a.error?.message]).toEqual([ErrorCodes.providerError, ErrorLayer.provider,
      'Model call failed: socket closed'])
    const typed = new ArkAgentError(ErrorLayer.transport, 'transport_reset', 'reset by peer', ErrorRetryability.retryable)
    const b = await makeRuntime(new FnProvider(async () => { throw typed })).run('go')
    expect([b.error?.code, b.error?.message]).toEqual(['transport_reset', 'reset by peer'])
  })

  it('a chunk hook\'s abort wins over whatever the provider makes of it, and nothing of the answer is kept', async () => {
    const source = new CancellationSource()
    const provider = new FnProvider(async (sink) => {
      await sink.onEvent(StreamingEvent.text('visible '))
      try {
        await sink.onEvent(StreamingEvent.text('secret'))
      } catch (e) {
        source.cancel('user left too')
        throw new Error('provider wrapped it')
      }
      return new ModelResponse(AgentMessage.assistant('visible secret'))
    })
    const hook = new ModelHooks({ chunk: (ctx) => ctx.text === 'secret' ? ModelChunkHookResult.abort('leak') : ModelChunkHookResult.proceed() })
    const rt = makeRuntime(provider, { hooks: [hook] })
    const outcome = await rt.runStream([AgentMessage.user('go')], undefined, source.token)
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
    expect(outcome.error?.message).toContain('leak')
    expect(rt.snapshot().history.map((m) => m.role)).toEqual([MessageRole.user])
  })

  it('a provider that ignores cancellation and answers anyway still ends the run cancelled', async () => {
    const source = new CancellationSource()
    const provider = new FnProvider(async (sink) => {
      await sink.onEvent(StreamingEvent.text('partial'))
      source.cancel('stop now')
      return new ModelResponse(AgentMessage.assistant('partial'))
    })
    const rt = makeRuntime(provider)
    const outcome = await rt.runStream([AgentMessage.user('go')], undefined, source.token)
    expect(outcome.status).toBe(RunStatus.cancelled)
    expect([outcome.error?.code, outcome.error?.message]).toEqual([ErrorCodes.cancelled, 'Cancelled: stop now'])
  })

  it('a provider error after cancellation is reported as the cancellation', async () => {
    const source = new CancellationSource()
    const provider = new FnProvider(async () => {
      source.cancel('user pressed stop')
      throw new Error('aborted by fetch')
    })
    const rt = makeRuntime(provider)
    const outcome = await rt.runStream([AgentMessage.user('go')], undefined, source.token)
    expect(outcome.status).toBe(RunStatus.cancelled)
    expect(outcome.error?.message).toBe('Cancelled: user pressed stop')
  })
})

describe('an answer cancelled while it streams', () => {
  function cancellingProvider(source: CancellationSource, reasoning: string[], text: string[]) {
    return new FnProvider(async (sink, token) => {
      for (const r of reasoning) await sink.onEvent(StreamingEvent.reasoning(r))
      for (const t of text) await sink.onEvent(StreamingEvent.text(t))
      source.cancel('stop')
      token.throwIfCancelled()
      return new ModelResponse(AgentMessage.assistant('unreachable'))
    })
  }

  it('keeps the visible text shown so far, with its reasoning, as an error-flagged cancelled answer', async () => {
    const source = new CancellationSource()
    const hook = new ModelHooks({ chunk: (ctx) => ctx.text === 'drop me' ? ModelChunkHookResult.drop() :
      ModelChunkHookResult.proceed(ctx.text.replace('raw', 'shown')) })
    const rt = makeRuntime(cancellingProvider(source, ['weigh ', 'options'], ['raw text', 'drop me', ' end']), { hooks: [hook] })
    const outcome = await rt.runStream([AgentMessage.user('go')], undefined, source.token)
    expect(outcome.status).toBe(RunStatus.cancelled)
    const history = rt.snapshot().history
    expect(history.length).toBe(2)
    const kept = history[1]
    expect([kept.role, kept.isError, kept.errorCode, kept.toolCalls.length]).toEqual([MessageRole.assistant, true,
      ErrorCodes.cancelled, 0])
    expect(parts(kept)).toEqual([[ContentPartType.reasoning, 'weigh options'], [ContentPartType.text, 'shown text end']])
  })

  it('without reasoning keeps the text alone; with no visible text keeps nothing', async () => {
    const s1 = new CancellationSource()
    const rt1 = makeRuntime(cancellingProvider(s1, [], ['just text']))
    await rt1.runStream([AgentMessage.user('go')], undefined, s1.token)
    expect(parts(rt1.snapshot().history[1])).toEqual([[ContentPartType.text, 'just text']])

    const s2 = new CancellationSource()
    const rt2 = makeRuntime(cancellingProvider(s2, ['only thinking'], []))
    await rt2.runStream([AgentMessage.user('go')], undefined, s2.token)
    expect(rt2.snapshot().history.map((m) => m.role)).toEqual([MessageRole.user])
  })

  it('a failure that is not a cancellation keeps nothing of a partial answer', async () => {
    const provider = new FnProvider(async (sink) => {
      await sink.onEvent(StreamingEvent.text('half an answer'))
      throw new Error('connection dropped')
    })
    const rt = makeRuntime(provider)
    const outcome = await rt.run('go')
    expect(outcome.status).toBe(RunStatus.failed)
    expect(rt.snapshot().history.map((m) => m.role)).toEqual([MessageRole.user])
  })
})

describe('tool call ids', () => {
  it('repeated or empty ids get fresh ones, so every result pairs with exactly one call', async () => {
    const tool = new CountingTool('t', undefined, async (args) => `ran ${String(args['n'])}`,
      { type: 'object', properties: { n: { type: 'number' } } })
    const provider = new ScriptedProvider([
      ScriptedTurn.text('calling').call('dup', 't', '{"n":1}').call('dup', 't', '{"n":2}').call('', 't', '{"n":3}')
        .call('solo', 't', '{"n":4}'),
      ScriptedTurn.text('done')
    ])
    const rec = new Recorder()
    const rt = makeRuntime(provider, { tools: [tool.tool] })
    await rt.run('go', rec.observer)
    expect(tool.count).toBe(4)
    const history = rt.snapshot().history
    expectPaired(history)
    const calls = history[1].toolCalls
    expect(calls.map((c) => c.argumentsJson)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}'])
    expect(calls.map((c) => c.index)).toEqual([0, 1, 2, 3])
    expect(calls[0].id).toBe('dup')
    expect(calls[3].id).toBe('solo')
    expect(new Set(calls.map((c) => c.id)).size).toBe(4)
    expect(calls[1].id.length).toBeGreaterThan(0)
    expect(calls[2].id.length).toBeGreaterThan(0)
    expect(history[1].text()).toBe('calling')
    expect(toolMessage(history, calls[1].id).text()).toBe('ran 2')
    expect(toolMessage(history, calls[2].id).text()).toBe('ran 3')
    const after = rec.ofType(ControllerEventTypes.afterCallLlm) as unknown as Array<{ response: ModelResponse }>
    expect(after[0].response.message.toolCalls.map((c) => c.id)).toEqual(calls.map((c) => c.id))
  })

  it('a response whose ids are already distinct, or that has no calls, is returned as it is', () => {
    const distinct = new ModelResponse(AgentMessage.assistant('x', [new ToolCall('a', 't', '{}', 0), new ToolCall('b', 't', '{}', 1)]))
    expect(ModelTurn.withUniqueCallIds(distinct)).toBe(distinct)
    const none = new ModelResponse(AgentMessage.assistant('x'))
    expect(ModelTurn.withUniqueCallIds(none)).toBe(none)
  })

  it('a renamed response keeps the message\'s content, error flag and code, and the response\'s other fields', () => {
    const message = new AgentMessage(MessageRole.assistant, [ContentPart.reasoning('r'), ContentPart.text('t')],
      [new ToolCall('a', 'x', '{"k":1}', 0), new ToolCall('a', 'y', '{"k":2}', 1)], undefined, true, 'partial_answer')
    const response = new ModelResponse(message, FinishReason.lengthLimit, new Usage(3, 4), 'model-z')
    const fixed = ModelTurn.withUniqueCallIds(response)
    expect(fixed).not.toBe(response)
    const m = fixed.message
    expect([m.role, m.isError, m.errorCode]).toEqual([MessageRole.assistant, true, 'partial_answer'])
    expect(parts(m)).toEqual([[ContentPartType.reasoning, 'r'], [ContentPartType.text, 't']])
    expect(m.toolCalls.map((c) => [c.name, c.argumentsJson, c.index])).toEqual([['x', '{"k":1}', 0], ['y', '{"k":2}', 1]])
    expect(m.toolCalls[0].id).toBe('a')
    expect(m.toolCalls[1].id).not.toBe('a')
    expect(m.toolCalls[1].id.startsWith('call')).toBe(true)
    expect([fixed.finishReason, fixed.model, fixed.usage.promptTokens]).toEqual([FinishReason.lengthLimit, 'model-z', 3])
  })
})
