import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { LlmChunkEvent } from '../events/AgentEvents'
import { OutputPartialEvent } from '../events/OutputPartialEvent'
import { PartialJson } from '../output/PartialJson'
import { ModelChunkHookContext, StateView } from '../hook/HookContexts'
import { ChunkHookContinuation } from '../hook/ChunkHookPass'
import { HookWatchdog } from '../hook/HookWatchdog'
import { ModelChunkHookAction, ModelChunkHookResult } from '../hook/HookResults'
import { LoopVerdict } from '../loop/LoopDetectorPort'
import { ModelStreamSink } from '../provider/ModelProvider'
import { StreamingEvent, StreamingEventType } from '../provider/StreamingEvent'
import { RunContext } from './RunContext'
import { RuntimeServices } from './RuntimeServices'

/**
 * The sink of one model call. The provider awaits every chunk, so chunk hooks form one serial
 * chain and their drop/rewrite/abort always take effect before the response completes. What is
 * kept here — the text after hooks — is what the user sees and what history stores.
 */
const DONE: Promise<void> = Promise.resolve()

export class ModelStreamCollector implements ModelStreamSink, ChunkHookContinuation {
  private readonly s: RuntimeServices
  private readonly run: RunContext
  private readonly turn: number
  private readonly view: StateView
  private readonly chunkHooks: boolean
  /** Bounds the chunk hooks of this stream with one timer instead of a check per call. */
  private readonly watchdog?: HookWatchdog
  private readonly textParts: string[] = []
  private readonly reasoningParts: string[] = []
  private index: number = 0
  /** First content-loop verdict seen in this stream. */
  loopVerdict?: LoopVerdict
  /** Whether output.partial views are published (an output schema with partialOutput on). */
  private readonly partials: boolean
  /** The last view published, as JSON ('' : none yet). */
  private lastPartial: string = ''

  constructor(services: RuntimeServices, run: RunContext, turn: number) {
    this.s = services
    this.run = run
    this.turn = turn
    this.view = services.view()
    this.chunkHooks = services.hooks.hasChunkHooks()
    this.partials = services.output !== undefined && services.config.partialOutput
    this.watchdog = this.chunkHooks ? services.hooks.newChunkWatchdog() : undefined
  }

  /** The stream is over: release the watchdog's timer. */
  close(): void {
    if (this.watchdog !== undefined) {
      this.watchdog.close()
    }
  }

  get text(): string {
    return this.textParts.join('')
  }

  get reasoning(): string {
    return this.reasoningParts.join('')
  }

  /** Text and reasoning chunks received so far (dropped ones included). */
  get chunkCount(): number {
    return this.index
  }

  /**
   * Not an async function: the chunk path is the hottest code of the runtime, and awaiting the
   * hook chain here would suspend an async frame for every chunk. Every failure still comes back
   * as a rejected promise, never as a synchronous throw.
   */
  onEvent(event: StreamingEvent): Promise<void> {
    if (this.run.chunkAbort !== undefined) {
      return Promise.reject(this.run.chunkAbort)
    }
    const reasoning = event.type === StreamingEventType.reasoningDelta
    if (!reasoning && event.type !== StreamingEventType.textDelta) {
      return DONE
    }
    try {
      const index = this.index++
      if (!this.chunkHooks) {
        this.keep(event.text, reasoning)
        return DONE
      }
      const ctx = new ModelChunkHookContext(this.s.sessionId, this.run.runId, this.view, event.text, reasoning, index,
        this.turn)
      // Resolves after afterChunkHooks ran (the value is not part of the sink contract).
      return this.s.hooks.onModelChunkThen(ctx, this, this.watchdog) as Object as Promise<void>
    } catch (e) {
      return Promise.reject(e as Object)
    }
  }

  /** The chain's verdict on one chunk (run by the pass before its promise settles). */
  afterChunkHooks(result: ModelChunkHookResult, context: ModelChunkHookContext): void {
    if (result.action === ModelChunkHookAction.drop) {
      return
    }
    if (result.action === ModelChunkHookAction.abort) {
      const err = result.error ?? new ArkAgentError(ErrorLayer.security, ErrorCodes.hookAbort,
        `A chunk hook aborted the stream${result.reason !== undefined ? ': ' + result.reason : ''}`,
        ErrorRetryability.never)
      this.run.chunkAbort = err
      throw err
    }
    this.keep(result.text !== undefined ? result.text : context.text, context.reasoning)
  }

  /** Keeps a chunk that passed the hooks: history, loop detection, the llm.chunk event. */
  private keep(text: string, reasoning: boolean): void {
    if (text.length === 0) {
      return
    }
    if (reasoning) {
      this.reasoningParts.push(text)
    } else {
      this.textParts.push(text)
    }
    const detector = this.s.config.loopDetector
    if (detector !== undefined && this.loopVerdict === undefined) {
      this.loopVerdict = detector.recordChunk(text, reasoning)
    }
    if (this.s.hasAudience(this.run)) {
      this.s.publish(this.run, new LlmChunkEvent(this.s.sessionId, this.run.runId, text, reasoning))
    }
    if (this.partials && !reasoning) {
      this.publishPartial()
    }
  }

  /** The parsed prefix of the text so far, when it changed (PartialJson; prose gives none). */
  private publishPartial(): void {
    if (!this.s.hasAudience(this.run)) {
      return
    }
    const text = this.text
    const value = PartialJson.parse(text)
    if (value === undefined) {
      return
    }
    const shown = JSON.stringify(value)
    if (shown === this.lastPartial) {
      return
    }
    this.lastPartial = shown
    this.s.publish(this.run, new OutputPartialEvent(this.s.sessionId, this.run.runId, this.turn, value, text.length))
  }
}
