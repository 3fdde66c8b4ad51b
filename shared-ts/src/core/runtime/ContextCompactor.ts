import { ReasoningEcho } from '../provider/WireProfile'
import { CompactionOptions } from '../context/CompactionOptions'
import { ContextWindow } from '../context/ContextWindow'
import { Summarizer } from '../context/Summarizer'
import { TokenEstimator } from '../context/TokenEstimator'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { Thrown } from '../errors/Thrown'
import { HookDiagnosticEvent } from '../events/AgentEvents'
import { CompactionWarningEvent, ContextCompactedEvent } from '../events/CompactionEvents'
import { CompactionHookContext, ModelCallHookContext } from '../hook/HookContexts'
import { CompactionHookAction, ModelCallHookAction } from '../hook/HookResults'
import { AgentMessage, MessageRole } from '../model/AgentMessage'
import { ModelRequest } from '../model/ModelRequest'
import { ModelResponse } from '../model/ModelResponse'
import { ToolDefinition } from '../model/ToolDefinition'
import { CompactionCheckpoint } from '../state/CompactionCheckpoint'
import { Ids } from '../util/Ids'
import { RunContext } from './RunContext'
import { RuntimeServices } from './RuntimeServices'
import { PersistReason, StatePersister } from './StatePersister'

/** Calibration bounds: a provider that reports nonsense cannot make the estimate absurd. */
const MIN_CALIBRATION: number = 0.5
const MAX_CALIBRATION: number = 8
/** Below this share of the budget, a compaction within the budget is not worth its summary call. */
const MIN_GAIN: number = 0.1

/** What the summary call produced, and how many messages did not fit its request. */
class SummaryText {
  readonly text: string
  readonly dropped: number

  constructor(text: string, dropped: number) {
    this.text = text
    this.dropped = dropped
  }
}

/**
 * Keeps each request within the model's context window (docs/compaction.md). Before a turn's
 * request is built: if its estimate passes the threshold, the older history is summarised (the
 * summary request passes beforeModelCall like any model call), the result passes beforeCompaction,
 * and the checkpoint is stored — mandatory — before any request uses it. History is never rewritten.
 */
export class ContextCompactor {
  private readonly s: RuntimeServices
  private readonly persister: StatePersister

  constructor(services: RuntimeServices, persister: StatePersister) {
    this.s = services
    this.persister = persister
  }

  private get options(): CompactionOptions | undefined {
    return this.s.config.compaction
  }

  /** Tokens a request may take: the window less the answer's reserve (see CompactionOptions.budgetFor). */
  budget(): number {
    const o = this.options as CompactionOptions
    const provider = this.s.config.provider
    return o.budgetFor(provider.contextWindow !== undefined ? provider.contextWindow : 0,
      provider.outputReserve !== undefined ? provider.outputReserve : 0)
  }

  /** Which reasoning the provider's requests carry (token estimates count exactly what is sent). */
  private get echo(): ReasoningEcho {
    const echo = this.s.config.provider.reasoningEcho
    return echo !== undefined ? echo : ReasoningEcho.never
  }

  /** The calibrated estimate of a request. */
  estimate(request: ModelRequest): number {
    return Math.ceil((TokenEstimator.messages(request.messages, this.echo) + TokenEstimator.tools(request.tools)) *
      this.s.state.tokenCalibration)
  }

  /**
   * The provider refused `request` as longer than the model's context window: the estimate was too
   * low. The calibration goes up so that this request would have been compacted (the next run
   * compacts, instead of failing the same way again).
   */
  overflowed(request: ModelRequest): void {
    if (this.options === undefined) {
      return
    }
    const raw = TokenEstimator.messages(request.messages, this.echo) + TokenEstimator.tools(request.tools)
    if (raw <= 0) {
      return
    }
    const old = this.s.state.tokenCalibration
    if (Math.ceil(raw * old) > this.budget()) {
      // The estimate already said this request does not fit (a message larger than the budget): the
      // refusal teaches nothing about the ratio.
      return
    }
    const needed = (this.budget() + 1) / raw
    const next = Math.max(old * 1.25, needed)
    this.s.state.tokenCalibration = Math.min(MAX_CALIBRATION, Math.max(MIN_CALIBRATION, Math.ceil(next * 1000) / 1000))
  }

  /**
   * Learns from the prompt tokens a provider reported for `request`: up at once when the estimate
   * was low (an overflow is the failure that matters), down slowly when it was high.
   */
  calibrate(request: ModelRequest, response: ModelResponse): void {
    if (this.options === undefined || !(response.usage.promptTokens > 0)) {
      return
    }
    const raw = TokenEstimator.messages(request.messages, this.echo) + TokenEstimator.tools(request.tools)
    if (raw <= 0) {
      return
    }
    const ratio = response.usage.promptTokens / raw
    const old = this.s.state.tokenCalibration
    const next = ratio > old ? ratio : old * 0.8 + ratio * 0.2
    this.s.state.tokenCalibration = Math.min(MAX_CALIBRATION, Math.max(MIN_CALIBRATION, Math.round(next * 1000) / 1000))
  }

  /** Compacts when the next request would pass the threshold. Throws what ends the run (hook abort, failed save). */
  async beforeRequest(run: RunContext, tools: ToolDefinition[], turn: number): Promise<void> {
    const o = this.options
    if (o === undefined) {
      return
    }
    const state = this.s.state
    const budget = this.budget()
    const toolTokens = TokenEstimator.tools(tools)
    const cal = state.tokenCalibration
    const echo = this.echo
    // The whole session is estimated: in slices, giving the (UI) thread back between them.
    const before = Math.ceil((await TokenEstimator.messagesAsync(ContextWindow.requestMessages(this.s.systemPrompt, state), echo) +
      toolTokens) * cal)
    if (before <= budget * o.threshold) {
      return
    }
    const history = state.history
    const previous = state.compaction
    const from = previous !== undefined ? previous.upTo : 0
    // The verbatim tail gets keepRecent of the budget, less when the parts every request carries (system
    // prompt, tools, pins) and the summary would otherwise leave the request past the threshold; the
    // newest exchange is kept whatever it costs.
    const carriedPins = previous !== undefined ? previous.pinned : []
    const pinnedMessages: AgentMessage[] = []
    for (let i = 0; i < carriedPins.length; i++) {
      pinnedMessages.push(history[carriedPins[i]])
    }
    // The newest user message is sent whichever side of the cut it falls on (ContextWindow.kept):
    // a fixed part too (counted twice when it is in the tail, which only keeps the tail shorter).
    const lastUser = ContextWindow.lastUserIndex(history)
    if (lastUser >= 0 && carriedPins.indexOf(lastUser) < 0) {
      pinnedMessages.push(history[lastUser])
    }
    const fixed = Math.ceil((TokenEstimator.messages(ContextWindow.messagesOf(this.s.systemPrompt, [], undefined), echo) +
      TokenEstimator.messages(pinnedMessages, echo) + toolTokens) * cal)
    const tail = Math.max(0, Math.min(budget * o.keepRecent, budget * o.threshold - fixed - o.summaryTokens(budget)))
    const upTo = ContextWindow.cutPoint(history, from, tail / cal, echo)
    if (upTo < 0) {
      this.s.publish(run, new HookDiagnosticEvent(this.s.sessionId, run.runId, 'compaction',
        `The request is estimated at ${before} tokens (budget ${budget}) but nothing before the latest exchange is left to compact`))
      return
    }
    const prior = previous !== undefined ? previous.summary : ''
    const limitTokens = o.summaryTokens(budget)
    // The original task (the first user message) is kept as it is when the summary request could not
    // hold it: a window too small for the oldest messages must not lose what the session is for.
    const carried = this.withTask(history, from, upTo, carriedPins, prior, limitTokens)
    // The newest user message, even when sent as it is (ContextWindow.kept), is summarised too: it
    // stops being sent once a newer one arrives, and must not be lost then.
    const covered = ContextWindow.summarized(history, from, upTo, carried)
    // What the cut takes out of the request: the covered messages, except the newest user message,
    // which is still sent; the summary comes in their place.
    const stillSent = lastUser >= from && lastUser < upTo && carried.indexOf(lastUser) < 0 ?
      TokenEstimator.message(history[lastUser], false) : 0
    const gain = Math.ceil((await TokenEstimator.messagesAsync(covered, echo) - stillSent) * cal) - limitTokens
    if (before <= budget && gain < budget * MIN_GAIN) {
      // Within the budget, and compacting what may be compacted would hardly shrink the request (the
      // fixed parts and the kept tail are most of it): a summary call every turn would cost more
      // than it saves. Past the budget, any gain is tried (a checkpoint that does not shrink the
      // request is not stored, below).
      this.s.publish(run, new HookDiagnosticEvent(this.s.sessionId, run.runId, 'compaction',
        `The request is estimated at ${before} tokens (threshold ${Math.floor(budget * o.threshold)}, budget ${budget}); ` +
        `compacting ${covered.length} messages would save about ${Math.max(0, gain)}: not compacted yet`))
      return
    }
    let summary = ''
    let truncated = false
    let reason = ''
    let failureCode = ''
    try {
      const made = await this.summarize(run, prior, covered, budget, limitTokens, turn)
      summary = made.text
      if (made.dropped > 0) {
        reason = `${made.dropped} of ${covered.length} messages did not fit the summary request and are not in the summary`
      }
    } catch (e) {
      run.token.throwIfCancelled()
      const known = ArkAgentError.asArkError(e as Object)
      if (known !== undefined && known.layer === ErrorLayer.security) {
        // A hook on the summary call failed or timed out: fail closed, as on any other model call.
        throw known
      }
      truncated = true
      reason = Thrown.describe(e as Object)
      failureCode = known !== undefined ? known.code : ''
      summary = this.noted(prior, covered.length, reason, limitTokens)
    }
    if (!truncated) {
      // A truncation note was made to fit both limits with the note whole (noted).
      summary = this.fit(summary, limitTokens)
    }
    const after = this.estimateWith(new CompactionCheckpoint('', upTo, summary, carried, truncated, 0), toolTokens)
    if (after >= before) {
      // A checkpoint that would not shrink the request is never stored (the summary came out longer
      // than what it replaces, or nothing but kept messages was covered).
      this.s.publish(run, new HookDiagnosticEvent(this.s.sessionId, run.runId, 'compaction',
        `A compaction of ${covered.length} messages would leave the request at ${after} tokens (it is ${before}): not stored`))
      return
    }
    const decision = await this.s.hooks.beforeCompaction(new CompactionHookContext(this.s.sessionId, run.runId,
      this.s.view(), from, upTo, history.slice(from, upTo), summary, carried, truncated, before, after))
    if (decision.action === CompactionHookAction.abort) {
      throw decision.error !== undefined ? decision.error : new ArkAgentError(ErrorLayer.security, ErrorCodes.hookAbort,
        `beforeCompaction aborted the run${decision.reason !== undefined ? ': ' + decision.reason : ''}`,
        ErrorRetryability.never)
    }
    if (decision.action === CompactionHookAction.skip) {
      this.s.publish(run, new HookDiagnosticEvent(this.s.sessionId, run.runId, 'beforeCompaction',
        `A hook skipped the compaction${decision.reason !== undefined ? ': ' + decision.reason : ''}`))
      return
    }
    // A hook's summary is held to the same limits as the model's (characters and tokens).
    const finalSummary = decision.summary !== undefined ? this.fit(decision.summary, limitTokens) : summary
    const pinned = ContextWindow.expandPins(history, decision.pin, upTo)
    const checkpoint = new CompactionCheckpoint(Ids.next('cmp'), upTo, finalSummary, pinned, truncated, Date.now())
    state.compaction = checkpoint
    const saved = await this.persister.persist(run, PersistReason.compaction, true)
    if (!saved.ok) {
      // Not stored, so not used: the next request must be one a restored session would build too.
      state.compaction = previous
      const own = saved.ownError
      throw own !== undefined ? own : new ArkAgentError(ErrorLayer.storage,
        ErrorCodes.stateSaveFailed, `The compaction could not be saved, so it is not used: ${saved.error !== undefined ?
          saved.error.message : 'unknown error'}`, ErrorRetryability.retryable)
    }
    const tokensAfter = this.estimateWith(checkpoint, toolTokens)
    const stored = new CompactionHookContext(this.s.sessionId, run.runId, this.s.view(), from, upTo,
      history.slice(from, upTo), finalSummary, pinned, truncated, before, tokensAfter)
    const diagnostics = await this.s.hooks.afterCompaction(stored)
    for (let i = 0; i < diagnostics.length; i++) {
      this.s.publish(run, new HookDiagnosticEvent(this.s.sessionId, run.runId, 'afterCompaction', diagnostics[i]))
    }
    this.s.publish(run, new ContextCompactedEvent(this.s.sessionId, run.runId, from, upTo, pinned.length,
      finalSummary.length, truncated, reason, before, tokensAfter))
    if (truncated) {
      // Not only a reason string: the app can show that older messages were dropped without a summary.
      this.s.publish(run, new CompactionWarningEvent(this.s.sessionId, run.runId, from, upTo,
        ContextWindow.summarized(history, from, upTo, pinned).length, failureCode, reason))
    }
    if (tokensAfter > budget) {
      // Pinned messages and the newest exchange are always sent: they alone can pass the budget.
      this.s.publish(run, new HookDiagnosticEvent(this.s.sessionId, run.runId, 'compaction',
        `After compaction the request is still estimated at ${tokensAfter} tokens (budget ${budget}): ` +
        `${pinned.length} pinned messages and the newest exchange are sent as they are`))
    }
  }

  /** The summary within summaryMaxChars and its token limit. */
  private fit(summary: string, limitTokens: number): string {
    const o = this.options as CompactionOptions
    return Summarizer.fit(ContextCompactor.cap(summary, o.summaryMaxChars), Math.floor(limitTokens / this.s.state.tokenCalibration))
  }

  /**
   * The previous summary, shortened to leave room, then the note of this truncation. The note is
   * never cut: its reason is shortened instead (summaryMaxChars is at least 200, the bare note well
   * under half of that).
   */
  private noted(prior: string, left: number, reason: string, limitTokens: number): string {
    const o = this.options as CompactionOptions
    const bare = `[${left} earlier messages were left out: no summary could be made.]`
    const withReason = `[${left} earlier messages were left out: no summary could be made (`
    const roomForReason = Math.min(200, Math.floor(o.summaryMaxChars / 2) - withReason.length - 3)
    const note = roomForReason >= 10 && reason.length > 0 ?
      `${withReason}${ContextCompactor.cap(reason, roomForReason)}).]` : bare
    const roomChars = o.summaryMaxChars - note.length - 1
    const roomTokens = Math.floor(limitTokens / this.s.state.tokenCalibration) - TokenEstimator.text(note) - 1
    const kept = prior.length > 0 && roomChars > 0 && roomTokens > 0 ?
      Summarizer.fit(ContextCompactor.cap(prior, roomChars), roomTokens) : ''
    return kept.length > 0 ? `${kept}\n${note}` : note
  }

  /**
   * `pins`, plus the first user message of history when it is in [from, upTo), not pinned, would not
   * fit the summary request (the oldest messages are left out first), and is no larger than the
   * summary's token limit (a pasted document is not worth keeping whole in every request).
   */
  private withTask(history: AgentMessage[], from: number, upTo: number, pins: number[], prior: string,
    limitTokens: number): number[] {
    let task = -1
    for (let i = 0; i < upTo && task < 0; i++) {
      if (history[i].role === MessageRole.user) {
        task = i
      }
    }
    if (task < from || pins.indexOf(task) >= 0 ||
      Math.ceil(TokenEstimator.message(history[task], false) * this.s.state.tokenCalibration) > limitTokens) {
      return pins
    }
    const covered = ContextWindow.summarized(history, from, upTo, pins)
    const position = covered.indexOf(history[task])
    const built = Summarizer.request(prior, covered, this.summaryInputTokens(limitTokens), '', limitTokens)
    if (position < 0 || position >= built.dropped) {
      return pins
    }
    const out = pins.slice()
    out.push(task)
    out.sort((a: number, b: number): number => a - b)
    return out
  }

  /**
   * Tokens (raw estimate) the summary request may take: the summary provider's whole window less its
   * answer (limitTokens); an eighth of the window (at most 512 tokens) is left for the instructions
   * and the estimate's error.
   */
  private summaryInputTokens(limitTokens: number): number {
    const o = this.options as CompactionOptions
    const window = o.summaryProvider !== undefined && o.summaryProvider.contextWindow !== undefined &&
      o.summaryProvider.contextWindow > 0 ? o.summaryProvider.contextWindow : this.window()
    return Math.max(256, (window - limitTokens - Math.min(512, Math.floor(window / 8))) / this.s.state.tokenCalibration)
  }

  /** The summary call: beforeModelCall may rewrite it, answer it, or veto it (then: truncation). */
  private async summarize(run: RunContext, prior: string, covered: AgentMessage[], budget: number, limitTokens: number,
    turn: number): Promise<SummaryText> {
    const o = this.options as CompactionOptions
    const provider = o.summaryProvider !== undefined ? o.summaryProvider : this.s.config.provider
    const built = Summarizer.request(prior, covered, this.summaryInputTokens(limitTokens), o.summaryModel.length > 0 ?
      o.summaryModel : (o.summaryProvider !== undefined ? '' : this.s.config.model), limitTokens)
    const request = built.request
    const gate = await this.s.hooks.beforeModelCall(new ModelCallHookContext(this.s.sessionId, run.runId, this.s.view(),
      request, turn, ModelCallHookContext.purposeCompaction))
    if (gate.action === ModelCallHookAction.abort) {
      throw new Error(`a hook vetoed the summary call${gate.reason !== undefined ? ': ' + gate.reason : ''}`)
    }
    if (gate.action === ModelCallHookAction.respond && gate.response !== undefined) {
      const text = gate.response.message.text().trim()
      if (text.length === 0) {
        throw new Error('a hook answered the summary call with no text')
      }
      return new SummaryText(text, built.dropped)
    }
    const text = await Summarizer.call(provider, gate.request !== undefined ? gate.request : request, o.summaryTimeoutMs, run.token)
    return new SummaryText(text, built.dropped)
  }

  private estimateWith(checkpoint: CompactionCheckpoint, toolTokens: number): number {
    const messages = ContextWindow.messagesOf(this.s.config.systemPrompt, this.s.state.history, checkpoint)
    return Math.ceil((TokenEstimator.messages(messages, this.echo) + toolTokens) * this.s.state.tokenCalibration)
  }

  /** The session model's context window (the options' own, else the provider's). */
  private window(): number {
    const o = this.options as CompactionOptions
    const provider = this.s.config.provider
    return o.contextWindow > 0 ? o.contextWindow : (provider.contextWindow !== undefined ? provider.contextWindow : 0)
  }

  /** At most `max` characters, cut at the end with a mark (never inside a surrogate pair). */
  static cap(text: string, max: number): string {
    if (text.length <= max) {
      return text
    }
    let end = Math.max(0, max - 1)
    const c = text.charCodeAt(end - 1)
    if (end > 0 && c >= 0xd800 && c <= 0xdbff) {
      end--
    }
    return `${text.substring(0, end)}…`
  }
}
