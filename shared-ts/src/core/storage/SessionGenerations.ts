import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { StateStorage } from './StateStorage'

/**
 * Optimistic concurrency between runtimes of one process that share a storage object (a server that
 * builds a runtime per request, two requests approving the same item at once). Every write a runtime
 * queues on a session takes a new generation; a runtime may queue a write only while the generation
 * it holds (from its last load or its own last write) is still the session's current one. A storage
 * runs a session's operations in call order, so a generation names exactly the snapshot its holder
 * has seen: a runtime whose copy another runtime has written past is refused with session_locked,
 * never allowed to overwrite or repeat that work. Across processes, a storage's own lock or lease
 * does the same (FileStateStorage, PostgresStateStorage).
 *
 * Holds one number per session used through a storage object, for as long as that object lives. A
 * write that fails still takes its generation (it may have reached the store): other runtimes that
 * read before it must restore again.
 */
/** A run in progress: the runtime that runs it, and the run itself. */
class RunEntry {
  readonly runner: Object
  readonly run: Object

  constructor(runner: Object, run: Object) {
    this.runner = runner
    this.run = run
  }
}

export class SessionGenerations {
  private static readonly byStorage: WeakMap<StateStorage, Map<string, number>> =
    new WeakMap<StateStorage, Map<string, number>>()
  private static last: number = 0
  private static readonly runs: WeakMap<StateStorage, Map<string, RunEntry>> = new WeakMap<StateStorage, Map<string, RunEntry>>()
  private static readonly holders: WeakMap<StateStorage, Map<string, Set<Object>>> =
    new WeakMap<StateStorage, Map<string, Set<Object>>>()
  private static readonly pendingReleases: WeakMap<StateStorage, Map<string, () => void>> =
    new WeakMap<StateStorage, Map<string, () => void>>()

  /** `runner` (a runtime) started `run`: other runtimes may not restore or run the session meanwhile. */
  static beginRun(storage: StateStorage, sessionId: string, runner: Object, run: Object): void {
    let sessions = SessionGenerations.runs.get(storage)
    if (sessions === undefined) {
      sessions = new Map<string, RunEntry>()
      SessionGenerations.runs.set(storage, sessions)
    }
    sessions.set(sessionId, new RunEntry(runner, run))
  }

  /** `run` ended (only its own entry is removed: a next run of the same runtime may have begun). */
  static endRun(storage: StateStorage, sessionId: string, run: Object): void {
    const sessions = SessionGenerations.runs.get(storage)
    const entry = sessions !== undefined ? sessions.get(sessionId) : undefined
    if (sessions !== undefined && entry !== undefined && entry.run === run) {
      sessions.delete(sessionId)
      SessionGenerations.settleRelease(storage, sessionId)
    }
  }

  /** Whether a runtime other than `asker` (any, when undefined) has a run of the session in progress here. */
  static runBy(storage: StateStorage, sessionId: string, asker?: Object): boolean {
    const sessions = SessionGenerations.runs.get(storage)
    const entry = sessions !== undefined ? sessions.get(sessionId) : undefined
    return entry !== undefined && entry.runner !== asker
  }

  /** `holder` (a runtime) restored the session through `storage` and has not been disposed. */
  static hold(storage: StateStorage, sessionId: string, holder: Object): void {
    let sessions = SessionGenerations.holders.get(storage)
    if (sessions === undefined) {
      sessions = new Map<string, Set<Object>>()
      SessionGenerations.holders.set(storage, sessions)
    }
    let set = sessions.get(sessionId)
    if (set === undefined) {
      set = new Set<Object>()
      sessions.set(sessionId, set)
    }
    set.add(holder)
  }

  static unhold(storage: StateStorage, sessionId: string, holder: Object): void {
    const sessions = SessionGenerations.holders.get(storage)
    const set = sessions !== undefined ? sessions.get(sessionId) : undefined
    if (sessions !== undefined && set !== undefined) {
      set.delete(holder)
      if (set.size === 0) {
        sessions.delete(sessionId)
      }
    }
    SessionGenerations.settleRelease(storage, sessionId)
  }

  /**
   * A release asked for while the session is in use: `release` runs once the last runtime using it
   * is done (disposed, its run ended). A later request replaces an earlier one.
   */
  static releaseWhenUnused(storage: StateStorage, sessionId: string, release: () => void): void {
    let sessions = SessionGenerations.pendingReleases.get(storage)
    if (sessions === undefined) {
      sessions = new Map<string, () => void>()
      SessionGenerations.pendingReleases.set(storage, sessions)
    }
    sessions.set(sessionId, release)
  }

  private static settleRelease(storage: StateStorage, sessionId: string): void {
    const sessions = SessionGenerations.pendingReleases.get(storage)
    const release = sessions !== undefined ? sessions.get(sessionId) : undefined
    if (sessions !== undefined && release !== undefined && !SessionGenerations.inUse(storage, sessionId)) {
      sessions.delete(sessionId)
      release()
    }
  }

  /**
   * Whether a runtime of this process still uses the session through `storage` (restored and not
   * disposed, or running): a release then gives nothing up (the last user's release does).
   */
  static inUse(storage: StateStorage, sessionId: string): boolean {
    const sessions = SessionGenerations.holders.get(storage)
    const set = sessions !== undefined ? sessions.get(sessionId) : undefined
    return (set !== undefined && set.size > 0) || SessionGenerations.runBy(storage, sessionId)
  }

  /** The error a runtime gets for a session another runtime of this process is running. */
  static busyError(sessionId: string): ArkAgentError {
    return new ArkAgentError(ErrorLayer.runtime, ErrorCodes.sessionLocked,
      `Session '${sessionId}' is being run by another runtime of this process: try again once that run ended`,
      ErrorRetryability.afterAction)
  }

  /** The session's current generation (0 before any write here). Read right before queueing a load. */
  static current(storage: StateStorage, sessionId: string): number {
    const sessions = SessionGenerations.byStorage.get(storage)
    const g = sessions !== undefined ? sessions.get(sessionId) : undefined
    return g !== undefined ? g : 0
  }

  /** Whether `held` is still the session's current generation (no other runtime wrote since). */
  static isCurrent(storage: StateStorage, sessionId: string, held: number): boolean {
    return SessionGenerations.current(storage, sessionId) === held
  }

  /** The error a runtime whose copy is stale gets. */
  static staleError(sessionId: string): ArkAgentError {
    return new ArkAgentError(ErrorLayer.runtime, ErrorCodes.sessionLocked,
      `Session '${sessionId}' was written by another runtime of this process after this one read it: this ` +
      'runtime\'s copy is stale and it may no longer write; restore the session in a new runtime',
      ErrorRetryability.afterAction)
  }

  /**
   * Right before queueing a write: the new generation the writer then holds, or a session_locked
   * error when `held` is no longer current (another runtime's write was queued since).
   */
  static advance(storage: StateStorage, sessionId: string, held: number): number {
    const current = SessionGenerations.current(storage, sessionId)
    if (held !== current) {
      throw SessionGenerations.staleError(sessionId)
    }
    let sessions = SessionGenerations.byStorage.get(storage)
    if (sessions === undefined) {
      sessions = new Map<string, number>()
      SessionGenerations.byStorage.set(storage, sessions)
    }
    SessionGenerations.last++
    sessions.set(sessionId, SessionGenerations.last)
    return SessionGenerations.last
  }
}
