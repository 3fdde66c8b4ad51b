import { ModelProvider } from '../provider/ModelProvider'
import { ConfigCheck } from '../util/ConfigCheck'

/**
 * When and how a long session's history is compacted (docs/compaction.md). The request budget is
 * `contextWindow - outputReserve`; compaction starts when the next request's estimate passes
 * `threshold` of it, and keeps the most recent messages verbatim up to `keepRecent` of it.
 */
export class CompactionOptions {
  /** The model's context window in tokens; 0 takes the provider's (`ModelProvider.contextWindow`). */
  contextWindow: number = 0
  /** Tokens kept free for the answer; -1 takes the provider's (`outputReserve`), else 4096. */
  outputReserve: number = -1
  /** Fraction of the budget a request may reach before compaction (0 < threshold <= 1). */
  threshold: number = 0.8
  /** Fraction of the budget the verbatim tail may take (0 < keepRecent < threshold). */
  keepRecent: number = 0.3
  /** Longest summary asked of the model, in tokens (its `max_tokens`). */
  summaryMaxTokens: number = 1024
  /** Longest summary stored, in characters (it lives in the state header: keep it small). */
  summaryMaxChars: number = 6000
  /** Bound of the summary call in ms (0 disables); past it the compaction falls back to truncation. */
  summaryTimeoutMs: number = 60000
  /** Another (cheaper) model for summaries; the session's provider when absent. */
  summaryProvider?: ModelProvider
  /** Model id for the summary call; '' uses the summary provider's default. */
  summaryModel: string = ''

  /** Throws invalid_config naming the first setting that is out of range. */
  check(): void {
    ConfigCheck.count(this.contextWindow, 0, 'compaction.contextWindow')
    if (this.outputReserve !== -1) {
      ConfigCheck.count(this.outputReserve, 0, 'compaction.outputReserve')
    }
    if (!(this.threshold > 0 && this.threshold <= 1)) {
      throw ConfigCheck.invalid('compaction.threshold must be in (0, 1]')
    }
    if (!(this.keepRecent > 0 && this.keepRecent < this.threshold)) {
      throw ConfigCheck.invalid('compaction.keepRecent must be above 0 and below compaction.threshold')
    }
    ConfigCheck.count(this.summaryMaxTokens, 1, 'compaction.summaryMaxTokens')
    ConfigCheck.count(this.summaryMaxChars, 1, 'compaction.summaryMaxChars')
    ConfigCheck.timeoutMs(this.summaryTimeoutMs, 'compaction.summaryTimeoutMs')
  }
}
