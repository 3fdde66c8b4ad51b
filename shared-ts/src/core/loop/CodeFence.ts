/**
 * Fenced code blocks per CommonMark, followed character by character: a fence opens with 3 or more
 * backticks or tildes (a backtick fence's info string holds no backtick), and only a line of the same
 * character, at least as long and with nothing but blanks around it, closes it. The end of a message
 * closes an open block too.
 */
export class CodeFence {
  /** The fence character of the open block ('' outside a fence), and its length. */
  private fenceChar: string = ''
  private fenceLen: number = 0
  // The line opening a fence: its run of fence characters, and whether it is a fence at all.
  private openChar: string = ''
  private openRun: number = 0
  private openInRun: boolean = false
  private openValid: boolean = false
  // A line inside a fence: 0 leading blanks, 1 in a run of the fence character, 2 blanks after it, 3 not a closing fence.
  private closeState: number = 0
  private closeRun: number = 0

  /** Inside an open block. */
  inside(): boolean {
    return this.fenceChar.length > 0
  }

  /** A line starts with `run` (≥ 3) fence characters `first`; `rest` is what was read of it so far. */
  beginOpening(first: string, run: number, rest: string): void {
    this.openChar = first
    this.openRun = run
    this.openInRun = run === rest.length
    this.openValid = !(first === '`' && rest.substring(run).indexOf('`') >= 0)
  }

  /** The next character of an opening line: the run may still grow; a backtick after it spoils a backtick fence. */
  openingChar(ch: string): void {
    if (this.openInRun && ch === this.openChar) {
      this.openRun++
      return
    }
    this.openInRun = false
    if (this.openChar === '`' && ch === '`') {
      this.openValid = false
    }
  }

  /** The opening line ended: the block is open when the line was a fence. */
  endOpeningLine(): void {
    if (this.openValid) {
      this.fenceChar = this.openChar
      this.fenceLen = this.openRun
    }
  }

  /** Follows a line inside a fence: is it a closing fence (the fence character only, as long or longer)? */
  bodyChar(ch: string): void {
    const blank = ch === ' ' || ch === '\t' || ch === '\r'
    if (this.closeState === 0) {
      this.closeState = blank ? 0 : (ch === this.fenceChar ? 1 : 3)
      this.closeRun = ch === this.fenceChar ? 1 : 0
    } else if (this.closeState === 1) {
      if (ch === this.fenceChar) {
        this.closeRun++
      } else {
        this.closeState = blank ? 2 : 3
      }
    } else if (this.closeState === 2 && !blank) {
      this.closeState = 3
    }
  }

  /** A line inside the block ended: it closed the block when it was a closing fence. */
  endBodyLine(): void {
    if ((this.closeState === 1 || this.closeState === 2) && this.closeRun >= this.fenceLen) {
      this.fenceChar = ''
    }
    this.closeState = 0
    this.closeRun = 0
  }

  /** The message ended: an open block ends with it. */
  close(): void {
    this.fenceChar = ''
  }

  reset(): void {
    this.fenceChar = ''
    this.closeState = 0
    this.closeRun = 0
  }
}
