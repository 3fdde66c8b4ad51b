import { startTimer } from './Timers'

/**
 * Gives the thread back during long work. On HarmonyOS the runtime runs on the app's UI thread unless
 * the app moves it, and the UI draws a frame only between that thread's tasks: a chain of resolved
 * promises keeps the thread as surely as a loop does (no frame until the microtask queue is empty).
 * Loops that can run long (decoding a restored session, the events of one large network read) ask
 * `due()` between steps and, when it says so, `await HostYield.now()`: one macrotask, in which the
 * UI can draw.
 *
 * `due()` is true once `budgetMs` passed since the current slice began. A slice begins at the first
 * check after the thread ran anything else: a zero-delay timer started with the slice tells whether
 * it did (so waiting for the network never counts as work, and a loop that never runs long never
 * yields at all).
 */
export class HostYield {
  /**
   * The work the runtime does between two yields, in ms; 0 never yields. A third of a 60 Hz frame:
   * a stretch is the budget plus the step that crosses it (a slice of text, a message, a GC pause).
   */
  static budgetMs: number = 5
  private static sliceStart: number = 0
  /** True once the thread ran a macrotask after the current slice began (or before the first one). */
  private static released: boolean = true
  /** Yields made so far (a diagnostic for tests and benchmarks). */
  static yields: number = 0

  /** True when the current slice used up its budget: the caller should `await HostYield.now()`. */
  static due(): boolean {
    if (HostYield.budgetMs <= 0) {
      return false
    }
    if (HostYield.released) {
      HostYield.released = false
      HostYield.sliceStart = Date.now()
      startTimer((): void => {
        HostYield.released = true
      }, 0)
      return false
    }
    return Date.now() - HostYield.sliceStart >= HostYield.budgetMs
  }

  /**
   * `due()` before one step that holds the thread about `ms` on its own (decoding a 1 MiB text): true
   * as well when the current slice already ran something and the step would take it past the budget,
   * so the step begins a slice of its own. A slice that begins at this check ran nothing yet.
   */
  static dueBefore(ms: number): boolean {
    if (HostYield.budgetMs <= 0 || HostYield.released) {
      return HostYield.due()
    }
    return Date.now() - HostYield.sliceStart + Math.max(0, ms) >= HostYield.budgetMs
  }

  /**
   * Resolves after one macrotask (the thread may draw a frame meanwhile). A new slice begins as it
   * resolves: the work the caller resumes counts, even before its next check.
   */
  static now(): Promise<void> {
    HostYield.yields++
    return new Promise<void>((resolve: () => void): void => {
      startTimer((): void => {
        HostYield.released = true
        HostYield.due()
        resolve()
      }, 0)
    })
  }
}
