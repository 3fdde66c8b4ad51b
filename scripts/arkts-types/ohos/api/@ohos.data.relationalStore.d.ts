// @ohos.data.relationalStore (API 12): the members ArkAgent uses. SQLite underneath, WAL journal
// with FULL sync by default: a resolved executeSql is durable. The reference recommends rows of at
// most 2 MB: a larger row is inserted but cannot be read back. Errors are BusinessError
// (401 bad parameter, 14800000 inner error, 14800011 corrupted database, 14800014 closed store, ...).
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

  function getRdbStore(context: Context, config: StoreConfig): Promise<RdbStore>;
  function deleteRdbStore(context: Context, name: string): Promise<void>;

  interface RdbStore {
    executeSql(sql: string, bindArgs?: Array<ValueType>): Promise<void>;
    querySql(sql: string, bindArgs?: Array<ValueType>): Promise<ResultSet>;
    beginTransaction(): void;
    commit(): void;
    rollBack(): void;
    close(): Promise<void>;
  }

  interface ResultSet {
    readonly rowCount: number;
    readonly columnCount: number;
    goToFirstRow(): boolean;
    goToNextRow(): boolean;
    getColumnIndex(columnName: string): number;
    getString(columnIndex: number): string;
    getLong(columnIndex: number): number;
    close(): void;
  }
}

export default relationalStore;
