/** Returned by the parser for "no value here yet" (distinct from JSON null). */
class Missing {
  static readonly instance: Missing = new Missing()
}

const NUMBER: RegExp = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/

/**
 * The parsed prefix of a JSON text that is still streaming, for UIs that show a structured answer
 * as it grows: open objects and arrays are closed, a string cut off is kept as far as it arrived,
 * a number, literal or key cut off is left out (it may still change). A leading ```` ```json ````
 * fence line is skipped; a `__proto__` key is left out. `parse` returns undefined when the text so far is not the start of a JSON
 * value (prose, or a syntax error). A view, never the answer: the final answer is checked whole.
 */
export class PartialJson {
  private readonly text: string
  private pos: number = 0
  private broken: boolean = false

  private constructor(text: string) {
    this.text = text
  }

  static parse(text: string): Object | null | undefined {
    let body = text.trimStart()
    const fence = /^(`{3,}|~{3,})[ \t]*(json|JSON)?[ \t]*(\r?\n|$)/.exec(body)
    if (fence !== null) {
      body = body.slice(fence[0].length)
      const close = body.lastIndexOf(fence[1])
      if (close >= 0) {
        body = body.slice(0, close)
      }
    }
    const p = new PartialJson(body)
    p.skipBlanks()
    if (p.pos >= p.text.length) {
      return undefined
    }
    const value = p.value()
    if (p.broken || value instanceof Missing) {
      return undefined
    }
    p.skipBlanks()
    if (p.pos < p.text.length && p.text.charAt(p.pos) !== '`' && p.text.charAt(p.pos) !== '~') {
      return undefined
    }
    return value as Object | null
  }

  private skipBlanks(): void {
    while (this.pos < this.text.length && ' \t\r\n'.indexOf(this.text.charAt(this.pos)) >= 0) {
      this.pos++
    }
  }

  private value(): Object | null {
    this.skipBlanks()
    if (this.pos >= this.text.length) {
      return Missing.instance
    }
    const c = this.text.charAt(this.pos)
    if (c === '{') {
      return this.object()
    }
    if (c === '[') {
      return this.array()
    }
    if (c === '"') {
      const s = this.string()
      return s !== undefined ? s : Missing.instance
    }
    return this.scalar()
  }

  private object(): Object {
    this.pos++
    const out: Record<string, Object | null> = {}
    while (!this.broken) {
      this.skipBlanks()
      if (this.pos >= this.text.length) {
        return out
      }
      const c = this.text.charAt(this.pos)
      if (c === '}') {
        this.pos++
        return out
      }
      if (c === ',') {
        this.pos++
        continue
      }
      if (c !== '"') {
        this.broken = true
        return out
      }
      const start = this.pos
      const key = this.string()
      if (key === undefined || this.text.charAt(this.pos - 1) !== '"' || this.pos === start + 1) {
        return out
      }
      this.skipBlanks()
      if (this.pos >= this.text.length) {
        return out
      }
      if (this.text.charAt(this.pos) !== ':') {
        this.broken = true
        return out
      }
      this.pos++
      const v = this.value()
      // `__proto__` would set the view's prototype instead of a field: left out of views (the answer keeps it).
      if (!(v instanceof Missing) && key !== '__proto__') {
        out[key] = v
      }
    }
    return out
  }

  private array(): Object {
    this.pos++
    const out: (Object | null)[] = []
    while (!this.broken) {
      this.skipBlanks()
      if (this.pos >= this.text.length) {
        return out
      }
      const c = this.text.charAt(this.pos)
      if (c === ']') {
        this.pos++
        return out
      }
      if (c === ',') {
        this.pos++
        continue
      }
      const v = this.value()
      if (!(v instanceof Missing)) {
        out.push(v)
      }
    }
    return out
  }

  /** A string from its opening quote; cut off: what arrived (a dangling escape dropped). Ends past the closing quote. */
  private string(): string | undefined {
    let out = ''
    this.pos++
    while (this.pos < this.text.length) {
      const c = this.text.charAt(this.pos)
      if (c === '"') {
        this.pos++
        return out
      }
      if (c !== '\\') {
        out += c
        this.pos++
        continue
      }
      const e = this.text.charAt(this.pos + 1)
      if (e === '') {
        this.pos = this.text.length
        return out
      }
      if (e === 'u') {
        const hex = this.text.slice(this.pos + 2, this.pos + 6)
        if (hex.length < 4) {
          this.pos = this.text.length
          return out
        }
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          this.broken = true
          return undefined
        }
        out += String.fromCharCode(parseInt(hex, 16))
        this.pos += 6
        continue
      }
      const i = '"\\/bfnrt'.indexOf(e)
      if (i < 0) {
        this.broken = true
        return undefined
      }
      out += '"\\/\b\f\n\r\t'.charAt(i)
      this.pos += 2
    }
    return out
  }

  /** A number or literal; cut off by the end of the text: missing (it may still change). */
  private scalar(): Object | null {
    const start = this.pos
    while (this.pos < this.text.length && ',]} \t\r\n`~'.indexOf(this.text.charAt(this.pos)) < 0) {
      this.pos++
    }
    const word = this.text.slice(start, this.pos)
    if (this.pos >= this.text.length) {
      return Missing.instance
    }
    if (word === 'true') {
      return true
    }
    if (word === 'false') {
      return false
    }
    if (word === 'null') {
      return null
    }
    if (NUMBER.test(word)) {
      return Number(word)
    }
    this.broken = true
    return Missing.instance
  }
}
