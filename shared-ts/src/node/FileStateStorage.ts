import { randomBytes } from 'node:crypto'
import { readFileSync, unlinkSync, promises as fs } from 'node:fs'
import path from 'node:path'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../core/errors/ArkAgentError'
import { SegmentBackend } from '../core/storage/SegmentBackend'
import { SegmentedStateStorage, SegmentedStorageOptions } from '../core/storage/SegmentedStateStorage'
import { ConfigCheck } from '../core/util/ConfigCheck'

const HEADER_FILE = 'header.json'
/** The per-session lock file (not a `.val` file, so `list()` never reports it). */
export const LOCK_FILE = 'session.lock'
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

/**
 * One directory per session, one file per key. Values are written to fresh names and fsynced;
 * the header is replaced atomically (write temp, fsync, rename, fsync the directory), so a crash
 * at any point leaves either the old or the new snapshot.
 */
export class FileSegmentBackend implements SegmentBackend {
  readonly rootDir: string
  /** Whether this backend takes the per-session lock before touching a session (see SessionLock). */
  readonly locking: boolean
  private readonly locks: Map<string, Promise<SessionLock>> = new Map<string, Promise<SessionLock>>()
  /** Sessions whose leftovers this backend has already cleaned. */
  private readonly opened = new Set<string>()

  constructor(rootDir: string, locking: boolean = false) {
    ConfigCheck.text(rootDir, 'FileStateStorage rootDir', 1, 4096)
    ConfigCheck.bool(locking, 'FileStateStorage lock')
    this.rootDir = path.resolve(rootDir)
    this.locking = locking
  }

  /**
   * Takes the session's lock on first use (load, save, mark or delete) and keeps it until
   * `release`/`releaseAll`. Rejects with ArkAgentError(runtime, session_locked) while another live
   * owner (another process, or another storage instance in this process) holds it.
   */
  async lock(sessionId: string): Promise<void> {
    if (!this.locking) return
    const dir = this.sessionDir(sessionId)
    let held = this.locks.get(sessionId)
    if (held === undefined) {
      held = SessionLock.acquire(dir, sessionId)
      this.locks.set(sessionId, held)
      held.catch(() => {
        if (this.locks.get(sessionId) === held) this.locks.delete(sessionId)
      })
    }
    await held
  }

  /** Releases the lock of one session (if held): another process or instance may open it now. */
  async release(sessionId: string): Promise<void> {
    this.opened.delete(sessionId)
    const held = this.locks.get(sessionId)
    if (held === undefined) return
    this.locks.delete(sessionId)
    let lock: SessionLock
    try {
      lock = await held
    } catch {
      return
    }
    await lock.release()
  }

  async releaseAll(): Promise<void> {
    const ids = [...this.locks.keys()]
    for (const id of ids) await this.release(id)
  }

  /** Session ids whose lock this backend holds (or is acquiring). */
  lockedSessions(): string[] {
    return [...this.locks.keys()]
  }

  /**
   * Test support: forgets the held locks without removing the lock files, as if this process had
   * died; a later owner finds them stale. Never needed in production code.
   */
  abandonLocks(): void {
    for (const held of this.locks.values()) {
      held.then((l) => l.abandon(), () => {})
    }
    this.locks.clear()
  }

  sessionDir(sessionId: string): string {
    if (!SESSION_ID.test(sessionId) || sessionId.includes('..')) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig,
        `Session id '${sessionId.slice(0, 40)}' is not usable as a directory name (letters, digits, . _ -; at most 128)`,
        ErrorRetryability.never)
    }
    return path.join(this.rootDir, sessionId)
  }

  location(sessionId: string): string {
    return `directory ${this.sessionDir(sessionId)}`
  }

  /**
   * First use of a session in this backend: take its lock, then remove header temp files left by
   * processes that died mid-commit (`header.json.<pid>.tmp`). Under the lock every such file is
   * stale; without it, only those of pids that no longer run.
   */
  private async open(sessionId: string): Promise<void> {
    await this.lock(sessionId)
    if (this.opened.has(sessionId)) return
    this.opened.add(sessionId)
    const dir = this.sessionDir(sessionId)
    let names: string[] = []
    try {
      names = await fs.readdir(dir)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return
      throw e
    }
    for (const name of names) {
      const m = /^header\.json\.([0-9]+)\.tmp$/.exec(name)
      if (m === null) continue
      const pid = Number(m[1])
      if (pid === process.pid) continue
      if (this.locking || !pidAlive(pid)) await fs.rm(path.join(dir, name), { force: true })
    }
  }

  async read(sessionId: string, key: string): Promise<string | undefined> {
    await this.open(sessionId)
    return readIfExists(path.join(this.sessionDir(sessionId), keyFile(key)))
  }

  async write(sessionId: string, key: string, value: string): Promise<void> {
    await this.open(sessionId)
    const dir = this.sessionDir(sessionId)
    await fs.mkdir(dir, { recursive: true })
    await writeDurably(path.join(dir, keyFile(key)), value)
  }

  async sync(sessionId: string): Promise<void> {
    await this.open(sessionId)
    await syncDir(this.sessionDir(sessionId))
  }

  async commitHeader(sessionId: string, value: string): Promise<void> {
    await this.open(sessionId)
    const dir = this.sessionDir(sessionId)
    await fs.mkdir(dir, { recursive: true })
    const tmp = path.join(dir, `${HEADER_FILE}.${process.pid}.tmp`)
    await writeDurably(tmp, value)
    await fs.rename(tmp, path.join(dir, HEADER_FILE))
    await syncDir(dir)
  }

  async readHeader(sessionId: string): Promise<string | undefined> {
    await this.open(sessionId)
    return readIfExists(path.join(this.sessionDir(sessionId), HEADER_FILE))
  }

  async remove(sessionId: string, keys: string[]): Promise<void> {
    await this.open(sessionId)
    const dir = this.sessionDir(sessionId)
    for (const key of keys) {
      await fs.rm(path.join(dir, keyFile(key)), { force: true })
    }
  }

  async list(sessionId: string): Promise<string[]> {
    await this.open(sessionId)
    let names: string[]
    try {
      names = await fs.readdir(this.sessionDir(sessionId))
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw e
    }
    return names.filter((n) => n.endsWith('.val')).map((n) => n.slice(0, -4))
  }

  async removeSession(sessionId: string): Promise<void> {
    await this.lock(sessionId)
    const dir = this.sessionDir(sessionId)
    // Everything but the lock goes first, then the lock with the directory: no other owner can
    // slip in between and see a half-deleted session.
    let names: string[] = []
    try {
      names = await fs.readdir(dir)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
    }
    for (const n of names) {
      if (n !== LOCK_FILE) await fs.rm(path.join(dir, n), { recursive: true, force: true })
    }
    await this.release(sessionId)
    await fs.rm(dir, { recursive: true, force: true })
  }
}

/** Node-only options of FileStateStorage. */
export interface FileStorageOptions {
  /**
   * Take an exclusive lock per session directory (default true): a second owner — another
   * process, or another FileStateStorage instance in this process — gets
   * ArkAgentError(runtime, session_locked) instead of silently interleaving writes. Turn it off
   * only for read-only inspection of sessions another owner may hold.
   */
  lock?: boolean
}

/**
 * Durable session storage on the local file system (Node). By default each session directory is
 * locked by its first user (see FileStorageOptions.lock); call `close()` (or `release(id)`) when
 * done so another runtime or process can open the session. A lock left behind by a dead process
 * is detected as stale and taken over.
 */
export class FileStateStorage extends SegmentedStateStorage {
  readonly files: FileSegmentBackend

  constructor(rootDir: string, options: SegmentedStorageOptions = new SegmentedStorageOptions(),
    fileOptions: FileStorageOptions = {}) {
    if (fileOptions === null || typeof fileOptions !== 'object' || Array.isArray(fileOptions)) {
      throw ConfigCheck.invalid(`FileStateStorage file options must be an object; got ${ConfigCheck.show(fileOptions as Object)}`)
    }
    for (const name of Object.keys(fileOptions)) {
      if (name !== 'lock') {
        throw ConfigCheck.invalid(`FileStateStorage: unknown file option ${JSON.stringify(name.slice(0, 64))}; the only one is lock`)
      }
    }
    if (fileOptions.lock !== undefined) ConfigCheck.bool(fileOptions.lock, 'FileStateStorage lock')
    const backend = new FileSegmentBackend(rootDir, fileOptions.lock ?? true)
    super(backend, options)
    this.files = backend
  }

  /**
   * Releases the lock of one session, after the operations already queued on it. Later operations
   * take the lock again; a state read before the release is refused (session_locked): another owner
   * may have written the session in between.
   */
  release(sessionId: string): Promise<void> {
    // While a runtime of this process still uses the session, once the last of them is done.
    return this.releaseSession(sessionId, () => this.files.release(sessionId))
  }

  /** Releases every lock this instance holds (each after the operations queued on its session). */
  async close(): Promise<void> {
    await Promise.allSettled(this.knownSessions().map((id) => this.releaseSessionNow(id, () => this.files.release(id))))
    await this.files.releaseAll()
  }
}

// ---------- session lock ----------

/** Lock files of this process, removed on a normal exit (a crash leaves them for stale detection). */
const heldLockFiles = new Set<string>()
/** Owner tokens of the locks held by live instances in this process. */
const liveTokens = new Set<string>()
let exitHookInstalled = false

function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.once('exit', () => {
    for (const file of heldLockFiles) {
      try {
        unlinkSync(file)
      } catch {
        // already gone
      }
    }
  })
}

/** The start time of a process in clock ticks since boot (Linux /proc), or undefined elsewhere. */
function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Field 22; the command name (field 2) may contain spaces, so count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields[19]
  } catch {
    return undefined
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

class LockRecord {
  constructor(readonly pid: number, readonly startTicks: string, readonly token: string, readonly createdAtMs: number) {}

  static parse(text: string): LockRecord | undefined {
    try {
      const o = JSON.parse(text) as Record<string, unknown>
      if (typeof o.pid !== 'number' || typeof o.token !== 'string') return undefined
      return new LockRecord(o.pid, typeof o.startTicks === 'string' ? o.startTicks : '', o.token,
        typeof o.createdAtMs === 'number' ? o.createdAtMs : 0)
    } catch {
      return undefined
    }
  }

  /** Whether the owner may still be alive (when in doubt: yes). */
  ownerAlive(): boolean {
    if (this.pid === process.pid) {
      // This process: held by a live instance unless that instance released or abandoned it.
      return liveTokens.has(this.token)
    }
    if (!pidAlive(this.pid)) return false
    // The pid is in use; if it now belongs to a different process, the owner is dead (pid reuse).
    const ticks = processStartTicks(this.pid)
    return ticks === undefined || this.startTicks.length === 0 || ticks === this.startTicks
  }
}

/**
 * An exclusive lock on one session directory: `session.lock`, created with O_EXCL, holding the
 * owner's pid, process start time (Linux) and a random token. A lock whose owner is dead — the pid
 * no longer runs, runs a different process (start time differs), or, within this process, the
 * owning instance is gone — is stale and taken over: it is renamed away (atomic; only one contender
 * wins), checked to be the stale file and not a fresh lock, and deleted.
 */
class SessionLock {
  private released = false

  private constructor(readonly file: string, readonly token: string) {}

  static async acquire(dir: string, sessionId: string): Promise<SessionLock> {
    installExitHook()
    await fs.mkdir(dir, { recursive: true })
    const file = path.join(dir, LOCK_FILE)
    const token = `${process.pid}-${randomBytes(8).toString('hex')}`
    const record = JSON.stringify({ pid: process.pid, startTicks: processStartTicks(process.pid) ?? '', token,
      createdAtMs: Date.now() })
    // Live before the file exists: another instance of this process reading it must see a live owner.
    liveTokens.add(token)
    for (let attempt = 0; attempt < 8; attempt++) {
      try {
        const handle = await fs.open(file, 'wx')
        try {
          await handle.writeFile(record, 'utf8')
          await handle.sync()
        } finally {
          await handle.close()
        }
        heldLockFiles.add(file)
        return new SessionLock(file, token)
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
          liveTokens.delete(token)
          throw new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateLoadFailed,
            `Could not create the lock of session '${sessionId}': ${(e as Error).message}`, ErrorRetryability.retryable,
            e as Error)
        }
      }
      const text = await readIfExists(file)
      if (text === undefined) continue
      const owner = LockRecord.parse(text)
      if (owner === undefined) {
        // Written but not yet complete by a contender (or torn by a crash): young files get time.
        const stat = await fs.stat(file).catch(() => undefined)
        if (stat !== undefined && Date.now() - stat.mtimeMs < 2000) {
          liveTokens.delete(token)
          throw SessionLock.lockedError(sessionId, 'another owner is creating the lock')
        }
      } else if (owner.ownerAlive()) {
        liveTokens.delete(token)
        throw SessionLock.lockedError(sessionId, owner.pid === process.pid ?
          'another storage instance in this process holds it (close() it first)' : `process ${owner.pid} holds it`)
      }
      await SessionLock.breakStale(file, text)
    }
    liveTokens.delete(token)
    throw SessionLock.lockedError(sessionId, 'the lock keeps changing hands')
  }

  private static async breakStale(file: string, staleText: string): Promise<void> {
    const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`
    try {
      await fs.rename(file, aside)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return
      throw e
    }
    const moved = await readIfExists(aside)
    if (moved !== staleText) {
      // We moved a fresh lock someone created after our check: put it back unless a newer one exists.
      try {
        await fs.link(aside, file)
      } catch {
        // A newer lock is in place; the moved one's owner will find its lock gone only on release.
      }
    }
    await fs.rm(aside, { force: true })
  }

  private static lockedError(sessionId: string, why: string): ArkAgentError {
    return new ArkAgentError(ErrorLayer.runtime, ErrorCodes.sessionLocked,
      `Session '${sessionId}' is locked: ${why}`, ErrorRetryability.afterAction)
  }

  async release(): Promise<void> {
    if (this.released) return
    this.released = true
    liveTokens.delete(this.token)
    heldLockFiles.delete(this.file)
    const text = await readIfExists(this.file).catch(() => undefined)
    const owner = text !== undefined ? LockRecord.parse(text) : undefined
    if (owner !== undefined && owner.token === this.token) {
      await fs.rm(this.file, { force: true })
    }
  }

  /** As if the owning process died: the file stays, the owner is gone. */
  abandon(): void {
    this.released = true
    liveTokens.delete(this.token)
    heldLockFiles.delete(this.file)
  }
}

function keyFile(key: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(key)) {
    throw new Error(`Invalid storage key '${key}'`)
  }
  return `${key}.val`
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw e
  }
}

async function writeDurably(file: string, value: string): Promise<void> {
  const handle = await fs.open(file, 'w')
  try {
    await handle.writeFile(value, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
}

async function syncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined
  try {
    handle = await fs.open(dir, 'r')
    await handle.sync()
  } catch (e) {
    // Some file systems cannot fsync a directory; the rename is still atomic there.
    if ((e as NodeJS.ErrnoException).code !== 'EISDIR' && (e as NodeJS.ErrnoException).code !== 'EINVAL' &&
      (e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
  } finally {
    await handle?.close()
  }
}
