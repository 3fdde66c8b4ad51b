// Events of context compaction: a checkpoint stored and used, a fallback to truncation.
import { BusEvent } from './BusEvent'
import { ControllerEventTypes } from './ControllerEventTypes'

/**
 * A compaction was stored and the next request uses it: history [from, upTo) is sent as `summary`
 * (minus pinned messages). `truncated` when the summary could not be made (`reason` says why).
 */
export class ContextCompactedEvent extends BusEvent {
  readonly from: number
  readonly upTo: number
  readonly pinned: number
  readonly summaryChars: number
  readonly truncated: boolean
  readonly reason: string
  readonly tokensBefore: number
  readonly tokensAfter: number

  constructor(sessionId: string, runId: string, from: number, upTo: number, pinned: number, summaryChars: number,
    truncated: boolean, reason: string, tokensBefore: number, tokensAfter: number) {
    super(sessionId, runId)
    this.from = from
    this.upTo = upTo
    this.pinned = pinned
    this.summaryChars = summaryChars
    this.truncated = truncated
    this.reason = reason
    this.tokensBefore = tokensBefore
    this.tokensAfter = tokensAfter
  }

  eventType(): string {
    return ControllerEventTypes.contextCompacted
  }
}

/**
 * A compaction fell back to truncation because its summary call failed (an error, `summary_timeout`,
 * an empty answer, or a `beforeModelCall` veto): `leftOut` older messages of [from, upTo) are no longer
 * sent and are in no summary. Published right after the truncated checkpoint's `context.compacted`;
 * the run goes on. An app shows it (e.g. "older messages were dropped: <reason>"). `code` is the
 * failure's error code (`provider_bad_request`, `summary_timeout`, ...), '' when it had none.
 */
export class CompactionWarningEvent extends BusEvent {
  readonly from: number
  readonly upTo: number
  readonly leftOut: number
  readonly code: string
  readonly reason: string

  constructor(sessionId: string, runId: string, from: number, upTo: number, leftOut: number, code: string,
    reason: string) {
    super(sessionId, runId)
    this.from = from
    this.upTo = upTo
    this.leftOut = leftOut
    this.code = code
    this.reason = reason
  }

  eventType(): string {
    return ControllerEventTypes.compactionWarning
  }
}
