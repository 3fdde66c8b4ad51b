import { Thrown } from '../errors/Thrown'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { AgentMessage, MessageRole } from '../model/AgentMessage'
import { ModelRequest } from '../model/ModelRequest'
import { ModelResponse } from '../model/ModelResponse'
import { ModelStreamSink } from '../provider/ModelProvider'
import { StreamingEvent } from '../provider/StreamingEvent'
import { CancellationSource, CancellationToken } from '../util/Cancellation'
import { withTimeout } from '../util/Delay'
import { LoopDiagnosisOptions } from './LoopDetectorOptions'
import { preview } from './StringHash'

/** The diagnosis model's validated answer. */
export class DiagnosisAnswer {
  readonly looping: boolean
  readonly confidence: number
  readonly reason: string

  constructor(looping: boolean, confidence: number, reason: string) {
    this.looping = looping
    this.confidence = confidence
    this.reason = reason
  }
}

/** Either an answer or why there is none (failure, timeout, unusable reply). */
export class DiagnosisOutcome {
  readonly answer?: DiagnosisAnswer
  readonly failure: string

  constructor(answer?: DiagnosisAnswer, failure: string = '') {
    this.answer = answer
    this.failure = failure
  }
}

/** The diagnosis only needs the final text; streamed chunks are dropped. */
class IgnoreChunksSink implements ModelStreamSink {
  onEvent(event: StreamingEvent): Promise<void> {
    return Promise.resolve()
  }
}

const SYSTEM_PROMPT = 'You watch an AI agent for unproductive loops: repeating the same tool calls or the same ' +
  'text without making progress. Repetition that makes progress (new arguments, changing results, ' +
  'working through a list) is NOT a loop. Answer with JSON only, exactly this shape: ' +
  '{"looping": true|false, "confidence": <number 0..1>, "reason": "<one short sentence>"}'

/** Asks a model whether the recent history is going in circles. Never rejects. */
export class LoopDiagnoser {
  private readonly options: LoopDiagnosisOptions

  constructor(options: LoopDiagnosisOptions) {
    this.options = options
  }

  /** Turns `afterTurns`, `afterTurns + interval`, `afterTurns + 2 * interval`, ... */
  isDue(turn: number): boolean {
    const first = this.options.afterTurns
    const every = Math.max(1, Math.floor(this.options.interval))
    return turn >= first && (turn - first) % every === 0
  }

  async diagnose(history: AgentMessage[], token: CancellationToken): Promise<DiagnosisOutcome> {
    const source = CancellationSource.linked([token])
    try {
      const request = new ModelRequest(this.buildPrompt(history), [], this.options.model, 0)
      const ms = this.options.timeoutMs
      const response = await withTimeout<ModelResponse>(
        this.options.provider.streamModel(request, new IgnoreChunksSink(), source.token), ms,
        (): Error => {
          // Abort the underlying call too, not just stop waiting for it.
          source.cancel('loop diagnosis timed out')
          return new ArkAgentError(ErrorLayer.transport, ErrorCodes.transportTimeout,
            `loop diagnosis timed out after ${ms} ms`, ErrorRetryability.retryable)
        })
      const answer = parseDiagnosisAnswer(response.message.text())
      if (answer === undefined) {
        return new DiagnosisOutcome(undefined,
          `loop diagnosis answer unusable: ${JSON.stringify(preview(response.message.text(), 120))}`)
      }
      return new DiagnosisOutcome(answer)
    } catch (e) {
      return new DiagnosisOutcome(undefined, `loop diagnosis failed: ${describe(e as Object)}`)
    } finally {
      source.dispose()
    }
  }

  private buildPrompt(history: AgentMessage[]): AgentMessage[] {
    const start = Math.max(0, history.length - this.options.recentMessages)
    const lines: string[] = []
    // Long batch work looks like a loop without the task it works through: the request always goes in.
    const request = LoopDiagnoser.requestIndex(history)
    if (request >= 0 && request < start) {
      lines.push(`The user's request:\n${this.renderMessage(history[request])}\n`)
      lines.push(`(${start - request - 1} messages omitted)`)
    }
    for (let i = start; i < history.length; i++) {
      lines.push(this.renderMessage(history[i]))
    }
    const user = `Recent agent history (oldest first):\n\n${lines.join('\n')}\n\nIs the agent stuck in a loop?`
    return [AgentMessage.system(SYSTEM_PROMPT), AgentMessage.user(user)]
  }

  /**
   * The user message the current run works on: the first user message after the latest final
   * answer (an assistant message without tool calls) before the newest message; -1 if none.
   */
  static requestIndex(history: AgentMessage[]): number {
    let from = 0
    for (let i = history.length - 2; i >= 0; i--) {
      const m = history[i]
      if (m.role === MessageRole.assistant && !m.hasToolCalls()) {
        from = i + 1
        break
      }
    }
    for (let i = from; i < history.length; i++) {
      if (history[i].role === MessageRole.user) {
        return i
      }
    }
    return -1
  }

  private renderMessage(m: AgentMessage): string {
    const max = this.options.maxMessageChars
    let line = `[${m.role}] ${preview(m.text(), max)}`
    for (let i = 0; i < m.toolCalls.length; i++) {
      line += ` <call ${m.toolCalls[i].name} ${preview(m.toolCalls[i].argumentsJson, max)}>`
    }
    if (m.role === MessageRole.tool && m.isError) {
      line += ' (error)'
    }
    return line
  }
}

/**
 * Extracts `{"looping": boolean, "confidence": number, "reason"?: string}` from a reply that may
 * wrap it in code fences or prose. Returns undefined for anything else.
 */
export function parseDiagnosisAnswer(text: string): DiagnosisAnswer | undefined {
  const close = text.lastIndexOf('}')
  // Outermost braces first; then the last '{' in case prose before the answer holds braces.
  let obj = parseObject(text, text.indexOf('{'), close)
  if (obj === undefined) {
    obj = parseObject(text, text.lastIndexOf('{', close), close)
  }
  if (obj === undefined) {
    return undefined
  }
  const looping = obj['looping']
  const confidence = obj['confidence']
  const reason = obj['reason']
  if (typeof looping !== 'boolean' || typeof confidence !== 'number' || !Number.isFinite(confidence) ||
    confidence < 0 || confidence > 1) {
    return undefined
  }
  if (reason !== undefined && reason !== null && typeof reason !== 'string') {
    return undefined
  }
  return new DiagnosisAnswer(looping as boolean, confidence as number, typeof reason === 'string' ? reason as string : '')
}

function parseObject(text: string, open: number, close: number): Record<string, Object> | undefined {
  if (open < 0 || close <= open) {
    return undefined
  }
  try {
    const obj = JSON.parse(text.substring(open, close + 1)) as Record<string, Object>
    if (obj === null || typeof obj !== 'object' || obj instanceof Array) {
      return undefined
    }
    return obj
  } catch (e) {
    return undefined
  }
}

function describe(e: Object): string {
  const known = ArkAgentError.asArkError(e)
  return known !== undefined ? known.toString() : Thrown.describe(e)
}
