import { canonicalJson } from './CanonicalJson'
import { preview } from './StringHash'

/**
 * One recorded tool call: what was called and what came back, as hashes. The readable signature
 * is only needed as evidence when a loop is reported, so it is built then, not per call.
 */
export class ToolCallEntry {
  readonly name: string
  readonly signatureHash: number
  readonly resultHash: number
  private readonly argumentsJson: string
  private readonly maxEvidenceChars: number

  constructor(name: string, signatureHash: number, resultHash: number, argumentsJson: string,
    maxEvidenceChars: number) {
    this.name = name
    this.signatureHash = signatureHash
    this.resultHash = resultHash
    this.argumentsJson = argumentsJson.length > 4 * maxEvidenceChars + 64 ?
      argumentsJson.substring(0, 4 * maxEvidenceChars + 64) : argumentsJson
    this.maxEvidenceChars = maxEvidenceChars
  }

  /** Truncated `name:canonicalArgs`, as evidence. */
  get signature(): string {
    return preview(`${this.name}:${canonicalJson(this.argumentsJson)}`, this.maxEvidenceChars)
  }

  /** Same call with the same outcome. A same call with a different result is progress. */
  sameAs(other: ToolCallEntry): boolean {
    return this.signatureHash === other.signatureHash && this.resultHash === other.resultHash &&
      this.name === other.name
  }
}

/**
 * Ring buffer of the most recent calls plus, for each lag p in 1..maxLag, the run length of
 * consecutive positions i where entry[i] equals entry[i-p]. A run of r matches at lag p means the
 * last r+p calls repeat with period p, so repeats (p = 1) and cycles (p >= 2) are read off in O(1)
 * per lag, and memory is capacity + maxLag numbers whatever the run length.
 */
export class ToolCallWindow {
  readonly capacity: number
  readonly maxLag: number
  private entries: ToolCallEntry[] = []
  /** Index in `entries` where the next push goes once the buffer is full. */
  private head: number = 0
  private matchRuns: number[] = []

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
  }

  push(entry: ToolCallEntry): void {
    for (let p = 1; p <= this.maxLag; p++) {
      const earlier = this.back(p - 1)
      this.matchRuns[p] = earlier !== undefined && entry.sameAs(earlier) ? this.matchRuns[p] + 1 : 0
    }
    if (this.entries.length < this.capacity) {
      this.entries.push(entry)
    } else {
      this.entries[this.head] = entry
      this.head = (this.head + 1) % this.capacity
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
}
