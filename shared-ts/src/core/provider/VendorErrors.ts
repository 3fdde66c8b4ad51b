import { ErrorCodes } from '../errors/ArkAgentError'

/**
 * The parts of a vendor's error body that decide what an error means: OpenAI-shaped
 * `{"error": {"message", "type", "code"}}` (DeepSeek, Qwen, OpenAI, Kimi without `code`), Zhipu's
 * `{"error": {"code": "1113", "message"}}` (code as a string), or a bare `{"code", "message"}`.
 * A numeric code is read as its decimal text. Fields that are absent are ''.
 */
export class VendorErrorBody {
  readonly message: string
  readonly code: string
  readonly type: string

  constructor(message: string, code: string, type: string) {
    this.message = message
    this.code = code
    this.type = type
  }

  static readonly empty: VendorErrorBody = new VendorErrorBody('', '', '')

  /** Reads an HTTP error body; text that is not a JSON object gives only a message (the text). */
  static parse(body: string): VendorErrorBody {
    const trimmed = body.trim()
    if (trimmed.length === 0) {
      return VendorErrorBody.empty
    }
    if (trimmed.charAt(0) === '{') {
      try {
        return VendorErrorBody.fromValue(JSON.parse(trimmed) as Object)
      } catch (e) {
        // not JSON: the text itself
      }
    }
    return new VendorErrorBody(trimmed, '', '')
  }

  /** Reads a parsed body or the value of an `error` field sent inside a stream. */
  static fromValue(value: Object | null | undefined): VendorErrorBody {
    if (typeof value === 'string') {
      return new VendorErrorBody(value as string, '', '')
    }
    if (value === null || value === undefined || typeof value !== 'object' || value instanceof Array) {
      return VendorErrorBody.empty
    }
    const record = value as Record<string, Object>
    const inner: Object | null | undefined = record['error']
    if (inner !== null && inner !== undefined && typeof inner === 'object' && !(inner instanceof Array)) {
      const e = inner as Record<string, Object>
      return new VendorErrorBody(VendorErrorBody.text(e['message']), VendorErrorBody.text(e['code']),
        VendorErrorBody.text(e['type']))
    }
    if (typeof inner === 'string') {
      return new VendorErrorBody(inner as string, VendorErrorBody.text(record['code']), VendorErrorBody.text(record['type']))
    }
    return new VendorErrorBody(VendorErrorBody.text(record['message']), VendorErrorBody.text(record['code']),
      VendorErrorBody.text(record['type']))
  }

  private static text(value: Object | null | undefined): string {
    if (typeof value === 'string') {
      return value as string
    }
    if (typeof value === 'number' && Number.isFinite(value as number)) {
      return String(value)
    }
    return ''
  }
}

/**
 * One row of a vendor's error table: when the HTTP status (0: any, also an error inside a 200
 * stream) and the body's code or type (exactly; '' any) and message (a case-insensitive substring;
 * '' any) match, the error gets `errorCode` and the given retryability. See `find` for the order.
 */
export class ErrorRule {
  readonly status: number
  readonly match: string
  readonly messageIncludes: string
  readonly errorCode: string
  readonly retryable: boolean
  /** What the vendor means, for docs and messages. */
  readonly meaning: string

  constructor(status: number, match: string, messageIncludes: string, errorCode: string, retryable: boolean,
    meaning: string) {
    this.status = status
    this.match = match
    this.messageIncludes = messageIncludes
    this.errorCode = errorCode
    this.retryable = retryable
    this.meaning = meaning
  }

  /** `byType`: whether `match` is compared with the body's type (else with its code). */
  matches(status: number, body: VendorErrorBody, byType: boolean): boolean {
    if (this.status !== 0 && this.status !== status) {
      return false
    }
    if (this.match.length > 0 && this.match !== (byType ? body.type : body.code)) {
      return false
    }
    return this.messageIncludes.length === 0 ||
      body.message.toLowerCase().indexOf(this.messageIncludes.toLowerCase()) >= 0
  }

  /**
   * The first row of `rules` that matches the body's code (rows without a code to match included),
   * else the first that matches its type, or undefined (the status alone decides then). A code is
   * the more specific of the two: `{"type":"insufficient_quota","code":"credit_balance_exhausted"}`
   * is the credit row.
   */
  static find(rules: ErrorRule[], status: number, body: VendorErrorBody): ErrorRule | undefined {
    for (let i = 0; i < rules.length; i++) {
      if (rules[i].matches(status, body, false)) {
        return rules[i]
      }
    }
    for (let i = 0; i < rules.length; i++) {
      if (rules[i].match.length > 0 && rules[i].matches(status, body, true)) {
        return rules[i]
      }
    }
    return undefined
  }
}

/** Rows every OpenAI-compatible vendor shares (OpenAI's own codes, reused by many servers). */
export class CommonErrorRules {
  static readonly rows: ErrorRule[] = [
    new ErrorRule(0, 'insufficient_quota', '', ErrorCodes.providerInsufficientBalance, false,
      'quota or balance exhausted'),
    new ErrorRule(0, 'credit_balance_exhausted', '', ErrorCodes.providerInsufficientBalance, false,
      'credit balance exhausted'),
    new ErrorRule(0, 'context_length_exceeded', '', ErrorCodes.providerContextLength, false,
      'the conversation is longer than the model accepts'),
    new ErrorRule(400, '', 'maximum context length', ErrorCodes.providerContextLength, false,
      'the conversation is longer than the model accepts (vLLM and others)'),
    new ErrorRule(0, 'invalid_api_key', '', ErrorCodes.providerAuth, false, 'invalid API key'),
    new ErrorRule(0, 'content_filter', '', ErrorCodes.providerContentFilter, false, 'blocked by content moderation'),
    new ErrorRule(0, 'rate_limit_exceeded', '', ErrorCodes.providerRateLimited, true, 'rate limited: retry later')
  ]
}
