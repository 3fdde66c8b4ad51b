// The segment backend over PostgreSQL: values in one table, the header row as the commit point,
// and a lease per session with a fencing token checked inside every write.
import { hostname } from 'node:os'
import { randomBytes } from 'node:crypto'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../../core/errors/ArkAgentError'
import { SegmentBackend } from '../../core/storage/SegmentBackend'
import { StorageOperation } from '../../core/storage/SegmentedStateStorage'
import { checkPostgresOptions, HEADER_KEY, PgQueryable, PostgresStorageOptions, quoteIdent } from './PostgresOptions'

/** A lease this process holds: its fencing token, and whether it is still good. */
class Lease {
  lost = false
  /** A renewal is on its way: the next tick does not queue another behind it. */
  renewing = false
  /** The renewal on its way, if any (settles, never rejects). */
  renewal?: Promise<void>
  /** This instance has loaded the session under this lease (its state is not older than the store's). */
  loaded = false
  timer?: ReturnType<typeof setInterval>
  constructor(readonly fence: string) {}
}

function when(value: unknown): string {
  const d = value instanceof Date ? value : new Date(String(value))
  return Number.isFinite(d.getTime()) ? d.toISOString() : String(value)
}

/**
 * The segment backend over PostgreSQL. Operations never take a lease themselves: the storage takes it
 * (`claim`) inside the session's queue before each load, save, mark or delete, and an operation
 * without a lease is refused. Every value write, removal and header commit is one statement that
 * locks the session's lease row (`FOR UPDATE`) and writes only if this owner's fencing token is still
 * the lease's: a takeover serialises with it, so after a takeover a stale owner's statement changes
 * nothing and fails with session_locked.
 */
export class PostgresSegmentBackend implements SegmentBackend {
  readonly schema: string
  readonly owner: string
  readonly leaseMs: number
  readonly leasing: boolean
  /** Leases taken from an owner whose lease had expired without being released (a crashed or stalled instance). */
  takeovers = 0
  /** Leases taken after their owner released them (ordinary handovers between instances). */
  handovers = 0
  private readonly t: { values: string, leases: string }
  private readonly leases = new Map<string, Lease>()

  constructor(readonly db: PgQueryable, options: PostgresStorageOptions = {}) {
    checkPostgresOptions(db, options)
    this.schema = options.schema ?? 'public'
    const s = quoteIdent(this.schema)
    this.t = { values: `${s}.arkagent_values`, leases: `${s}.arkagent_leases` }
    this.leasing = options.lease ?? true
    this.leaseMs = options.leaseMs ?? 15000
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
  }

  /**
   * Makes sure this instance holds the session's lease before `operation` (run inside the session's
   * queue). Returns true when the lease was just taken: what the storage knew of the session may be
   * stale. A save or mark under a freshly taken lease is refused (session_locked) when the session
   * exists and this instance has not loaded it since: its state may be older than what another
   * owner stored meanwhile, and writing it would undo that owner's work.
   */
  async claim(sessionId: string, operation: StorageOperation): Promise<boolean> {
    if (!this.leasing) return false
    let lease = this.leases.get(sessionId)
    let fresh = false
    if (lease === undefined || lease.lost) {
      lease = await this.acquire(sessionId)
      this.leases.set(sessionId, lease)
      fresh = true
    }
    if (!lease.loaded && (operation === StorageOperation.save || operation === StorageOperation.mark)) {
      // Until a load under this lease succeeded (not just began), a write may carry a state older than
      // the store's: refused when the session exists. A failed check keeps the lease unconfirmed.
      const stored = await this.query(`SELECT 1 FROM ${this.t.values} WHERE session_id = $1 AND key = $2`,
        [sessionId, HEADER_KEY], 'read', sessionId)
      if (stored.rows.length > 0) {
        await this.release(sessionId)
        throw this.locked(sessionId, 'this instance has not loaded it since taking its lease (another owner may have ' +
          'changed it meanwhile): load it again before writing')
      }
      // A new session: what this instance writes is all there is.
      lease.loaded = true
    }
    return fresh
  }

  /** A load under the current lease succeeded: writes of what it read are safe. */
  confirmLoaded(sessionId: string): void {
    const lease = this.leases.get(sessionId)
    if (lease !== undefined && !lease.lost) lease.loaded = true
  }

  /** The lease operations run under; session_locked when this instance holds none (or lost it). */
  private held(sessionId: string): Lease | undefined {
    if (!this.leasing) return undefined
    const lease = this.leases.get(sessionId)
    if (lease === undefined || lease.lost) {
      throw this.locked(sessionId, 'this instance does not hold its lease')
    }
    return lease
  }

  private async acquire(sessionId: string): Promise<Lease> {
    for (let attempt = 0; attempt < 3; attempt++) {
      // The fence only grows (a released or expired lease keeps its row), so a token is never reused.
      const r = await this.query(
        `WITH old AS (SELECT expires_at FROM ${this.t.leases} WHERE session_id = $1)
         INSERT INTO ${this.t.leases} AS l (session_id, fence, owner, expires_at)
         VALUES ($1, 1, $2, clock_timestamp() + $3 * interval '1 millisecond')
         ON CONFLICT (session_id) DO UPDATE SET fence = l.fence + 1, owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at
         WHERE l.expires_at < clock_timestamp()
         RETURNING fence::text AS fence, (SELECT expires_at = '-infinity' FROM old) AS released,
           (SELECT count(*) FROM old)::int AS existed`, [sessionId, this.owner, this.leaseMs], 'take the lease of', sessionId)
      if (r.rows.length > 0) {
        const row = r.rows[0]
        if (Number(row.existed) > 0) {
          if (row.released === true) this.handovers++
          else this.takeovers++
        }
        const lease = new Lease(String(row.fence))
        lease.timer = setInterval(() => { void this.renew(sessionId, lease) }, Math.max(50, Math.floor(this.leaseMs / 3)))
        lease.timer.unref()
        return lease
      }
      const holder = await this.query(`SELECT owner, expires_at, expires_at < clock_timestamp() AS free
        FROM ${this.t.leases} WHERE session_id = $1`, [sessionId], 'read the lease of', sessionId)
      const row = holder.rows[0]
      // Released or expired between the two statements: try again.
      if (row === undefined || row.free === true) continue
      throw this.locked(sessionId, `${String(row.owner)} holds it until ${when(row.expires_at)}`)
    }
    throw this.locked(sessionId, 'its lease keeps changing hands')
  }

  private renew(sessionId: string, lease: Lease): Promise<void> {
    if (lease.lost || lease.renewing) return lease.renewal ?? Promise.resolve()
    lease.renewing = true
    lease.renewal = this.renewOnce(sessionId, lease)
    return lease.renewal
  }

  private async renewOnce(sessionId: string, lease: Lease): Promise<void> {
    try {
      // Never revives a released lease ('-infinity'), even if this renewal was already on its way.
      const r = await this.db.query(`UPDATE ${this.t.leases} SET expires_at = clock_timestamp() + $3 * interval '1 millisecond'
        WHERE session_id = $1 AND fence = $2 AND expires_at > '-infinity'`, [sessionId, lease.fence, this.leaseMs])
      if (r.rowCount === 0) this.drop(sessionId, lease)
    } catch {
      // A failed renewal is retried at the next tick; if the lease expires meanwhile, the fence decides.
    } finally {
      lease.renewing = false
      lease.renewal = undefined
    }
  }

  /**
   * Whether no other owner took the session since this instance's lease was granted (its fence is
   * still the lease's, expired or not). A lease found taken over is dropped here.
   */
  async stillHolds(sessionId: string): Promise<boolean> {
    if (!this.leasing) return true
    const lease = this.leases.get(sessionId)
    if (lease === undefined || lease.lost) return false
    // The fence only: an expired lease nobody took is still this instance's view of the session.
    const r = await this.query(`SELECT 1 FROM ${this.t.leases} WHERE session_id = $1 AND fence = $2`,
      [sessionId, lease.fence], 'read the lease of', sessionId)
    if (r.rows.length === 0) {
      this.drop(sessionId, lease)
      return false
    }
    return true
  }

  /** Stops renewing every lease (the first step of closing). */
  stopRenewals(): void {
    for (const lease of this.leases.values()) {
      if (lease.timer !== undefined) clearInterval(lease.timer)
    }
  }

  lockedError(sessionId: string, why: string): ArkAgentError {
    return this.locked(sessionId, why)
  }

  private drop(sessionId: string, lease: Lease): void {
    lease.lost = true
    if (lease.timer !== undefined) clearInterval(lease.timer)
    if (this.leases.get(sessionId) === lease) this.leases.delete(sessionId)
  }

  /** Gives the lease up (expires it now, keeping its fence): another instance may take the session at once. */
  async release(sessionId: string): Promise<void> {
    const lease = this.leases.get(sessionId)
    if (lease === undefined) return
    this.drop(sessionId, lease)
    await this.query(`UPDATE ${this.t.leases} SET expires_at = '-infinity' WHERE session_id = $1 AND fence = $2`,
      [sessionId, lease.fence], 'release the lease of', sessionId)
  }

  /** Session ids whose lease this backend holds. */
  leasedSessions(): string[] {
    return [...this.leases.keys()]
  }

  /**
   * Test support: stops renewing the leases while still using them, as a stalled process (a long
   * pause, a partition) would; they expire and another owner may take over. Never needed in production.
   * Resolves when no renewal is on its way any more.
   */
  async stallRenewals(): Promise<void> {
    const onTheirWay: Promise<void>[] = []
    for (const lease of this.leases.values()) {
      if (lease.timer !== undefined) clearInterval(lease.timer)
      if (lease.renewal !== undefined) onTheirWay.push(lease.renewal)
    }
    // Resolves once no renewal sent before the stall can still land.
    await Promise.all(onTheirWay)
  }


  async read(sessionId: string, key: string): Promise<string | undefined> {
    this.held(sessionId)
    const r = await this.query(`SELECT value FROM ${this.t.values} WHERE session_id = $1 AND key = $2`, [sessionId, key],
      'read', sessionId)
    return r.rows.length > 0 ? String(r.rows[0].value) : undefined
  }

  async write(sessionId: string, key: string, value: string): Promise<void> {
    await this.fenced(sessionId, key, value)
  }

  /** Every statement commits on its own, and PostgreSQL's commit is durable (synchronous_commit). */
  async sync(sessionId: string): Promise<void> {
  }

  async commitHeader(sessionId: string, value: string): Promise<void> {
    await this.fenced(sessionId, HEADER_KEY, value)
  }

  async readHeader(sessionId: string): Promise<string | undefined> {
    return this.read(sessionId, HEADER_KEY)
  }

  async remove(sessionId: string, keys: string[]): Promise<void> {
    if (keys.length === 0) return
    const lease = this.held(sessionId)
    if (lease === undefined) {
      await this.query(`DELETE FROM ${this.t.values} WHERE session_id = $1 AND key = ANY($2)`, [sessionId, keys], 'clean up', sessionId)
      return
    }
    const r = await this.query(
      `WITH l AS (SELECT 1 FROM ${this.t.leases} WHERE session_id = $1 AND fence = $2 FOR UPDATE),
            d AS (DELETE FROM ${this.t.values} v WHERE v.session_id = $1 AND v.key = ANY($3) AND EXISTS (SELECT 1 FROM l) RETURNING 1)
       SELECT (SELECT count(*) FROM l)::int AS owned, (SELECT count(*) FROM d)::int AS deleted`,
      [sessionId, lease.fence, keys], 'clean up', sessionId)
    this.checkOwned(sessionId, lease, r.rows[0])
  }

  async list(sessionId: string): Promise<string[]> {
    this.held(sessionId)
    const r = await this.query(`SELECT key FROM ${this.t.values} WHERE session_id = $1 AND key <> $2 ORDER BY key`,
      [sessionId, HEADER_KEY], 'list', sessionId)
    return r.rows.map((row) => String(row.key))
  }

  async removeSession(sessionId: string): Promise<void> {
    const lease = this.held(sessionId)
    if (lease === undefined) {
      await this.query(`DELETE FROM ${this.t.values} WHERE session_id = $1`, [sessionId], 'delete', sessionId)
      return
    }
    const r = await this.query(
      `WITH l AS (SELECT 1 FROM ${this.t.leases} WHERE session_id = $1 AND fence = $2 FOR UPDATE),
            d AS (DELETE FROM ${this.t.values} v WHERE v.session_id = $1 AND EXISTS (SELECT 1 FROM l) RETURNING 1)
       SELECT (SELECT count(*) FROM l)::int AS owned, (SELECT count(*) FROM d)::int AS deleted`,
      [sessionId, lease.fence], 'delete', sessionId)
    this.checkOwned(sessionId, lease, r.rows[0])
  }

  location(sessionId: string): string {
    return `postgres ${this.schema}.arkagent_values session '${sessionId}'`
  }

  /** An upsert that happens only while this owner's fence is the lease's (one statement, lease row locked). */
  private async fenced(sessionId: string, key: string, value: string): Promise<void> {
    const lease = this.held(sessionId)
    if (lease === undefined) {
      await this.query(`INSERT INTO ${this.t.values} (session_id, key, value) VALUES ($1, $2, $3)
        ON CONFLICT (session_id, key) DO UPDATE SET value = EXCLUDED.value`, [sessionId, key, value], 'write', sessionId)
      return
    }
    const r = await this.query(
      `WITH l AS (SELECT 1 FROM ${this.t.leases} WHERE session_id = $1 AND fence = $2 FOR UPDATE),
            w AS (INSERT INTO ${this.t.values} (session_id, key, value) SELECT $1, $3, $4 FROM l
                  ON CONFLICT (session_id, key) DO UPDATE SET value = EXCLUDED.value RETURNING 1)
       SELECT (SELECT count(*) FROM l)::int AS owned, (SELECT count(*) FROM w)::int AS written`,
      [sessionId, lease.fence, key, value], key === HEADER_KEY ? 'commit the header of' : 'write', sessionId)
    this.checkOwned(sessionId, lease, r.rows[0])
  }

  private checkOwned(sessionId: string, lease: Lease, row: Record<string, unknown> | undefined): void {
    if (row === undefined || Number(row.owned) !== 1) {
      this.drop(sessionId, lease)
      throw this.locked(sessionId, 'another owner took its lease over (this owner\'s lease had expired); nothing was written')
    }
  }

  private locked(sessionId: string, why: string): ArkAgentError {
    return new ArkAgentError(ErrorLayer.runtime, ErrorCodes.sessionLocked, `Session '${sessionId}' is locked: ${why}`,
      ErrorRetryability.afterAction)
  }

  private async query(text: string, values: unknown[], what: string, sessionId: string) {
    try {
      return await this.db.query(text, values)
    } catch (e) {
      const reading = what === 'read' || what === 'list' || what === 'read the lease of'
      throw new ArkAgentError(ErrorLayer.storage, reading ? ErrorCodes.stateLoadFailed : ErrorCodes.stateSaveFailed,
        `PostgreSQL could not ${what} session '${sessionId}': ${(e as Error).message}`, ErrorRetryability.retryable,
        e instanceof Error ? e : undefined)
    }
  }
}
