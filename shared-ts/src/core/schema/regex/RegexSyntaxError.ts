/**
 * Thrown by `LinearRegex.compile` for a pattern that is invalid under ECMAScript's `u` flag, or
 * that uses a feature the linear-time engine refuses (backreferences, lookaround, oversized
 * programs). The message names the problem and its position in the pattern.
 */
export class RegexSyntaxError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RegexSyntaxError'
  }
}
