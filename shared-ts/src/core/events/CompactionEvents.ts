// Events of context compaction: a checkpoint stored and used, a fallback to truncation.
import { BusEvent } from './BusEvent'
import { ControllerEventTypes } from './ControllerEventTypes'

/**
 * A compaction was stored and the next request uses it: history [from, upTo) is sent as `summary`
 * (minus pinned messages). `truncated` when the summary could not be made (`reason` says why).
 */
export class ContextCompactedEvent extends BusEvent {
  /** First history index the checkpoint covers (the previous checkpoint's `upTo`, or 0). */
  readonly from: number
  /** End of the covered range (exclusive): history from here on is sent as it is. */
  readonly upTo: number
  /** How many history messages below `upTo` are pinned: sent as they are, not summarised. */
  readonly pinned: number
  /** Length in characters of the stored summary (a truncation note when `truncated`). */
  readonly summaryChars: number
  /** True when the summary call failed and older messages were dropped (a CompactionWarningEvent follows). */
  readonly truncated: boolean
  /** Why messages are missing from the summary (its call's failure, or messages that did not fit); '' if none are. */
  readonly reason: string
  /** Estimated tokens of the next request without this compaction (calibrated to the provider's counts). */
  readonly tokensBefore: number
  /** Estimated tokens of the next request with the stored checkpoint. */
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

  /** `ControllerEventTypes.contextCompacted` ('context.compacted'). */
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
  /** First history index of the compacted range (the previous checkpoint's `upTo`, or 0). */
  readonly from: number
  /** End of the compacted range (exclusive): history from here on is still sent. */
  readonly upTo: number
  /** How many messages of [from, upTo) are no longer sent: neither pinned nor in any summary. */
  readonly leftOut: number
  /** The failure's error code (`provider_bad_request`, `summary_timeout`, ...); '' when it had none. */
  readonly code: string
  /** The summary call's failure as text (also the `reason` of the truncated checkpoint's `context.compacted`). */
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

  /** `ControllerEventTypes.compactionWarning` ('context.compaction_warning'). */
  eventType(): string {
    return ControllerEventTypes.compactionWarning
  }
}
