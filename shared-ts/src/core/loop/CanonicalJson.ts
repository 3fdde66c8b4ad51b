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
    const out: string[] = []
    writeValue(parsed, out)
    return out.join('')
  } catch (e) {
    // Stack overflow on pathological nesting: the raw text is still a usable signature.
    return text
  }
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
