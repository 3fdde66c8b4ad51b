import { ArkAgentError, ErrorCodes, ErrorLayer } from '../errors/ArkAgentError'
import { ModelProvider } from '../provider/ModelProvider'

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
  /** Tools whose calls are not recorded at all (polling, waiting, clocks...). */
  exemptTools: string[] = []
  /** Recent tool calls kept in the sliding window; every threshold must fit inside it. */
  windowSize: number = 20
  /** This many identical consecutive calls with identical results is a repeat loop. */
  repeatThreshold: number = 4
  /** Longest cycle period checked (periods 2..maxCyclePeriod; below 2 disables cycles). */
  maxCyclePeriod: number = 6
  /** A cycle is reported once it has run this many full times (A-B-A-B-A-B = 3). */
  cycleRepeats: number = 3
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

  /** Throws `invalid_config` when thresholds cannot be met inside their windows. */
  validate(): void {
    LoopDetectorOptions.require(this.windowSize >= 2, 'windowSize must be at least 2')
    LoopDetectorOptions.require(this.repeatThreshold >= 2 && this.repeatThreshold <= this.windowSize,
      'repeatThreshold must be between 2 and windowSize')
    LoopDetectorOptions.require(this.cycleRepeats >= 2, 'cycleRepeats must be at least 2')
    LoopDetectorOptions.require(this.maxCyclePeriod < 2 || this.maxCyclePeriod * this.cycleRepeats <= this.windowSize,
      'maxCyclePeriod * cycleRepeats must not exceed windowSize')
    LoopDetectorOptions.require(this.contentPieceChars >= 8 && this.maxSegmentChars >= this.contentPieceChars,
      'need 8 <= contentPieceChars <= maxSegmentChars')
    LoopDetectorOptions.require(this.contentPieceRepeats >= 2, 'contentPieceRepeats must be at least 2')
    LoopDetectorOptions.require(this.contentRepeatThreshold >= 2 && this.reasoningRepeatThreshold >= 2,
      'contentRepeatThreshold and reasoningRepeatThreshold must be at least 2')
    LoopDetectorOptions.require(this.contentBlockRepeats >= 2 && this.reasoningBlockRepeats >= 2,
      'contentBlockRepeats and reasoningBlockRepeats must be at least 2')
    LoopDetectorOptions.require(this.contentMaxBlock >= 1 && this.contentMaxBlock <= 64, 'contentMaxBlock must be within 1..64')
    const d = this.diagnosis
    if (d !== undefined) {
      LoopDetectorOptions.require(d.afterTurns >= 1 && d.interval >= 1 && d.recentMessages >= 1,
        'diagnosis afterTurns, interval and recentMessages must be at least 1')
      LoopDetectorOptions.require(d.confidenceThreshold >= 0 && d.confidenceThreshold <= 1,
        'diagnosis confidenceThreshold must be within 0..1')
    }
  }

  private static require(ok: boolean, message: string): void {
    if (!ok) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, `LoopDetectorOptions: ${message}`)
    }
  }
}
