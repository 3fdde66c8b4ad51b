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
// @ts-ignore sql.js ships no types
import initSqlJs from 'sql.js'

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

// ---------------------------------------------------------------------------------------------
// Node fake of @kit.ArkData relationalStore (API 12) on a real SQLite engine (sql.js). One
// database per file under the context's databaseDir/rdb, cached per path like the system's store
// pool. Each statement outside a transaction is written to the file before its promise resolves
// (the device runs WAL with FULL sync: a resolved executeSql is durable); inside
// beginTransaction() the file is written at commit() and nothing at rollBack(). As the reference
// warns, a row over 2 MB is inserted but cannot be read back: reading it fails with 14800000.
// Parameter errors throw BusinessError 401 synchronously; SQLite errors reject with 14800000.

type SqlValue = null | number | string | boolean | Uint8Array
interface SqlDatabase {
  run(sql: string, params?: SqlValue[]): void
  exec(sql: string, params?: SqlValue[]): Array<{ columns: string[], values: SqlValue[][] }>
  export(): Uint8Array
  close(): void
}
interface RdbContext { databaseDir: string }
interface StoreConfig { name: string, securityLevel: number }

const MAX_READABLE_ROW_BYTES = 2 * 1024 * 1024
let sqlJs: Promise<{ Database: new (data?: Uint8Array) => SqlDatabase }> | undefined
const stores = new Map<string, RdbStore>()

function rdbError(e: unknown): FakeBusinessError {
  return new FakeBusinessError(14800000, `Inner error. ${e instanceof Error ? e.message : String(e)}`)
}

function rowBytes(row: SqlValue[]): number {
  let n = 0
  for (const v of row) n += typeof v === 'string' ? utf8(v) : v instanceof Uint8Array ? v.length : 8
  return n
}

class ResultSet {
  private position = -1
  constructor(private readonly columns: string[], private readonly rows: SqlValue[][]) {}
  get rowCount(): number { return this.rows.length }
  get columnCount(): number { return this.columns.length }
  goToFirstRow(): boolean { this.position = 0; return this.rows.length > 0 }
  goToNextRow(): boolean { this.position++; return this.position < this.rows.length }
  getColumnIndex(name: string): number { return this.columns.indexOf(name) }
  private cell(index: number): SqlValue {
    if (this.position < 0 || this.position >= this.rows.length) throw new FakeBusinessError(14800012, 'Row out of bounds.')
    if (typeof index !== 'number' || index < 0 || index >= this.columns.length) throw param(`Column index ${index} is invalid.`)
    const row = this.rows[this.position]
    if (rowBytes(row) > MAX_READABLE_ROW_BYTES) throw new FakeBusinessError(14800000, 'Inner error. The row is larger than 2 MB.')
    return row[index]
  }
  getString(index: number): string { const v = this.cell(index); return v === null ? '' : String(v) }
  getLong(index: number): number { return Number(this.cell(index)) }
  close(): void { this.position = this.rows.length }
}

class RdbStore {
  private inTransaction = false
  private closed = false
  constructor(private readonly db: SqlDatabase, private readonly file: string) {}

  private check(sql: string, bindArgs: SqlValue[] | undefined): void {
    if (this.closed) throw new FakeBusinessError(14800014, 'Already closed.')
    if (typeof sql !== 'string' || sql.length === 0) throw param('The sql must be a non-empty string.')
    if (bindArgs !== undefined && !Array.isArray(bindArgs)) throw param('bindArgs must be an array.')
  }

  private persist(): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true })
    const tmp = `${this.file}.tmp`
    fs.writeFileSync(tmp, this.db.export())
    fs.renameSync(tmp, this.file)
  }

  executeSql(sql: string, bindArgs?: SqlValue[]): Promise<void> {
    this.check(sql, bindArgs)
    try {
      this.db.run(sql, bindArgs ?? [])
      if (!this.inTransaction) this.persist()
    } catch (e) {
      return Promise.reject(rdbError(e))
    }
    return Promise.resolve()
  }

  querySql(sql: string, bindArgs?: SqlValue[]): Promise<ResultSet> {
    this.check(sql, bindArgs)
    try {
      const result = this.db.exec(sql, bindArgs ?? [])
      return Promise.resolve(result.length === 0 ? new ResultSet([], []) : new ResultSet(result[0].columns, result[0].values))
    } catch (e) {
      return Promise.reject(rdbError(e))
    }
  }

  beginTransaction(): void {
    if (this.closed) throw new FakeBusinessError(14800014, 'Already closed.')
    this.db.run('BEGIN')
    this.inTransaction = true
  }

  commit(): void {
    this.db.run('COMMIT')
    this.inTransaction = false
    this.persist()
  }

  rollBack(): void {
    this.db.run('ROLLBACK')
    this.inTransaction = false
  }

  close(): Promise<void> {
    this.closed = true
    stores.delete(this.file)
    return Promise.resolve()
  }
}

function rdbFile(context: RdbContext, name: string): string {
  if (typeof name !== 'string' || name.length === 0 || name.includes('/')) throw param(`The store name '${String(name)}' is invalid.`)
  return path.join(context.databaseDir, 'rdb', name)
}

async function getRdbStore(context: RdbContext, config: StoreConfig): Promise<RdbStore> {
  if (config === null || typeof config !== 'object') throw param('config must be a StoreConfig.')
  if (typeof config.securityLevel !== 'number' || config.securityLevel < 1 || config.securityLevel > 4) {
    throw param('securityLevel must be S1..S4.')
  }
  const file = rdbFile(context, config.name)
  const cached = stores.get(file)
  if (cached !== undefined) return cached
  sqlJs ??= initSqlJs()
  const SQL = await sqlJs
  const again = stores.get(file)
  if (again !== undefined) return again
  const store = new RdbStore(new SQL.Database(fs.existsSync(file) ? fs.readFileSync(file) : undefined), file)
  stores.set(file, store)
  return store
}

function deleteRdbStore(context: RdbContext, name: string): Promise<void> {
  const file = rdbFile(context, name)
  stores.delete(file)
  fs.rmSync(file, { force: true })
  return Promise.resolve()
}

enum SecurityLevel { S1 = 1, S2 = 2, S3 = 3, S4 = 4 }

export const relationalStore = { SecurityLevel, getRdbStore, deleteRdbStore }

/** Bench support (not an API): forget every cached store, as a killed process does; files stay. */
export function forgetStores(): void {
  stores.clear()
}
