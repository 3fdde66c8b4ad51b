// The per-session lock file of FileStateStorage: one owner per session directory, across
// processes and instances; a lock left by a dead process is detected as stale and taken over.
import { randomBytes } from 'node:crypto'
import { readFileSync, unlinkSync, promises as fs } from 'node:fs'
import path from 'node:path'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../../core/errors/ArkAgentError'
import { readIfExists } from './DurableFiles'

/** The per-session lock file (not a `.val` file, so `list()` never reports it). */
export const LOCK_FILE = 'session.lock'

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

export function pidAlive(pid: number): boolean {
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
export class SessionLock {
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
