import { Thrown } from '../errors/Thrown'
import { AgentMessage } from '../model/AgentMessage'
import { ToolCall } from '../model/ToolCall'
import { ToolResult } from '../model/ToolResult'
import { CancellationToken } from '../util/Cancellation'
import { canonicalCallHash, canonicalJson } from './CanonicalJson'
import { ContentLoopDetector } from './ContentLoopDetector'
import { WaitTools } from './WaitTools'
import { ContentRepeat, ContentRules } from './ContentRules'
import { LoopDetectorOptions } from './LoopDetectorOptions'
import { LoopCheck, LoopDetectorPort, LoopKind, LoopVerdict } from './LoopDetectorPort'
import { LoopDiagnoser } from './LoopDiagnosis'
import { preview } from './StringHash'
import { ToolCallEntry, ToolCallWindow } from './ToolCallWindow'
import { UserRequest } from './UserRequest'
import { maskedHash } from './Volatile'

/** Sizes of the detector's internal structures, for tests and diagnostics. */
export class LoopDetectorStats {
  readonly toolCalls: number
  readonly toolWindowCapacity: number
  readonly contentSegments: number
  readonly contentDistinct: number
  readonly contentPendingChars: number

  constructor(toolCalls: number, toolWindowCapacity: number, contentSegments: number, contentDistinct: number,
    contentPendingChars: number) {
    this.toolCalls = toolCalls
    this.toolWindowCapacity = toolWindowCapacity
    this.contentSegments = contentSegments
    this.contentDistinct = contentDistinct
    this.contentPendingChars = contentPendingChars
  }
}

/**
 * Heuristic loop detector with an optional model diagnosis. Reports only; the runtime decides
 * what a verdict means (warn first, stop on the next one).
 *  - repeat: `repeatThreshold` identical consecutive calls (same signature and same result);
 *  - cycle: a block of 2..maxCyclePeriod calls repeated `cycleRepeats` times back to back, or a
 *    full window of calls drawn from at most `toolSetSize` distinct ones, each seen twice or more;
 *  - content: chanting in the streamed answer or reasoning (see ContentLoopDetector);
 *  - diagnosis: the diagnosis model says "looping" with enough confidence.
 * Calls are compared on a normalised form: arguments as canonical JSON, arguments and results with
 * their volatile fields masked (timestamps, durations, request ids, counters: see Volatile).
 * Repetition is not a loop when it is time-paced (a wait tool ran since the previous call, the call
 * came `pacedGapMs` or more after it, or its arguments sleep) or asked for (the user's request
 * holds a count or asks for open-ended repetition: see UserRequest).
 * Work per tool call is O(maxCyclePeriod) after hashing the call; memory is bounded by the windows.
 */
export class LoopDetector implements LoopDetectorPort {
  private readonly options: LoopDetectorOptions
  private readonly exempt: Set<string>
  private readonly calls: ToolCallWindow
  private readonly content: ContentLoopDetector
  private readonly reasoning: ContentLoopDetector
  private readonly diagnoser?: LoopDiagnoser
  private enabled: boolean
  /**
   * What the heuristics see, for the diagnosis to fall back on: the evaluation after the latest
   * call, and the latest content verdict since reset.
   */
  private toolVerdict?: LoopVerdict
  private contentVerdict?: LoopVerdict
  /** The user's request of the current run, raw (joined user messages) and as read. */
  private requestText: string = ''
  private request: UserRequest = UserRequest.none
  /** A chunk or call was seen since the latest user message: the next one starts a new request. */
  private activitySinceUser: boolean = false
  /** Time of the latest recorded call (-1: none since the last reset), and whether a wait ran since. */
  private lastCallAtMs: number = -1
  private waitedSinceCall: boolean = false
  /** Keys for paced entries: negative, so they equal no (call, result) hash. */
  private pacedSeq: number = 0
  private readonly waits: WaitTools

  constructor(options: LoopDetectorOptions = new LoopDetectorOptions()) {
    options.validate()
    this.options = options
    this.enabled = options.enabled
    this.exempt = new Set<string>(options.exemptTools)
    this.waits = new WaitTools(options.waitTools)
    this.calls = new ToolCallWindow(options.windowSize, Math.max(1, options.maxCyclePeriod))
    this.content = new ContentLoopDetector(LoopDetector.contentRules(options, options.contentRepeatThreshold,
      options.contentBlockRepeats))
    this.reasoning = new ContentLoopDetector(LoopDetector.contentRules(options, options.reasoningRepeatThreshold,
      options.reasoningBlockRepeats))
    const d = options.diagnosis
    this.diagnoser = d !== undefined ? new LoopDiagnoser(d) : undefined
  }

  /** Session-level switch; turning it off also forgets what was seen. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled
    if (!enabled) {
      this.reset()
      this.setRequest('')
    }
  }

  isEnabled(): boolean {
    return this.enabled
  }

  private static contentRules(options: LoopDetectorOptions, threshold: number, blockRepeats: number): ContentRules {
    const rules = new ContentRules()
    rules.threshold = threshold
    rules.maxBlock = options.contentMaxBlock
    rules.blockRepeats = blockRepeats
    rules.maxChars = options.maxSegmentChars
    rules.pieceChars = options.contentPieceChars
    rules.pieceRepeats = options.contentPieceRepeats
    rules.setWindow = 2 * threshold
    rules.setSize = options.contentSetSize
    return rules
  }

  /** `name:canonicalArgs` — the identity of a call. */
  static signatureOf(call: ToolCall): string {
    return `${call.name}:${canonicalJson(call.argumentsJson)}`
  }

  /** The outcome of a call, with its volatile fields masked (see Volatile). */
  static resultHashOf(result: ToolResult): number {
    const outcome = result.isError ? `E:${result.errorCode ?? ''}:` : 'O:'
    // Typed parts count too: polling a camera that returns a new image each time is not a repeat.
    let typed = ''
    if (result.hasTypedParts()) {
      const parts = result.content
      for (let i = 0; i < parts.length; i++) {
        const p = parts[i]
        if (p.isTyped()) {
          typed += `${p.type}\u0000${p.mimeType}\u0000${p.uri}\u0000${p.text}\u0000${p.data}\u0001`
        }
      }
    }
    return maskedHash(outcome, result.textContent(), typed)
  }

  /**
   * A user message the run starts with. Messages after other activity start a new request;
   * consecutive ones add to it. The request survives reset() (the warning does not change what the
   * user asked for).
   */
  recordUserMessage(text: string): void {
    if (!this.enabled) {
      return
    }
    const joined = this.activitySinceUser || this.requestText.length === 0 ? text : `${this.requestText}\n${text}`
    this.activitySinceUser = false
    this.setRequest(joined)
  }

  private setRequest(text: string): void {
    this.requestText = text.length > UserRequest.MAX_TEXT ? text.substring(0, UserRequest.MAX_TEXT) : text
    this.request = text.length > 0 ? UserRequest.parse(this.requestText) : UserRequest.none
    this.content.setRequest(this.request)
    this.reasoning.setRequest(this.request)
  }

  /** The user's request as the rules read it. */
  userRequest(): UserRequest {
    return this.request
  }

  /**
   * Every call the model requested goes here, executed or not (a denied, refused or invalid call
   * with its error result), so retrying a refused call is a repeat like any other. A tool call also
   * ends the text it followed: content counting starts over, so narration said once per turn
   * never adds up (chanting is caught within one answer). `atMs`: when the call ended (absent: the
   * options' clock).
   */
  recordToolResult(call: ToolCall, result: ToolResult, atMs?: number): LoopVerdict | undefined {
    if (!this.enabled) {
      return undefined
    }
    this.activitySinceUser = true
    this.content.reset()
    this.reasoning.reset()
    this.contentVerdict = undefined
    if (this.exempt.has(call.name)) {
      return undefined
    }
    if (this.waits.isWait(call.name)) {
      this.waitedSinceCall = true
      return undefined
    }
    const now = atMs !== undefined ? atMs : this.options.clock.now()
    const paced = this.waitedSinceCall || (this.lastCallAtMs >= 0 && this.pacedGap() > 0 &&
      now - this.lastCallAtMs >= this.pacedGap()) || WaitTools.sleepsIn(call.argumentsJson)
    this.waitedSinceCall = false
    this.lastCallAtMs = now
    if (paced) {
      this.pacedSeq = this.pacedSeq >= 1000000000 ? 1 : this.pacedSeq + 1
    }
    this.calls.push(new ToolCallEntry(call.name, canonicalCallHash(call.name, call.argumentsJson, true),
      LoopDetector.resultHashOf(result), call.argumentsJson, this.options.maxEvidenceChars, paced, -this.pacedSeq))
    this.toolVerdict = this.evaluateCalls()
    return this.toolVerdict
  }

  /** The elapsed time that makes a call paced: pacedGapMs, or half the interval the user asked for if shorter. */
  private pacedGap(): number {
    const gap = this.options.pacedGapMs
    const asked = this.request.intervalMs / 2
    return asked > 0 && (gap === 0 || asked < gap) ? asked : gap
  }

  recordChunk(text: string, reasoning: boolean = false): LoopVerdict | undefined {
    if (!this.enabled) {
      return undefined
    }
    this.activitySinceUser = true
    if (reasoning) {
      return this.options.reasoningEnabled ? this.noteContent(this.reasoning.record(text), true) : undefined
    }
    return this.options.contentEnabled ? this.noteContent(this.content.record(text), false) : undefined
  }

  /**
   * Ends the turn's pending text segment and, on diagnosis turns, asks the diagnosis model. When
   * that fails, times out or answers garbage, returns what the heuristics currently see (possibly a
   * verdict already returned by recordToolResult, unless the runtime reset() after warning) plus a
   * diagnostic. Never rejects.
   */
  async afterTurn(turn: number, history: AgentMessage[], token: CancellationToken): Promise<LoopCheck> {
    if (!this.enabled) {
      return LoopCheck.clear
    }
    try {
      return await this.checkTurn(turn, history, token)
    } catch (e) {
      return new LoopCheck(this.heuristicVerdict(), [`loop check failed: ${Thrown.describe(e as Object)}`])
    }
  }

  private async checkTurn(turn: number, history: AgentMessage[], token: CancellationToken): Promise<LoopCheck> {
    // A model message ends with the turn: its unterminated last line is a segment too.
    const fromText = this.options.contentEnabled ? this.noteContent(this.content.endSegment(), false) : undefined
    const fromReasoning = this.options.reasoningEnabled ? this.noteContent(this.reasoning.endSegment(), true) : undefined
    const flushed = fromText !== undefined ? fromText : fromReasoning
    const diagnoser = this.diagnoser
    if (diagnoser === undefined || !diagnoser.isDue(turn) || token.isCancelled) {
      return flushed !== undefined ? new LoopCheck(flushed) : LoopCheck.clear
    }
    const outcome = await diagnoser.diagnose(history, token)
    const answer = outcome.answer
    const heuristic = this.heuristicVerdict()
    if (answer === undefined) {
      const fallback = heuristic !== undefined ? `using heuristic verdict (${heuristic.kind})` : 'no heuristic verdict'
      return new LoopCheck(heuristic, [`${outcome.failure}; ${fallback}`])
    }
    const threshold = this.diagnosisThreshold()
    if (!answer.looping) {
      return new LoopCheck(flushed)
    }
    if (answer.confidence < threshold) {
      return new LoopCheck(flushed, [`loop diagnosis: looping with confidence ${answer.confidence} ` +
        `below threshold ${threshold}, ignored: ${answer.reason}`])
    }
    return new LoopCheck(new LoopVerdict(LoopKind.diagnosis, heuristic !== undefined ? heuristic.signature : '',
      heuristic !== undefined ? heuristic.count : 0, heuristic !== undefined ? heuristic.cycle : [],
      answer.confidence, answer.reason))
  }

  reset(): void {
    this.calls.clear()
    this.content.reset()
    this.reasoning.reset()
    this.toolVerdict = undefined
    this.contentVerdict = undefined
    this.lastCallAtMs = -1
    this.waitedSinceCall = false
  }

  /** Tool calls currently in the window. */
  size(): number {
    return this.calls.size()
  }

  stats(): LoopDetectorStats {
    return new LoopDetectorStats(this.calls.size(), this.calls.capacity, this.content.windowSize(),
      this.content.distinctSegments(), this.content.pendingChars())
  }

  private heuristicVerdict(): LoopVerdict | undefined {
    return this.toolVerdict !== undefined ? this.toolVerdict : this.contentVerdict
  }

  private diagnosisThreshold(): number {
    const d = this.options.diagnosis
    return d !== undefined ? d.confidenceThreshold : 1
  }

  private noteContent(repeat: ContentRepeat | undefined, reasoning: boolean): LoopVerdict | undefined {
    if (repeat === undefined) {
      return undefined
    }
    this.contentVerdict = new LoopVerdict(LoopKind.content, preview(repeat.text, this.options.maxEvidenceChars),
      repeat.count, [], 1, reasoning ? 'repeated in the reasoning' : '')
    return this.contentVerdict
  }

  private evaluateCalls(): LoopVerdict | undefined {
    const newest = this.calls.back(0)
    if (newest === undefined) {
      return undefined
    }
    const request = this.request
    const repeats = this.calls.matchRun(1) + 1
    if (repeats >= request.allow(this.options.repeatThreshold)) {
      return new LoopVerdict(LoopKind.repeat, newest.signature, repeats)
    }
    const cycleRepeats = request.allow(this.options.cycleRepeats)
    for (let p = 2; p <= this.options.maxCyclePeriod; p++) {
      const run = this.calls.matchRun(p)
      if (run >= p * (cycleRepeats - 1) && this.isPrimitiveBlock(p)) {
        return this.cycleVerdict(p, run)
      }
    }
    // A full window from a small set, each pair seen twice (with asked-for repetition: more often
    // than asked, counted since it entered the window).
    const setSize = Math.min(this.options.toolSetSize, Math.floor(this.calls.capacity / 2))
    if (setSize > 0 && this.calls.size() === this.calls.capacity && this.calls.distinct() <= setSize &&
      this.calls.seenOnce() === 0 && (!request.asked() || this.calls.fewestRepeats() >= request.allow(2))) {
      return this.setVerdict()
    }
    return undefined
  }

  /** The distinct calls of a full window, in the order they first occur in it. */
  private setVerdict(): LoopVerdict {
    const names: string[] = []
    const signatures: string[] = []
    const keys: number[] = []
    const n = this.calls.size()
    for (let k = n - 1; k >= 0; k--) {
      const entry = this.calls.back(k)
      if (entry !== undefined && keys.indexOf(entry.key) < 0) {
        keys.push(entry.key)
        names.push(entry.name)
        signatures.push(entry.signature)
      }
    }
    return new LoopVerdict(LoopKind.cycle, signatures.join(' | '), Math.floor(n / Math.max(1, keys.length)), names,
      1, 'calls drawn from a small set')
  }

  /** The last p calls are not themselves periodic with a shorter period dividing p (ABAB is 2, not 4). */
  private isPrimitiveBlock(p: number): boolean {
    for (let d = 1; d < p; d++) {
      if (p % d === 0 && this.calls.matchRun(d) >= p - d) {
        return false
      }
    }
    return true
  }

  /** Names and signatures of one period, starting where the cycle started (A-B, not B-A). */
  private cycleVerdict(p: number, run: number): LoopVerdict {
    const phase = run % p
    const names: string[] = []
    const signatures: string[] = []
    for (let k = 0; k < p; k++) {
      const entry = this.calls.back(p - 1 - ((k - phase + p) % p))
      if (entry !== undefined) {
        names.push(entry.name)
        signatures.push(entry.signature)
      }
    }
    return new LoopVerdict(LoopKind.cycle, signatures.join(' -> '), Math.floor((run + p) / p), names)
  }
}
