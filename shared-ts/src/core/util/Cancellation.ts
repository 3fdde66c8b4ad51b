import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'

/** Called once with the reason when a token is cancelled. */
export type CancelListener = (reason: string) => void

/**
 * A read-only view of cancellation. The core has no AbortSignal (ArkTS has none), so it uses
 * its own; `node/transport/AbortSignalBridge` converts an AbortSignal into one.
 */
export class CancellationToken {
  private cancelledFlag: boolean = false
  private cancelReason: string = ''
  private listeners: CancelListener[] = []

  static readonly none: CancellationToken = new CancellationToken()

  get isCancelled(): boolean {
    return this.cancelledFlag
  }

  get reason(): string {
    return this.cancelReason
  }

  /** Runs `listener` once on cancellation (immediately if already cancelled); returns its removal. */
  onCancel(listener: CancelListener): () => void {
    if (this.cancelledFlag) {
      listener(this.cancelReason)
      return (): void => {}
    }
    this.listeners.push(listener)
    return (): void => {
      const i = this.listeners.indexOf(listener)
      if (i >= 0) {
        this.listeners.splice(i, 1)
      }
    }
  }

  throwIfCancelled(): void {
    if (this.cancelledFlag) {
      throw CancellationToken.cancelledError(this.cancelReason)
    }
  }

  static cancelledError(reason: string): ArkAgentError {
    return new ArkAgentError(ErrorLayer.cancelled, ErrorCodes.cancelled,
      reason.length > 0 ? `Cancelled: ${reason}` : 'Cancelled', ErrorRetryability.never)
  }

  /** Package-internal: only a CancellationSource calls this. */
  fire(reason: string): void {
    if (this.cancelledFlag || this === CancellationToken.none) {
      return
    }
    this.cancelledFlag = true
    this.cancelReason = reason
    const current = this.listeners
    this.listeners = []
    for (let i = 0; i < current.length; i++) {
      try {
        current[i](reason)
      } catch (e) {
        // A listener's failure must not stop the others from seeing the cancellation.
      }
    }
  }
}

/** Makes a CancellationToken and cancels it (with a reason), or links it to other tokens. */
export class CancellationSource {
  readonly token: CancellationToken = new CancellationToken()
  private unlinks: Array<() => void> = []

  /** A source that also cancels when any of `parents` does. */
  static linked(parents: CancellationToken[]): CancellationSource {
    const source = new CancellationSource()
    for (let i = 0; i < parents.length; i++) {
      source.unlinks.push(parents[i].onCancel((reason: string): void => source.cancel(reason)))
    }
    return source
  }

  cancel(reason: string = 'cancelled'): void {
    this.token.fire(reason)
  }

  /** Detaches from linked parents so a finished child does not stay referenced. */
  dispose(): void {
    for (let i = 0; i < this.unlinks.length; i++) {
      this.unlinks[i]()
    }
    this.unlinks = []
  }
}
