/** UTF-8 byte length of a JS string without TextEncoder (not available in the ArkTS core). */
export function utf8Length(s: string): number {
  return utf8LengthOf(s, 0, s.length)
}

/**
 * UTF-8 byte length of `s[from, to)`, a surrogate pair counted only when both halves are inside. Over
 * ranges that split no pair (`pairSafeEnd`), the lengths add up to `utf8Length` of the whole.
 */
export function utf8LengthOf(s: string, from: number, to: number): number {
  let bytes = 0
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) {
      bytes += 1
    } else if (c < 0x800) {
      bytes += 2
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const next = s.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4
        i++
      } else {
        bytes += 3
      }
    } else {
      bytes += 3
    }
  }
  return bytes
}

/**
 * `end`, or one more when a surrogate pair straddles it (a high surrogate just before, a low one at
 * `end`): a range ending there splits no character. A high surrogate pairs with the unit after it
 * whenever that is a low one, so whether a boundary splits a pair depends on these two units alone.
 */
export function pairSafeEnd(s: string, end: number): number {
  if (end <= 0 || end >= s.length) {
    return Math.min(Math.max(end, 0), s.length)
  }
  const c = s.charCodeAt(end - 1)
  const next = s.charCodeAt(end)
  return c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? end + 1 : end
}

/** The FNV-1a offset basis: the state `fnv1aStep` starts from. */
export const FNV1A_START: number = 0x811c9dc5

/** FNV-1a state `h` carried over the UTF-16 code units `s[from, to)` (steps over consecutive ranges chain). */
export function fnv1aStep(h: number, s: string, from: number, to: number): number {
  let x = h
  for (let i = from; i < to; i++) {
    x ^= s.charCodeAt(i)
    x = Math.imul(x, 0x01000193)
  }
  return x
}

/** An FNV-1a state as `fnv1a` writes it: 8 hex digits. */
export function fnv1aHex(h: number): string {
  return (h >>> 0).toString(16).padStart(8, '0')
}

/** FNV-1a over UTF-16 code units, as 8 hex digits. Fast content fingerprint, not a security hash. */
export function fnv1a(s: string): string {
  return fnv1aHex(fnv1aStep(FNV1A_START, s, 0, s.length))
}

/** Splits `s` into pieces of at most `maxBytes` UTF-8 bytes, never inside a surrogate pair. */
export function splitByUtf8Bytes(s: string, maxBytes: number): string[] {
  if (maxBytes <= 0 || utf8Length(s) <= maxBytes) {
    return [s]
  }
  const parts: string[] = []
  let start = 0
  let bytes = 0
  let i = 0
  while (i < s.length) {
    const c = s.charCodeAt(i)
    let width = 1
    let units = 1
    if (c >= 0x80 && c < 0x800) {
      width = 2
    } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 &&
      s.charCodeAt(i + 1) <= 0xdfff) {
      width = 4
      units = 2
    } else if (c >= 0x800) {
      width = 3
    }
    if (bytes + width > maxBytes && i > start) {
      parts.push(s.slice(start, i))
      start = i
      bytes = 0
    }
    bytes += width
    i += units
  }
  parts.push(s.slice(start))
  return parts
}

/**
 * How many bytes at the end of `bytes[0, length)` begin a UTF-8 sequence that has not arrived
 * whole yet (0 to 3): a valid start of a character, cut short. A transport keeps them for the next
 * network read and decodes only what is complete, so no decoder's streaming state is relied on (a
 * HarmonyOS decoder does not flush on an empty final call). Bytes that can never become a valid
 * character count as complete: the decoder replaces them at once, exactly as a whole-body decode
 * (WHATWG) would.
 */
export function utf8IncompleteTail(bytes: Uint8Array, length: number): number {
  for (let back = 1; back <= 3 && back <= length; back++) {
    const lead = bytes[length - back]
    if ((lead & 0xc0) === 0x80) {
      continue
    }
    let need = 0
    let low = 0x80
    let high = 0xbf
    if (lead >= 0xc2 && lead <= 0xdf) {
      need = 2
    } else if (lead >= 0xe0 && lead <= 0xef) {
      need = 3
      low = lead === 0xe0 ? 0xa0 : 0x80
      high = lead === 0xed ? 0x9f : 0xbf
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      need = 4
      low = lead === 0xf0 ? 0x90 : 0x80
      high = lead === 0xf4 ? 0x8f : 0xbf
    }
    if (need <= back) {
      return 0
    }
    // The bytes after the lead must be a valid start of its sequence (the first has a narrower range).
    for (let k = 1; k < back; k++) {
      const b = bytes[length - back + k]
      if (k === 1 ? b < low || b > high : (b & 0xc0) !== 0x80) {
        return 0
      }
    }
    return back
  }
  return 0
}
