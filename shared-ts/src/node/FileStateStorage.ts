import { promises as fs } from 'node:fs'
import path from 'node:path'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../core/errors/ArkAgentError'
import { SegmentBackend } from '../core/storage/SegmentBackend'
import { SegmentedStateStorage, SegmentedStorageOptions } from '../core/storage/SegmentedStateStorage'

const HEADER_FILE = 'header.json'
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

/**
 * One directory per session, one file per key. Values are written to fresh names and fsynced;
 * the header is replaced atomically (write temp, fsync, rename, fsync the directory), so a crash
 * at any point leaves either the old or the new snapshot.
 */
export class FileSegmentBackend implements SegmentBackend {
  readonly rootDir: string

  constructor(rootDir: string) {
    this.rootDir = path.resolve(rootDir)
  }

  sessionDir(sessionId: string): string {
    if (!SESSION_ID.test(sessionId) || sessionId.includes('..')) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig,
        `Session id '${sessionId.slice(0, 40)}' is not usable as a directory name (letters, digits, . _ -; at most 128)`,
        ErrorRetryability.never)
    }
    return path.join(this.rootDir, sessionId)
  }

  async read(sessionId: string, key: string): Promise<string | undefined> {
    return readIfExists(path.join(this.sessionDir(sessionId), keyFile(key)))
  }

  async write(sessionId: string, key: string, value: string): Promise<void> {
    const dir = this.sessionDir(sessionId)
    await fs.mkdir(dir, { recursive: true })
    await writeDurably(path.join(dir, keyFile(key)), value)
  }

  async sync(sessionId: string): Promise<void> {
    await syncDir(this.sessionDir(sessionId))
  }

  async commitHeader(sessionId: string, value: string): Promise<void> {
    const dir = this.sessionDir(sessionId)
    await fs.mkdir(dir, { recursive: true })
    const tmp = path.join(dir, `${HEADER_FILE}.${process.pid}.tmp`)
    await writeDurably(tmp, value)
    await fs.rename(tmp, path.join(dir, HEADER_FILE))
    await syncDir(dir)
  }

  async readHeader(sessionId: string): Promise<string | undefined> {
    return readIfExists(path.join(this.sessionDir(sessionId), HEADER_FILE))
  }

  async remove(sessionId: string, keys: string[]): Promise<void> {
    const dir = this.sessionDir(sessionId)
    for (const key of keys) {
      await fs.rm(path.join(dir, keyFile(key)), { force: true })
    }
  }

  async list(sessionId: string): Promise<string[]> {
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
    await fs.rm(this.sessionDir(sessionId), { recursive: true, force: true })
  }
}

/** Durable session storage on the local file system (Node). */
export class FileStateStorage extends SegmentedStateStorage {
  readonly files: FileSegmentBackend

  constructor(rootDir: string, options: SegmentedStorageOptions = new SegmentedStorageOptions()) {
    const backend = new FileSegmentBackend(rootDir)
    super(backend, options)
    this.files = backend
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
