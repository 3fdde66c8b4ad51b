import { ArkAgentError } from '../errors/ArkAgentError'
import { Thrown } from '../errors/Thrown'
import { AgentMessage } from '../model/AgentMessage'
import { ContentPart, ContentPartType } from '../model/ContentPart'
import { ModelResponse } from '../model/ModelResponse'
import { ToolCall } from '../model/ToolCall'
import { ApiKey } from './ApiKey'

const MASK: string = '[redacted]'
const MAX_CAUSE_DEPTH: number = 5

/**
 * The one place a provider's secret is removed from what leaves it. Every error the provider
 * throws is rebuilt through `error` (its message, and its cause chain, which may carry a server's
 * echo of the key in a message or stack), and everything a server streams back — text, reasoning,
 * tool calls — passes `text` / `response` / a StreamRedactor before anyone sees it. A new error
 * path cannot forget it: the provider applies it at its boundary, not at each throw.
 */
export class Redactor {
  /** The key stays inside ApiKey's closure: a Redactor serialises without it. */
  private readonly key: ApiKey

  constructor(key: ApiKey) {
    this.key = key
  }

  /** The secret, or '' when it is too short to be a key (and too likely to occur by chance). */
  private get secret(): string {
    const value = this.key.value()
    return value.length >= 4 ? value : ''
  }

  get active(): boolean {
    return this.secret.length > 0
  }

  text(text: string): string {
    const secret = this.secret
    if (secret.length === 0 || text.indexOf(secret) < 0) {
      return text
    }
    return text.split(secret).join(MASK)
  }

  /** The same error with the secret removed from its message and from every cause in its chain. */
  error(error: ArkAgentError): ArkAgentError {
    if (!this.active) {
      return error
    }
    const cause = this.cause(error.cause, 0)
    const clean = new ArkAgentError(error.layer, error.code, this.text(error.message), error.retryability, cause)
    clean.retryAfterMs = error.retryAfterMs
    return clean
  }

  /** A response whose text, reasoning and tool calls carry no secret. */
  response(response: ModelResponse): ModelResponse {
    if (!this.active) {
      return response
    }
    const m = response.message
    const parts: ContentPart[] = []
    for (let i = 0; i < m.partCount(); i++) {
      const p = m.partAt(i)
      parts.push(p.isText() ? ContentPart.text(this.text(p.text)) :
        p.type === ContentPartType.reasoning ? ContentPart.reasoning(this.text(p.text)) : p)
    }
    const calls: ToolCall[] = []
    for (let i = 0; i < m.callCount(); i++) {
      const c = m.callAt(i)
      calls.push(new ToolCall(this.text(c.id), this.text(c.name), this.text(c.argumentsJson), c.index))
    }
    return response.withMessage(new AgentMessage(m.role, parts, calls, m.toolCallId, m.isError, m.errorCode))
  }

  /** A fresh StreamRedactor for one channel of one stream. */
  stream(): StreamRedactor {
    return new StreamRedactor(this.key)
  }

  private cause(cause: Error | undefined, depth: number): Error | undefined {
    if (cause === undefined || depth >= MAX_CAUSE_DEPTH) {
      return undefined
    }
    const known = ArkAgentError.asArkError(cause)
    if (known !== undefined) {
      const inner = new ArkAgentError(known.layer, known.code, this.text(known.message), known.retryability,
        this.cause(known.cause, depth + 1))
      inner.retryAfterMs = known.retryAfterMs
      return inner
    }
    // A plain error keeps only its (redacted) message: its stack and fields may hold the secret.
    return new Error(this.text(Thrown.describe(cause)))
  }
}

/**
 * Redacts text that arrives in pieces: a secret split across two pieces is still caught. The end
 * of a piece that could be the start of the secret is held back until the next piece (or `flush`)
 * shows whether it is; everything else passes at once.
 */
export class StreamRedactor {
  private readonly key: ApiKey
  private held: string = ''

  constructor(key: ApiKey) {
    this.key = key
  }

  /** The text that can be shown now. */
  push(piece: string): string {
    const secret = this.key.value()
    if (secret.length < 4) {
      return piece
    }
    let text = this.held.length > 0 ? this.held + piece : piece
    if (text.indexOf(secret) >= 0) {
      text = text.split(secret).join(MASK)
    }
    const keep = StreamRedactor.partialTail(text, secret)
    this.held = keep > 0 ? text.substring(text.length - keep) : ''
    return keep > 0 ? text.substring(0, text.length - keep) : text
  }

  /** What is still held back (the stream ended: it was not the secret). */
  flush(): string {
    const rest = this.held
    this.held = ''
    return rest
  }

  /** Length of the longest end of `text` that is a proper start of the secret. */
  private static partialTail(text: string, secret: string): number {
    const first = secret.charCodeAt(0)
    const from = Math.max(0, text.length - secret.length + 1)
    for (let i = from; i < text.length; i++) {
      if (text.charCodeAt(i) === first && secret.startsWith(text.substring(i))) {
        return text.length - i
      }
    }
    return 0
  }
}
