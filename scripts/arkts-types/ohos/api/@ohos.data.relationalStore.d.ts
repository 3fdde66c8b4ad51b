// @ohos.data.relationalStore (API 12): the members ArkAgent uses. SQLite underneath, WAL journal
// with FULL sync by default: a resolved executeSql is committed. The reference recommends rows of at
// most 2 MB: a larger row is inserted but cannot be read back. Errors are BusinessError
// (401 bad parameter, 14800000 inner error, 14800011 corrupted database, 14800014 closed store, ...);
// synchronous throws carry the code as a string (napi_throw_error), rejections as a number.
// querySql resolves even when the query fails: then rowCount is -1 and goToFirstRow() is false.
//
// The @throws tags are those of interface_sdk-js at OpenHarmony-v5.0.0-Release
// (api/@ohos.data.relationalStore.d.ts), abridged to their codes: ets-loader warns (TS28040) about a
// call of a declaration with @throws that no try/catch surrounds. Like ets-loader for SDK files,
// 401-only tags are not mirrored (ohos-typescript's checker skips them in the SDK).
import Context from './application/BaseContext';

declare namespace relationalStore {
  type ValueType = null | number | string | boolean | Uint8Array;

  enum SecurityLevel {
    S1 = 1,
    S2 = 2,
    S3 = 3,
    S4 = 4
  }

  interface StoreConfig {
    name: string;
    securityLevel: SecurityLevel;
  }

  /**
   * @throws { BusinessError } 401 - Parameter error.
   * @throws { BusinessError } 14800000 - Inner error.
   * @throws { BusinessError } 14800010 - Invalid database path.
   * @throws { BusinessError } 14800011 - Database corrupted.
   * @throws { BusinessError } 14801001 - Only supported in stage mode.
   * @throws { BusinessError } 14801002 - The data group id is not valid.
   * @throws { BusinessError } 14800017 - Config changed.
   * @throws { BusinessError } 14800021 - SQLite: Generic error.
   * @throws { BusinessError } 14800027 - SQLite: Attempt to write a readonly database.
   * @throws { BusinessError } 14800028 - SQLite: Some kind of disk I/O error occurred.
   * @throws { BusinessError } 14800029 - SQLite: The database is full.
   * @throws { BusinessError } 14800030 - SQLite: Unable to open the database file.
   */
  function getRdbStore(context: Context, config: StoreConfig): Promise<RdbStore>;
  /**
   * @throws { BusinessError } 401 - Parameter error.
   * @throws { BusinessError } 14800000 - Inner error.
   * @throws { BusinessError } 14800010 - Invalid database path.
   */
  function deleteRdbStore(context: Context, name: string): Promise<void>;

  interface RdbStore {
    /**
     * @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 801 - Capability not supported the sql(attach,begin,commit,rollback etc.).
     * @throws { BusinessError } 14800000 - Inner error.
     * @throws { BusinessError } 14800011 - Database corrupted.
     * @throws { BusinessError } 14800014 - Already closed.
     * @throws { BusinessError } 14800015 - The database does not respond.
     * @throws { BusinessError } 14800021 - SQLite: Generic error.
     * @throws { BusinessError } 14800024 - SQLite: The database file is locked.
     * @throws { BusinessError } 14800028 - SQLite: Some kind of disk I/O error occurred.
     * @throws { BusinessError } 14800029 - SQLite: The database is full.
     * @throws { BusinessError } 14800047 - The WAL file size exceeds the default limit.
     */
    executeSql(sql: string, bindArgs?: Array<ValueType>): Promise<void>;
    /**
     * @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 14800000 - Inner error.
     * @throws { BusinessError } 14800014 - Already closed.
     * @throws { BusinessError } 14800015 - The database does not respond.
     */
    querySql(sql: string, bindArgs?: Array<ValueType>): Promise<ResultSet>;
    /**
     * Not for concurrent use: on a device the transaction is opened on the store's one writer
     * connection, so every other write of the process runs inside it; a nested call becomes a
     * savepoint whose commit() is a no-op.
     * @throws { BusinessError } 401 - Parameter error. The store must not be nullptr.
     * @throws { BusinessError } 14800000 - Inner error.
     * @throws { BusinessError } 14800011 - Database corrupted.
     * @throws { BusinessError } 14800014 - Already closed.
     * @throws { BusinessError } 14800015 - The database does not respond.
     * @throws { BusinessError } 14800024 - SQLite: The database file is locked.
     */
    beginTransaction(): void;
    /**
     * @throws { BusinessError } 401 - Parameter error. The store must not be nullptr.
     * @throws { BusinessError } 14800000 - Inner error.
     * @throws { BusinessError } 14800011 - Database corrupted.
     * @throws { BusinessError } 14800014 - Already closed.
     * @throws { BusinessError } 14800015 - The database does not respond.
     */
    commit(): void;
    /**
     * @throws { BusinessError } 401 - Parameter error. The store must not be nullptr.
     * @throws { BusinessError } 14800000 - Inner error.
     * @throws { BusinessError } 14800011 - Database corrupted.
     * @throws { BusinessError } 14800014 - Already closed.
     * @throws { BusinessError } 14800015 - The database does not respond.
     */
    rollBack(): void;
    /**
     * @throws { BusinessError } 401 - Parameter error. The store must not be nullptr.
     * @throws { BusinessError } 14800000 - Inner error.
     */
    close(): Promise<void>;
  }

  interface ResultSet {
    /** -1 when the query failed. */
    readonly rowCount: number;
    readonly columnCount: number;
    /**
     * @throws { BusinessError } 14800000 - Inner error.
     * @throws { BusinessError } 14800011 - Database corrupted.
     * @throws { BusinessError } 14800012 - Row out of bounds.
     * @throws { BusinessError } 14800014 - Already closed.
     * @throws { BusinessError } 14800019 - The SQL must be a query statement.
     * @throws { BusinessError } 14800021 - SQLite: Generic error.
     * @throws { BusinessError } 14800028 - SQLite: Some kind of disk I/O error occurred.
     */
    goToFirstRow(): boolean;
    /**
     * @throws { BusinessError } 14800000 - Inner error.
     * @throws { BusinessError } 14800011 - Database corrupted.
     * @throws { BusinessError } 14800012 - Row out of bounds.
     * @throws { BusinessError } 14800014 - Already closed.
     * @throws { BusinessError } 14800019 - The SQL must be a query statement.
     * @throws { BusinessError } 14800021 - SQLite: Generic error.
     * @throws { BusinessError } 14800028 - SQLite: Some kind of disk I/O error occurred.
     */
    goToNextRow(): boolean;
    /**
     * @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 14800000 - Inner error.
     * @throws { BusinessError } 14800013 - Column out of bounds.
     * @throws { BusinessError } 14800014 - Already closed.
     */
    getColumnIndex(columnName: string): number;
    /**
     * @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 14800000 - Inner error.
     * @throws { BusinessError } 14800011 - Database corrupted.
     * @throws { BusinessError } 14800012 - Row out of bounds.
     * @throws { BusinessError } 14800013 - Column out of bounds.
     * @throws { BusinessError } 14800014 - Already closed.
     * @throws { BusinessError } 14800021 - SQLite: Generic error.
     * @throws { BusinessError } 14800028 - SQLite: Some kind of disk I/O error occurred.
     */
    getString(columnIndex: number): string;
    /**
     * @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 14800000 - Inner error.
     * @throws { BusinessError } 14800012 - Row out of bounds.
     * @throws { BusinessError } 14800013 - Column out of bounds.
     * @throws { BusinessError } 14800014 - Already closed.
     */
    getLong(columnIndex: number): number;
    /**
     * @throws { BusinessError } 14800000 - Inner error.
     * @throws { BusinessError } 14800012 - Row out of bounds.
     */
    close(): void;
  }
}

export default relationalStore;
