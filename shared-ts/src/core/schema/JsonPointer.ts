/** JSON pointers (RFC 6901): locations inside the schema document, as used by `$ref` fragments. */
export class JsonPointer {
  /** `token` escaped for a pointer (`~` → `~0`, `/` → `~1`). */
  static escape(token: string): string {
    if (token.indexOf('~') < 0 && token.indexOf('/') < 0) {
      return token
    }
    return token.split('~').join('~0').split('/').join('~1')
  }

  /** `pointer` with one more token. */
  static append(pointer: string, token: string): string {
    return `${pointer}/${JsonPointer.escape(token)}`
  }

  /**
   * The tokens of a pointer taken from a URI fragment (percent-decoded first, then `~1` and `~0`
   * unescaped), or undefined when it is not a pointer ('' is the root: no tokens).
   */
  static parseFragment(fragment: string): string[] | undefined {
    let decoded: string
    try {
      decoded = decodeURIComponent(fragment)
    } catch (e) {
      return undefined
    }
    if (decoded.length === 0) {
      return []
    }
    if (!decoded.startsWith('/')) {
      return undefined
    }
    const tokens = decoded.substring(1).split('/')
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]
      // `~` must be followed by 0 or 1.
      for (let k = t.indexOf('~'); k >= 0; k = t.indexOf('~', k + 1)) {
        const next = k + 1 < t.length ? t.charAt(k + 1) : ''
        if (next !== '0' && next !== '1') {
          return undefined
        }
      }
      tokens[i] = t.split('~1').join('/').split('~0').join('~')
    }
    return tokens
  }

  /** The pointer made of `tokens` under `base`. */
  static join(base: string, tokens: string[]): string {
    let out = base
    for (let i = 0; i < tokens.length; i++) {
      out = JsonPointer.append(out, tokens[i])
    }
    return out
  }

  /** The unescaped tokens of a pointer this module built ('' is the root: no tokens). */
  static tokens(pointer: string): string[] {
    if (pointer.length === 0) {
      return []
    }
    const tokens = pointer.substring(1).split('/')
    for (let i = 0; i < tokens.length; i++) {
      tokens[i] = tokens[i].split('~1').join('/').split('~0').join('~')
    }
    return tokens
  }

  /** The value at `tokens` inside `document` (own properties and array indexes only), or undefined. */
  static valueAt(document: Object, tokens: string[]): Object | null | undefined {
    let at: Object | null = document
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]
      if (at instanceof Array) {
        const list = at as Object[]
        if (!JsonPointer.isIndex(token) || Number(token) >= list.length) {
          return undefined
        }
        at = list[Number(token)]
      } else if (at !== null && typeof at === 'object') {
        const obj = at as Record<string, Object>
        if (Object.keys(obj).indexOf(token) < 0) {
          return undefined
        }
        at = obj[token]
      } else {
        return undefined
      }
    }
    return at
  }

  private static isIndex(token: string): boolean {
    if (token.length === 0 || (token.length > 1 && token.charAt(0) === '0')) {
      return false
    }
    for (let i = 0; i < token.length; i++) {
      const c = token.charAt(i)
      if (c < '0' || c > '9') {
        return false
      }
    }
    return true
  }
}
