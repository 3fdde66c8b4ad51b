import { Hash53 } from './StringHash'
import { volatileQueryRanges } from './QueryVolatile'
import { argStringIsTimestamp, isEpochMillis } from './Volatile'
import { isVolatileArgKey } from './VolatileKeys'

/**
 * Canonical JSON for call signatures: object keys sorted recursively, no insignificant whitespace,
 * numbers in JavaScript's shortest round-trip form (1, 1.0 and 1e0 all become `1`; -0 becomes `0`),
 * strings re-escaped uniformly (`"\u0041"` and `"A"` are equal).
 * Text that is not JSON (or nests too deeply to walk) is returned unchanged, so it is compared as
 * its raw text. Empty or blank arguments mean "no arguments" and canonicalise to `{}`, since
 * providers send either for a parameterless call.
 */
export function canonicalJson(text: string): string {
  if (text.trim().length === 0) {
    return '{}'
  }
  let parsed: Record<string, Object>
  try {
    parsed = JSON.parse(text) as Record<string, Object>
  } catch (e) {
    return text
  }
  try {
    // Fast path: when every object's keys already come in sorted order and every number is finite,
    // the native serializer produces exactly the canonical text (same key order, same string
    // escaping, same shortest round-trip numbers, -0 as 0). Models usually emit such arguments.
    if (isCanonicalOrder(parsed)) {
      return JSON.stringify(parsed)
    }
    // Otherwise a copy with keys inserted in sorted order serializes canonically too, unless a key
    // is one objects always list first (array-index-like) or is `__proto__`: then the writer below.
    const sorted = sortedCopy(parsed)
    if (sorted !== UNSORTABLE) {
      return JSON.stringify(sorted)
    }
    const out: string[] = []
    writeValue(parsed, out)
    return out.join('')
  } catch (e) {
    // Stack overflow on pathological nesting: the raw text is still a usable signature.
    return text
  }
}

class Unsortable {
}

const UNSORTABLE: Unsortable = new Unsortable()

/** A deep copy whose objects hold their keys in sorted order, or UNSORTABLE (see canonicalJson). */
function sortedCopy(value: Object | null | undefined): Object | null | undefined {
  if (value === null || value === undefined) {
    return value
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) ? value : UNSORTABLE
  }
  if (typeof value !== 'object') {
    return value
  }
  if (value instanceof Array) {
    const items = value as Array<Object>
    const copy: Array<Object | null | undefined> = []
    for (let i = 0; i < items.length; i++) {
      const item = sortedCopy(items[i])
      if (item === UNSORTABLE) {
        return UNSORTABLE
      }
      copy.push(item)
    }
    return copy
  }
  const obj = value as Record<string, Object>
  const keys = Object.keys(obj).sort()
  const copy: Record<string, Object | null | undefined> = {}
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]
    const first = key.charCodeAt(0)
    if ((first >= 48 && first <= 57) || key === '__proto__') {
      return UNSORTABLE
    }
    const item = sortedCopy(obj[key])
    if (item === UNSORTABLE) {
      return UNSORTABLE
    }
    copy[key] = item
  }
  return copy
}

/** True when JSON.stringify(value) is already canonical: sorted keys everywhere, finite numbers only. */
function isCanonicalOrder(value: Object | null | undefined): boolean {
  if (value === null || value === undefined) {
    return true
  }
  if (typeof value === 'number') {
    return Number.isFinite(value)
  }
  if (typeof value !== 'object') {
    return true
  }
  if (value instanceof Array) {
    const items = value as Array<Object>
    for (let i = 0; i < items.length; i++) {
      if (!isCanonicalOrder(items[i])) {
        return false
      }
    }
    return true
  }
  const obj = value as Record<string, Object>
  const keys = Object.keys(obj)
  for (let i = 0; i < keys.length; i++) {
    // Same order as the default sort of writeObject (UTF-16 code units); integer-like keys, which
    // objects list first, fail this check whenever that differs.
    if (i > 0 && !(keys[i - 1] < keys[i])) {
      return false
    }
    if (!isCanonicalOrder(obj[keys[i]])) {
      return false
    }
  }
  return true
}

function writeValue(value: Object | null | undefined, out: string[]): void {
  if (value === null || value === undefined) {
    out.push('null')
  } else if (typeof value === 'string') {
    out.push(JSON.stringify(value))
  } else if (typeof value === 'number') {
    out.push(canonicalNumber(value))
  } else if (typeof value === 'boolean') {
    out.push(value ? 'true' : 'false')
  } else if (value instanceof Array) {
    writeArray(value as Array<Object>, out)
  } else {
    writeObject(value as Record<string, Object>, out)
  }
}

function canonicalNumber(n: number): string {
  if (n === 0) {
    return '0'
  }
  // JSON.parse turns overflowing literals such as 1e400 into Infinity; keep them distinct from null.
  return Number.isFinite(n) ? String(n) : (n > 0 ? '1e999' : '-1e999')
}

function writeArray(items: Array<Object>, out: string[]): void {
  out.push('[')
  for (let i = 0; i < items.length; i++) {
    if (i > 0) {
      out.push(',')
    }
    writeValue(items[i], out)
  }
  out.push(']')
}

function writeObject(obj: Record<string, Object>, out: string[]): void {
  // Default sort compares UTF-16 code units: deterministic and locale-independent.
  const keys = Object.keys(obj).sort()
  out.push('{')
  for (let i = 0; i < keys.length; i++) {
    if (i > 0) {
      out.push(',')
    }
    out.push(JSON.stringify(keys[i]))
    out.push(':')
    writeValue(obj[keys[i]], out)
  }
  out.push('}')
}

// Structure tokens for canonicalHash, outside the UTF-16 range so they never equal a character.
const T_NULL: number = 0x110001
const T_TRUE: number = 0x110002
const T_FALSE: number = 0x110003
const T_NUMBER: number = 0x110004
const T_STRING: number = 0x110005
const T_ARRAY: number = 0x110006
const T_OBJECT: number = 0x110007
const T_RAW: number = 0x110008
const T_NAME: number = 0x110009
const T_VOLATILE: number = 0x11000a

/**
 * A 53-bit hash of `name` plus the canonical form of `argumentsJson`: two calls get the same hash
 * exactly when `name:canonicalJson(args)` is the same text (barring hash collisions). It walks
 * the parsed value with sorted keys and length-prefixed strings instead of building the canonical
 * string, which is most of the cost of recording a call.
 *
 * With `maskVolatile`, what is unique per call by design is left out (see Volatile): the values of
 * request-id, nonce, timestamp and attempt keys, date-times with a time of day, epoch milliseconds.
 * Two calls that differ only there are the same call.
 */
export function canonicalCallHash(name: string, argumentsJson: string, maskVolatile: boolean = false): number {
  if (argumentsJson.trim().length === 0) {
    const h = nameHash(name)
    h.addCode(T_OBJECT)
    h.addCode(0)
    return h.digest()
  }
  let parsed: Object | null
  try {
    parsed = JSON.parse(argumentsJson) as Object | null
  } catch (e) {
    return rawHash(nameHash(name), argumentsJson)
  }
  try {
    const h = nameHash(name)
    hashValue(parsed, h, maskVolatile)
    return h.digest()
  } catch (e) {
    // Nesting too deep to walk: like canonicalJson, fall back to the raw text.
    return rawHash(nameHash(name), argumentsJson)
  }
}

function nameHash(name: string): Hash53 {
  const h = new Hash53()
  h.addCode(T_NAME)
  h.addCode(name.length)
  h.addString(name)
  return h
}

function rawHash(h: Hash53, text: string): number {
  h.addCode(T_RAW)
  h.addCode(text.length)
  h.addString(text)
  return h.digest()
}

function hashString(text: string, h: Hash53): void {
  h.addCode(T_STRING)
  h.addCode(text.length)
  h.addString(text)
}

/** A string with its URL query's volatile values (QueryVolatile) hashed as one placeholder each. */
function hashMaskedString(text: string, h: Hash53): void {
  const ranges = volatileQueryRanges(text)
  if (ranges.length === 0) {
    hashString(text, h)
    return
  }
  h.addCode(T_STRING)
  h.addCode(T_VOLATILE)
  h.addCode(ranges.length)
  let at = 0
  for (let r = 0; r < ranges.length; r += 2) {
    h.addString(text.substring(at, ranges[r]))
    h.addCode(T_VOLATILE)
    at = ranges[r + 1]
  }
  h.addString(text.substring(at))
}

function hashValue(value: Object | null | undefined, h: Hash53, mask: boolean): void {
  if (value === null || value === undefined) {
    h.addCode(T_NULL)
  } else if (typeof value === 'string') {
    if (mask && argStringIsTimestamp(value as string)) {
      h.addCode(T_VOLATILE)
    } else if (mask) {
      hashMaskedString(value as string, h)
    } else {
      hashString(value as string, h)
    }
  } else if (typeof value === 'number') {
    if (mask && isEpochMillis(value as number)) {
      h.addCode(T_VOLATILE)
    } else {
      h.addCode(T_NUMBER)
      h.addString(canonicalNumber(value as number))
    }
  } else if (typeof value === 'boolean') {
    h.addCode((value as boolean) ? T_TRUE : T_FALSE)
  } else if (value instanceof Array) {
    const items = value as Array<Object>
    h.addCode(T_ARRAY)
    h.addCode(items.length)
    for (let i = 0; i < items.length; i++) {
      hashValue(items[i], h, mask)
    }
  } else {
    const obj = value as Record<string, Object>
    const keys = Object.keys(obj)
    if (keys.length > 1) {
      keys.sort()
    }
    h.addCode(T_OBJECT)
    h.addCode(keys.length)
    for (let i = 0; i < keys.length; i++) {
      hashString(keys[i], h)
      if (mask && isVolatileArgKey(keys[i])) {
        h.addCode(T_VOLATILE)
      } else {
        hashValue(obj[keys[i]], h, mask)
      }
    }
  }
}
