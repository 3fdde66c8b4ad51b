// Context compaction under the control plane: budgets kept over long sessions, the rules of the cut
// (system prompt, tool exchanges, pins), the hook slots, the fallback, and what storage keeps.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  AgentHook, AgentMessage, AgentRuntime, AgentRuntimeConfig, AgentState, CompactionCheckpoint, CompactionHookContext,
  CompactionHookResult, CompactionOptions, ContextCompactedEvent, ContextWindow, ControllerEventTypes, createAgent,
  ErrorCodes, FunctionTool, HookDiagnosticEvent, MemoryStateStorage, MessageRole, ModelCallHookContext,
  ModelCallHookResult, ModelRequest, RunStatus, ScriptedProvider, ScriptedTurn, StateCodec, SUMMARY_HEADER, ToolCall,
  ToolDefinition, TokenEstimator, ToolRegistry, AgentHookPipeline, ContentPart, CancellationSource, Summarizer,
  ArkAgentError, ErrorLayer, ErrorRetryability, ReasoningEcho, type ModelProvider,
} from '../../src/index'
import { CompactionWarningEvent } from '../../src/core/events/CompactionEvents'

const SEED = 20261201

/** The simulated vendor's own count: other ratios than the estimator's, so calibration has work to do. */
function vendorTokens(messages: AgentMessage[]): number {
  return messages.reduce((n, m) => n + 6 + Math.ceil((m.modelText().length + m.reasoning().length) * 0.5) +
    m.toolCalls.reduce((k, c) => k + 10 + Math.ceil((c.name.length + c.argumentsJson.length) * 0.5), 0), 0)
}

function isSummaryCall(request: ModelRequest): boolean {
  return request.messages[0]?.text().startsWith('You compact a conversation') === true
}

interface Recorded { turns: number[], summaries: number, requests: ModelRequest[] }

/**
 * A model that answers every question with a long text, every third one after a tool call, and
 * writes a summary when asked; it reports the vendor's prompt tokens.
 */
function chatty(rec: Recorded): ScriptedProvider {
  return ScriptedProvider.fromFunction((request: ModelRequest) => {
    const tokens = vendorTokens(request.messages)
    if (isSummaryCall(request)) {
      rec.summaries++
      return ScriptedTurn.text(`Summary #${rec.summaries}: the user asked numbered questions; all were answered.`)
        .withPromptTokens(tokens)
    }
    rec.turns.push(tokens)
    rec.requests.push(request)
    const last = request.messages[request.messages.length - 1]
    const question = /question (\d+)/.exec(last.text())
    if (question !== null && Number(question[1]) % 3 === 0) {
      return ScriptedTurn.text('Looking it up.').call(`c${question[1]}`, 'lookup', `{"q":${question[1]}}`).withPromptTokens(tokens)
    }
    return ScriptedTurn.text(`Answer: ${'this is a fairly long answer that fills the context '.repeat(3)}`).withPromptTokens(tokens)
  })
}

const lookup = new FunctionTool(new ToolDefinition('lookup', 'Looks things up', { type: 'object' }),
  async (args) => `found: ${'a result line with some content '.repeat(4)}${JSON.stringify(args)}`)

function options(window: number, reserve: number = 200): CompactionOptions {
  const o = new CompactionOptions()
  o.contextWindow = window
  o.outputReserve = reserve
  return o
}

function runtimeOf(rec: Recorded, o: CompactionOptions, hooks: AgentHook[] = [], storage = new MemoryStateStorage(),
  sessionId = 'long', systemPrompt = 'You are a patient assistant.'): AgentRuntime {
  const cfg = new AgentRuntimeConfig(sessionId, chatty(rec))
  cfg.tools = new ToolRegistry([lookup])
  cfg.hooks = new AgentHookPipeline(hooks)
  cfg.storage = storage
  cfg.systemPrompt = systemPrompt
  cfg.compaction = o
  return new AgentRuntime(cfg)
}

describe('a long session stays within its window', () => {
  it('2,000 questions with a 3,000-token window: every request is under budget by the vendor\'s own count', async () => {
    const rec: Recorded = { turns: [], summaries: 0, requests: [] }
    const runtime = runtimeOf(rec, options(3000, 500))
    const events: ContextCompactedEvent[] = []
    runtime.controller.subscribe(ControllerEventTypes.contextCompacted, (e) => { events.push(e as ContextCompactedEvent) })
    for (let i = 1; i <= 2000; i++) {
      const outcome = await runtime.run(`question ${i}: ${'please consider this part of the question '.repeat(2)}`)
      expect(outcome.status).toBe(RunStatus.completed)
    }
    const budget = 3000 - 500
    expect(Math.max(...rec.turns)).toBeLessThanOrEqual(budget)
    expect(events.length).toBeGreaterThan(100)
    expect(rec.summaries).toBe(events.length)
    expect(events.every((e) => !e.truncated && e.tokensAfter < e.tokensBefore)).toBe(true)
    // History is never rewritten: every question, answer, call and result is still there.
    const history = runtime.snapshot().history
    expect(history.filter((m) => m.role === MessageRole.user).length).toBe(2000)
    expect(history.length).toBe(2000 * 2 + 666 * 2)
    // The system prompt opens every request; the summary follows it.
    expect(rec.requests.every((r) => r.messages[0].text() === 'You are a patient assistant.')).toBe(true)
    expect(rec.requests[rec.requests.length - 1].messages[1].text().startsWith(SUMMARY_HEADER)).toBe(true)
    // Flat once compaction engages: the last 1,000 requests are no larger than the budget allows.
    const late = rec.turns.slice(-1000)
    expect(Math.max(...late) - Math.min(...late)).toBeLessThan(budget)
  })

  it('a session whose estimate stays under the threshold is never compacted and sends its whole history', async () => {
    const rec: Recorded = { turns: [], summaries: 0, requests: [] }
    const runtime = runtimeOf(rec, options(100000))
    for (let i = 1; i <= 20; i++) await runtime.run(`question ${i}`)
    expect(rec.summaries).toBe(0)
    expect(runtime.snapshot().compaction).toBeUndefined()
    // The system prompt and every message but the final answer.
    expect(rec.requests[rec.requests.length - 1].messages.length).toBe(runtime.snapshot().history.length)
  })

  it('calibrates from reported prompt tokens: up at once, down slowly, within bounds', async () => {
    let factor = 2
    const provider = ScriptedProvider.fromFunction((r: ModelRequest) => ScriptedTurn.text('ok')
      .withPromptTokens(Math.round(factor * (TokenEstimator.messages(r.messages) + TokenEstimator.tools(r.tools)))))
    const cfg = new AgentRuntimeConfig('cal', provider)
    cfg.compaction = options(100000)
    const runtime = new AgentRuntime(cfg)
    await runtime.run('a question')
    expect(runtime.snapshot().tokenCalibration).toBeCloseTo(2, 1)
    factor = 1
    await runtime.run('another question')
    expect(runtime.snapshot().tokenCalibration).toBeCloseTo(1.8, 1)
    factor = 100
    await runtime.run('a vendor reporting nonsense')
    expect(runtime.snapshot().tokenCalibration).toBe(8)
  })
})

describe('where the cut goes', () => {
  /** A random conversation: user questions, answers, tool exchanges of 1-3 calls, of random sizes. */
  const conversation = fc.array(fc.tuple(fc.nat({ max: 3 }), fc.nat({ max: 400 }), fc.nat({ max: 400 })),
    { minLength: 1, maxLength: 40 }).map((turns) => {
    const out: AgentMessage[] = []
    turns.forEach(([calls, a, b], t) => {
      out.push(AgentMessage.user(`q${t} ${'x'.repeat(a)}`))
      if (calls > 0) {
        const cs = Array.from({ length: calls }, (_, i) => new ToolCall(`c${t}_${i}`, 'f', `{"p":"${'y'.repeat(b)}"}`, i))
        out.push(AgentMessage.assistant('', cs))
        for (const c of cs) out.push(AgentMessage.tool(c.id, [ContentPart.text('r'.repeat(b))]))
      }
      out.push(AgentMessage.assistant(`a${t} ${'z'.repeat(b)}`))
    })
    return out
  })

  it('never starts the tail at a tool result, keeps the newest exchange, and every sent result has its call', () => {
    fc.assert(fc.property(conversation, fc.nat({ max: 2000 }), fc.array(fc.nat(), { maxLength: 4 }),
      (history, tail, rawPins) => {
        const upTo = ContextWindow.cutPoint(history, 0, tail)
        if (upTo < 0) {
          expect(history.slice(1).every((m) => m.role === MessageRole.tool)).toBe(true)
          return
        }
        expect(upTo).toBeGreaterThan(0)
        expect(history[upTo].role).not.toBe(MessageRole.tool)
        // Nothing after the last message that can start a tail is ever cut away.
        let lastStart = history.length - 1
        while (history[lastStart].role === MessageRole.tool) lastStart--
        expect(upTo).toBeLessThanOrEqual(lastStart)
        const pins = ContextWindow.expandPins(history, rawPins.map((p) => p % upTo), upTo)
        const checkpoint = new CompactionCheckpoint('c', upTo, 'summary', pins, false, 0)
        expect(checkpoint.problem(history.length)).toBe('')
        const sent = ContextWindow.messagesOf('system', history, checkpoint)
        expect(sent[0].text()).toBe('system')
        const calls = new Set<string>()
        for (const m of sent) {
          for (const c of m.toolCalls) calls.add(c.id)
          if (m.role === MessageRole.tool) expect(calls.has(m.toolCallId!)).toBe(true)
        }
        // Every call sent has its results sent too.
        const answered = new Set(sent.filter((m) => m.role === MessageRole.tool).map((m) => m.toolCallId))
        for (const id of calls) expect(answered.has(id)).toBe(true)
      }), { seed: SEED, numRuns: 500 })
  })

  it('the tail is the longest that fits, but never less than the newest exchange', () => {
    const history = [AgentMessage.user('a'.repeat(400)), AgentMessage.assistant('b'.repeat(400)),
      AgentMessage.user('c'.repeat(40)), AgentMessage.assistant('d'.repeat(40))]
    const each = history.map((m) => TokenEstimator.message(m))
    expect(ContextWindow.cutPoint(history, 0, each[3] + each[2])).toBe(2)
    expect(ContextWindow.cutPoint(history, 0, 1)).toBe(3)
    expect(ContextWindow.cutPoint(history, 2, 10000)).toBe(3)
    expect(ContextWindow.cutPoint(history, 3, 10000)).toBe(-1)
  })
})

/** A session that compacts on its next turn: a small window, enough history already. */
async function primed(hooks: AgentHook[], storage = new MemoryStateStorage(), rec: Recorded = { turns: [], summaries: 0, requests: [] },
  o: CompactionOptions = options(1500, 200)): Promise<{ runtime: AgentRuntime, rec: Recorded, events: string[] }> {
  const runtime = runtimeOf(rec, o, hooks, storage)
  const events: string[] = []
  runtime.controller.subscribe(ControllerEventTypes.all, (e) => {
    if (e instanceof ContextCompactedEvent) events.push(`compacted ${e.from}..${e.upTo} pinned=${e.pinned} truncated=${e.truncated}`)
    if (e instanceof HookDiagnosticEvent) events.push(`diagnostic ${e.slot}: ${e.message}`)
  })
  return { runtime, rec, events }
}

async function untilCompaction(runtime: AgentRuntime, max: number = 40): Promise<number> {
  for (let i = 1; i <= max; i++) {
    const outcome = await runtime.run(`question ${i}`)
    if (outcome.status !== RunStatus.completed) return i
    if (runtime.snapshot().compaction !== undefined) return i
  }
  return max
}

class Recording extends AgentHook {
  constructor(readonly name: string, readonly log: string[], readonly answer: (c: CompactionHookContext) => CompactionHookResult) {
    super()
  }
  get hookName(): string { return this.name }
  async beforeCompaction(c: CompactionHookContext): Promise<CompactionHookResult> {
    this.log.push(`${this.name} sees ${c.summary.slice(0, 20)} pins=${c.pinned.join(',')}`)
    return this.answer(c)
  }
  async afterCompaction(c: CompactionHookContext): Promise<void> {
    this.log.push(`${this.name} after ${c.upTo}`)
  }
}

describe('beforeCompaction and afterCompaction', () => {
  it('run serially: the second hook sees the first one\'s summary; the request carries the last rewrite', async () => {
    const log: string[] = []
    const { runtime, rec } = await primed([
      new Recording('one', log, () => CompactionHookResult.proceed('Rewritten by one.')),
      new Recording('two', log, (c) => CompactionHookResult.proceed(`${c.summary} And two.`)),
    ])
    await untilCompaction(runtime)
    await runtime.run('question after')
    // pins=0: the first question, the task, which this small window's summary request cannot hold.
    expect(log.slice(0, 4)).toEqual(['one sees Summary #1: the user pins=0', 'two sees Rewritten by one. pins=0',
      'one after ' + runtime.snapshot().compaction!.upTo, 'two after ' + runtime.snapshot().compaction!.upTo])
    const sent = rec.requests[rec.requests.length - 1].messages
    expect(sent[1].text()).toBe(`${SUMMARY_HEADER}Rewritten by one. And two.`)
  })

  it('a pinned message is sent as it is, with its whole tool exchange; pins carry over to later compactions', async () => {
    let pinnedText = ''
    const pinner = new Recording('pin', [], (c) => {
      const index = c.messages.findIndex((m) => m.role === MessageRole.tool)
      if (index < 0 || c.from > 0) return CompactionHookResult.proceed()
      pinnedText = c.messages[index].text()
      return CompactionHookResult.proceed(undefined, [c.from + index])
    })
    const { runtime, rec } = await primed([pinner])
    await untilCompaction(runtime)
    const cp = runtime.snapshot().compaction!
    expect(pinnedText).not.toBe('')
    const history = runtime.snapshot().history
    // The tool result and its assistant call are both pinned (after the task, history[0], which the
    // summary request of this small window cannot hold).
    expect(cp.pinned[0]).toBe(0)
    expect(cp.pinned.slice(1).map((i) => history[i].role)).toEqual([MessageRole.assistant, MessageRole.tool])
    for (let i = 0; i < 30 && runtime.snapshot().compaction!.id === cp.id; i++) await runtime.run(`more ${i}`)
    expect(runtime.snapshot().compaction!.id).not.toBe(cp.id)
    expect(runtime.snapshot().compaction!.pinned).toEqual(cp.pinned)
    const sent = rec.requests[rec.requests.length - 1].messages.map((m) => m.text())
    expect(sent).toContain(pinnedText)
  })

  it('skip leaves the context as it is this time (with a diagnostic); the whole history is sent', async () => {
    const { runtime, rec, events } = await primed([new Recording('skipper', [], () => CompactionHookResult.skip('not now'))])
    await untilCompaction(runtime, 20)
    expect(runtime.snapshot().compaction).toBeUndefined()
    expect(events).toContain('diagnostic beforeCompaction: A hook skipped the compaction: not now')
    expect(rec.requests[rec.requests.length - 1].messages.length).toBe(runtime.snapshot().history.length)
  })

  it('abort ends the run with hook_abort, and nothing is stored of the compaction', async () => {
    const storage = new MemoryStateStorage()
    const { runtime } = await primed([new Recording('stopper', [], () => CompactionHookResult.abort('no summaries here'))], storage)
    let outcome = await runtime.run('question 1')
    for (let i = 2; outcome.status === RunStatus.completed && i < 40; i++) outcome = await runtime.run(`question ${i}`)
    expect([outcome.status, outcome.error?.code, outcome.error?.message]).toEqual([RunStatus.failed, ErrorCodes.hookAbort,
      'beforeCompaction aborted the run: no summaries here'])
    expect((await storage.load('long'))!.state.compaction).toBeUndefined()
  })

  it('a hook that throws, or pins outside the range, fails closed (hook_failed); an afterCompaction throw is a diagnostic', async () => {
    for (const bad of [() => { throw new Error('boom') }, (c: CompactionHookContext) => CompactionHookResult.proceed(undefined, [c.upTo])]) {
      const { runtime } = await primed([new Recording('bad', [], bad as (c: CompactionHookContext) => CompactionHookResult)])
      let outcome = await runtime.run('question 1')
      for (let i = 2; outcome.status === RunStatus.completed && i < 40; i++) outcome = await runtime.run(`question ${i}`)
      expect([outcome.status, outcome.error?.code]).toEqual([RunStatus.failed, ErrorCodes.hookFailed])
      expect(runtime.snapshot().compaction).toBeUndefined()
    }
    class Observer extends AgentHook {
      async afterCompaction(): Promise<void> { throw new Error('observer broke') }
    }
    const { runtime, events } = await primed([new Observer()])
    await untilCompaction(runtime)
    expect(runtime.snapshot().compaction).toBeDefined()
    expect(events.some((e) => e.startsWith('diagnostic afterCompaction:') && e.includes('observer broke'))).toBe(true)
  })
})

describe('the summary call', () => {
  it('passes beforeModelCall with purpose "compaction"; a rewrite there is what is sent', async () => {
    const purposes: string[] = []
    class Watch extends AgentHook {
      async beforeModelCall(c: ModelCallHookContext): Promise<ModelCallHookResult> {
        purposes.push(c.purpose)
        if (c.purpose !== ModelCallHookContext.purposeCompaction) return ModelCallHookResult.proceed()
        return ModelCallHookResult.proceed(c.request.withMessages([...c.request.messages.slice(0, 1), AgentMessage.user('redacted')]))
      }
    }
    const seen: ModelRequest[] = []
    const o = options(1500, 200)
    o.summaryProvider = ScriptedProvider.fromFunction((r: ModelRequest) => { seen.push(r); return ScriptedTurn.text('short summary') })
    const { runtime } = await primed([new Watch()], new MemoryStateStorage(), undefined, o)
    await untilCompaction(runtime)
    expect(purposes.filter((p) => p === 'compaction').length).toBe(1)
    expect(purposes.filter((p) => p === 'turn').length).toBeGreaterThan(1)
    expect(seen.map((r) => r.messages[1].text())).toEqual(['redacted'])
    expect(runtime.snapshot().compaction!.summary).toBe('short summary')
  })

  for (const [name, provider, veto, reason, code] of [
    ['fails', ScriptedProvider.fromFunction(() => { throw new Error('summary model down') }), false, 'summary model down', ''],
    ['is refused by the vendor', ScriptedProvider.fromFunction(() => {
      throw new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerBadRequest,
        'HTTP 400 unsupported_parameter: Unsupported parameter: \'max_tokens\' is not supported with this model.', ErrorRetryability.never)
    }), false, 'max_tokens', ErrorCodes.providerBadRequest],
    ['hangs past summaryTimeoutMs', ScriptedProvider.fromFunction(() => ScriptedTurn.text('late').withDelay(10_000)), false,
      'The summary took longer than 50 ms', ErrorCodes.summaryTimeout],
    ['is vetoed by beforeModelCall', undefined, true, 'a hook vetoed the summary call: not this data', ''],
  ] as const) {
    it(`when the summary call ${name}: truncation with a note, a warning event, and the run goes on`, async () => {
      class Veto extends AgentHook {
        async beforeModelCall(c: ModelCallHookContext): Promise<ModelCallHookResult> {
          return c.purpose === 'compaction' ? ModelCallHookResult.abort('not this data') : ModelCallHookResult.proceed()
        }
      }
      const o = options(1500, 200)
      o.summaryTimeoutMs = 50
      if (provider !== undefined) o.summaryProvider = provider
      const { runtime, rec, events } = await primed(veto ? [new Veto()] : [], new MemoryStateStorage(), undefined, o)
      const warnings: CompactionWarningEvent[] = []
      runtime.controller.subscribe(ControllerEventTypes.compactionWarning, (e) => { warnings.push(e as CompactionWarningEvent) })
      await untilCompaction(runtime)
      const cp = runtime.snapshot().compaction!
      expect(cp.truncated).toBe(true)
      expect(cp.summary).toMatch(/^\[\d+ earlier messages were left out: no summary could be made \(/)
      expect(cp.summary).toContain(reason)
      // pinned=1: the task (the first question), which would not have fit this window's summary request either.
      expect(events.some((e) => /^compacted 0\.\.\d+ pinned=1 truncated=true$/.test(e))).toBe(true)
      // The app sees a warning it can show, with the failure's code: not only a reason on context.compacted.
      expect(warnings.length).toBe(1)
      const w = warnings[0]
      expect([w.eventType(), w.from, w.upTo, w.code]).toEqual(['context.compaction_warning', 0, cp.upTo, code])
      expect(w.reason).toContain(reason)
      expect(w.leftOut).toBe(cp.upTo - cp.pinned.length)
      expect(cp.summary).toContain(`[${w.leftOut} earlier messages were left out`)
      const outcome = await runtime.run('and now?')
      expect(outcome.status).toBe(RunStatus.completed)
      expect(rec.requests[rec.requests.length - 1].messages[1].text()).toBe(SUMMARY_HEADER + cp.summary)
    })
  }
})

describe('limits that hold against a failing model and a hostile hook', () => {
  it('with summaries failing every time, the stored summary always ends with the newest note and stays within its limits', async () => {
    const o = options(3000, 500)
    o.summaryMaxChars = 1500
    o.summaryProvider = ScriptedProvider.fromFunction(() => { throw new Error('summary model down') })
    const rec: Recorded = { turns: [], summaries: 0, requests: [] }
    const runtime = runtimeOf(rec, o)
    const seen: string[] = []
    runtime.controller.subscribe(ControllerEventTypes.contextCompacted, () => { seen.push(runtime.snapshot().compaction!.summary) })
    for (let i = 1; i <= 300; i++) await runtime.run(`question ${i}: ${'please consider this part of the question '.repeat(2)}`)
    expect(seen.length).toBeGreaterThan(30)
    for (const summary of seen) {
      expect(summary.length).toBeLessThanOrEqual(1500)
      expect(summary).toMatch(/\[\d+ earlier messages were left out: no summary could be made \(summary model down\)\.\]$/)
    }
    expect(Math.max(...rec.turns)).toBeLessThanOrEqual(2500)
  })

  it('a hook\'s summary is held to the summary\'s token limit, so the request stays under budget', async () => {
    class Verbose extends AgentHook {
      async beforeCompaction(): Promise<CompactionHookResult> {
        return CompactionHookResult.proceed('这是一个非常非常长的摘要。'.repeat(2000))
      }
    }
    const o = options(3000, 500)
    const rec: Recorded = { turns: [], summaries: 0, requests: [] }
    const runtime = runtimeOf(rec, o, [new Verbose()])
    const after: number[] = []
    runtime.controller.subscribe(ControllerEventTypes.contextCompacted, (e) => { after.push((e as ContextCompactedEvent).tokensAfter) })
    for (let i = 1; i <= 100; i++) await runtime.run(`question ${i}: ${'please consider this part of the question '.repeat(2)}`)
    expect(after.length).toBeGreaterThan(3)
    expect(Math.max(...after)).toBeLessThanOrEqual(2500)
    const summary = runtime.snapshot().compaction!.summary
    // Fitted with the calibration of its time (above 1 here), so its raw estimate is within the limit too.
    expect(TokenEstimator.text(summary)).toBeLessThanOrEqual(o.summaryTokens(2500))
    expect(summary.endsWith('…')).toBe(true)
  })

  it('reasoning that the vendor is not sent does not drag the calibration down', async () => {
    // The vendor counts what the wire sends: text and calls; reasoning only on tool-call turns since the last question.
    const provider = ScriptedProvider.fromFunction((r: ModelRequest) => ScriptedTurn.text('short answer')
      .think('long private reasoning '.repeat(200)).withPromptTokens(vendorTokens(r.messages.map((m) =>
        m.role === MessageRole.assistant && m.callCount() === 0 ? AgentMessage.assistant(m.text()) : m))))
    const cfg = new AgentRuntimeConfig('reasoning', provider)
    cfg.compaction = options(100000)
    const runtime = new AgentRuntime(cfg)
    for (let i = 0; i < 20; i++) await runtime.run(`question ${i}`)
    expect(runtime.snapshot().tokenCalibration).toBeGreaterThan(1)
  })

  it('a failing or slow beforeModelCall hook on the summary call fails closed (hook_failed), like on any model call', async () => {
    class Broken extends AgentHook {
      async beforeModelCall(c: ModelCallHookContext): Promise<ModelCallHookResult> {
        if (c.purpose === 'compaction') throw new Error('gate broke')
        return ModelCallHookResult.proceed()
      }
    }
    const { runtime } = await primed([new Broken()])
    let outcome = await runtime.run('question 1')
    for (let i = 2; outcome.status === RunStatus.completed && i < 40; i++) outcome = await runtime.run(`question ${i}`)
    expect([outcome.status, outcome.error?.code]).toEqual([RunStatus.failed, ErrorCodes.hookFailed])
    expect(runtime.snapshot().compaction).toBeUndefined()
  })

  it('the summary request keeps within its input budget whatever the previous summary, and says what it left out', () => {
    const messages = Array.from({ length: 50 }, (_, i) => AgentMessage.user(`message ${i} ${'x'.repeat(300)}`))
    const built = Summarizer.request('很长的旧摘要。'.repeat(5000), messages, 1000, 'm', 200)
    expect(TokenEstimator.messages(built.request.messages)).toBeLessThanOrEqual(1000 + 200)
    expect(built.dropped).toBeGreaterThan(0)
    expect(built.request.messages[1].text()).toContain(`(${built.dropped} older messages are not shown.)`)
  })

  it('messages that did not fit the summary request are reported on the event', async () => {
    const reasons: string[] = []
    const o = options(3000, 500)
    const rec: Recorded = { turns: [], summaries: 0, requests: [] }
    const runtime = runtimeOf(rec, o)
    runtime.controller.subscribe(ControllerEventTypes.contextCompacted, (e) => { reasons.push((e as ContextCompactedEvent).reason) })
    // One huge exchange first, so the first cut covers more than a summary request holds.
    await runtime.run(`question 0: ${'a long pasted document line. '.repeat(300)}`)
    for (let i = 1; i <= 30; i++) await runtime.run(`question ${i}`)
    expect(reasons.length).toBeGreaterThan(0)
    expect(reasons.every((r) => r === '' || /^\d+ of \d+ messages did not fit the summary request and are not in the summary$/.test(r))).toBe(true)
  })
})

describe('cancelling during the summary call', () => {
  it('ends the run cancelled, and nothing of the compaction is stored', async () => {
    const source = new CancellationSource()
    class CancelSoon extends AgentHook {
      async beforeModelCall(c: ModelCallHookContext): Promise<ModelCallHookResult> {
        if (c.purpose === 'compaction') setTimeout(() => source.cancel('user pressed stop'), 20)
        return ModelCallHookResult.proceed()
      }
    }
    const o = options(1500, 200)
    o.summaryTimeoutMs = 0
    o.summaryProvider = ScriptedProvider.fromFunction(() => ScriptedTurn.text('late').withDelay(60_000))
    const storage = new MemoryStateStorage()
    const { runtime } = await primed([new CancelSoon()], storage, undefined, o)
    let outcome = await runtime.runStream([AgentMessage.user('question 1')], undefined, source.token)
    for (let i = 2; outcome.status === RunStatus.completed && i < 40; i++) {
      outcome = await runtime.runStream([AgentMessage.user(`question ${i}`)], undefined, source.token)
    }
    expect([outcome.status, outcome.error?.code]).toEqual([RunStatus.cancelled, ErrorCodes.cancelled])
    expect(runtime.snapshot().compaction).toBeUndefined()
    expect((await storage.load('long'))!.state.compaction).toBeUndefined()
  })
})

describe('what storage keeps', () => {
  it('a new runtime restoring the stored state builds exactly the request the old one builds', async () => {
    const a: Recorded = { turns: [], summaries: 0, requests: [] }
    const { runtime } = await primed([], new MemoryStateStorage(), a)
    await untilCompaction(runtime)
    await runtime.run('question 100')
    // What a restart would find: the state as stored, in another storage, opened by another runtime.
    const disk = new MemoryStateStorage()
    await disk.save(runtime.snapshot())
    const b: Recorded = { turns: [], summaries: 0, requests: [] }
    const again = runtimeOf(b, options(1500, 200), [], disk, 'long')
    await again.restore()
    for (const q of ['the same next question', 'and one more', 'question 300']) {
      await runtime.run(q)
      await again.run(q)
    }
    const key = (r: ModelRequest) => JSON.stringify(r.messages.map((m) => StateCodec.encodeMessage(m)))
    expect(b.requests.map(key)).toEqual(a.requests.slice(-b.requests.length).map(key))
    expect(b.requests.length).toBeGreaterThanOrEqual(3)
    expect(b.requests[0].messages[1].text().startsWith(SUMMARY_HEADER)).toBe(true)
  })

  it('the checkpoint and the calibration round-trip through the codec; a damaged checkpoint is state_corrupt', () => {
    const s = new AgentState('cp')
    s.history = [AgentMessage.user('a'), AgentMessage.assistant('b'), AgentMessage.user('c')]
    s.compaction = new CompactionCheckpoint('cmp_1', 2, 'they said a and b', [0], false, 1234)
    s.tokenCalibration = 1.625
    const back = StateCodec.decode(StateCodec.encode(s))
    expect(back.compaction).toEqual(s.compaction)
    expect(back.tokenCalibration).toBe(1.625)
    const doc = JSON.parse(StateCodec.encode(s))
    const bad = (f: (d: any) => void): string => {
      const d = JSON.parse(JSON.stringify(doc))
      f(d)
      try { StateCodec.decode(JSON.stringify(d)); return 'decoded' } catch (e) { return `${(e as { code: string }).code}: ${(e as Error).message}` }
    }
    expect(bad((d) => { d.compaction.upTo = 9 })).toBe('state_corrupt: Invalid state at $.compaction: upTo 9 is outside the history (0..3)')
    expect(bad((d) => { d.compaction.pinned = [1, 0] })).toBe('state_corrupt: Invalid state at $.compaction: pinned must be ascending unique indices below upTo')
    expect(bad((d) => { d.compaction.pinned = [5] })).toBe('state_corrupt: Invalid state at $.compaction: pinned must be ascending unique indices below upTo')
    expect(bad((d) => { d.tokenCalibration = -1 })).toBe('state_corrupt: Invalid state at $.tokenCalibration: expected a positive number')
    expect(bad((d) => { delete d.compaction.summary })).toMatch(/^state_corrupt: Invalid state at \$\.compaction\.summary/)
    // A session that never compacted stores neither field.
    const plain = new AgentState('plain')
    expect(StateCodec.encode(plain)).not.toMatch(/compaction|tokenCalibration/)
  })

  it('a failed checkpoint write ends the run with state_save_failed and the checkpoint is not used', async () => {
    class Refuse extends AgentHook {
      async beforePersistState(c: import('../../src/index').StatePersistenceHookContext): Promise<import('../../src/index').StatePersistenceHookResult> {
        const { StatePersistenceHookResult } = await import('../../src/index')
        return c.reason === 'compaction' ? StatePersistenceHookResult.abort('no') : StatePersistenceHookResult.proceed()
      }
    }
    const { runtime } = await primed([new Refuse()])
    let outcome = await runtime.run('question 1')
    for (let i = 2; outcome.status === RunStatus.completed && i < 40; i++) outcome = await runtime.run(`question ${i}`)
    expect([outcome.status, outcome.error?.code]).toEqual([RunStatus.failed, ErrorCodes.hookAbort])
    expect(runtime.snapshot().compaction).toBeUndefined()
  })
})

describe('configuration', () => {
  it('the budget: a small window gets a proportional reserve; one that leaves no room, or a summary that cannot fit, is invalid_config', () => {
    const o = new CompactionOptions()
    o.contextWindow = 4096
    expect(o.budgetFor(0, 0)).toBe(4096 - 1024)
    expect(o.budgetFor(0, 500)).toBe(4096 - 500)
    o.contextWindow = 300
    expect(() => o.budgetFor(0, 0)).toThrow(/leaves 225 tokens for a request; at least 256/)
    o.contextWindow = 4096
    o.summaryMaxTokens = 3000
    expect(() => o.budgetFor(0, 0)).toThrow(/summaryMaxTokens \(3000\) must fit/)
    o.summaryMaxTokens = 0
    expect(o.summaryTokens(3072)).toBe(1024)
    expect(o.summaryTokens(1000)).toBe(500)
  })

  it('compaction without a known context window is invalid_config naming the fix', () => {
    const cfg = new AgentRuntimeConfig('x', new ScriptedProvider([]))
    cfg.compaction = new CompactionOptions()
    expect(() => new AgentRuntime(cfg)).toThrow(/compaction needs a context window/)
    const bad = options(1000)
    bad.keepRecent = 0.9
    cfg.compaction = bad
    expect(() => new AgentRuntime(cfg)).toThrow(/keepRecent/)
  })

  it('createAgent turns compaction on when the provider knows its window, off with compaction: false', async () => {
    const { OpenAICompatibleProvider, ProviderPresets, FetchTransport } = await import('../../src/index')
    const provider = OpenAICompatibleProvider.fromPreset(ProviderPresets.deepseek, { apiKey: 'k', transport: new FetchTransport() })
    expect(provider.contextWindow).toBe(128000)
    const on = createAgent({ sessionId: 'a', model: provider })
    const off = createAgent({ sessionId: 'b', model: provider, compaction: false })
    const scripted = createAgent({ sessionId: 'c', model: new ScriptedProvider([]) })
    expect(configOf(on.runtime).compaction).toBeDefined()
    expect(configOf(off.runtime).compaction).toBeUndefined()
    expect(configOf(scripted.runtime).compaction).toBeUndefined()
  })
})

function configOf(runtime: AgentRuntime): AgentRuntimeConfig {
  return (runtime as unknown as { s: { config: AgentRuntimeConfig } }).s.config
}

describe('estimates follow what the wire sends', () => {
  /** What a request carries for a vendor with this reasoning echo (OpenAIWireFormat's rule, written out here). */
  const carried = (echo: ReasoningEcho, messages: AgentMessage[]) => messages.map((m) => m.role !== MessageRole.assistant ||
    echo === ReasoningEcho.all || (echo === ReasoningEcho.toolTurns && m.callCount() > 0) ? m : AgentMessage.assistant(m.text(), m.toolCalls))

  for (const echo of [ReasoningEcho.never, ReasoningEcho.toolTurns, ReasoningEcho.all]) {
    it(`long tool loops with heavy reasoning stay under budget by the vendor's own count (echo ${echo})`, async () => {
      const counts: number[] = []
      let step = 0
      const inner = ScriptedProvider.fromFunction((r: ModelRequest) => {
        const tokens = vendorTokens(carried(echo, r.messages))
        if (isSummaryCall(r)) return ScriptedTurn.text('S.').withPromptTokens(tokens)
        counts.push(tokens)
        step++
        return (step % 25 === 0 ? ScriptedTurn.text('done').think('checking the result. '.repeat(20))
          : ScriptedTurn.text('').think('thinking hard about the next step. '.repeat(20)).call(`c${step}`, 'lookup', `{"q":${step}}`))
          .withPromptTokens(tokens)
      })
      const provider: ModelProvider = { providerId: `echo-${echo}`, reasoningEcho: echo, streamModel: (r, sink, t) => inner.streamModel(r, sink, t) }
      const cfg = new AgentRuntimeConfig(`echo-${echo}`, provider)
      cfg.tools = new ToolRegistry([lookup])
      cfg.compaction = options(3000, 500)
      cfg.maxTurns = 30
      const runtime = new AgentRuntime(cfg)
      let compactions = 0
      runtime.controller.subscribe(ControllerEventTypes.contextCompacted, () => { compactions++ })
      for (let run = 0; run < 4; run++) expect((await runtime.run(`please do the long task number ${run}`)).status).toBe(RunStatus.completed)
      expect(counts.length).toBe(100)
      expect(compactions).toBeGreaterThan(2)
      // The first answer teaches the calibration (the vendor counts 0.5 per character, the estimate 0.3).
      expect(Math.max(...counts.slice(2))).toBeLessThanOrEqual(2500)
      // Reasoning the vendor is not sent does not drag the calibration below the vendor's real ratio.
      expect(runtime.snapshot().tokenCalibration).toBeGreaterThan(1.3)
    })
  }

  it('a context-length refusal raises the calibration: the next run compacts instead of failing the same way', async () => {
    // A vendor that never reports usage and counts far more than the estimate: only its refusal can teach.
    const inner = ScriptedProvider.fromFunction((r: ModelRequest) => {
      const tokens = vendorTokens(r.messages) * 2
      if (tokens > 3000) throw new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerContextLength, `context_length_exceeded ${tokens}`, ErrorRetryability.never)
      return isSummaryCall(r) ? ScriptedTurn.text('S.') : ScriptedTurn.text(`Answer: ${'a long answer that fills the context '.repeat(4)}`)
    })
    const provider: ModelProvider = { providerId: 'silent', streamModel: (r, s, t) => inner.streamModel(r, s, t) }
    const cfg = new AgentRuntimeConfig('refused', provider)
    cfg.compaction = options(3000, 500)
    cfg.storage = new MemoryStateStorage()
    const runtime = new AgentRuntime(cfg)
    const codes: string[] = []
    for (let i = 0; i < 60; i++) {
      const outcome = await runtime.run(`question ${i}: ${'please consider this part of the question '.repeat(2)}`)
      codes.push(outcome.status === RunStatus.completed ? 'ok' : outcome.error?.code ?? '?')
    }
    const failures = codes.filter((c) => c !== 'ok')
    expect(failures.length).toBeGreaterThan(0)
    expect(new Set(failures)).toEqual(new Set([ErrorCodes.providerContextLength]))
    // Refusals teach quickly and for good: the last runs all complete, and the calibration is stored.
    expect(codes.slice(-20)).toEqual(Array(20).fill('ok'))
    expect(failures.length).toBeLessThanOrEqual(5)
    expect((await cfg.storage.load('refused'))?.state.tokenCalibration).toBeGreaterThan(1.5)
  })
})

describe('the task survives compaction', () => {
  for (const failing of [false, true]) {
    it(`in a long tool loop the newest user message is still sent after the cut passes it (summary ${failing ? 'failing' : 'made'})`, async () => {
      const question = `please do the long task: ${'with many details '.repeat(30)}`
      const seen: boolean[] = []
      let step = 0
      const provider = ScriptedProvider.fromFunction((r: ModelRequest) => {
        if (isSummaryCall(r)) {
          if (failing) throw new Error('summary model down')
          return ScriptedTurn.text('S.').withPromptTokens(vendorTokens(r.messages))
        }
        seen.push(r.messages.some((m) => m.role === MessageRole.user && m.text() === question))
        step++
        return (step < 40 ? ScriptedTurn.text('').call(`c${step}`, 'lookup', `{"q":${step}}`) : ScriptedTurn.text('done'))
          .withPromptTokens(vendorTokens(r.messages))
      })
      const cfg = new AgentRuntimeConfig(`task-${failing}`, provider)
      cfg.tools = new ToolRegistry([lookup])
      cfg.compaction = options(3000, 500)
      cfg.maxTurns = 50
      const runtime = new AgentRuntime(cfg)
      let compactions = 0
      runtime.controller.subscribe(ControllerEventTypes.contextCompacted, () => { compactions++ })
      expect((await runtime.run(question)).status).toBe(RunStatus.completed)
      expect(compactions).toBeGreaterThan(1)
      expect(runtime.snapshot().compaction!.upTo).toBeGreaterThan(1)
      expect(seen.every((s) => s)).toBe(true)
      // A restored session builds the same request (the rule is a function of the stored state).
      const built = ContextWindow.requestMessages('', runtime.snapshot())
      expect(built.filter((m) => m.role === MessageRole.user).map((m) => m.text())).toEqual([question])
    })
  }

  it('with a window too small to summarise the oldest messages, the original task is kept as it is, newer questions or not', async () => {
    const task = 'TASK: compile the quarterly report for ACME, in French, and keep every figure exact.'
    const rec: Recorded = { turns: [], summaries: 0, requests: [] }
    const o = options(3000, 500)
    // The summary model's window leaves its request the 256-token floor: the oldest messages never reach it.
    const writer = ScriptedProvider.fromFunction(() => ScriptedTurn.text('S.'))
    const small: ModelProvider = { providerId: 'small-summary', contextWindow: 700,
      streamModel: (r, sink, token) => writer.streamModel(r, sink, token) }
    o.summaryProvider = small
    const runtime = runtimeOf(rec, o)
    const compacted: Array<{ event: ContextCompactedEvent, requests: number }> = []
    runtime.controller.subscribe(ControllerEventTypes.contextCompacted, (e) => {
      compacted.push({ event: e as ContextCompactedEvent, requests: rec.requests.length })
    })
    expect((await runtime.run(task)).status).toBe(RunStatus.completed)
    for (let i = 1; i <= 60; i++) {
      expect((await runtime.run(`question ${i}: ${'please consider this part of the question '.repeat(2)}`)).status)
        .toBe(RunStatus.completed)
    }
    expect(compacted.length).toBeGreaterThan(1)
    expect(compacted[0].event.reason).toMatch(/^\d+ of \d+ messages did not fit the summary request/)
    // The task is pinned by the first compaction and carried by every later one.
    expect(runtime.snapshot().compaction!.pinned[0]).toBe(0)
    expect(compacted.every((c) => c.event.pinned >= 1)).toBe(true)
    // Every request after the first compaction sends it verbatim, though newer questions arrived long ago.
    const later = rec.requests.slice(compacted[0].requests)
    expect(later.length).toBeGreaterThan(40)
    for (const r of later) expect(r.messages.filter((m) => m.role === MessageRole.user && m.text() === task).length).toBe(1)
    // Still within budget by the vendor's count, and a restored session builds the same (it is in the checkpoint).
    expect(Math.max(...rec.turns.slice(compacted[0].requests))).toBeLessThanOrEqual(2500)
    expect(ContextWindow.requestMessages('', runtime.snapshot()).some((m) => m.text() === task)).toBe(true)
  })

  it('a task the summary request holds is summarised, not pinned; one larger than the summary\'s limit is never pinned', async () => {
    for (const [first, window] of [['TASK: a short task.', 100000], [`TASK: ${'a long pasted document line. '.repeat(300)}`, 700]] as const) {
      const rec: Recorded = { turns: [], summaries: 0, requests: [] }
      const o = options(3000, 500)
      const writer = ScriptedProvider.fromFunction(() => ScriptedTurn.text('S.'))
      o.summaryProvider = { providerId: 'summary', contextWindow: window,
        streamModel: (r, sink, token) => writer.streamModel(r, sink, token) } as ModelProvider
      const runtime = runtimeOf(rec, o)
      await runtime.run(first)
      for (let i = 1; i <= 40 && runtime.snapshot().compaction === undefined; i++) await runtime.run(`question ${i}`)
      expect(runtime.snapshot().compaction).toBeDefined()
      expect(runtime.snapshot().compaction!.pinned).not.toContain(0)
    }
  })

  it('once a newer question arrives, the old one is no longer sent as it is (it is in the summary)', () => {
    const history = [AgentMessage.user('first task'), AgentMessage.assistant('ok'), AgentMessage.user('second task'), AgentMessage.assistant('ok')]
    const c = new CompactionCheckpoint('c', 2, 'summary of the first task', [], false, 0)
    expect(ContextWindow.messagesOf('', history, c).map((m) => m.text())).toEqual([`${SUMMARY_HEADER}summary of the first task`, 'second task', 'ok'])
    const mid = new CompactionCheckpoint('c', 3, 'summary', [], false, 0)
    expect(ContextWindow.messagesOf('', history, mid).map((m) => m.text())).toEqual([`${SUMMARY_HEADER}summary`, 'second task', 'ok'])
  })
})

describe('compaction is worth its call', () => {
  for (const [rules, most] of [[75, 5], [110, 15]] as const) {
    it(`a large system prompt (${rules} rule lines) near the threshold: no summary call every turn, every request under budget`, async () => {
      const rec: Recorded = { turns: [], summaries: 0, requests: [] }
      const runtime = runtimeOf(rec, options(3000, 500), [], new MemoryStateStorage(), 'thrash',
        `You are a patient assistant. ${'Follow these house rules carefully. '.repeat(rules)}`)
      for (let i = 1; i <= 40; i++) expect((await runtime.run(`question ${i}: short`)).status).toBe(RunStatus.completed)
      expect(rec.summaries).toBeLessThanOrEqual(most)
      expect(Math.max(...rec.turns.slice(1))).toBeLessThanOrEqual(2500)
    })
  }

  it('the summary request gets the window less the summary\'s answer: with a 2,048-token window most compacted messages reach it', async () => {
    const rec: Recorded = { turns: [], summaries: 0, requests: [] }
    const runtime = runtimeOf(rec, options(2048, 512))
    let compacted = 0
    let shown = 0
    runtime.controller.subscribe(ControllerEventTypes.contextCompacted, (e) => {
      const ev = e as ContextCompactedEvent
      const n = ev.upTo - ev.from
      compacted += n
      const m = /^(\d+) of (\d+) messages did not fit/.exec(ev.reason)
      shown += m !== null ? Number(m[2]) - Number(m[1]) : n
    })
    for (let i = 1; i <= 150; i++) await runtime.run(`question ${i}: ${'please consider this part of the question '.repeat(2)}`)
    expect(compacted).toBeGreaterThan(100)
    expect(shown / compacted).toBeGreaterThan(0.5)
  })
})

describe('what a holder of a snapshot can change', () => {
  it('a hook that edits the checkpoint it sees (state view, compaction context) changes nothing stored or sent', async () => {
    class Vandal extends AgentHook {
      async beforeCompaction(ctx: CompactionHookContext): Promise<CompactionHookResult> {
        ctx.pinned.push(999)
        ctx.pinned.reverse()
        const c = ctx.state.snapshot().compaction
        if (c !== undefined) { c.pinned.push(1000); c.pinned.reverse() }
        return CompactionHookResult.proceed(undefined, [ctx.from])
      }
      async beforeModelCall(ctx: ModelCallHookContext): Promise<ModelCallHookResult> {
        const c = ctx.state.snapshot().compaction
        if (c !== undefined) { c.pinned.push(5); c.pinned.reverse() }
        return ModelCallHookResult.proceed()
      }
    }
    const storage = new MemoryStateStorage()
    const rec: Recorded = { turns: [], summaries: 0, requests: [] }
    const runtime = runtimeOf(rec, options(3000, 500), [new Vandal()], storage, 'vandal')
    for (let i = 1; i <= 80; i++) {
      expect((await runtime.run(`question ${i}: ${'please consider this part of the question '.repeat(2)}`)).status).toBe(RunStatus.completed)
    }
    const loaded = await storage.load('vandal')
    expect(loaded?.resumable).toBe(true)
    const pins = loaded!.state.compaction!.pinned
    expect(pins).toEqual([...pins].sort((a, b) => a - b))
    expect(pins).not.toContain(999)
    expect(pins).not.toContain(1000)
  })
})

describe('stored checkpoints that would split an exchange', () => {
  const history = [AgentMessage.user('q'), AgentMessage.assistant('', [new ToolCall('c1', 'lookup', '{}', 0)]),
    AgentMessage.tool('c1', [ContentPart.text('r')]), AgentMessage.user('q2'), AgentMessage.assistant('a')]
  function stateWith(c: CompactionCheckpoint, calibration = 1): AgentState {
    const s = new AgentState('x')
    s.history = history
    s.compaction = c
    s.tokenCalibration = calibration
    return s
  }
  async function load(state: AgentState) {
    const storage = new MemoryStateStorage()
    await storage.save(state)
    return storage.load('x')
  }

  it('a cut at a tool result, or a pin of half an exchange, is state_corrupt', async () => {
    await expect(load(stateWith(new CompactionCheckpoint('c', 2, 's', [], false, 0)))).rejects.toThrow(/start at a tool result/)
    await expect(load(stateWith(new CompactionCheckpoint('c', 3, 's', [1], false, 0)))).rejects.toThrow(/without the rest of its exchange/)
    await expect(load(stateWith(new CompactionCheckpoint('c', 3, 's', [2], false, 0)))).rejects.toThrow(/without the rest of its exchange/)
    expect((await load(stateWith(new CompactionCheckpoint('c', 3, 's', [1, 2], false, 0))))?.state.compaction?.pinned).toEqual([1, 2])
  })

  it('a stored calibration outside what calibration keeps is brought back into range', async () => {
    const ok = new CompactionCheckpoint('c', 3, 's', [], false, 0)
    expect((await load(stateWith(ok, 1e-9)))?.state.tokenCalibration).toBe(0.5)
    expect((await load(stateWith(ok, 1e9)))?.state.tokenCalibration).toBe(8)
  })
})

describe('the truncation note', () => {
  it('is never cut, whatever the reason\'s length, with the smallest summary allowed; a smaller limit is invalid_config', async () => {
    const o = options(3000, 500)
    o.summaryMaxChars = 200
    o.summaryProvider = ScriptedProvider.fromFunction(() => { throw new Error(`model down: ${'x'.repeat(5000)}`) })
    const rec: Recorded = { turns: [], summaries: 0, requests: [] }
    const runtime = runtimeOf(rec, o)
    const seen: string[] = []
    runtime.controller.subscribe(ControllerEventTypes.contextCompacted, () => { seen.push(runtime.snapshot().compaction!.summary) })
    for (let i = 1; i <= 120; i++) await runtime.run(`question ${i}: ${'please consider this part of the question '.repeat(2)}`)
    expect(seen.length).toBeGreaterThan(5)
    for (const s of seen) {
      expect(s.length).toBeLessThanOrEqual(200)
      expect(s).toMatch(/\[\d+ earlier messages were left out: no summary could be made \(model down: x+…\)\.\]$/)
    }
    const small = options(3000, 500)
    small.summaryMaxChars = 199
    expect(() => small.check()).toThrow(/summaryMaxChars/)
  })
})

describe('a big task message and big summaries', () => {
  /** A vendor that counts like the estimator and refuses past its 3,000-token window. */
  function strict(summary: string, rounds: number, refused: number[], sent: number[], summaries = { n: 0 }): ScriptedProvider {
    let round = 0
    return ScriptedProvider.fromFunction((request: ModelRequest) => {
      const raw = TokenEstimator.messages(request.messages) + TokenEstimator.tools(request.tools)
      if (raw > 3000) {
        refused.push(raw)
        throw new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerContextLength, `too long: ${raw}`, ErrorRetryability.never)
      }
      if (isSummaryCall(request)) {
        summaries.n++
        return ScriptedTurn.text(summary).withPromptTokens(raw)
      }
      sent.push(raw)
      round++
      return (round % rounds === 0 ? ScriptedTurn.text('done') : ScriptedTurn.text('step').call(`c${round}`, 'lookup', `{"q":${round}}`))
        .withPromptTokens(raw)
    })
  }

  it('a task of three quarters of the budget in a 30-step tool loop: every request under budget (the kept task counts)', async () => {
    const refused: number[] = []
    const sent: number[] = []
    const summaries = { n: 0 }
    const cfg = new AgentRuntimeConfig('big-task', strict('S.', 31, refused, sent, summaries))
    cfg.tools = new ToolRegistry([lookup])
    cfg.compaction = options(3000, 500)
    cfg.maxTurns = 100
    const runtime = new AgentRuntime(cfg)
    expect((await runtime.run(`task: ${'do the thing carefully '.repeat(275)}`)).status).toBe(RunStatus.completed)
    expect(refused).toEqual([])
    expect(Math.max(...sent)).toBeLessThanOrEqual(2500)
    expect(summaries.n).toBeLessThanOrEqual(6) // not one per step: the kept task is a fixed part of every request
  })

  it('a summary as long as what it replaces is never stored, and no request is refused', async () => {
    const refused: number[] = []
    const sent: number[] = []
    const cfg = new AgentRuntimeConfig('big-summary', strict('summary text '.repeat(250), 8, refused, sent))
    cfg.tools = new ToolRegistry([lookup])
    cfg.compaction = options(3000, 500)
    const runtime = new AgentRuntime(cfg)
    const stored: ContextCompactedEvent[] = []
    runtime.controller.subscribe(ControllerEventTypes.contextCompacted, (e) => { stored.push(e as ContextCompactedEvent) })
    for (let i = 0; i < 4; i++) expect((await runtime.run(`task: ${'do the thing carefully '.repeat(200)}`)).status).toBe(RunStatus.completed)
    expect(refused).toEqual([])
    for (const e of stored) expect(e.tokensAfter).toBeLessThan(e.tokensBefore)
  })

  it('a refusal of a request the estimate already said was too long does not move the calibration', async () => {
    const cfg = new AgentRuntimeConfig('paste', strict('S.', 1, [], []))
    cfg.compaction = options(3000, 500)
    const runtime = new AgentRuntime(cfg)
    for (let i = 0; i < 5; i++) {
      expect((await runtime.run(`paste ${'x'.repeat(20000)}`)).error?.code).toBe(ErrorCodes.providerContextLength)
    }
    expect(runtime.snapshot().tokenCalibration).toBe(1)
  })
})
