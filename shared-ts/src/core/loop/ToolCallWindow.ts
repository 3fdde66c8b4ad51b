import { canonicalJson } from './CanonicalJson'
import { preview } from './StringHash'

/**
 * One recorded tool call: what was called and what came back, as hashes of their normalised forms
 * (volatile fields masked, see Volatile). The readable signature is only needed as evidence when a
 * loop is reported, so it is built then, not per call.
 */
export class ToolCallEntry {
  readonly name: string
  readonly signatureHash: number
  readonly resultHash: number
  /**
   * Made after a wait or long enough after the previous call (see LoopDetector): time-paced, so it
   * equals no other entry and breaks every run it would have extended.
   */
  readonly paced: boolean
  /** Identity of (call, result) for the small-set rule (a 30-bit small integer); unique and negative for a paced entry. */
  readonly key: number
  private readonly argumentsJson: string
  private readonly maxEvidenceChars: number

  constructor(name: string, signatureHash: number, resultHash: number, argumentsJson: string,
    maxEvidenceChars: number, paced: boolean = false, uniqueKey: number = -1) {
    this.name = name
    this.signatureHash = signatureHash
    this.resultHash = resultHash
    this.paced = paced
    this.key = paced ? uniqueKey : ToolCallEntry.mix(signatureHash, resultHash)
    this.argumentsJson = argumentsJson.length > 4 * maxEvidenceChars + 64 ?
      argumentsJson.substring(0, 4 * maxEvidenceChars + 64) : argumentsJson
    this.maxEvidenceChars = maxEvidenceChars
  }

  /** Truncated `name:canonicalArgs`, as evidence. */
  get signature(): string {
    return preview(`${this.name}:${canonicalJson(this.argumentsJson)}`, this.maxEvidenceChars)
  }

  /** Same call with the same outcome. A same call with a different result is progress; a paced call is never the same. */
  sameAs(other: ToolCallEntry): boolean {
    return !this.paced && !other.paced && this.signatureHash === other.signatureHash &&
      this.resultHash === other.resultHash && this.name === other.name
  }

  /** A non-negative 30-bit mix of two 53-bit hashes. */
  private static mix(a: number, b: number): number {
    let h = Math.imul((a % 4294967296) ^ Math.floor(a / 4294967296), 2654435761)
    h = Math.imul(h ^ (b % 4294967296), 1597334677)
    h = Math.imul(h ^ Math.floor(b / 4294967296), 2246822507)
    return (h ^ (h >>> 15)) & 0x3fffffff
  }
}

/** Slot encoding: occurrences in the window (< TOTAL, as windowSize ≤ 10000) + TOTAL × occurrences since entering. */
const TOTAL: number = 16384

/**
 * Ring buffer of the most recent calls plus, for each lag p in 1..maxLag, the run length of
 * consecutive positions i where entry[i] equals entry[i-p]. A run of r matches at lag p means the
 * last r+p calls repeat with period p, so repeats (p = 1) and cycles (p >= 2) are read off in O(1)
 * per lag, and memory is capacity + maxLag numbers whatever the run length.
 *
 * It also counts, over the calls in the window, how often each (call, result) occurs: the number
 * of distinct ones and of those seen once, and how often each occurred since it entered the window.
 * A full window of few distinct calls, each seen at least twice, is a loop whatever the order (see
 * LoopDetector). O(1) per call.
 */
export class ToolCallWindow {
  readonly capacity: number
  readonly maxLag: number
  private entries: ToolCallEntry[] = []
  /** Index in `entries` where the next push goes once the buffer is full. */
  private head: number = 0
  private matchRuns: number[] = []
  /**
   * For each (call, result) in the window: its occurrences in the window, plus TOTAL times its
   * occurrences since it last entered the window (it has stayed in since). One map, small-integer keys.
   */
  private slots: Map<number, number> = new Map<number, number>()
  private singles: number = 0

  constructor(capacity: number, maxLag: number) {
    this.capacity = capacity
    this.maxLag = maxLag
    this.clear()
  }

  size(): number {
    return this.entries.length
  }

  clear(): void {
    this.entries = []
    this.head = 0
    this.matchRuns = []
    for (let p = 0; p <= this.maxLag; p++) {
      this.matchRuns.push(0)
    }
    this.slots.clear()
    this.singles = 0
  }

  push(entry: ToolCallEntry): void {
    for (let p = 1; p <= this.maxLag; p++) {
      const earlier = this.back(p - 1)
      this.matchRuns[p] = earlier !== undefined && entry.sameAs(earlier) ? this.matchRuns[p] + 1 : 0
    }
    if (this.entries.length < this.capacity) {
      this.entries.push(entry)
    } else {
      this.uncount(this.entries[this.head].key)
      this.entries[this.head] = entry
      this.head = (this.head + 1) % this.capacity
    }
    const slot = this.slots.get(entry.key) ?? 0
    const before = slot % TOTAL
    this.slots.set(entry.key, before === 0 ? TOTAL + 1 : slot + TOTAL + 1)
    if (before === 0) {
      this.singles++
    } else if (before === 1) {
      this.singles--
    }
  }

  private uncount(key: number): void {
    const slot = this.slots.get(key) ?? 0
    const before = slot % TOTAL
    if (before <= 1) {
      this.slots.delete(key)
      this.singles--
    } else {
      this.slots.set(key, slot - 1)
      if (before === 2) {
        this.singles++
      }
    }
  }

  /** The entry `stepsBack` positions before the newest (0 = newest), if still in the window. */
  back(stepsBack: number): ToolCallEntry | undefined {
    const n = this.entries.length
    if (stepsBack < 0 || stepsBack >= n) {
      return undefined
    }
    const newest = n < this.capacity ? n - 1 : (this.head + this.capacity - 1) % this.capacity
    return this.entries[(newest - stepsBack + this.capacity) % this.capacity]
  }

  /** Consecutive calls (ending with the newest) equal to the call `lag` positions before them. */
  matchRun(lag: number): number {
    return lag >= 1 && lag <= this.maxLag ? this.matchRuns[lag] : 0
  }

  /** Distinct (call, result) pairs in the window. */
  distinct(): number {
    return this.slots.size
  }

  /** (call, result) pairs seen exactly once in the window (every paced call is one). */
  seenOnce(): number {
    return this.singles
  }

  /**
   * The fewest times any pair in the window occurred since it entered the window (it has stayed in
   * since). O(distinct()): call it once distinct() is known to be small.
   */
  fewestRepeats(): number {
    let fewest = Number.MAX_SAFE_INTEGER
    this.slots.forEach((slot: number): void => {
      const total = Math.floor(slot / TOTAL)
      if (total < fewest) {
        fewest = total
      }
    })
    return this.slots.size > 0 ? fewest : 0
  }
}
