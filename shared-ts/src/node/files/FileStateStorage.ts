// Durable session storage on the local file system (Node), locked per session.
import { SegmentedStateStorage, SegmentedStorageOptions } from '../../core/storage/SegmentedStateStorage'
import { ConfigCheck } from '../../core/util/ConfigCheck'
import { FileSegmentBackend } from './FileSegmentBackend'

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
