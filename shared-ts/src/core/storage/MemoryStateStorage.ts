import { SegmentBackend } from './SegmentBackend'
import { SegmentedStateStorage, SegmentedStorageOptions } from './SegmentedStateStorage'

const HEADER_KEY: string = '#header'

/** Keeps values in memory. Useful for tests and for apps that do not need durability. */
export class MemorySegmentBackend implements SegmentBackend {
  private readonly data: Map<string, Map<string, string>> = new Map<string, Map<string, string>>()

  async read(sessionId: string, key: string): Promise<string | undefined> {
    return this.session(sessionId).get(key)
  }

  async write(sessionId: string, key: string, value: string): Promise<void> {
    this.session(sessionId).set(key, value)
  }

  async sync(sessionId: string): Promise<void> {
  }

  async commitHeader(sessionId: string, value: string): Promise<void> {
    this.session(sessionId).set(HEADER_KEY, value)
  }

  async readHeader(sessionId: string): Promise<string | undefined> {
    return this.session(sessionId).get(HEADER_KEY)
  }

  async remove(sessionId: string, keys: string[]): Promise<void> {
    const s = this.session(sessionId)
    for (let i = 0; i < keys.length; i++) {
      s.delete(keys[i])
    }
  }

  async list(sessionId: string): Promise<string[]> {
    const out: string[] = []
    this.session(sessionId).forEach((value: string, key: string): void => {
      if (key !== HEADER_KEY) {
        out.push(key)
      }
    })
    return out
  }

  async removeSession(sessionId: string): Promise<void> {
    this.data.delete(sessionId)
  }

  location(sessionId: string): string {
    return `memory session '${sessionId}'`
  }

  /** Test helper: raw access to a stored value. */
  peek(sessionId: string, key: string): string | undefined {
    return key === 'header' ? this.session(sessionId).get(HEADER_KEY) : this.session(sessionId).get(key)
  }

  /** Test helper: overwrite a stored value (to simulate corruption). */
  poke(sessionId: string, key: string, value: string): void {
    this.session(sessionId).set(key === 'header' ? HEADER_KEY : key, value)
  }

  private session(sessionId: string): Map<string, string> {
    let s = this.data.get(sessionId)
    if (s === undefined) {
      s = new Map<string, string>()
      this.data.set(sessionId, s)
    }
    return s
  }
}

export class MemoryStateStorage extends SegmentedStateStorage {
  /** The underlying map, for tests that inspect or corrupt stored values. */
  readonly memory: MemorySegmentBackend

  constructor(options: SegmentedStorageOptions = new SegmentedStorageOptions(),
    backend: MemorySegmentBackend = new MemorySegmentBackend()) {
    super(backend, options)
    this.memory = backend
  }
}
