import { isVolatileArgKey } from './VolatileKeys'

/**
 * Volatile parts of a URL's query inside a string argument: a cache buster (`?_=1723288771550`,
 * `&cb=…`, `&nocache=…`), a request id or timestamp parameter (any key isVolatileArgKey accepts:
 * `request_id`, `ts`, `nonce`, ...), and a parameter whose value is an epoch-milliseconds timestamp (13
 * digits, 2001..2033; ten digits may be an order number, so seconds count only under a known key). Two calls whose URLs differ only there fetch the same
 * thing. Everything else of the URL (path, other parameters, the fragment) is what the call is about.
 */

/** Query keys that name a cache buster (lower case). */
const BUSTER_KEYS: Set<string> = new Set<string>(['_', '__', 'cb', 'cachebust', 'cachebuster', 'cache_bust', 'cache_buster',
  'nocache', 'no_cache', 'bust', 'rnd', 'rand', 'random', 'r', 't', '_t', '_ts', 'ts', 'v_', 'dc', '_dc', 'nc'])

function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57
}

/** text[from, to) is an epoch-milliseconds timestamp: 13 digits starting with 1. */
function isEpochDigits(text: string, from: number, to: number): boolean {
  if (to - from !== 13 || text.charCodeAt(from) !== 49) {
    return false
  }
  for (let i = from; i < to; i++) {
    if (!isDigitCode(text.charCodeAt(i))) {
      return false
    }
  }
  return true
}

/**
 * The [start, end) ranges of the volatile parameter values in `value`'s URL query, as a flat list
 * (empty when there is no query or nothing in it is volatile). O(length of value).
 */
export function volatileQueryRanges(value: string): number[] {
  const ranges: number[] = []
  const q = value.indexOf('?')
  if (q < 0 || value.length > 8192) {
    return ranges
  }
  let end = value.indexOf('#', q)
  if (end < 0) {
    end = value.length
  }
  let at = q + 1
  while (at < end) {
    let amp = value.indexOf('&', at)
    if (amp < 0 || amp > end) {
      amp = end
    }
    const eq = value.indexOf('=', at)
    if (eq > at && eq < amp) {
      const key = value.substring(at, eq)
      const lower = key.toLowerCase()
      if (BUSTER_KEYS.has(lower) || isVolatileArgKey(key) || isEpochDigits(value, eq + 1, amp)) {
        ranges.push(eq + 1)
        ranges.push(amp)
      }
    }
    at = amp + 1
  }
  return ranges
}
