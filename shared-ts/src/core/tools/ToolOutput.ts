/**
 * The rule for what a tool hands back (plain JavaScript tools return anything): a string is the
 * result text as it is; `undefined` and `null` are an empty result; numbers, booleans and bigints
 * are their decimal text; objects and arrays are JSON (bigints as decimal strings, a reference
 * back to an enclosing object as "[Circular]"). A function or a symbol is not a result: the call gets an
 * error-flagged tool_execution_failed result. So whatever a tool returns, what enters the state is
 * text the state codec can store and load.
 */
export class ToolOutput {
  /** The result text, or undefined when the value cannot be one (see `problem`). */
  static toText(value: Object | null | undefined): string | undefined {
    if (value === undefined || value === null) {
      return ''
    }
    const kind = typeof value
    if (kind === 'string') {
      return value as string
    }
    if (kind === 'number' || kind === 'boolean' || kind === 'bigint') {
      return String(value)
    }
    if (kind !== 'object') {
      return undefined
    }
    try {
      const text = JSON.stringify(value)
      if (typeof text === 'string') {
        return text
      }
    } catch (e) {
      // circular or a bigint inside: the careful encoder below handles both
    }
    try {
      return ToolOutput.encode(value, [], 0)
    } catch (e) {
      return undefined
    }
  }

  /** Why `value` is not a result (for the error result). */
  static problem(value: Object | null | undefined): string {
    const kind = typeof value
    return kind === 'object' ? 'an object that cannot be written as JSON' : `a ${kind}, not text`
  }

  /** JSON that cannot loop or throw on bigints; `path` holds the objects being encoded. */
  private static encode(value: Object | null | undefined, path: Object[], depth: number): string {
    if (value === undefined || value === null) {
      return 'null'
    }
    const kind = typeof value
    if (kind === 'bigint') {
      return JSON.stringify(String(value))
    }
    if (kind === 'string' || kind === 'number' || kind === 'boolean') {
      const text = JSON.stringify(value)
      return typeof text === 'string' ? text : 'null'
    }
    if (kind !== 'object') {
      return 'null'
    }
    if (path.indexOf(value) >= 0 || depth > 256) {
      return '"[Circular]"'
    }
    path.push(value)
    let out = ''
    if (value instanceof Array) {
      const items = value as Object[]
      const parts: string[] = []
      for (let i = 0; i < items.length; i++) {
        parts.push(ToolOutput.encode(items[i], path, depth + 1))
      }
      out = `[${parts.join(',')}]`
    } else {
      const record = value as Record<string, Object>
      const keys = Object.keys(record)
      const parts: string[] = []
      for (let i = 0; i < keys.length; i++) {
        const item = record[keys[i]]
        const itemKind = typeof item
        if (item === undefined || itemKind === 'function' || itemKind === 'symbol') {
          continue
        }
        parts.push(`${JSON.stringify(keys[i])}:${ToolOutput.encode(item, path, depth + 1)}`)
      }
      out = `{${parts.join(',')}}`
    }
    path.pop()
    return out
  }
}
