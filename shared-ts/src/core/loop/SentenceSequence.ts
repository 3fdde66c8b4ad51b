import { ContentRepeat, ContentRules } from './ContentRules'
import { UserRequest } from './UserRequest'

/**
 * The sentences (and token lines: headings, rules) of streamed text since the last break, as hashes,
 * and the chanting rules over them (see ContentLoopDetector): the same sentence back to back, blocks
 * of 2..maxBlock sentences, longer blocks found by their period, and a window drawn from a small set.
 * O(maxBlock) per sentence; memory: the last max(echoMemory, setWindow, maxBlock) hashes and texts.
 */
export class SentenceSequence {
  private readonly rules: ContentRules
  private request: UserRequest = UserRequest.none
  // Their hashes in a ring of `memory` slots,
  // the texts of the last `textSlots`, and for each period p ≤ maxBlock the number of consecutive
  // sentences equal to the one p positions before them.
  private readonly memory: number
  private readonly textSlots: number
  private ring: number[] = []
  private texts: string[] = []
  private units: number = 0
  private runs: number[] = []
  /** Long blocks: the period followed (0: none) and how many sentences matched at it in a row. */
  private echoLag: number = 0
  private echoRun: number = 0
  /** Index of the latest occurrence of each sentence hash still in the ring. */
  private lastIndex: Map<number, number> = new Map<number, number>()
  /** Occurrences of each sentence hash among the last setWindow sentences. */
  private setCounts: Map<number, number> = new Map<number, number>()
  private broken: boolean = false

  constructor(rules: ContentRules) {
    this.rules = rules
    this.memory = Math.max(rules.echoMemory, rules.setWindow + 1, rules.maxBlock + 1)
    this.textSlots = Math.max(rules.maxBlock, rules.setWindow, 1)
    for (let i = 0; i < this.memory; i++) {
      this.ring.push(0)
    }
    for (let i = 0; i < this.textSlots; i++) {
      this.texts.push('')
    }
    this.breakRuns()
  }

  /** The user's request: quotes of it are not chanting, asked-for repetition raises the thresholds. */
  setRequest(request: UserRequest): void {
    this.request = request
    // The set window depends on the request: count it afresh.
    this.broken = false
    this.breakRuns()
  }

  /** Sentences remembered since the last break (at most the ring's size). */
  windowSize(): number {
    return Math.min(this.units, this.memory)
  }

  distinctSegments(): number {
    return this.lastIndex.size
  }

  /** A structure line, a reset or a new request: every run starts over. */
  breakRuns(): void {
    if (this.broken) {
      return
    }
    this.broken = true
    this.units = 0
    this.runs = []
    for (let p = 0; p <= this.rules.maxBlock; p++) {
      this.runs.push(0)
    }
    this.echoLag = 0
    this.echoRun = 0
    this.lastIndex.clear()
    this.setCounts.clear()
  }

  /** Adds a sentence or token line to the sequence and applies the rules. */
  push(h: number, text: string, candidate: boolean): ContentRepeat | undefined {
    const rules = this.rules
    const memory = this.memory
    const i = this.units
    this.broken = false
    for (let p = 1; p <= rules.maxBlock; p++) {
      this.runs[p] = p <= i && this.ring[(i - p) % memory] === h ? this.runs[p] + 1 : 0
    }
    // Long blocks: follow the distance to the previous occurrence while it holds.
    const lag = this.echoLag
    if (lag > 0 && this.ring[(i - lag) % memory] === h) {
      this.echoRun++
    } else {
      const previous = this.lastIndex.get(h)
      this.echoLag = previous !== undefined ? i - previous : 0
      this.echoRun = previous !== undefined ? 1 : 0
    }
    if (i >= memory) {
      const old = this.ring[i % memory]
      if (this.lastIndex.get(old) === i - memory) {
        this.lastIndex.delete(old)
      }
    }
    this.ring[i % memory] = h
    this.lastIndex.set(h, i)
    this.texts[i % this.textSlots] = text
    this.units = i + 1
    const setWindow = Math.min(this.request.allow(rules.setWindow), memory - 1)
    if (rules.setWindow > 0) {
      this.setCounts.set(h, (this.setCounts.get(h) ?? 0) + 1)
      if (i >= setWindow) {
        const gone = this.ring[(i - setWindow) % memory]
        const left = (this.setCounts.get(gone) ?? 0) - 1
        if (left <= 0) {
          this.setCounts.delete(gone)
        } else {
          this.setCounts.set(gone, left)
        }
      }
    }
    const request = this.request
    if (candidate && this.runs[1] + 1 >= request.allow(rules.threshold) && !request.quotesAll([text])) {
      return new ContentRepeat(text, this.runs[1] + 1)
    }
    const blockRepeats = request.allow(rules.blockRepeats)
    for (let p = 2; p <= rules.maxBlock; p++) {
      if (this.runs[p] >= p * (blockRepeats - 1) && this.primitive(p)) {
        const block = this.block(p)
        if (block.length > 0) {
          return new ContentRepeat(block.join(' | '), Math.floor(this.runs[p] / p) + 1)
        }
      }
    }
    const echo = this.echoLag
    if (candidate && echo > rules.maxBlock && this.echoRun >= echo * (blockRepeats - 1) && !request.quotesAll([text])) {
      return new ContentRepeat(`${text} | …`, Math.floor(this.echoRun / echo) + 1)
    }
    if (candidate && rules.setSize > 0 && rules.setWindow > 0 && this.units >= setWindow &&
      this.setCounts.size <= rules.setSize) {
      const members = this.distinctTexts(setWindow)
      if (!request.quotesAll(members)) {
        return new ContentRepeat(members.join(' | '), setWindow)
      }
    }
    return undefined
  }

  /** The candidate texts of the last p sentences (empty when none, or when the user wrote them all). */
  private block(p: number): string[] {
    const out: string[] = []
    for (let k = p; k >= 1; k--) {
      const t = this.texts[(this.units - k) % this.textSlots]
      if (t.length > 0) {
        out.push(t)
      }
    }
    return out.length > 0 && this.request.quotesAll(out) ? [] : out
  }

  /** The distinct candidate texts among the last n sentences, oldest first. */
  private distinctTexts(n: number): string[] {
    const out: string[] = []
    for (let k = Math.min(n, this.textSlots); k >= 1; k--) {
      const t = this.texts[(this.units - k) % this.textSlots]
      if (t.length > 0 && out.indexOf(t) < 0) {
        out.push(t)
      }
    }
    return out
  }

  /** The last p sentences are not themselves periodic with a shorter period dividing p. */
  private primitive(p: number): boolean {
    for (let d = 1; d < p; d++) {
      if (p % d === 0 && this.runs[d] >= p - d) {
        return false
      }
    }
    return true
  }
}
