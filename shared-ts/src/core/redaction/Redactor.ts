import { ArkAgentError } from '../errors/ArkAgentError'
import { Thrown } from '../errors/Thrown'
import { AgentMessage } from '../model/AgentMessage'
import { ContentPart, ContentPartType } from '../model/ContentPart'
import { ModelRequest } from '../model/ModelRequest'
import { ModelResponse } from '../model/ModelResponse'
import { ToolCall } from '../model/ToolCall'
import { ToolResult } from '../model/ToolResult'
import { SecretVault } from '../secrets/SecretVault'

const MAX_CAUSE_DEPTH: number = 5

/**
 * Applies the vault's rule (SecretVault) to the shapes that leave the runtime: text, errors (message,
 * code, cause chain — a plain cause keeps only its redacted message, never its stack or fields),
 * model responses (text, reasoning, tool calls, model id, finish reason) and messages. Used at every
 * boundary: providers, MCP clients, the tool registry, hooks' errors, run outcomes, input.
 */
export class Redactor {
  static text(text: string): string {
    return SecretVault.redact(text)
  }

  /** The same error with every secret removed from its message, its code and every cause in its chain. */
  static error(error: ArkAgentError): ArkAgentError {
    if (!SecretVault.active) {
      return error
    }
    const message = SecretVault.redact(error.message)
    const code = SecretVault.redact(error.code)
    const cause = Redactor.cause(error.cause, 0)
    if (message === error.message && code === error.code && cause === error.cause) {
      return error
    }
    const clean = new ArkAgentError(error.layer, code, message, error.retryability, cause)
    clean.retryAfterMs = error.retryAfterMs
    return clean
  }

  /** A response whose text, reasoning, tool calls, model id and finish reason carry no secret. */
  static response(response: ModelResponse): ModelResponse {
    if (!SecretVault.active) {
      return response
    }
    return new ModelResponse(Redactor.message(response.message), SecretVault.redact(response.finishReason),
      response.usage, SecretVault.redact(response.model))
  }

  /** A message whose text parts, reasoning, tool calls (ids, names, arguments), tool call id and error code carry no secret. */
  static message(m: AgentMessage): AgentMessage {
    if (!SecretVault.active) {
      return m
    }
    let changed = false
    const parts: ContentPart[] = []
    for (let i = 0; i < m.partCount(); i++) {
      const p = m.partAt(i)
      const clean = Redactor.part(p)
      changed = changed || clean !== p
      parts.push(clean)
    }
    const calls: ToolCall[] = []
    for (let i = 0; i < m.callCount(); i++) {
      const c = m.callAt(i)
      const clean = new ToolCall(SecretVault.redact(c.id), SecretVault.redact(c.name), SecretVault.redact(c.argumentsJson), c.index)
      const same = clean.id === c.id && clean.name === c.name && clean.argumentsJson === c.argumentsJson
      changed = changed || !same
      calls.push(same ? c : clean)
    }
    const callId = m.toolCallId !== undefined ? SecretVault.redact(m.toolCallId) : undefined
    const code = m.errorCode !== undefined ? SecretVault.redact(m.errorCode) : undefined
    changed = changed || callId !== m.toolCallId || code !== m.errorCode
    return changed ? new AgentMessage(m.role, parts, calls, callId, m.isError, code) : m
  }

  /** A call whose id, name and arguments carry no secret (the same object when there was none). */
  static call(c: ToolCall): ToolCall {
    if (!SecretVault.active) {
      return c
    }
    const clean = new ToolCall(SecretVault.redact(c.id), SecretVault.redact(c.name), SecretVault.redact(c.argumentsJson), c.index)
    return clean.id === c.id && clean.name === c.name && clean.argumentsJson === c.argumentsJson ? c : clean
  }

  /** A request whose messages carry no secret: what goes on the wire to a vendor. */
  static request(request: ModelRequest): ModelRequest {
    if (!SecretVault.active) {
      return request
    }
    const clean: AgentMessage[] = []
    for (let i = 0; i < request.messages.length; i++) {
      clean.push(Redactor.message(request.messages[i]))
    }
    return request.withMessages(clean)
  }

  /** A tool result whose parts and call id carry no secret (what a tool returns goes to the model, history and events). */
  static toolResult(r: ToolResult): ToolResult {
    if (!SecretVault.active) {
      return r
    }
    const parts = r.content
    let changed = false
    const clean: ContentPart[] = []
    for (let i = 0; i < parts.length; i++) {
      const c = Redactor.part(parts[i])
      changed = changed || c !== parts[i]
      clean.push(c)
    }
    const callId = SecretVault.redact(r.callId)
    return changed || callId !== r.callId ? new ToolResult(callId, clean, r.isError, r.errorCode) : r
  }

  /**
   * What `toolResult(r)` returns, with long parts (a 1 MiB log a tool returned) scanned in slices and
   * the (UI) thread given back between them (SecretVault.redactAsync).
   */
  static async toolResultAsync(r: ToolResult): Promise<ToolResult> {
    if (!SecretVault.active) {
      return r
    }
    const parts = r.content
    let changed = false
    const clean: ContentPart[] = []
    for (let i = 0; i < parts.length; i++) {
      const c = await Redactor.partAsync(parts[i])
      changed = changed || c !== parts[i]
      clean.push(c)
    }
    const callId = SecretVault.redact(r.callId)
    return changed || callId !== r.callId ? new ToolResult(callId, clean, r.isError, r.errorCode) : r
  }

  /** What `part(p)` returns; a long text, reasoning, json text or data is scanned in slices. */
  static async partAsync(p: ContentPart): Promise<ContentPart> {
    const min = SecretVault.ASYNC_MIN_LENGTH
    if (p.text.length < min && p.data.length < min) {
      return Redactor.part(p)
    }
    if (p.isText()) {
      const t = await SecretVault.redactAsync(p.text)
      return t === p.text ? p : ContentPart.text(t)
    }
    if (p.type === ContentPartType.reasoning) {
      const t = await SecretVault.redactAsync(p.text)
      return t === p.text ? p : ContentPart.reasoning(t)
    }
    if (p.data.length > 0 && await SecretVault.leaksAsync(p.data)) {
      return ContentPart.text(`[a ${p.type} part was withheld: its data carried a secret]`)
    }
    if (p.type === ContentPartType.json) {
      if (!(await SecretVault.leaksAsync(p.text))) {
        return p
      }
      const t = Redactor.jsonRewrite(p.text)
      return t === p.text ? p : ContentPart.json(t)
    }
    const text = await SecretVault.redactAsync(p.text)
    const uri = SecretVault.redact(p.uri)
    const mime = SecretVault.redact(p.mimeType)
    return text === p.text && uri === p.uri && mime === p.mimeType ? p : ContentPart.of(p.type, text, mime, p.data, uri)
  }

  /**
   * Text and reasoning redacted; a json part's strings (keys and values, parsed — never its raw text,
   * which a mask could break); a resource's text and URI. A part whose bytes (base64) hold a piece
   * of a secret is withheld whole: masking would corrupt the bytes, passing them would leak.
   */
  static part(p: ContentPart): ContentPart {
    if (p.isText()) {
      const t = SecretVault.redact(p.text)
      return t === p.text ? p : ContentPart.text(t)
    }
    if (p.type === ContentPartType.reasoning) {
      const t = SecretVault.redact(p.text)
      return t === p.text ? p : ContentPart.reasoning(t)
    }
    if (p.data.length > 0 && SecretVault.leaks(p.data)) {
      return ContentPart.text(`[a ${p.type} part was withheld: its data carried a secret]`)
    }
    if (p.type === ContentPartType.json) {
      const t = Redactor.jsonText(p.text)
      return t === p.text ? p : ContentPart.json(t)
    }
    const text = SecretVault.redact(p.text)
    const uri = SecretVault.redact(p.uri)
    const mime = SecretVault.redact(p.mimeType)
    return text === p.text && uri === p.uri && mime === p.mimeType ? p : ContentPart.of(p.type, text, mime, p.data, uri)
  }

  /** JSON text with every string (keys included) redacted; text that does not parse is redacted as text. */
  static jsonText(text: string): string {
    if (!SecretVault.leaks(text)) {
      return text
    }
    return Redactor.jsonRewrite(text)
  }

  /** JSON text that holds a secret, with every string redacted (as text when it does not parse). */
  private static jsonRewrite(text: string): string {
    try {
      return JSON.stringify(Redactor.jsonValue(JSON.parse(text) as Object))
    } catch (e) {
      return SecretVault.redact(text)
    }
  }

  private static jsonValue(v: Object | null): Object | null {
    if (typeof v === 'string') {
      return SecretVault.redact(v as string)
    }
    if (v instanceof Array) {
      const items = v as Object[]
      const out: Object[] = []
      for (let i = 0; i < items.length; i++) {
        out.push(Redactor.jsonValue(items[i]) as Object)
      }
      return out
    }
    if (v !== null && typeof v === 'object') {
      const obj = v as Record<string, Object>
      const out: Record<string, Object> = {}
      const keys = Object.keys(obj)
      for (let i = 0; i < keys.length; i++) {
        out[SecretVault.redact(keys[i])] = Redactor.jsonValue(obj[keys[i]]) as Object
      }
      return out
    }
    return v
  }

  /** A fresh StreamRedactor for one channel of one stream. */
  static stream(): StreamRedactor {
    return new StreamRedactor()
  }

  private static cause(cause: Error | undefined, depth: number): Error | undefined {
    if (cause === undefined || depth >= MAX_CAUSE_DEPTH) {
      return undefined
    }
    const known = ArkAgentError.asArkError(cause)
    if (known !== undefined) {
      const inner = new ArkAgentError(known.layer, SecretVault.redact(known.code), SecretVault.redact(known.message),
        known.retryability, Redactor.cause(known.cause, depth + 1))
      inner.retryAfterMs = known.retryAfterMs
      return inner
    }
    // A plain error keeps only its (redacted) message: its stack and fields may hold the secret.
    return new Error(SecretVault.redact(Thrown.describe(cause)))
  }
}

/**
 * Redacts text that arrives in pieces: a secret split across pieces is still caught. The last
 * `fragmentLength - 1` characters (more while they may still be part of a secret) are held back
 * until the next piece or `flush` shows what they are; everything before passes at once.
 */
export class StreamRedactor {
  private held: string = ''

  /** The text that can be shown now. */
  push(piece: string): string {
    if (!SecretVault.active) {
      const out = this.held + piece
      this.held = ''
      return out
    }
    const text = this.held + piece
    let cut = text.length - (SecretVault.fragmentLength - 1)
    if (cut <= 0) {
      this.held = text
      return ''
    }
    const ranges = SecretVault.rangesIn(text, text.length)
    // A stretch reaching into the held tail may grow with the next piece: hold it back whole.
    for (let i = 0; i < ranges.length; i += 2) {
      if (ranges[i] < cut && ranges[i + 1] > cut) {
        cut = ranges[i]
      }
    }
    const shown: number[] = []
    for (let i = 0; i < ranges.length; i += 2) {
      if (ranges[i + 1] <= cut) {
        shown.push(ranges[i], ranges[i + 1])
      }
    }
    this.held = text.substring(cut)
    return SecretVault.apply(text.substring(0, cut), shown)
  }

  /** What is still held back, redacted (the stream ended). */
  flush(): string {
    const rest = this.held
    this.held = ''
    return SecretVault.redact(rest)
  }
}
