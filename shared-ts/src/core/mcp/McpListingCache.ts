import { McpSkippedTool } from './McpSkippedTool'
import { McpToolInfo } from './McpToolInfo'

/**
 * The listing cache of one McpHttpClient: the latest complete listing, reused until invalidated
 * (`invalidate()`, a tools/list_changed seen, a new session) or older than `maxAgeMs` (-1: no age limit;
 * 0: never reused). A listing that an invalidation overtook while it ran is not stored.
 */
export class McpListingCache {
  private readonly maxAgeMs: number
  private cached?: McpToolInfo[]
  private cachedSkipped: McpSkippedTool[] = []
  private cachedAt: number = 0
  private cachedVersion: number = -1
  /** Bumped by every invalidation. */
  version: number = 0
  /** tools/list_changed notifications seen, and how many of them a complete listing answered. */
  changes: number = 0
  private listedChanges: number = 0
  /** What the latest complete listing left out. */
  skipped: McpSkippedTool[] = []

  constructor(maxAgeMs: number) {
    this.maxAgeMs = maxAgeMs
  }

  get listChanged(): boolean {
    return this.changes !== this.listedChanges
  }

  invalidate(): void {
    this.version++
    this.cached = undefined
  }

  /** The server said its list changed. */
  changed(): void {
    this.changes++
    this.invalidate()
  }

  /** The cached listing when it may be reused (its skipped tools become current), else undefined. */
  fresh(): McpToolInfo[] | undefined {
    const cached = this.cached
    if (cached === undefined || this.cachedVersion !== this.version ||
      (this.maxAgeMs >= 0 && Date.now() - this.cachedAt >= this.maxAgeMs)) {
      return undefined
    }
    this.skipped = this.cachedSkipped.slice()
    return cached.slice()
  }

  /** A complete listing, begun at `version` with `seen` changes counted: current, and cached unless overtaken. */
  store(out: McpToolInfo[], skipped: McpSkippedTool[], version: number, seen: number): void {
    this.skipped = skipped
    this.listedChanges = Math.max(this.listedChanges, seen)
    if (this.maxAgeMs !== 0 && this.version === version) {
      this.cached = out.slice()
      this.cachedSkipped = skipped.slice()
      this.cachedAt = Date.now()
      this.cachedVersion = version
    }
  }
}
