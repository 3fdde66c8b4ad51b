import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { AgentMessage, MessageRole } from '../model/AgentMessage'
import { ModelRequest } from '../model/ModelRequest'
import { ModelProvider, ModelStreamSink } from '../provider/ModelProvider'
import { StreamingEvent } from '../provider/StreamingEvent'
import { CancellationSource, CancellationToken } from '../util/Cancellation'
import { withTimeout } from '../util/Delay'
import { TokenEstimator } from './TokenEstimator'

/** Longest rendering of one message in the summary request (the middle is left out beyond it). */
const MESSAGE_CHARS: number = 2000

const INSTRUCTIONS: string = 'You compact a conversation between a user and an AI agent that uses tools, so the ' +
  'agent can go on without the older messages. Write a concise summary that keeps: what the user wants and ' +
  'every instruction or preference they gave; decisions made; facts, names, numbers, file paths and ids that ' +
  'may be needed again; what the tools did and found; what is still open. Keep the language the user wrote ' +
  'in. Answer with the summary only.'

/** The summary call's stream goes nowhere: nobody is shown a summary while it is written. */
class DiscardSink implements ModelStreamSink {
  async onEvent(event: StreamingEvent): Promise<void> {
  }
}

/** The summary request, and how many of the messages did not fit it (the oldest; they are not in the summary). */
export class SummaryRequest {
  readonly request: ModelRequest
  readonly dropped: number

  constructor(request: ModelRequest, dropped: number) {
    this.request = request
    this.dropped = dropped
  }
}

/** Builds the summary request and makes the call; every failure is an ArkAgentError for the fallback. */
export class Summarizer {
  /**
   * The request: instructions, then the previous summary (at most half of `inputTokens`) and the
   * messages as plain text, oldest dropped first when the whole would pass `inputTokens` (raw estimate).
   */
  static request(previousSummary: string, messages: AgentMessage[], inputTokens: number, model: string,
    maxTokens: number): SummaryRequest {
    const previous = Summarizer.fit(previousSummary, Math.floor(inputTokens / 2))
    const lines: string[] = []
    let tokens = TokenEstimator.text(INSTRUCTIONS) + TokenEstimator.text(previous) + 64
    let dropped = 0
    for (let i = messages.length - 1; i >= 0; i--) {
      const line = Summarizer.render(messages[i])
      const cost = TokenEstimator.text(line) + 4
      if (tokens + cost > inputTokens && lines.length > 0) {
        dropped = i + 1
        break
      }
      tokens += cost
      lines.push(line)
    }
    lines.reverse()
    let body = ''
    if (previous.length > 0) {
      body += `Summary so far:\n${previous}\n\n`
    }
    if (dropped > 0) {
      body += `(${dropped} older messages are not shown.)\n`
    }
    body += `Messages to add to the summary:\n${lines.join('\n')}`
    return new SummaryRequest(new ModelRequest([AgentMessage.system(INSTRUCTIONS), AgentMessage.user(body)], [], model,
      undefined, maxTokens, false), dropped)
  }

  /**
   * The longest beginning of `text` whose raw estimate is at most `tokens` (cut with a mark, never
   * inside a surrogate pair).
   */
  static fit(text: string, tokens: number): string {
    if (TokenEstimator.text(text) <= tokens) {
      return text
    }
    let lo = 0
    let hi = text.length
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2)
      if (TokenEstimator.text(text.substring(0, mid)) + 1 <= tokens) {
        lo = mid
      } else {
        hi = mid - 1
      }
    }
    let end = lo
    const c = end > 0 ? text.charCodeAt(end - 1) : 0
    if (c >= 0xd800 && c <= 0xdbff) {
      end--
    }
    return `${text.substring(0, end)}…`
  }

  static render(m: AgentMessage): string {
    let out = ''
    if (m.role === MessageRole.tool) {
      out = `[tool result${m.isError ? ', error' : ''}] ${m.modelText()}`
    } else {
      out = `[${m.role}] ${m.modelText()}`
      for (let i = 0; i < m.callCount(); i++) {
        const c = m.callAt(i)
        out += `\n[${m.role} called] ${c.name}(${c.argumentsJson})`
      }
    }
    if (out.length <= MESSAGE_CHARS) {
      return out
    }
    const half = MESSAGE_CHARS / 2
    return `${out.substring(0, half)} […${out.length - MESSAGE_CHARS} characters left out…] ${out.substring(out.length - half)}`
  }

  /** The summary text, or a rejection (timeout, provider error, an empty answer). Cancellation propagates. */
  static async call(provider: ModelProvider, request: ModelRequest, timeoutMs: number,
    token: CancellationToken): Promise<string> {
    const source = CancellationSource.linked([token])
    try {
      const work = provider.streamModel(request, new DiscardSink(), source.token)
      const response = await withTimeout(work, timeoutMs, (): Error => {
        source.cancel('summary timeout')
        return new ArkAgentError(ErrorLayer.runtime, ErrorCodes.summaryTimeout,
          `The summary took longer than ${timeoutMs} ms`, ErrorRetryability.retryable)
      })
      const text = response.message.text().trim()
      if (text.length === 0) {
        throw new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerError, 'The summary came back empty',
          ErrorRetryability.retryable)
      }
      return text
    } finally {
      source.dispose()
    }
  }
}
