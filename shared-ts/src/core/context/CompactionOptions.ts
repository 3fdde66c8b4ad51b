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
  /** Tokens kept free for the answer; -1 takes the provider's (`outputReserve`), else a quarter of the window up to 4,096. */
  outputReserve: number = -1
  /** Fraction of the budget a request may reach before compaction (0 < threshold <= 1). */
  threshold: number = 0.8
  /** Fraction of the budget the verbatim tail may take (0 < keepRecent < threshold). */
  keepRecent: number = 0.3
  /**
   * Longest summary, in tokens: the summary call's `max_tokens`, and the cap of a summary a hook
   * writes. 0 (default): 1,024, or less when the window is small (it must fit between the kept tail
   * and the threshold).
   */
  summaryMaxTokens: number = 0
  /** Longest summary stored, in characters (it lives in the state header: keep it small); at least 200. */
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
    ConfigCheck.number(this.threshold, 0, 1, 'compaction.threshold', true)
    if (!(typeof this.keepRecent === 'number' && this.keepRecent > 0 && this.keepRecent < this.threshold)) {
      throw ConfigCheck.invalid(`compaction.keepRecent must be a number above 0 and below compaction.threshold; got ${
        ConfigCheck.show(this.keepRecent)}`)
    }
    ConfigCheck.count(this.summaryMaxTokens, 0, 'compaction.summaryMaxTokens')
    // A truncation note (up to ~100 characters) is kept whole within half of it.
    ConfigCheck.count(this.summaryMaxChars, 200, 'compaction.summaryMaxChars')
    ConfigCheck.timeoutMs(this.summaryTimeoutMs, 'compaction.summaryTimeoutMs')
    ConfigCheck.text(this.summaryModel, 'compaction.summaryModel', 0, 256)
    if (this.summaryProvider !== undefined) {
      ConfigCheck.implementing(this.summaryProvider, ['streamModel'], 'compaction.summaryProvider (a ModelProvider, or absent)')
    }
  }

  /**
   * Tokens a request may take with a provider that reports `providerWindow` and `providerReserve`
   * (0: unknown): the window less the output reserve (the options' own, else the provider's, else
   * a quarter of the window up to 4,096). Throws invalid_config when no window is known, when the
   * reserve leaves fewer than 256 tokens, or when an explicit summaryMaxTokens does not fit.
   */
  budgetFor(providerWindow: number, providerReserve: number): number {
    const window = this.contextWindow > 0 ? this.contextWindow : providerWindow
    if (!(window > 0)) {
      throw ConfigCheck.invalid('compaction needs a context window: set compaction.contextWindow, or use a ' +
        'provider that knows its model\'s (a preset)')
    }
    const reserve = this.outputReserve >= 0 ? this.outputReserve :
      (providerReserve > 0 ? providerReserve : Math.min(4096, Math.floor(window / 4)))
    const budget = window - reserve
    if (budget < 256) {
      throw ConfigCheck.invalid(`compaction: a context window of ${window} less an output reserve of ${reserve} leaves ` +
        `${budget} tokens for a request; at least 256 are needed`)
    }
    const room = this.summaryRoom(budget)
    if (this.summaryMaxTokens > room) {
      throw ConfigCheck.invalid(`compaction.summaryMaxTokens (${this.summaryMaxTokens}) must fit between the kept tail ` +
        `and the threshold: at most ${room} tokens with a request budget of ${budget}`)
    }
    return budget
  }

  /** The summary's token limit for a request budget (summaryMaxTokens, or its automatic value). */
  summaryTokens(budget: number): number {
    return this.summaryMaxTokens > 0 ? this.summaryMaxTokens : Math.max(1, Math.min(1024, this.summaryRoom(budget)))
  }

  private summaryRoom(budget: number): number {
    return Math.floor(budget * (this.threshold - this.keepRecent))
  }
}
