import { hash53 } from './StringHash'

/** A segment of streamed text that now occurs `count` times in the content window. */
export class ContentRepeat {
  readonly text: string
  readonly count: number

  constructor(text: string, count: number) {
    this.text = text
    this.count = count
  }
}

/**
 * Detects chanting in streamed text. Chunks are cut into segments at line and sentence ends,
 * normalised (lower case, whitespace collapsed). Only segments of at least `minChars` with mostly
 * letters/digits count, so token-level repetition (" the", "}", "---") never does; each counted
 * segment's hash goes into a ring of the last `window` segments with per-hash counts, and a
 * segment seen `threshold` times there is reported. Memory: one pending segment (≤ maxChars) plus
 * `window` hashes.
 */
export class ContentLoopDetector {
  private readonly minChars: number
  private readonly maxChars: number
  private readonly window: number
  private readonly threshold: number
  private pending: string = ''
  private pendingSpace: boolean = false
  private ring: number[] = []
  private ringHead: number = 0
  private counts: Map<number, number> = new Map<number, number>()

  constructor(minChars: number, maxChars: number, window: number, threshold: number) {
    this.minChars = minChars
    this.maxChars = maxChars
    this.window = window
    this.threshold = threshold
  }

  /** Feeds a chunk; returns the worst repeat among the segments it completed, if any. */
  record(chunk: string): ContentRepeat | undefined {
    let worst: ContentRepeat | undefined = undefined
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk.charAt(i)
      if (ContentLoopDetector.isDelimiter(ch)) {
        worst = ContentLoopDetector.worse(worst, this.endSegment())
      } else if (ContentLoopDetector.isSpace(ch)) {
        this.pendingSpace = this.pending.length > 0
      } else {
        this.pending += this.pendingSpace ? ' ' + ch.toLowerCase() : ch.toLowerCase()
        this.pendingSpace = false
        if (this.pending.length >= this.maxChars) {
          worst = ContentLoopDetector.worse(worst, this.endSegment())
        }
      }
    }
    return worst
  }

  /** Ends the pending segment (a delimiter, a full buffer, or the end of a model message). */
  endSegment(): ContentRepeat | undefined {
    const text = this.pending
    this.pending = ''
    this.pendingSpace = false
    if (!this.significant(text)) {
      return undefined
    }
    const h = hash53(text)
    if (this.ring.length === this.window) {
      this.forget(this.ring[this.ringHead])
      this.ring[this.ringHead] = h
      this.ringHead = (this.ringHead + 1) % this.window
    } else {
      this.ring.push(h)
    }
    const count = (this.counts.get(h) ?? 0) + 1
    this.counts.set(h, count)
    return count >= this.threshold ? new ContentRepeat(text, count) : undefined
  }

  reset(): void {
    this.pending = ''
    this.pendingSpace = false
    this.ring = []
    this.ringHead = 0
    this.counts.clear()
  }

  windowSize(): number {
    return this.ring.length
  }

  distinctSegments(): number {
    return this.counts.size
  }

  pendingChars(): number {
    return this.pending.length
  }

  private forget(h: number): void {
    const c = this.counts.get(h) ?? 0
    if (c <= 1) {
      this.counts.delete(h)
    } else {
      this.counts.set(h, c - 1)
    }
  }

  /** Long enough and mostly words: markdown rules, table borders and code braces are not prose. */
  private significant(text: string): boolean {
    if (text.length < this.minChars) {
      return false
    }
    let wordChars = 0
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if ((c >= 48 && c <= 57) || (c >= 97 && c <= 122) || c >= 0x80) {
        wordChars++
      }
    }
    return wordChars * 2 >= text.length
  }

  private static isDelimiter(ch: string): boolean {
    return ch === '\n' || ch === '.' || ch === '!' || ch === '?' || ch === '。' || ch === '！' ||
      ch === '？' || ch === '；'
  }

  private static isSpace(ch: string): boolean {
    return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\u00a0' || ch === '\u3000'
  }

  private static worse(a: ContentRepeat | undefined, b: ContentRepeat | undefined): ContentRepeat | undefined {
    if (a === undefined) {
      return b
    }
    return b !== undefined && b.count > a.count ? b : a
  }
}
