import { isVolatileKey } from './VolatileKeys'

/**
 * Volatile fields: the parts of a tool result (or of a call's arguments) that change on every call
 * without saying anything about progress — a timestamp, a clock reading, a duration, a request id,
 * an attempt counter. Two calls whose results differ only there got the same answer; the loop rules
 * compare results and arguments with these parts masked.
 *
 * Results (free text or JSON text, read as text in one pass, no parsing):
 *  - date and time tokens: `2024-05-01`, `10:03:15`, `2024-05-01T10:03:15.123Z` (digits with `:`,
 *    or with `-` or `/` and at least six digits);
 *  - durations: a number with a time unit, `120ms`, `1.5 s`, `2m30s`, `耗时 3 秒`;
 *  - epoch timestamps: 10- or 13-digit numbers starting with 1;
 *  - ids: hex runs of 8+ characters with both digits and letters (UUIDs, hashes), and 8+ character
 *    tokens that switch between letters and digits three times or more (`req_8Hj2kL9q`);
 *  - counters: the number after `attempt`, `retry`, `try`, `poll`, `iteration`, `round`, `tick`,
 *    `seq`, `#`, `第`;
 *  - the value after a volatile key (`"updated_at": …`, `request_id=…`, `took: …`; see isVolatileKey).
 * Never masked: plain small numbers (`42%`, `3 failing`, `page 7`), versions (`1.2.3`), paths — a
 * changing percentage or count is progress.
 *
 * Arguments (canonical JSON, see CanonicalJson): only what is unique per call by design — request,
 * trace and correlation ids, nonces, idempotency keys, cache busters, `ts`/`timestamp`/`now`,
 * attempt counters (isVolatileArgKey), full date-times with a time of day, and 13-digit epoch-ms
 * numbers. A date, a time or an id given as an argument is what the call is about, not noise.
 */

/** Hash placeholder for a masked token (outside the UTF-16 range, so it equals no character). */
const MASK: number = 0x110010
/** Hash code between the text and what follows it. */
const END_OF_TEXT: number = 0x110011

/** Words after which a number is a counter. */
const COUNTER_WORDS: string[] = ['attempt', 'attempts', 'try', 'retry', 'retrying', 'poll', 'polling', 'iteration', 'round',
  'tick', 'seq', 'check']

/** text[from, to) is one of COUNTER_WORDS, in any case (compared in place). */
function isCounterWord(text: string, from: number, to: number): boolean {
  const len = to - from
  for (let w = 0; w < COUNTER_WORDS.length; w++) {
    const word = COUNTER_WORDS[w]
    if (word.length !== len) {
      continue
    }
    let same = true
    for (let k = 0; k < len && same; k++) {
      same = (text.charCodeAt(from + k) | 32) === word.charCodeAt(k)
    }
    if (same) {
      return true
    }
  }
  return false
}

/** Time units after a number (lower case). */
const UNITS: Set<string> = new Set<string>(['ms', 's', 'sec', 'secs', 'second', 'seconds', 'm', 'min', 'mins', 'minute',
  'minutes', 'h', 'hr', 'hrs', 'hour', 'hours', 'us', 'ns', 'millis', 'milliseconds'])

function isAlpha(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90)
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70)
}

/** Characters that may join two parts of one token (`2024-05-01`, `10:03`, `req_1`, `a.b`, `+08:00`). */
function isJoiner(c: number): boolean {
  return c === 45 || c === 95 || c === 46 || c === 58 || c === 47 || c === 43
}

/** A 13-digit epoch-milliseconds number (2001..2033): a timestamp, whatever its key. */
export function isEpochMillis(n: number): boolean {
  return n >= 1e12 && n < 2e12 && Math.floor(n) === n
}

/** What a token looks like (tokens: letters and digits, joined by `-_.:/+`). */
class TokenShape {
  digits: number = 0
  letters: number = 0
  hexOnly: boolean = true
  /** Only digits and date/time joiners (`-:/.+`, and `T`/`Z`). */
  dateChars: boolean = true
  colon: boolean = false
  dashOrSlash: boolean = false
  /** Letter/digit switches (`a1b2` has 3). */
  switches: number = 0
  /** Digits, then letters only (a duration such as `120ms` or `2m30s`: digits and unit letters). */
  durationChars: boolean = true

  read(text: string, from: number, to: number): void {
    this.digits = 0
    this.letters = 0
    this.hexOnly = true
    this.dateChars = true
    this.colon = false
    this.dashOrSlash = false
    this.switches = 0
    this.durationChars = true
    let last = 0
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i)
      let kind = 0
      if (isDigit(c)) {
        this.digits++
        kind = 1
      } else if (isAlpha(c)) {
        this.letters++
        kind = 2
        if (!isHex(c)) {
          this.hexOnly = false
        }
        if (c !== 84 && c !== 90) {
          this.dateChars = false
        }
        // h, m, s, n, u (ns, us), and the letters of `ms`.
        if (c !== 104 && c !== 109 && c !== 115 && c !== 110 && c !== 117) {
          this.durationChars = false
        }
      } else {
        if (c === 58) {
          this.colon = true
        } else if (c === 45 || c === 47) {
          this.dashOrSlash = true
        }
        if (c !== 45) {
          this.hexOnly = false
        }
        if (c === 95) {
          this.dateChars = false
        }
        if (c !== 46) {
          this.durationChars = false
        }
      }
      if (kind !== 0) {
        if (last !== 0 && kind !== last) {
          this.switches++
        }
        last = kind
      }
    }
  }
}

const shape: TokenShape = new TokenShape()

/** A token with a digit in it: a date, a time, a duration, an epoch, an id? */
function isVolatileToken(text: string, from: number, to: number): boolean {
  shape.read(text, from, to)
  const len = to - from
  if (shape.dateChars && shape.digits >= 3 && (shape.colon || (shape.dashOrSlash && shape.digits >= 6))) {
    return true
  }
  if (shape.letters === 0) {
    // Epoch seconds or milliseconds.
    return (len === 10 || len === 13) && text.charCodeAt(from) === 49 && shape.digits === len
  }
  if (shape.durationChars && isDigit(text.charCodeAt(from)) && isAlpha(text.charCodeAt(to - 1))) {
    // 120ms, 1.5s, 2m30s, 3h — digits first, a unit letter last.
    return true
  }
  if (len >= 8 && shape.hexOnly) {
    return true
  }
  return len >= 8 && shape.switches >= 3
}

/** The lower-case word text[from, to) when it is short and purely alphabetic, else ''. */
function wordAt(text: string, from: number, to: number): string {
  if (to - from > 12) {
    return ''
  }
  let out = ''
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i)
    if (!isAlpha(c)) {
      return ''
    }
    out += c <= 90 ? String.fromCharCode(c + 32) : text.charAt(i)
  }
  return out
}

/** After a number ending at `to`: a time unit (`ms`, ` s`, ` seconds`, `秒`, `毫秒`, `分钟`) follows. */
function unitFollows(text: string, to: number): boolean {
  let i = to
  if (i < text.length && text.charCodeAt(i) === 32) {
    i++
  }
  if (i >= text.length) {
    return false
  }
  const c = text.charCodeAt(i)
  if (c === 0x79d2 || c === 0x6beb || c === 0x5206 || c === 0x5c0f) {
    // 秒, 毫(秒), 分(钟), 小(时)
    return true
  }
  let j = i
  while (j < text.length && j - i <= 12 && isAlpha(text.charCodeAt(j))) {
    j++
  }
  if (j === i || (j < text.length && isDigit(text.charCodeAt(j)))) {
    return false
  }
  return UNITS.has(wordAt(text, i, j))
}

/** True when a key separator (`:` or `=`, maybe after a closing quote and spaces) follows position `to`. */
function keySeparatorAt(text: string, to: number): boolean {
  let i = to
  if (i < text.length && (text.charCodeAt(i) === 34 || text.charCodeAt(i) === 39)) {
    i++
  }
  while (i < text.length && text.charCodeAt(i) === 32) {
    i++
  }
  return i < text.length && (text.charCodeAt(i) === 58 || text.charCodeAt(i) === 61)
}

/**
 * A 53-bit hash of `prefix`, `text` with its volatile tokens replaced by one placeholder each (see
 * the file comment), and `suffix`. One pass over the text: every character goes into a 32-bit lane
 * as it is read; the lane is saved where a token starts and, when the token turns out volatile, put
 * back and fed the placeholder instead. The prefix, the lane and the suffix then go through the two
 * lanes of hash53. No allocation except for key words.
 */
export function maskedHash(prefix: string, text: string, suffix: string): number {
  // The text goes through one 32-bit lane (the results compared are a handful per window); the
  // prefix, that lane's value and the suffix through the two lanes of hash53.
  let h = 0x811c9dc5
  const n = text.length
  /** The previous token was a volatile key or a counter word: mask the next token. */
  let maskNext = false
  let i = 0
  while (i < n) {
    let c = text.charCodeAt(i)
    if (((c | 32) - 97) >>> 0 >= 26 && (c - 48) >>> 0 >= 10) {
      h = Math.imul(h ^ c, 2654435761)
      i++
      continue
    }
    // A token: letters and digits, joined by single joiners. Hashed as read; the lane where it
    // started is kept in case it turns out volatile.
    const start = i
    const saved = h
    let digit = false
    for (;;) {
      h = Math.imul(h ^ c, 2654435761)
      digit = digit || (c - 48) >>> 0 < 10
      if (++i >= n) {
        break
      }
      c = text.charCodeAt(i)
      if (((c | 32) - 97) >>> 0 < 26 || (c - 48) >>> 0 < 10) {
        continue
      }
      if (!(isJoiner(c) && i + 1 < n && isAlnum(text.charCodeAt(i + 1)))) {
        break
      }
    }
    let mask = false
    if (maskNext) {
      mask = true
      maskNext = false
    } else if (digit) {
      // #12, 第 3 次, dates, times, durations, epochs, ids; a number followed by a time unit.
      mask = (start > 0 && text.charCodeAt(start - 1) === 35 && isDigit(text.charCodeAt(start))) ||
        previousNonBlank(text, start) === 0x7b2c || isVolatileToken(text, start, i) ||
        (isDigit(text.charCodeAt(start)) && isDigit(text.charCodeAt(i - 1)) && unitFollows(text, i))
    } else if (i - start <= 24) {
      if (keySeparatorAt(text, i)) {
        maskNext = isVolatileKey(text.substring(start, i))
      } else if (i - start >= 3 && i - start <= 9 && nextIsNumber(text, i)) {
        maskNext = isCounterWord(text, start, i)
      }
    }
    if (mask) {
      h = Math.imul(saved ^ MASK, 2654435761)
    }
  }
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let k = 0; k < prefix.length; k++) {
    const ch = prefix.charCodeAt(k)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h = (h ^ (h >>> 15)) >>> 0
  h1 = Math.imul(h1 ^ (h & 0xffff), 2654435761)
  h2 = Math.imul(h2 ^ (h >>> 16), 1597334677)
  h1 = Math.imul(h1 ^ (h >>> 16), 2654435761)
  h2 = Math.imul(h2 ^ (h & 0xffff), 1597334677)
  h1 = Math.imul(h1 ^ END_OF_TEXT, 2654435761)
  h2 = Math.imul(h2 ^ END_OF_TEXT, 1597334677)
  for (let k = 0; k < suffix.length; k++) {
    const ch = suffix.charCodeAt(k)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507)
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507)
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return 4294967296 * (2097151 & h2) + (h1 >>> 0)
}

function isAlnum(c: number): boolean {
  const lower = c | 32
  return (c >= 48 && c <= 57) || (lower >= 97 && lower <= 122)
}

/** The code of the last non-blank character before `at` (-1: none). */
function previousNonBlank(text: string, at: number): number {
  for (let i = at - 1; i >= 0 && i >= at - 3; i--) {
    const c = text.charCodeAt(i)
    if (c !== 32) {
      return c
    }
  }
  return -1
}

/** A number (maybe after `#`, `:`, `=` or spaces) follows position `to`. */
function nextIsNumber(text: string, to: number): boolean {
  let i = to
  while (i < text.length && i - to < 3) {
    const c = text.charCodeAt(i)
    if (isDigit(c)) {
      return true
    }
    if (c !== 32 && c !== 35 && c !== 58 && c !== 61) {
      return false
    }
    i++
  }
  return false
}

/**
 * A string argument value with its date-times masked: `2024-05-01T10:03:15Z` (a date with a time of
 * day) is when the call was made; a bare date or time is what the call is about and stays.
 */
export function argStringIsTimestamp(value: string): boolean {
  const n = value.length
  if (n < 16 || n > 40) {
    return false
  }
  // YYYY-MM-DD[T ]HH:MM
  for (let i = 0; i < 16; i++) {
    const c = value.charCodeAt(i)
    const want = i === 4 || i === 7 ? 45 : i === 10 ? -1 : i === 13 ? 58 : 0
    if (want === 0 && !isDigit(c)) {
      return false
    }
    if (want === -1 && c !== 84 && c !== 32 && c !== 116) {
      return false
    }
    if (want > 0 && c !== want) {
      return false
    }
  }
  return true
}
