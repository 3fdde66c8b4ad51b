import { SecretVault } from '../secrets/SecretVault'

/**
 * Holds a secret so it cannot leak by accident: it lives in a closure, not a field, so
 * `JSON.stringify`, `toString` and object inspection show only `[redacted]`. Made, it is registered
 * with the SecretVault: no piece of it leaves the process through anything the runtime lets out.
 */
export class ApiKey {
  private readonly reveal: () => string

  constructor(value: string) {
    this.reveal = (): string => value
    SecretVault.register(value)
  }

  get isEmpty(): boolean {
    return this.reveal().length === 0
  }

  /** The raw key, for the Authorization header only. */
  value(): string {
    return this.reveal()
  }

  /** Removes every piece of every registered secret (this key included) from `text` (SecretVault.redact). */
  redact(text: string): string {
    return SecretVault.redact(text)
  }

  toString(): string {
    return '[redacted]'
  }

  toJSON(): string {
    return '[redacted]'
  }
}
