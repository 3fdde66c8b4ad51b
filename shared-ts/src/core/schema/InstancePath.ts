/**
 * Where a value sits in the validated instance, rendered only when a problem is reported:
 * `$`, `$.name`, `$.list[0]`, `$["not an identifier"]`.
 */
export class InstancePath {
  static readonly root: InstancePath = new InstancePath(undefined, '', -1)

  private readonly parent: InstancePath | undefined
  private readonly key: string
  private readonly index: number

  private constructor(parent: InstancePath | undefined, key: string, index: number) {
    this.parent = parent
    this.key = key
    this.index = index
  }

  property(key: string): InstancePath {
    return new InstancePath(this, key, -1)
  }

  item(index: number): InstancePath {
    return new InstancePath(this, '', index)
  }

  toString(): string {
    const parts: string[] = []
    let at: InstancePath | undefined = this
    while (at !== undefined && at.parent !== undefined) {
      parts.push(at.index >= 0 ? `[${at.index}]` : InstancePath.member(at.key))
      at = at.parent
    }
    parts.push('$')
    return parts.reverse().join('')
  }

  private static member(key: string): string {
    return InstancePath.isIdentifier(key) ? `.${key}` : `[${JSON.stringify(key)}]`
  }

  private static isIdentifier(key: string): boolean {
    if (key.length === 0) {
      return false
    }
    for (let i = 0; i < key.length; i++) {
      const c = key.charAt(i)
      const ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '$' || (i > 0 && c >= '0' && c <= '9')
      if (!ok) {
        return false
      }
    }
    return true
  }
}

/** One problem: where, and what ("must be >= 1"). */
export class Issue {
  readonly path: InstancePath
  readonly message: string

  constructor(path: InstancePath, message: string) {
    this.path = path
    this.message = message
  }

  toString(): string {
    return `${this.path.toString()}: ${this.message}`
  }
}

/** The problems one evaluation collects, up to `max` (then evaluation stops early). */
export class Issues {
  readonly max: number
  readonly list: Issue[] = []

  constructor(max: number) {
    this.max = max
  }

  add(path: InstancePath, message: string): void {
    if (this.list.length < this.max) {
      this.list.push(new Issue(path, message))
    }
  }

  get full(): boolean {
    return this.list.length >= this.max
  }

  /** The first problem's text ('' when there is none). */
  first(): string {
    return this.list.length > 0 ? this.list[0].toString() : ''
  }
}
