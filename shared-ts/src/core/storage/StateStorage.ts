import { AgentState } from '../state/AgentState'

/** A loaded session and whether it may be resumed. */
export class LoadedState {
  readonly state: AgentState
  readonly resumable: boolean
  readonly notResumableReason: string

  constructor(state: AgentState, resumable: boolean, notResumableReason: string = '') {
    this.state = state
    this.resumable = resumable
    this.notResumableReason = notResumableReason
  }
}

/** What one save wrote (for tests, benchmarks and the persist event). */
export class SaveReport {
  readonly bytesWritten: number
  readonly segmentsWritten: number
  readonly segmentsReused: number

  constructor(bytesWritten: number, segmentsWritten: number, segmentsReused: number) {
    this.bytesWritten = bytesWritten
    this.segmentsWritten = segmentsWritten
    this.segmentsReused = segmentsReused
  }
}

/**
 * Durable session state. A save either commits a whole consistent snapshot or leaves the
 * previous one loadable; failures reject with ArkAgentError(storage, state_save_failed).
 * load returns undefined for an unknown session, and rejects with state_corrupt /
 * state_version_unsupported for bad data. Operations on one session take effect in the order they
 * were called (a load sees every save called before it): runtimes sharing a storage object rely on
 * it (SessionGenerations). SegmentedStateStorage queues them per session; an adapter of your own
 * must keep that order too.
 */
export interface StateStorage {
  load(sessionId: string): Promise<LoadedState | undefined>
  save(state: AgentState): Promise<SaveReport>
  /** Records that the stored snapshot must not be resumed (a terminal write failed). Survives reload. */
  markNotResumable(sessionId: string, reason: string): Promise<void>
  delete(sessionId: string): Promise<void>
}
