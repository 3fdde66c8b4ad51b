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
  /** How many of the latest messages the diagnosis model sees. */
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
  maxCyclePeriod: number = 4
  /** A cycle is reported once it has run this many full times (A-B-A-B-A-B = 3). */
  cycleRepeats: number = 3
  /** Content loops: streamed text is checked for repeating sentences/lines. */
  contentEnabled: boolean = true
  /** Normalised segments shorter than this never count (token-level repetition is normal). */
  minSegmentChars: number = 20
  /** A segment is force-ended at this length, so memory stays bounded without delimiters. */
  maxSegmentChars: number = 500
  /** Significant segments remembered for counting. */
  contentWindow: number = 60
  /** The same segment this often within `contentWindow` is chanting. */
  contentRepeatThreshold: number = 6
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
    LoopDetectorOptions.require(this.minSegmentChars >= 1 && this.maxSegmentChars >= this.minSegmentChars,
      'need 1 <= minSegmentChars <= maxSegmentChars')
    LoopDetectorOptions.require(this.contentRepeatThreshold >= 2 && this.contentRepeatThreshold <= this.contentWindow,
      'contentRepeatThreshold must be between 2 and contentWindow')
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
