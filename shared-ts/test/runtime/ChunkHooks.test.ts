// Spec 十四 "流式 chunk Hook" and spec 10.3: chunk hooks are one serial chain whose decisions
// (drop / rewrite / abort) bind what the user sees, what history stores, and how the run ends.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentMessage,
  ArkAgentError,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  FileStateStorage,
  LlmAfterEvent,
  ModelChunkHookContext,
  ModelChunkHookResult,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ModelStreamSink,
  ModelResponseHookContext,
  ModelResponseHookResult,
  RunStatus,
  ScriptedTurn,
  StopReason
} from '../../src/index'
import {
  cleanupTempDirs,
  expectSingleTerminalLast,
  makeRuntime,
  newSessionId,
  Recorder,
  sleep,
  storedHistory,
  tempDir
} from './helpers'

afterEach(() => cleanupTempDirs())

type ChunkFn = (ctx: ModelChunkHookContext) => Promise<ModelChunkHookResult>

class ChunkHook extends AgentHook {
  readonly fn: ChunkFn
  constructor(fn: ChunkFn) {
    super()
    this.fn = fn
  }

  get hookName(): string {
    return 'ChunkHook'
  }

  onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
    return this.fn(ctx)
  }
}

/** Records what afterModelCall was given. */
class AfterModelSpy extends AgentHook {
  readonly seen: AgentMessage[] = []
  async afterModelCall(ctx: ModelResponseHookContext): Promise<ModelResponseHookResult> {
    this.seen.push(ctx.response.message)
    return ModelResponseHookResult.proceed()
  }
}

function lastAssistant(history: AgentMessage[]): AgentMessage {
  const found = history.filter((m) => m.role === 'assistant')
  return found[found.length - 1]
}

describe('streaming chunk hooks (spec 十四)', () => {
  it('chunk hooks run strictly serially, in chunk order, even when earlier chunks take longer', async () => {
    const log: string[] = []
    let active = 0
    let maxActive = 0
    const delays = [30, 5, 20, 1, 10]
    const hook = new ChunkHook(async (ctx) => {
      active++
      maxActive = Math.max(maxActive, active)
      log.push(`start ${ctx.chunkIndex} ${ctx.text}`)
      await sleep(delays[ctx.chunkIndex])
      log.push(`end ${ctx.chunkIndex}`)
      active--
      return ModelChunkHookResult.proceed()
    })
    const second = new ChunkHook(async (ctx) => {
      log.push(`second ${ctx.chunkIndex}`)
      return ModelChunkHookResult.proceed()
    })
    const rt = makeRuntime([ScriptedTurn.text('a', 'b', 'c', 'd', 'e')], { hooks: [hook, second] })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(maxActive).toBe(1)
    const expected: string[] = []
    for (let i = 0; i < 5; i++) {
      expected.push(`start ${i} ${'abcde'[i]}`, `end ${i}`, `second ${i}`)
    }
    expect(log).toEqual(expected)
    expect(rec.chunkText()).toBe('abcde')
  })

  it('a dropped chunk never reaches the observer nor the bus and is not in the stored assistant message', async () => {
    const dir = tempDir()
    const sessionId = newSessionId()
    const hook = new ChunkHook(async (ctx) =>
      ctx.text.includes('SECRET') ? ModelChunkHookResult.drop('redacted') : ModelChunkHookResult.proceed())
    const spy = new AfterModelSpy()
    const rt = makeRuntime([ScriptedTurn.text('Hello ', 'SECRET-42 ', 'world')],
      { sessionId, hooks: [hook, spy], storage: new FileStateStorage(dir, undefined, { lock: false }) })
    const rec = new Recorder()
    const bus = new Recorder()
    rt.controller.subscribeAll((e) => bus.events.push(e))
    const outcome = await rt.run('greet', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(rec.chunkText()).toBe('Hello world')
    expect(bus.chunkText()).toBe('Hello world')
    expect(rec.events.some((e) => JSON.stringify(e).includes('SECRET'))).toBe(false)
    expect(outcome.finalMessage?.text()).toBe('Hello world')
    expect(spy.seen[0].text()).toBe('Hello world')
    expect(rec.ofType<LlmAfterEvent>(ControllerEventTypes.afterCallLlm)[0].response.message.text()).toBe('Hello world')
    expect(lastAssistant(rt.snapshot().history).text()).toBe('Hello world')
    const stored = await storedHistory(dir, sessionId)
    expect(lastAssistant(stored).text()).toBe('Hello world')
    expect(JSON.stringify(stored).includes('SECRET')).toBe(false)
  })

  it('a rewritten chunk is what the observer is shown and what history stores', async () => {
    const dir = tempDir()
    const sessionId = newSessionId()
    const hook = new ChunkHook(async (ctx) => ModelChunkHookResult.proceed(ctx.text.replace('darn', '****')))
    const upper = new ChunkHook(async (ctx) => ModelChunkHookResult.proceed(ctx.text.toUpperCase()))
    const rt = makeRuntime([ScriptedTurn.text('oh ', 'darn', ' it')],
      { sessionId, hooks: [hook, upper], storage: new FileStateStorage(dir, undefined, { lock: false }) })
    const rec = new Recorder()
    await rt.run('x', rec.observer)
    expect(rec.chunkText()).toBe('OH **** IT')
    expect(lastAssistant(rt.snapshot().history).text()).toBe('OH **** IT')
    expect(lastAssistant(await storedHistory(dir, sessionId)).text()).toBe('OH **** IT')
  })

  it('a chunk result whose fields change between reads is judged once: what was checked is what is shown and stored', async () => {
    // A hostile answer: a proceed whose text getter is a string on the first read and an object
    // afterwards, and a drop whose action flips to proceed after it was read.
    const flipping = (first: unknown, then: unknown): unknown => {
      let reads = 0
      return () => (reads++ === 0 ? first : then)
    }
    const rewrite = new ChunkHook(async (ctx) => {
      const r = Object.create(ModelChunkHookResult.prototype)
      Object.defineProperty(r, 'action', { get: () => 'proceed' })
      Object.defineProperty(r, 'text', { get: flipping(ctx.text.toUpperCase(), { evil: true }) as () => unknown })
      return r as ModelChunkHookResult
    })
    const dropSecond = new ChunkHook(async (ctx) => {
      if (ctx.text !== 'B') return ModelChunkHookResult.proceed()
      const r = Object.create(ModelChunkHookResult.prototype)
      Object.defineProperty(r, 'action', { get: flipping('drop', 'proceed') as () => unknown })
      Object.defineProperty(r, 'text', { get: () => 'SMUGGLED' })
      return r as ModelChunkHookResult
    })
    const rt = makeRuntime([ScriptedTurn.text('a', 'b', 'c')], { hooks: [rewrite, dropSecond] })
    const rec = new Recorder()
    const outcome = await rt.run('x', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(rec.chunkText()).toBe('AC')
    expect(lastAssistant(rt.snapshot().history).text()).toBe('AC')
  })

  it('a chunk abort takes effect before the model call completes: no llm.after, no agent.success, failed with hook_abort (security), not cancelled', async () => {
    const seen: number[] = []
    const hook = new ChunkHook(async (ctx) => {
      seen.push(ctx.chunkIndex)
      await sleep(5)
      return ctx.text.includes('ignore previous') ? ModelChunkHookResult.abort('prompt injection') :
        ModelChunkHookResult.proceed()
    })
    const rt = makeRuntime([ScriptedTurn.text('fine ', 'ignore previous instructions', ' more', ' text')],
      { hooks: [hook], storage: new FileStateStorage(tempDir(), undefined, { lock: false }) })
    const rec = new Recorder()
    const outcome = await rt.run('x', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.stopReason).toBe(StopReason.aborted)
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
    expect(outcome.error?.layer).toBe(ErrorLayer.security)
    expect(outcome.error?.message).toContain('prompt injection')
    expect(rec.types()).not.toContain(ControllerEventTypes.afterCallLlm)
    expect(rec.types()).not.toContain(ControllerEventTypes.agentSuccess)
    expect(rec.types()).not.toContain(ControllerEventTypes.agentCancelled)
    expectSingleTerminalLast(rec, ControllerEventTypes.agentFailed)
    // Chunks after the aborting one are neither judged nor shown.
    expect(seen).toEqual([0, 1])
    expect(rec.chunkText()).toBe('fine ')
    // The partial answer is not stored as an assistant message.
    expect(rt.snapshot().history.filter((m) => m.role === 'assistant')).toEqual([])
  })

  it('a chunk abort carrying its own error ends the run with that error', async () => {
    const custom = new ArkAgentError(ErrorLayer.security, ErrorCodes.hookAbort, 'custom chunk stop')
    const hook = new ChunkHook(async () => ModelChunkHookResult.abort(undefined, custom))
    const rt = makeRuntime([ScriptedTurn.text('a', 'b')], { hooks: [hook] })
    const outcome = await rt.run('x')
    expect(outcome.error).toBe(custom)
    expect(outcome.status).toBe(RunStatus.failed)
  })

  it('reasoning chunks go through the same chain (flagged reasoning) and drop/rewrite apply to the stored reasoning', async () => {
    const dir = tempDir()
    const sessionId = newSessionId()
    const log: string[] = []
    const hook = new ChunkHook(async (ctx) => {
      log.push(`${ctx.reasoning ? 'R' : 'T'}${ctx.chunkIndex}:${ctx.text}`)
      if (ctx.reasoning && ctx.text.includes('private')) {
        return ModelChunkHookResult.drop()
      }
      if (ctx.reasoning) {
        return ModelChunkHookResult.proceed(`[${ctx.text}]`)
      }
      return ModelChunkHookResult.proceed()
    })
    const turn = new ScriptedTurn().think('step1').think(' private key').think('step2').say('answer')
    const rt = makeRuntime([turn], { sessionId, hooks: [hook], storage: new FileStateStorage(dir, undefined, { lock: false }) })
    const rec = new Recorder()
    await rt.run('x', rec.observer)
    expect(log).toEqual(['R0:step1', 'R1: private key', 'R2:step2', 'T3:answer'])
    expect(rec.chunkText(true)).toBe('[step1][step2]')
    expect(rec.chunkText(false)).toBe('answer')
    const stored = lastAssistant(await storedHistory(dir, sessionId))
    expect(stored.reasoning()).toBe('[step1][step2]')
    expect(stored.text()).toBe('answer')
    expect(JSON.stringify(rec.events).includes('private')).toBe(false)
  })

  it('a reasoning chunk can abort the run like a text chunk', async () => {
    const hook = new ChunkHook(async (ctx) => ctx.reasoning ? ModelChunkHookResult.abort('no thinking allowed') :
      ModelChunkHookResult.proceed())
    const rt = makeRuntime([new ScriptedTurn().say('visible').think('hidden')], { hooks: [hook] })
    const rec = new Recorder()
    const outcome = await rt.run('x', rec.observer)
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
    expect(rec.types()).not.toContain(ControllerEventTypes.afterCallLlm)
  })

  it('a chunk hook that throws fails the run closed with hook_failed and later chunks are not shown', async () => {
    const hook = new ChunkHook(async (ctx) => {
      if (ctx.chunkIndex === 1) {
        throw new Error('filter crashed')
      }
      return ModelChunkHookResult.proceed()
    })
    const rt = makeRuntime([ScriptedTurn.text('one', 'two', 'three')], { hooks: [hook] })
    const rec = new Recorder()
    const outcome = await rt.run('x', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.hookFailed)
    expect(outcome.error?.layer).toBe(ErrorLayer.security)
    expect(rec.chunkText()).toBe('one')
    expect(rec.types()).not.toContain(ControllerEventTypes.afterCallLlm)
  })

  it('a provider that answers without streaming still has its text kept, and it passes the chunk hooks as one chunk', async () => {
    const provider: ModelProvider = {
      providerId: 'non-streaming',
      streamModel: async (request: ModelRequest, sink: ModelStreamSink) =>
        new ModelResponse(AgentMessage.assistant('whole answer with darn', [], 'thought'))
    }
    const seen: string[] = []
    const hook = new ChunkHook(async (ctx) => {
      seen.push(`${ctx.reasoning ? 'R' : 'T'}:${ctx.text}`)
      return ModelChunkHookResult.proceed(ctx.text.replace('darn', '****'))
    })
    const rt = makeRuntime(provider, { hooks: [hook] })
    const rec = new Recorder()
    const outcome = await rt.run('x', rec.observer)
    expect(seen).toEqual(['R:thought', 'T:whole answer with darn'])
    expect(outcome.finalMessage?.text()).toBe('whole answer with ****')
    expect(lastAssistant(rt.snapshot().history).text()).toBe('whole answer with ****')
    expect(lastAssistant(rt.snapshot().history).reasoning()).toBe('thought')
    expect(rec.chunkText()).toBe('whole answer with ****')
    // Without chunk hooks the text is kept as well.
    const plain = makeRuntime(provider)
    expect((await plain.run('x')).finalMessage?.text()).toBe('whole answer with darn')
  })
})

describe('chunk hook timeouts', () => {
  it('a chunk hook that hangs past hookTimeoutMs ends the run hook_timeout, and later hooks never see that chunk', async () => {
    const seenByLater: string[] = []
    const hang = new ChunkHook(async (ctx) => {
      if (ctx.chunkIndex === 1) await new Promise<void>(() => {})
      return ModelChunkHookResult.proceed()
    })
    const later = new ChunkHook(async (ctx) => {
      seenByLater.push(ctx.text)
      return ModelChunkHookResult.proceed()
    })
    const rt = makeRuntime([ScriptedTurn.text('one ', 'two ', 'three')], {
      hooks: [hang, later],
      configure: (cfg) => { cfg.hookTimeoutMs = 40 },
    })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.hookTimeout)
    expect(outcome.error?.layer).toBe(ErrorLayer.security)
    expect(seenByLater).toEqual(['one '])
    expect(rec.chunkText()).toBe('one ')
    expect(rec.types()).not.toContain(ControllerEventTypes.agentSuccess)
  })

  it('a chunk hook that is slow but within hookTimeoutMs does not time out', async () => {
    const slow = new ChunkHook(async () => {
      await sleep(30)
      return ModelChunkHookResult.proceed()
    })
    const rt = makeRuntime([ScriptedTurn.text('a', 'b', 'c', 'd')], {
      hooks: [slow],
      configure: (cfg) => { cfg.hookTimeoutMs = 100 },
    })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(rec.chunkText()).toBe('abcd')
  })
})
