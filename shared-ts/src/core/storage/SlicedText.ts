// Measures of a long text (a segment holding a 1 MiB tool result) taken in slices, giving the (UI)
// thread back between them: the same values as the one-pass functions of util/Text.
import { HostYield } from '../host/HostYield'
import { FNV1A_START, fnv1aHex, fnv1aStep, pairSafeEnd, utf8LengthOf } from '../util/Text'

/** Code units measured between two checks of `HostYield.due()` (about a millisecond each on a slow core, even on a text the engine has not flattened yet). */
export const TEXT_SLICE: number = 16384

/** Code units V8 parses as JSON in about a millisecond, rounded down (1 MiB: about 8 ms on a laptop). */
const UNITS_PER_MS: number = 65536

/**
 * Gives the thread back when the current slice used its budget (`HostYield`), or when a step over
 * `units` code units (a JSON text to parse) would take it past the budget.
 */
export async function yieldIfDue(units: number = 0): Promise<void> {
  if (units >= UNITS_PER_MS ? HostYield.dueBefore(units / UNITS_PER_MS) : HostYield.due()) {
    await HostYield.now()
  }
}

/** `fnv1a(s)`, slice by slice (`slice` code units each), yielding when a slice used its budget. */
export async function fnv1aAsync(s: string, slice: number = TEXT_SLICE): Promise<string> {
  const step = Math.max(1, Math.floor(slice))
  let h = FNV1A_START
  for (let from = 0; from < s.length;) {
    const to = Math.min(s.length, from + step)
    h = fnv1aStep(h, s, from, to)
    from = to
    if (from < s.length && HostYield.due()) {
      await HostYield.now()
    }
  }
  return fnv1aHex(h)
}

/**
 * `utf8Length(s)`, slice by slice (about `slice` code units each, never cutting a surrogate pair),
 * yielding when a slice used its budget.
 */
export async function utf8LengthAsync(s: string, slice: number = TEXT_SLICE): Promise<number> {
  const step = Math.max(1, Math.floor(slice))
  let bytes = 0
  for (let from = 0; from < s.length;) {
    const to = pairSafeEnd(s, Math.min(s.length, from + step))
    bytes += utf8LengthOf(s, from, to)
    from = to
    if (from < s.length && HostYield.due()) {
      await HostYield.now()
    }
  }
  return bytes
}
