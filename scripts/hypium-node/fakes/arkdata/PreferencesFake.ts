// Node fake of @kit.ArkData preferences, faithful to distributeddatamgr_preferences 5.0.0 where a
// device loses data:
// - getPreferences resolves before the file is loaded: Init() queues LoadFromDisk on ONE executor
//   thread shared by every preferences file of the process (preferences_base.cpp:33,
//   ExecutorPool(1, 0); preferences_impl.cpp:148 StartLoadFromDisk). Loads run one after another.
// - get/has/put/delete/getAll/clear first AwaitLoadFile (preferences_impl.cpp:173): a load that is
//   running holds the instance mutex, so they wait for it; a load that has not STARTED within
//   WAIT_TIME = 2 s (preferences_impl.cpp:41) is given up on ("load timeout") and the call runs on
//   the cache as it is — empty. When the load finishes it REPLACES the cache (line 306), dropping
//   what was put meanwhile. flush() (FlushSync, line 506) does not wait at all unless the load is
//   running: it writes the cache as it is.
// - The load takes time: LOAD_BYTES_PER_MS below is the model (see bench/preferences-load.ts).
// - flush() writes only when a key was modified since the last flush; the modified keys are moved
//   out before the write, so after a failed write a retry with no new change reports success and
//   writes nothing (WriteToDiskFile, line 460).
// - The file is XML (./PreferencesXml.ts): characters XML 1.0 forbids break the WHOLE file on the
//   next load; it is renamed `.broken`, a `.bak` (only left by a flush that died) replaces it, else
//   the instance comes back empty. The file is `<preferencesDir>/<name>`, no extension: a name past
//   251 bytes fails every flush after the first (the `.bak` rename), past 248 bytes a broken file
//   cannot be renamed `.broken` and its `.bak` is never restored.
// - Parameter errors (a key that is not a string or over 1024 bytes, a value that is not a
//   ValueType or over 16 MB) throw synchronously with the STRING code "401" (napi_throw_error); an
//   empty key is not a parameter error: get resolves the default, has resolves false, put and delete
//   reject with 15500000 (E_KEY_EMPTY mapped by InnerError, napi_preferences_error.cpp).
import fs from 'node:fs'
import path from 'node:path'
import { FakeBusinessError, FakeNapiThrow } from '../BusinessError'
import { deleteFiles, readFile, ValueType, writeFile } from './PreferencesXml'

interface Options { name: string, dataGroupId?: string | null }
interface FakeContext { preferencesDir: string }

const MAX_KEY_LENGTH = 1024
const MAX_VALUE_LENGTH = 16 * 1024 * 1024
const WAIT_TIME_MS = 2000
/**
 * The load-time model: 16 MiB/s of file. libxml2 2.9.14 (the version OpenHarmony 5.0.0 ships)
 * parses a preferences file of CJK-heavy JSON text at 55-77 MB/s and of ASCII at 150-300 MB/s on
 * one x86 server core (measured with the C calls preferences_xml_utils.cpp makes); LoadFromDisk
 * then copies every value twice (Element, PreferencesValue). A phone's efficiency core, where the
 * executor thread may run, is taken as 3.5x slower than the slow end: ~16 MiB/s.
 */
export const LOAD_BYTES_PER_MS = (16 * 1024 * 1024) / 1000
const utf8 = (s: string) => Buffer.byteLength(s, 'utf8')
const cache = new Map<string, Preferences>()
let executor: Promise<void> = Promise.resolve()

function param(message: string): FakeNapiThrow {
  return new FakeNapiThrow(401, `Parameter error. ${message}`)
}

function inner(what: string): FakeBusinessError {
  return new FakeBusinessError(15500000, `Inner error. Error code ${what}`)
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function parseKey(key: unknown): void {
  if (typeof key !== 'string') throw param('The key must be string.')
  if (utf8(key) > MAX_KEY_LENGTH) throw param('The key must be less than 1024 bytes.')
}

function parseValue(value: unknown): void {
  const ok = ['string', 'number', 'boolean', 'bigint'].includes(typeof value) || value instanceof Uint8Array ||
    Array.isArray(value) || (typeof value === 'object' && value !== null)
  if (!ok) throw param('The type of value must be ValueType.')
  if (typeof value === 'string' && utf8(value) > MAX_VALUE_LENGTH) {
    throw param('The type of value must be less then 16 * 1024 * 1024 btyes.')
  }
}

function copy(v: ValueType): ValueType {
  if (v instanceof Uint8Array) return new Uint8Array(v)
  if (Array.isArray(v)) return [...v] as ValueType
  return v
}

function same(a: ValueType | undefined, b: ValueType): boolean {
  return a === b || (a !== undefined && typeof a === 'object' && JSON.stringify(a) === JSON.stringify(b))
}

class Preferences {
  private data = new Map<string, ValueType>()
  private modified = false
  private loaded = false
  private loading = false
  private markStarted: () => void = () => {}
  private markDone: () => void = () => {}
  private readonly started = new Promise<void>((resolve) => { this.markStarted = resolve })
  private readonly done = new Promise<void>((resolve) => { this.markDone = resolve })

  constructor(private readonly file: string) {
    executor = executor.then(() => this.loadFromDisk()).catch(() => {})
  }

  /** LoadFromDisk on the executor thread, holding the instance mutex for as long as it reads. */
  private async loadFromDisk(): Promise<void> {
    this.loading = true
    this.markStarted()
    const read = readFile(this.file)
    await sleep(Math.ceil((read?.bytes ?? 0) / LOAD_BYTES_PER_MS))
    if (read !== undefined) this.data = read.values
    this.loaded = true
    this.loading = false
    this.markDone()
  }

  /** AwaitLoadFile: wait for a running load; give up on one that has not started within 2 s. */
  private async awaitLoad(): Promise<void> {
    if (this.loaded) return
    if (this.loading) return this.done
    let timer: ReturnType<typeof setTimeout> | undefined
    const timedOut = await Promise.race([this.started.then(() => false),
      new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(true), WAIT_TIME_MS) })])
    clearTimeout(timer)
    if (!timedOut) await this.done
  }

  get(key: string, defValue: ValueType): Promise<ValueType> {
    parseKey(key)
    return (async () => {
      if (key.length === 0) return defValue
      await this.awaitLoad()
      return this.data.has(key) ? copy(this.data.get(key) as ValueType) : defValue
    })()
  }

  getAll(): Promise<object> {
    return (async () => {
      await this.awaitLoad()
      const out: Record<string, ValueType> = {}
      for (const [k, v] of this.data) out[k] = copy(v)
      return out
    })()
  }

  has(key: string): Promise<boolean> {
    parseKey(key)
    return (async () => {
      if (key.length === 0) return false
      await this.awaitLoad()
      return this.data.has(key)
    })()
  }

  put(key: string, value: ValueType): Promise<void> {
    parseKey(key)
    parseValue(value)
    return (async () => {
      if (key.length === 0) throw inner('E_KEY_EMPTY')
      await this.awaitLoad()
      if (!this.data.has(key) || !same(this.data.get(key), value)) {
        this.data.set(key, copy(value))
        this.modified = true
      }
    })()
  }

  delete(key: string): Promise<void> {
    parseKey(key)
    return (async () => {
      if (key.length === 0) throw inner('E_KEY_EMPTY')
      await this.awaitLoad()
      if (this.data.delete(key)) this.modified = true
    })()
  }

  clear(): Promise<void> {
    return (async () => {
      await this.awaitLoad()
      if (this.data.size > 0) this.modified = true
      this.data.clear()
    })()
  }

  flush(): Promise<void> {
    return (async () => {
      if (this.loading) await this.done
      if (!this.modified) return
      this.modified = false
      if (!writeFile(this.file, this.data)) throw inner('E_ERROR')
    })()
  }
}

function fileOf(context: FakeContext, options: Options | string): string {
  const name = typeof options === 'string' ? options : options?.name
  if (typeof name !== 'string') throw param('The name must be string.')
  return path.join(context.preferencesDir, name)
}

/** GetRealPath: an empty file name (or a path over PATH_MAX) is refused by the native side, asynchronously. */
function checkPath(file: string, name: string): Promise<void> | undefined {
  return name.length === 0 || file.length > 4096 ? Promise.reject(inner('E_EMPTY_FILE_NAME')) : undefined
}

function nameOf(options: Options | string): string {
  return typeof options === 'string' ? options : options.name
}

function getPreferences(context: FakeContext, options: Options | string): Promise<Preferences> {
  const file = fileOf(context, options)
  const refused = checkPath(file, nameOf(options))
  if (refused !== undefined) return refused as Promise<never>
  fs.mkdirSync(context.preferencesDir, { recursive: true })
  let p = cache.get(file)
  if (p === undefined) {
    p = new Preferences(file)
    cache.set(file, p)
  }
  return Promise.resolve(p)
}

function removePreferencesFromCache(context: FakeContext, options: Options | string): Promise<void> {
  const file = fileOf(context, options)
  const refused = checkPath(file, nameOf(options))
  if (refused !== undefined) return refused
  cache.delete(file)
  return Promise.resolve()
}

function deletePreferences(context: FakeContext, options: Options | string): Promise<void> {
  const file = fileOf(context, options)
  const refused = checkPath(file, nameOf(options))
  if (refused !== undefined) return refused
  cache.delete(file)
  return deleteFiles(file) ? Promise.resolve() : Promise.reject(new FakeBusinessError(15500010, 'Failed to delete preferences file.'))
}

export const preferences = {
  MAX_KEY_LENGTH, MAX_VALUE_LENGTH, getPreferences, removePreferencesFromCache, deletePreferences,
}
