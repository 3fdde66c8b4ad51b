import { CancellationSource, CancellationToken } from '../../core/util/Cancellation'

function reasonOf(signal: AbortSignal): string {
  const reason: unknown = signal.reason
  if (reason instanceof Error) return reason.message
  return reason === undefined ? 'aborted' : String(reason)
}

/** A CancellationToken that fires when `signal` aborts (at once if it already has). */
export function tokenFromAbortSignal(signal?: AbortSignal): CancellationToken {
  if (signal === undefined) return CancellationToken.none
  const source = new CancellationSource()
  if (signal.aborted) {
    source.cancel(reasonOf(signal))
  } else {
    signal.addEventListener('abort', () => source.cancel(reasonOf(signal)), { once: true })
  }
  return source.token
}

/** The other direction, for handing core cancellation to Node APIs. */
export function abortSignalFromToken(token: CancellationToken): AbortSignal {
  const controller = new AbortController()
  token.onCancel((reason) => controller.abort(new Error(reason)))
  return controller.signal
}
