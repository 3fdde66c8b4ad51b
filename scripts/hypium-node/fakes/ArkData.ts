// Node fake of @kit.ArkData preferences (API 12 behaviour). Each Preferences instance holds its
// file in memory; put/delete touch memory only; flush() writes a real file under the context's
// preferencesDir. removePreferencesFromCache and deletePreferences only forget the cached instance
// (and delete the files): as on a device (preferences_helper.cpp in OpenHarmony 5.0), an instance
// the app still holds stays valid and its next flush() writes the file again. Reopening after
// removePreferencesFromCache reads exactly what was flushed, as after a killed process.
// Parameter errors throw BusinessError 401 synchronously, as the NAPI layer does.
import fs from 'node:fs'
import path from 'node:path'
import { FakeBusinessError } from './BusinessError'

type ValueType = number | string | boolean | Array<number> | Array<string> | Array<boolean> | Uint8Array | object | bigint
interface Options { name: string, dataGroupId?: string | null }
interface FakeContext { preferencesDir: string }

const MAX_KEY_LENGTH = 1024
const MAX_VALUE_LENGTH = 16 * 1024 * 1024
const utf8 = (s: string) => Buffer.byteLength(s, 'utf8')
const cache = new Map<string, Preferences>()

function param(message: string): FakeBusinessError {
  return new FakeBusinessError(401, `Parameter error. ${message}`)
}

function fileOf(context: FakeContext, options: Options | string): string {
  const name = typeof options === 'string' ? options : options?.name
  if (typeof name !== 'string' || name.length === 0 || utf8(name) > 255 || name.includes('/')) {
    throw param(`The preferences name must be 1-255 bytes without '/': '${String(name).slice(0, 40)}'`)
  }
  return path.join(context.preferencesDir, `${name}.json`)
}

function checkKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || utf8(key) > MAX_KEY_LENGTH) {
    throw param(`The key must be a string of 1-${MAX_KEY_LENGTH} bytes.`)
  }
}

class Preferences {
  private data: Map<string, ValueType>

  constructor(private readonly file: string) {
    this.data = fs.existsSync(file)
      ? new Map(Object.entries(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, ValueType>))
      : new Map()
  }

  async get(key: string, defValue: ValueType): Promise<ValueType> {
    checkKey(key)
    return this.data.has(key) ? this.data.get(key)! : defValue
  }
  async getAll(): Promise<object> {
    return Object.fromEntries(this.data)
  }
  async has(key: string): Promise<boolean> {
    checkKey(key)
    return this.data.has(key)
  }
  put(key: string, value: ValueType): Promise<void> {
    checkKey(key)
    if (typeof value === 'string' && utf8(value) > MAX_VALUE_LENGTH) {
      throw param(`The value must be at most ${MAX_VALUE_LENGTH} bytes.`)
    }
    this.data.set(key, value)
    return Promise.resolve()
  }
  delete(key: string): Promise<void> {
    checkKey(key)
    this.data.delete(key)
    return Promise.resolve()
  }
  async clear(): Promise<void> {
    this.data.clear()
  }
  async flush(): Promise<void> {
    fs.mkdirSync(path.dirname(this.file), { recursive: true })
    const tmp = `${this.file}.tmp`
    fs.writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.data)))
    fs.renameSync(tmp, this.file)
  }
}

function getPreferences(context: FakeContext, options: Options | string): Promise<Preferences> {
  const file = fileOf(context, options)
  let p = cache.get(file)
  if (p === undefined) {
    p = new Preferences(file)
    cache.set(file, p)
  }
  return Promise.resolve(p)
}

function removePreferencesFromCache(context: FakeContext, options: Options | string): Promise<void> {
  cache.delete(fileOf(context, options))
  return Promise.resolve()
}

function deletePreferences(context: FakeContext, options: Options | string): Promise<void> {
  const file = fileOf(context, options)
  cache.delete(file)
  fs.rmSync(file, { force: true })
  fs.rmSync(`${file}.tmp`, { force: true })
  return Promise.resolve()
}

export const preferences = {
  MAX_KEY_LENGTH, MAX_VALUE_LENGTH, getPreferences, removePreferencesFromCache, deletePreferences,
}
