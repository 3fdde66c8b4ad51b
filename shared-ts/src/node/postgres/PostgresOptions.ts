// What PostgresStateStorage takes: a pg-like client, its options (checked where given), schema and
// session-id rules.
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../../core/errors/ArkAgentError'
import { ConfigCheck } from '../../core/util/ConfigCheck'

/** What PostgresStateStorage needs of a database client: `query(text, values)` (a `pg` Pool or Client, or any adapter). */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[], rowCount: number | null }>
}

/** Settings of a PostgresStateStorage: schema, lease on or off, lease length and owner name (docs/scaling.md). */
export interface PostgresStorageOptions {
  /** Schema of the tables (created by `migrate`); default 'public'. */
  schema?: string
  /**
   * Take a lease on each session before using it (default true). Off only when one process ever
   * opens a session (tests of the storage contract do this, like `FileStateStorage`'s `lock: false`).
   */
  lease?: boolean
  /** How long a lease lasts without renewal, ms (default 15 s); it is renewed every third of that. */
  leaseMs?: number
  /** Names this owner in `session_locked` errors and in the lease row; default host:pid:random. */
  owner?: string
}

const OPTION_NAMES = ['schema', 'lease', 'leaseMs', 'owner']

/** Every option checked where it is given: invalid_config naming it (a typo in plain JavaScript included). */
export function checkPostgresOptions(db: PgQueryable, options: PostgresStorageOptions): void {
  if (db === null || typeof db !== 'object' || typeof (db as { query?: unknown }).query !== 'function') {
    throw ConfigCheck.invalid(`PostgresStateStorage needs a client with query() (a pg Pool or Client); got ${ConfigCheck.show(db as Object)}`)
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw ConfigCheck.invalid(`PostgresStateStorage options must be an object; got ${ConfigCheck.show(options as Object)}`)
  }
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.includes(name)) {
      throw ConfigCheck.invalid(`PostgresStateStorage: unknown option ${JSON.stringify(name.slice(0, 64))}; known options are ${OPTION_NAMES.join(', ')}`)
    }
  }
  if (options.schema !== undefined && (typeof options.schema !== 'string' || !IDENT.test(options.schema) ||
    options.schema.startsWith('pg_') || options.schema === 'information_schema')) {
    throw ConfigCheck.invalid(`PostgresStateStorage schema name must be a string matching ${IDENT.source} and not a system schema ` +
      `(pg_*, information_schema); got ${typeof options.schema === 'string' ? JSON.stringify(options.schema.slice(0, 64)) : ConfigCheck.show(options.schema)}`)
  }
  if (options.lease !== undefined) ConfigCheck.bool(options.lease, 'PostgresStateStorage lease')
  // Renewed every third of it by a timer: past what a timer holds, Node would renew every millisecond.
  if (options.leaseMs !== undefined) {
    ConfigCheck.count(options.leaseMs, 100, 'PostgresStateStorage leaseMs (milliseconds; a timer holds at most about 24.8 days)',
      ConfigCheck.maxTimerMs)
  }
  if (options.owner !== undefined) {
    ConfigCheck.text(options.owner, 'PostgresStateStorage owner', 1, 256)
    if (/[\u0000-\u001f\u007f]/.test(options.owner)) {
      throw ConfigCheck.invalid('PostgresStateStorage owner must not contain control characters (it is shown in session_locked errors)')
    }
  }
}

/** The key of the header row (the commit point) among a session's values. */
export const HEADER_KEY = 'header'
export const IDENT = /^[a-z_][a-z0-9_]{0,62}$/
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** A schema name quoted for SQL; invalid_config for anything but a plain, non-system identifier. */
export function quoteIdent(name: string): string {
  if (!IDENT.test(name) || name.startsWith('pg_') || name === 'information_schema') {
    throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig,
      `PostgreSQL schema name '${name}' must match ${IDENT.source} and not be a system schema (pg_*, information_schema)`,
      ErrorRetryability.never)
  }
  return `"${name}"`
}


/**
 * Session ids the PostgreSQL storage takes: 1-256 characters of well-formed text without NUL (the
 * driver turns a lone surrogate into U+FFFD, which would make two ids one session).
 */
export function checkPostgresSessionId(sessionId: string): void {
  const ok = typeof sessionId === 'string' && sessionId.length >= 1 && sessionId.length <= 256 &&
    !sessionId.includes('\u0000') && !LONE_SURROGATE.test(sessionId)
  if (!ok) {
    throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig,
      `Session id ${JSON.stringify(String(sessionId).slice(0, 40))} is not usable: 1-256 characters of well-formed text without NUL`,
      ErrorRetryability.never)
  }
}
