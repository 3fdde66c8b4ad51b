// Section 1: the chunk path through AgentRuntime, against the bare provider.
import {
  AgentHook, AgentHookPipeline, AgentMessage, AgentRuntime, AgentRuntimeConfig, BusEvent, CancellationToken,
  ControllerEventTypes, LlmChunkEvent, ModelChunkHookContext, ModelChunkHookResult, ModelRequest, type ModelStreamSink,
  RunStatus, ScriptedProvider, ScriptedTurn, StreamingEvent, ToolCallHookContext, ToolCallHookResult,
} from '../shared-ts/src/index'
import { check, measure } from './lib'

const VOCAB = [' the', ' model', ' answers', ',', ' and', ' then', ' it', ' streams', ' tokens', '.', ' 我们', '的',
  ' agent', ' runtime', ' is', ' fast', '\n', ' ok', ' well', ' so']

/** The stream every chunk benchmark plays: `n` short token-sized text pieces. */
export function chunkTexts(n: number): string[] {
  const out: string[] = []
  for (let i = 0; i < n; i++) {
    out.push(VOCAB[(i * 7 + (i >> 3)) % VOCAB.length])
  }
  return out
}

/** A chunk hook that only passes text through. */
class PassThroughChunkHook extends AgentHook {
  private readonly name: string
  seen: number = 0

  constructor(name: string) {
    super()
    this.name = name
  }

  get hookName(): string {
    return this.name
  }

  async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
    this.seen++
    return ModelChunkHookResult.proceed()
  }
}

/** A hook that overrides a slot the chunk path never calls: it must cost the chunk path nothing. */
class ToolOnlyHook extends AgentHook {
  async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
    return ToolCallHookResult.proceed()
  }
}

export class ChunkCase {
  readonly name: string
  readonly run: () => Promise<void>

  constructor(name: string, run: () => Promise<void>) {
    this.name = name
    this.run = run
  }
}

export function chunkCases(texts: string[]): ChunkCase[] {
  const n = texts.length
  const turn = new ScriptedTurn()
  for (let i = 0; i < n; i++) {
    turn.say(texts[i])
  }
  const request = new ModelRequest([AgentMessage.user('go')], [], '')

  const bareProvider = async (): Promise<void> => {
    const provider = ScriptedProvider.fromFunction(() => turn)
    let count = 0
    const sink: ModelStreamSink = {
      onEvent: async (e: StreamingEvent): Promise<void> => {
        count++
      },
    }
    const response = await provider.streamModel(request, sink, CancellationToken.none)
    check(count === n && response.message.text().length > 0, `bare provider saw ${count} chunks`)
  }

  const bareForAwait = async (): Promise<void> => {
    async function* source(): AsyncGenerator<string> {
      for (let i = 0; i < n; i++) {
        yield texts[i]
      }
    }
    let count = 0
    for await (const t of source()) {
      if (t.length > 0) count++
    }
    check(count === n, `for-await saw ${count} chunks`)
  }

  const runtime = (chunkHooks: number, otherHooks: number) => async (): Promise<void> => {
    const hooks: AgentHook[] = []
    for (let i = 0; i < chunkHooks; i++) hooks.push(new PassThroughChunkHook(`pass${i}`))
    for (let i = 0; i < otherHooks; i++) hooks.push(new ToolOnlyHook())
    const config = new AgentRuntimeConfig('bench', ScriptedProvider.fromFunction(() => turn))
    config.hooks = new AgentHookPipeline(hooks)
    let count = 0
    let chars = 0
    config.controller.eventBus.subscribe(ControllerEventTypes.llmChunk, (e: BusEvent): void => {
      count++
      chars += (e as LlmChunkEvent).text.length
    })
    const rt = new AgentRuntime(config)
    const outcome = await rt.run('go')
    check(outcome.status === RunStatus.completed, `runtime run ended ${outcome.status}`)
    check(count === n, `bus subscriber saw ${count} chunks, expected ${n}`)
    for (let i = 0; i < chunkHooks; i++) {
      check((hooks[i] as PassThroughChunkHook).seen === n, 'a chunk hook missed chunks')
    }
    check(chars > 0, 'no text')
    rt.dispose()
  }

  return [
    new ChunkCase('bare: async for-await over a generator (reference)', bareForAwait),
    new ChunkCase('bare: ScriptedProvider → trivial sink', bareProvider),
    new ChunkCase('AgentRuntime, 0 chunk hooks, 1 bus subscriber', runtime(0, 0)),
    new ChunkCase('AgentRuntime, 3 hooks overriding only beforeToolCall, 1 subscriber', runtime(0, 3)),
    new ChunkCase('AgentRuntime, 1 pass-through chunk hook, 1 subscriber', runtime(1, 0)),
    new ChunkCase('AgentRuntime, 3 pass-through chunk hooks, 1 subscriber', runtime(3, 0)),
  ]
}

export async function timeCase(c: ChunkCase, warmup: number, iterations: number): Promise<number[]> {
  return measure(warmup, iterations, c.run)
}
