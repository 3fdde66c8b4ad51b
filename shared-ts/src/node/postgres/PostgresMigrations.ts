// The PostgreSQL schema of the storage and its migrations (run once per database, from any instance).
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../../core/errors/ArkAgentError'
import { PgQueryable, quoteIdent } from './PostgresOptions'

/** The schema version `migrate` brings a database to. */
export const POSTGRES_SCHEMA_VERSION = 1
/** The migrations, in order; `migrate` applies those above the stored version, in one transaction. */
export function postgresMigrations(schema: string): string[][] {
  const s = quoteIdent(schema)
  return [
    [
      `CREATE TABLE IF NOT EXISTS ${s}.arkagent_values (
        session_id text NOT NULL,
        key text NOT NULL,
        value text NOT NULL,
        PRIMARY KEY (session_id, key))`,
      `CREATE TABLE IF NOT EXISTS ${s}.arkagent_leases (
        session_id text PRIMARY KEY,
        fence bigint NOT NULL,
        owner text NOT NULL,
        expires_at timestamptz NOT NULL)`,
    ],
  ]
}
/**
 * Creates or upgrades the tables of `schema` (default 'public'): idempotent, safe to run from every
 * instance at start. It is one multi-statement query — one implicit transaction on one connection,
 * whatever `db` is (a Pool, a Client, a wrapper) — that first takes an advisory lock, so concurrent
 * runs wait for each other. The schema is created only when missing (a role that owns its schema
 * needs no CREATE on the database). Refuses a database whose encoding is not UTF8 (messages are
 * Unicode text) and a schema newer than this build. Returns the version now in force.
 */
export async function migratePostgres(db: PgQueryable, schema: string = 'public'): Promise<number> {
  const s = quoteIdent(schema)
  const steps = postgresMigrations(schema)
  let applied = ''
  steps.forEach((statements, i) => {
    applied += `  IF v < ${i + 1} THEN\n${statements.map((st) => `    ${st};\n`).join('')}  END IF;\n`
  })
  const sql = `SELECT pg_advisory_xact_lock(hashtext('arkagent-migrate:${schema}'));
DO $arkagent$
DECLARE v integer;
BEGIN
  IF current_setting('server_encoding') <> 'UTF8' THEN
    RAISE EXCEPTION 'the database encoding is %, and ArkAgent stores Unicode text: create the database with ENCODING ''UTF8''',
      current_setting('server_encoding') USING ERRCODE = 'AA001';
  END IF;
  IF to_regnamespace('${schema}') IS NULL THEN
    CREATE SCHEMA ${s};
  END IF;
  CREATE TABLE IF NOT EXISTS ${s}.arkagent_schema (version integer NOT NULL);
  INSERT INTO ${s}.arkagent_schema (version) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM ${s}.arkagent_schema);
  SELECT max(version) INTO v FROM ${s}.arkagent_schema;
  IF v > ${steps.length} THEN
    RAISE EXCEPTION 'schema ''${schema}'' is at version %; this build knows up to ${steps.length}', v USING ERRCODE = 'AA002';
  END IF;
${applied}  DELETE FROM ${s}.arkagent_schema;
  INSERT INTO ${s}.arkagent_schema (version) VALUES (${steps.length});
END
$arkagent$;
SELECT version FROM ${s}.arkagent_schema;`
  let result: unknown
  try {
    result = await db.query(sql)
  } catch (e) {
    const err = e as Error & { code?: string }
    if (err.code === 'AA002') {
      throw new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateVersionUnsupported, `PostgreSQL: ${err.message}`, ErrorRetryability.never, err)
    }
    if (err.code === 'AA001') {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, `PostgreSQL: ${err.message}`, ErrorRetryability.never, err)
    }
    throw new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateSaveFailed,
      `PostgreSQL could not migrate schema '${schema}': ${err.message}`,
      err.code === '42501' ? ErrorRetryability.afterAction : ErrorRetryability.retryable, e instanceof Error ? e : undefined)
  }
  // A multi-statement query answers with one result per statement.
  const results = Array.isArray(result) ? result as { rows: Record<string, unknown>[] }[] : [result as { rows: Record<string, unknown>[] }]
  return Number(results[results.length - 1].rows[0].version)
}
