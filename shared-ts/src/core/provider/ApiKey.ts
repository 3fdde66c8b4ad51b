/**
 * Holds a secret so it cannot leak by accident: it lives in a closure, not a field, so
 * `JSON.stringify`, `toString` and object inspection show only `[redacted]`.
 */
export class ApiKey {
  private readonly reveal: () => string

  constructor(value: string) {
    this.reveal = (): string => value
  }

  get isEmpty(): boolean {
    return this.reveal().length === 0
  }

  /** The raw key, for the Authorization header only. */
  value(): string {
    return this.reveal()
  }

  /** Removes the key (and its Bearer form) from text that may have echoed it. */
  redact(text: string): string {
    const key = this.reveal()
    if (key.length < 4 || text.indexOf(key) < 0) {
      return text
    }
    return text.split(key).join('[redacted]')
  }

  toString(): string {
    return '[redacted]'
  }

  toJSON(): string {
    return '[redacted]'
  }
}
