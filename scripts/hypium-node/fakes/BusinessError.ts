// Errors shaped like the system's BusinessError: an Error with a numeric code.
export class FakeBusinessError extends Error {
  readonly code: number

  constructor(code: number, message: string) {
    super(message)
    this.name = 'BusinessError'
    this.code = code
  }
}

/** Behaviour a real device would not show; hypium-node fails the run when any is recorded. */
export const violations: string[] = []
