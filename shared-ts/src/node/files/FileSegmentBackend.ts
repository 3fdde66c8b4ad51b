// One directory per session, one file per key: the segment backend of FileStateStorage.
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../../core/errors/ArkAgentError'
import { SegmentBackend } from '../../core/storage/SegmentBackend'
import { ConfigCheck } from '../../core/util/ConfigCheck'
import { keyFile, readIfExists, syncDir, writeDurably } from './DurableFiles'
import { LOCK_FILE, pidAlive, SessionLock } from './SessionLock'

const HEADER_FILE = 'header.json'
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
