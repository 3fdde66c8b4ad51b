import { ArkAgentError } from '../errors/ArkAgentError'
import { CancellationToken } from '../util/Cancellation'
import { AgentObserver } from './RunOutcome'

/** The per-run bookkeeping shared by the runtime's parts. */
export class RunContext {
  readonly runId: string
  readonly observer?: AgentObserver
  readonly token: CancellationToken
  /** Set by the chunk chain when a hook aborted the stream. */
  chunkAbort?: ArkAgentError

  constructor(runId: string, token: CancellationToken, observer?: AgentObserver) {
    this.runId = runId
    this.token = token
    this.observer = observer
  }
}
