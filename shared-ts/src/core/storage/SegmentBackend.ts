/**
 * The small key-value surface a platform must provide for segmented storage (memory, files,
 * HarmonyOS preferences). Keys are short ASCII names scoped to one session. A backend only moves
 * bytes: the format, checksums and what may be deleted are decided by SegmentedStateStorage.
 */
export interface SegmentBackend {
  read(sessionId: string, key: string): Promise<string | undefined>
  /** Writes a value under a key the current header does not reference. */
  write(sessionId: string, key: string, value: string): Promise<void>
  /** Makes every preceding write of the session durable. */
  sync(sessionId: string): Promise<void>
  /** Atomically replaces the header: the commit point of a save. Durable when resolved. */
  commitHeader(sessionId: string, value: string): Promise<void>
  readHeader(sessionId: string): Promise<string | undefined>
  remove(sessionId: string, keys: string[]): Promise<void>
  /** Every key of the session except the header. */
  list(sessionId: string): Promise<string[]>
  removeSession(sessionId: string): Promise<void>
  /** Where the session lives, for error messages (a directory, a preferences file name). */
  location(sessionId: string): string
}
