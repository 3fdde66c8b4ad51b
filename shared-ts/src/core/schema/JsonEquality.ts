/** The JSON type of a value, as `type` sees it (`integer` is a number with no fractional part). */
export enum JsonKind {
  null = 1,
  boolean = 2,
  object = 4,
  array = 8,
  number = 16,
  string = 32,
  /** Not JSON: undefined, a function, a non-finite number, a bigint, a symbol. Matches no type. */
  other = 0
}

/** One step of the canonical writer: text to emit as is, or a value to write. */
class Pending {
  readonly text: string
  readonly value: Object | null
  readonly isText: boolean

  constructor(text: string, value: Object | null, isText: boolean) {
    this.text = text
    this.value = value
    this.isText = isText
  }
}

/**
 * JSON equality as JSON Schema defines it (enum, const, uniqueItems): numbers by value (1 and 1.0
 * are equal), strings by code units, arrays item by item, objects by their key sets and values
 * whatever the key order. Decided through a canonical text, written without recursion so deep values
 * cannot overflow the stack.
 */
export class JsonEquality {
  static kindOf(value: Object | null | undefined): JsonKind {
    if (value === null) {
      return JsonKind.null
    }
    if (value === undefined) {
      return JsonKind.other
    }
    const t = typeof value
    if (t === 'string') {
      return JsonKind.string
    }
    if (t === 'number') {
      return Number.isFinite(value as number) ? JsonKind.number : JsonKind.other
    }
    if (t === 'boolean') {
      return JsonKind.boolean
    }
    if (t === 'object') {
      return value instanceof Array ? JsonKind.array : JsonKind.object
    }
    return JsonKind.other
  }

  static equal(a: Object | null, b: Object | null): boolean {
    return a === b || JsonEquality.key(a) === JsonEquality.key(b)
  }

  /** Own keys whose values are defined (an undefined property counts as absent, as in JSON text). */
  static keysOf(obj: Record<string, Object>): string[] {
    const keys = Object.keys(obj)
    let defined = 0
    for (let i = 0; i < keys.length; i++) {
      if (obj[keys[i]] !== undefined) {
        defined++
      }
    }
    if (defined === keys.length) {
      return keys
    }
    const out: string[] = []
    for (let i = 0; i < keys.length; i++) {
      if (obj[keys[i]] !== undefined) {
        out.push(keys[i])
      }
    }
    return out
  }

  /** Canonical text of a value: equal JSON values, and only they, have the same key. */
  static key(value: Object | null): string {
    const kind = JsonEquality.kindOf(value)
    if (kind !== JsonKind.array && kind !== JsonKind.object) {
      return JsonEquality.scalar(value, kind)
    }
    const out: string[] = []
    const stack: Pending[] = [new Pending('', value, false)]
    while (stack.length > 0) {
      const p = stack.pop() as Pending
      if (p.isText) {
        out.push(p.text)
        continue
      }
      const k = JsonEquality.kindOf(p.value)
      if (k === JsonKind.array) {
        const items = p.value as Object[]
        // Pushed in reverse: popped in order.
        stack.push(new Pending(']', null, true))
        for (let i = items.length - 1; i >= 0; i--) {
          stack.push(new Pending('', items[i] === undefined ? null : items[i], false))
          if (i > 0) {
            stack.push(new Pending(',', null, true))
          }
        }
        out.push('[')
      } else if (k === JsonKind.object) {
        const obj = p.value as Record<string, Object>
        const keys = JsonEquality.keysOf(obj).sort()
        stack.push(new Pending('}', null, true))
        for (let i = keys.length - 1; i >= 0; i--) {
          stack.push(new Pending('', obj[keys[i]], false))
          stack.push(new Pending(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`, null, true))
        }
        out.push('{')
      } else {
        out.push(JsonEquality.scalar(p.value, k))
      }
    }
    return out.join('')
  }

  private static scalar(value: Object | null, kind: JsonKind): string {
    if (kind === JsonKind.null) {
      return 'null'
    }
    if (kind === JsonKind.string) {
      return JSON.stringify(value as string)
    }
    if (kind === JsonKind.number) {
      // String(-0) is '0': 0 and -0 are the same JSON number.
      return String(value as number)
    }
    if (kind === JsonKind.boolean) {
      return (value as boolean) ? 'true' : 'false'
    }
    // Not JSON: equal to nothing a schema holds.
    return '\u0000'
  }
}
