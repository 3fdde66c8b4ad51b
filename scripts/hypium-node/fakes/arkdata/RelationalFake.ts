// Node fake of @kit.ArkData relationalStore (API 12) on a real SQLite engine (sql.js), faithful to
// distributeddatamgr_relational_store 5.0.0 where a device differs from a naive store:
// - One store per database file in the process (cached per path): ONE writer connection runs every
//   write of every caller (connection_pool.cpp:103, "write connect count is 1"); reads go to reader
//   connections (readConSize_ = 4, rdb_store_config.h:647) and see only what was committed (WAL).
//   The fake reads from a copy of the last committed database while a transaction is open.
// - beginTransaction() runs "BEGIN EXCLUSIVE" on that writer, or, when a transaction is already
//   open (by anyone), "SAVEPOINT TRANS_STR<n>" (base_transaction.cpp:63). Every other executeSql of
//   the process then runs inside it. commit() of a savepoint only pops it — a no-op — and of the
//   outer transaction runs COMMIT and reports success even when COMMIT fails (rdb_store_impl.cpp:1558);
//   rollBack() undoes to the top of the stack, whoever opened it (line 1474).
// - Outside a transaction each statement is committed before its promise resolves (WAL, synchronous
//   FULL: sqlite_global_config.h:46-47): the file is written per statement.
// - querySql resolves even when the SQL fails: the error sits in the result set, rowCount is -1 and
//   goToFirstRow() returns false (sqlite_shared_result_set.cpp InitRowCount, abs_result_set.cpp:87,
//   napi_result_set.cpp GoToFirstRow); only the getters throw.
// - executeSql refuses BEGIN/COMMIT/ROLLBACK with 801 (SqliteUtils::IsSpecial). Synchronous throws
//   carry a string code (napi_throw_error); rejections a numeric one. A row over 2 MB is inserted
//   but cannot be read back: reading it throws 14800000.
import fs from 'node:fs'
import path from 'node:path'
import { FakeBusinessError, FakeNapiThrow } from '../BusinessError'
// @ts-ignore sql.js ships no types
import initSqlJs from 'sql.js'

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
let SQL: { Database: new (data?: Uint8Array) => SqlDatabase } | undefined
const stores = new Map<string, RdbStore>()
const utf8 = (s: string) => Buffer.byteLength(s, 'utf8')

function param(message: string): FakeNapiThrow {
  return new FakeNapiThrow(401, `Parameter error. ${message}`)
}

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
  private closed = false
  /** `rows` undefined: the query failed (rowCount -1). */
  constructor(private readonly columns: string[], private readonly rows: SqlValue[][] | undefined) {}
  get rowCount(): number { return this.closed || this.rows === undefined ? -1 : this.rows.length }
  get columnCount(): number { return this.columns.length }
  goToFirstRow(): boolean { return this.goTo(0) }
  goToNextRow(): boolean { return this.goTo(this.position + 1) }
  private goTo(i: number): boolean {
    if (this.closed || this.rows === undefined || i < 0 || i >= this.rows.length) return false
    this.position = i
    return true
  }
  getColumnIndex(name: string): number { return this.columns.indexOf(name) }
  private cell(index: number): SqlValue {
    if (this.closed) throw new FakeNapiThrow(14800014, 'Already closed.')
    if (this.rows === undefined || this.position < 0 || this.position >= this.rows.length) throw new FakeNapiThrow(14800012, 'Row out of bounds.')
    if (typeof index !== 'number' || index < 0 || index >= this.columns.length) throw new FakeNapiThrow(14800013, 'Column out of bounds.')
    const row = this.rows[this.position]
    if (rowBytes(row) > MAX_READABLE_ROW_BYTES) throw new FakeNapiThrow(14800000, 'Inner error. The row is larger than 2 MB.')
    return row[index]
  }
  getString(index: number): string { const v = this.cell(index); return v === null ? '' : String(v) }
  getLong(index: number): number { return Number(this.cell(index)) }
  close(): void { this.closed = true }
}

class RdbStore {
  /** The transaction stack of the store's connection pool: the id of each open level (0 = the transaction). */
  private readonly stack: number[] = []
  /** COMMIT failed: the writer is still inside a transaction nobody tracks. */
  private orphaned = false
  private closed = false
  private committed: Uint8Array | undefined
  private reader: SqlDatabase | undefined

  constructor(private readonly db: SqlDatabase, private readonly file: string, initial: Uint8Array | undefined) {
    this.committed = initial
  }

  private get inTransaction(): boolean { return this.stack.length > 0 || this.orphaned }

  private check(sql: string, bindArgs: SqlValue[] | undefined): void {
    if (this.closed) throw new FakeNapiThrow(14800014, 'Already closed.')
    if (typeof sql !== 'string' || sql.length === 0) throw param('The sql must be a non-empty string.')
    if (bindArgs !== undefined && !Array.isArray(bindArgs)) throw param('bindArgs must be an array.')
  }

  /** A commit happened: the file gets it, and readers see it. */
  private persist(): void {
    this.committed = this.db.export()
    fs.mkdirSync(path.dirname(this.file), { recursive: true })
    const tmp = `${this.file}.tmp`
    fs.writeFileSync(tmp, this.committed)
    fs.renameSync(tmp, this.file)
    this.reader?.close()
    this.reader = undefined
  }

  executeSql(sql: string, bindArgs?: SqlValue[]): Promise<void> {
    this.check(sql, bindArgs)
    if (/^\s*(BEG|COM|ROL)/i.test(sql)) {
      return Promise.reject(new FakeBusinessError(801, 'Capability not supported.'))
    }
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
    // SqliteSharedResultSet: a statement that is not a query, or one that fails, leaves rowCount -1.
    if (!/^\s*(SELECT|WITH)\b/i.test(sql)) return Promise.resolve(new ResultSet([], undefined))
    try {
      let source = this.db
      if (this.inTransaction) {
        this.reader ??= new (SQL as { Database: new (data?: Uint8Array) => SqlDatabase }).Database(this.committed)
        source = this.reader
      }
      const result = source.exec(sql, bindArgs ?? [])
      return Promise.resolve(result.length === 0 ? new ResultSet([], []) : new ResultSet(result[0].columns, result[0].values))
    } catch {
      return Promise.resolve(new ResultSet([], undefined))
    }
  }

  beginTransaction(): void {
    if (this.closed) throw new FakeNapiThrow(14800014, 'Already closed.')
    const id = this.stack.length
    try {
      this.db.run(id === 0 ? 'BEGIN EXCLUSIVE' : `SAVEPOINT TRANS_STR${id}`)
    } catch (e) {
      throw new FakeNapiThrow(14800000, `Inner error. ${(e as Error).message}`)
    }
    this.stack.push(id)
  }

  commit(): void {
    if (this.closed) throw new FakeNapiThrow(14800014, 'Already closed.')
    const top = this.stack.pop()
    if (top === undefined || top !== 0) return // a savepoint's commit string is ";": nothing runs
    try {
      this.db.run('COMMIT')
    } catch {
      this.orphaned = true // the error is ignored and E_OK returned
      return
    }
    this.persist()
  }

  rollBack(): void {
    if (this.closed) throw new FakeNapiThrow(14800014, 'Already closed.')
    const top = this.stack.pop()
    if (top === undefined) throw new Error('call RollBack failed') // NAPI_ASSERT: E_NO_TRANSACTION_IN_SESSION
    try {
      this.db.run(top === 0 ? 'ROLLBACK' : `ROLLBACK TO TRANS_STR${top}`)
      if (top === 0) this.orphaned = false
    } catch {
      // ignored: RollBack returns E_OK whatever the statement did
    }
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
  const engine = await (sqlJs as Promise<{ Database: new (data?: Uint8Array) => SqlDatabase }>)
  SQL = engine
  const again = stores.get(file)
  if (again !== undefined) return again
  const bytes = fs.existsSync(file) ? new Uint8Array(fs.readFileSync(file)) : undefined
  const store = new RdbStore(new engine.Database(bytes), file, bytes)
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
