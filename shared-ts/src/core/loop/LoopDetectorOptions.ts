import { ModelProvider } from '../provider/ModelProvider'
import { Clock, SystemClock } from '../transport/Clock'
import { ConfigCheck } from '../util/ConfigCheck'

/** Optional second opinion from a model on whether the recent history goes in circles. */
export class LoopDiagnosisOptions {
  provider: ModelProvider
  /** Model id for the diagnosis call; empty uses the provider's default. */
  model: string = ''
  /** First check at the end of this turn. */
  afterTurns: number = 10
  /** Then every `interval` turns. */
  interval: number = 5
  /** A "looping" answer counts only at or above this confidence (0..1). */
  confidenceThreshold: number = 0.8
  /** The call is cancelled and the heuristic verdict used after this long (0 = no timeout). */
  timeoutMs: number = 15000
  /** How many of the latest messages the diagnosis model sees (the run's request is always added). */
  recentMessages: number = 20
  /** Each message is cut to this many characters in the prompt. */
  maxMessageChars: number = 600

  constructor(provider: ModelProvider) {
    this.provider = provider
  }
}

/** Tuning of `LoopDetector`. Defaults catch real circles quickly and leave honest work alone. */
export class LoopDetectorOptions {
  /** Session-level switch: false means the detector never reports anything. */
  enabled: boolean = true
  /** Tools whose calls are not recorded at all (clocks, ...). */
  exemptTools: string[] = []
  /**
   * Tools that wait (besides the ones named like it: a name whose word is `wait`, `await` or
   * `sleep`, or that starts with `pause`, `delay` or `backoff`). A wait is not recorded, and the
   * next call is time-paced.
   */
  waitTools: string[] = []
  /**
   * A call made at least this long after the previous recorded call is time-paced (0: never by
   * elapsed time). A time-paced call repeats nothing: polling with pauses is never a loop.
   */
  pacedGapMs: number = 20000
  /** Where call times come from when the caller does not give one (the runtime gives its own clock's). */
  clock: Clock = SystemClock.instance
  /** Recent tool calls kept in the sliding window; every threshold must fit inside it. */
  windowSize: number = 20
  /** This many identical consecutive calls with identical results is a repeat loop. */
  repeatThreshold: number = 4
  /** Longest cycle period checked (periods 2..maxCyclePeriod; below 2 disables cycles). */
  maxCyclePeriod: number = 6
  /** A cycle is reported once it has run this many full times (A-B-A-B-A-B = 3). */
  cycleRepeats: number = 3
  /**
   * A full window of calls drawn from at most this many distinct (call, result) pairs, each seen
   * twice or more, is a loop whatever the order (cycles longer than maxCyclePeriod, calls shuffled);
   * 0 turns the rule off. Capped at windowSize / 2.
   */
  toolSetSize: number = 8
  /** Content loops: streamed text is checked for chanting (see ContentLoopDetector). */
  contentEnabled: boolean = true
  /** The same sentence this often back to back is chanting. */
  contentRepeatThreshold: number = 6
  /** Longest block of sentences (a paragraph, alternating answers) checked for repeating as a whole. */
  contentMaxBlock: number = 16
  /** A block of 2..contentMaxBlock sentences repeated this often back to back is chanting. */
  contentBlockRepeats: number = 4
  /** A sentence without an end is cut at this length (bounds memory). */
  maxSegmentChars: number = 2000
  /**
   * 2 × contentRepeatThreshold sentences in a row (2 × reasoningRepeatThreshold in the reasoning)
   * drawn from at most this many distinct ones are chanting, whatever the order ("Sorry." /
   * "I apologize." / "My mistake."); 0 turns the rule off.
   */
  contentSetSize: number = 3
  /** Width of the rolling pieces that catch a phrase repeated without punctuation. */
  contentPieceChars: number = 32
  /** The same piece this often inside one unbroken sentence is chanting. */
  contentPieceRepeats: number = 8
  /** Reasoning text (thinking models) is checked too, with its own thresholds. */
  reasoningEnabled: boolean = true
  /** Like contentRepeatThreshold, for reasoning: thinking revisits its points more than an answer. */
  reasoningRepeatThreshold: number = 10
  /** Like contentBlockRepeats, for reasoning. */
  reasoningBlockRepeats: number = 6
  /** Evidence strings (signatures, repeated text) are cut to this length. */
  maxEvidenceChars: number = 200
  diagnosis?: LoopDiagnosisOptions

  /**
   * Throws `invalid_config` naming the option when a value has the wrong type or range, or when
   * thresholds cannot be met inside their windows.
   */
  validate(): void {
    const o = 'LoopDetectorOptions.'
    ConfigCheck.bool(this.enabled, `${o}enabled`)
    ConfigCheck.bool(this.contentEnabled, `${o}contentEnabled`)
    ConfigCheck.bool(this.reasoningEnabled, `${o}reasoningEnabled`)
    if (!(this.exemptTools instanceof Array)) {
      throw ConfigCheck.invalid(`${o}exemptTools must be an array of tool names; got ${ConfigCheck.show(this.exemptTools)}`)
    }
    for (let i = 0; i < this.exemptTools.length; i++) {
      ConfigCheck.text(this.exemptTools[i], `${o}exemptTools[${i}]`, 1, 256)
    }
    ConfigCheck.count(this.windowSize, 2, `${o}windowSize`, 10000)
    ConfigCheck.count(this.repeatThreshold, 2, `${o}repeatThreshold`, 10000)
    LoopDetectorOptions.require(this.repeatThreshold <= this.windowSize,
      `${o}repeatThreshold (${this.repeatThreshold}) must not exceed ${o}windowSize (${this.windowSize})`)
    ConfigCheck.count(this.maxCyclePeriod, 0, `${o}maxCyclePeriod`, 10000)
    ConfigCheck.count(this.cycleRepeats, 2, `${o}cycleRepeats`, 10000)
    LoopDetectorOptions.require(this.maxCyclePeriod < 2 || this.maxCyclePeriod * this.cycleRepeats <= this.windowSize,
      `${o}maxCyclePeriod (${this.maxCyclePeriod}) * ${o}cycleRepeats (${this.cycleRepeats}) must not exceed ` +
      `${o}windowSize (${this.windowSize})`)
    if (!(this.waitTools instanceof Array)) {
      throw ConfigCheck.invalid(`${o}waitTools must be an array of tool names; got ${ConfigCheck.show(this.waitTools)}`)
    }
    for (let i = 0; i < this.waitTools.length; i++) {
      ConfigCheck.text(this.waitTools[i], `${o}waitTools[${i}]`, 1, 256)
    }
    ConfigCheck.count(this.pacedGapMs, 0, `${o}pacedGapMs`)
    ConfigCheck.implementing(this.clock, ['now'], `${o}clock (a Clock)`)
    ConfigCheck.count(this.toolSetSize, 0, `${o}toolSetSize`, 10000)
    ConfigCheck.count(this.contentSetSize, 0, `${o}contentSetSize`, 10000)
    ConfigCheck.count(this.contentRepeatThreshold, 2, `${o}contentRepeatThreshold`, 10000)
    ConfigCheck.count(this.reasoningRepeatThreshold, 2, `${o}reasoningRepeatThreshold`, 10000)
    ConfigCheck.count(this.contentBlockRepeats, 2, `${o}contentBlockRepeats`, 10000)
    ConfigCheck.count(this.reasoningBlockRepeats, 2, `${o}reasoningBlockRepeats`, 10000)
    ConfigCheck.count(this.contentMaxBlock, 1, `${o}contentMaxBlock`, 64)
    ConfigCheck.count(this.contentPieceChars, 8, `${o}contentPieceChars`, 10000)
    ConfigCheck.count(this.maxSegmentChars, 8, `${o}maxSegmentChars`, 1000000)
    LoopDetectorOptions.require(this.contentPieceChars <= this.maxSegmentChars,
      `${o}contentPieceChars (${this.contentPieceChars}) must not exceed ${o}maxSegmentChars (${this.maxSegmentChars})`)
    ConfigCheck.count(this.contentPieceRepeats, 2, `${o}contentPieceRepeats`, 10000)
    ConfigCheck.count(this.maxEvidenceChars, 1, `${o}maxEvidenceChars`, 100000)
    const d = this.diagnosis
    if (d !== undefined) {
      if (!(d instanceof LoopDiagnosisOptions)) {
        throw ConfigCheck.invalid(`${o}diagnosis must be a LoopDiagnosisOptions; got ${ConfigCheck.show(d)}`)
      }
      const p = `${o}diagnosis.`
      ConfigCheck.implementing(d.provider, ['streamModel'], `${p}provider (a ModelProvider)`)
      ConfigCheck.text(d.model, `${p}model`, 0, 256)
      ConfigCheck.count(d.afterTurns, 1, `${p}afterTurns`)
      ConfigCheck.count(d.interval, 1, `${p}interval`)
      ConfigCheck.number(d.confidenceThreshold, 0, 1, `${p}confidenceThreshold`)
      ConfigCheck.timeoutMs(d.timeoutMs, `${p}timeoutMs`)
      ConfigCheck.count(d.recentMessages, 1, `${p}recentMessages`, 10000)
      ConfigCheck.count(d.maxMessageChars, 1, `${p}maxMessageChars`, 1000000)
    }
  }

  private static require(ok: boolean, message: string): void {
    if (!ok) {
      throw ConfigCheck.invalid(message)
    }
  }
}
