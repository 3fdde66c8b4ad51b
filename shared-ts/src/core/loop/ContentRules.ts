// What the content loop detector reports, and the rules it is tuned with.

/** A piece of streamed text that now occurs `count` times where it counts as chanting. */
export class ContentRepeat {
  readonly text: string
  readonly count: number

  constructor(text: string, count: number) {
    this.text = text
    this.count = count
  }
}

/** The tuning of one ContentLoopDetector (LoopDetectorOptions holds the user-facing defaults). */
export class ContentRules {
  /** The same sentence this often back to back is chanting. */
  threshold: number = 6
  /** Longest block of sentences checked period by period (a paragraph said again and again). */
  maxBlock: number = 16
  /** A block of sentences repeated this often back to back is chanting. */
  blockRepeats: number = 4
  /** A sentence without an end is cut here; the unpunctuated-repeat check then starts over. */
  maxChars: number = 2000
  /** Width of the rolling pieces that catch repetition without punctuation. */
  pieceChars: number = 32
  /** The same piece this often inside one unbroken sentence is chanting. */
  pieceRepeats: number = 8
  /** This many sentences in a row drawn from at most `setSize` distinct ones are chanting, whatever the order. */
  setWindow: number = 12
  /** See setWindow; 0 turns the rule off. */
  setSize: number = 3
  /** Sentences remembered for blocks longer than maxBlock (their period is found, not tried). */
  echoMemory: number = 256
}
