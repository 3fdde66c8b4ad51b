import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'

/** Settings are checked where they are set: a bad value is an invalid_config error, never a silent default. */
export class ConfigCheck {
  /** A timeout: a finite number of ms, 0 or more (0 disables the bound). */
  static timeoutMs(ms: number, what: string): number {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      throw ConfigCheck.invalid(`${what} must be a finite number of milliseconds, 0 or more (0 disables it); ` +
        `got ${String(ms)}`)
    }
    return ms
  }

  /** A count such as maxTurns: an integer of at least `min`. */
  static count(n: number, min: number, what: string): number {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min) {
      throw ConfigCheck.invalid(`${what} must be an integer of at least ${min}; got ${String(n)}`)
    }
    return n
  }

  static invalid(message: string): ArkAgentError {
    return new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, message, ErrorRetryability.never)
  }
}
