// Sessions in PostgreSQL for several Node instances (docs/scaling.md): the segmented storage over
// PostgresSegmentBackend, with a lease per session so that a stale owner's writes are refused.
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../../core/errors/ArkAgentError'
import { SegmentedStateStorage, SegmentedStorageOptions, StorageOperation } from '../../core/storage/SegmentedStateStorage'
import { LoadedState, SaveReport } from '../../core/storage/StateStorage'
import { AgentState } from '../../core/state/AgentState'
import { checkPostgresSessionId, PgQueryable, PostgresStorageOptions } from './PostgresOptions'
import { PostgresSegmentBackend } from './PostgresSegmentBackend'

/**
 * Segmented session storage in PostgreSQL: the same contract, format and corruption checks as the
 * memory, file and HarmonyOS storages, O(new messages) per autosave, plus a lease per session
 * (on by default) so several instances can share one database. Run `migratePostgres` first.
 * Call `release(sessionId)` when an instance is done with a session (so another can take it at
 * once) and `close()` at shutdown; a crashed instance's leases expire after `leaseMs`.
 */
export class PostgresStateStorage extends SegmentedStateStorage {
  readonly pg: PostgresSegmentBackend
  private closed = false

  constructor(db: PgQueryable, options: PostgresStorageOptions = {}, segmented: SegmentedStorageOptions = new SegmentedStorageOptions()) {
    const backend = new PostgresSegmentBackend(db, options)
    super(backend, segmented)
    this.pg = backend
  }

  /**
   * A load that finds damage re-checks the lease first: if another owner took the session over while
   * this one read (its lease had expired unnoticed), what looked damaged is that owner's change in
   * progress, and the answer is session_locked — never state_corrupt for a healthy session.
   */
  async load(sessionId: string): Promise<LoadedState | undefined> {
    this.checkOpen(sessionId)
    try {
      return await super.load(sessionId)
    } catch (e) {
      const known = ArkAgentError.asArkError(e as Object)
      if (known !== undefined && known.code === ErrorCodes.stateCorrupt && !(await this.pg.stillHolds(sessionId).catch(() => true))) {
        throw this.pg.lockedError(sessionId, 'another owner took its lease over while this instance was reading it; load it ' +
          'again once the lease is free')
      }
      throw e
    }
  }

  async save(state: AgentState): Promise<SaveReport> {
    this.checkOpen(state.sessionId)
    return super.save(state)
  }

  async markNotResumable(sessionId: string, reason: string): Promise<void> {
    this.checkOpen(sessionId)
    return super.markNotResumable(sessionId, reason)
  }

  async delete(sessionId: string): Promise<void> {
    this.checkOpen(sessionId)
    return super.delete(sessionId)
  }

  /** Operations called before close() finish; those called after are refused (no lease is taken again). */
  private checkOpen(sessionId: string): void {
    if (this.closed) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, `The storage was closed; session '${String(sessionId)}' ` +
        'cannot be used through it', ErrorRetryability.never)
    }
  }

  protected afterLoad(sessionId: string): void {
    this.pg.confirmLoaded(sessionId)
  }

  /** Takes the lease inside the session's queue; a database failure on the way carries the operation's code. */
  protected async beforeOperation(sessionId: string, operation: StorageOperation): Promise<boolean> {
    checkPostgresSessionId(sessionId)
    try {
      return await this.pg.claim(sessionId, operation)
    } catch (e) {
      const known = ArkAgentError.asArkError(e as Object)
      if (known !== undefined && known.code === ErrorCodes.sessionLocked) throw known
      const code = operation === StorageOperation.load ? ErrorCodes.stateLoadFailed : ErrorCodes.stateSaveFailed
      throw new ArkAgentError(ErrorLayer.storage, code, known !== undefined ? known.message : `Could not open session '${sessionId}'`,
        ErrorRetryability.retryable, known ?? (e instanceof Error ? e : undefined))
    }
  }

  /** Gives the session's lease up, after the operations already queued on it: another instance may take it at once. */
  async release(sessionId: string): Promise<void> {
    checkPostgresSessionId(sessionId)
    // While another request of this instance still uses the session (a continuation included), once
    // the last of them is done; nothing of a released session stays in memory.
    await this.releaseSession(sessionId, () => this.pg.release(sessionId))
  }

  /**
   * Gives every lease up (at shutdown): renewals stop first, then every release is tried; the first
   * failure is thrown after all were tried (a lease not released expires after `leaseMs`).
   */
  async close(): Promise<void> {
    // Closed first: nothing queued from now on takes a lease; what is already queued finishes.
    this.closed = true
    await Promise.allSettled(this.knownSessions().map((id) => this.exclusive(id, async () => undefined)))
    this.pg.stopRenewals()
    const results = await Promise.allSettled(this.pg.leasedSessions().map((id) => this.releaseSessionNow(id, () => this.pg.release(id))))
    const failed = results.find((r) => r.status === 'rejected')
    if (failed !== undefined) throw (failed as PromiseRejectedResult).reason
  }
}
