// @ohos.data.preferences (API 12). A Preferences instance holds the whole file in memory:
// put/delete change memory only, flush() writes the file. Limits (API 12): key <= MAX_KEY_LENGTH
// (1024) bytes, value <= MAX_VALUE_LENGTH (16 MB); API 9-11: 80 and 8192. The file name is at
// most 255 bytes and must not contain '/'. Parameter errors throw BusinessError 401. The @throws tags
// are the SDK's (API 11+: 401 and 15500000 on every call used here), so the linter reports a call
// outside a try as the real compiler does (TS28040 "Function may throw exceptions").
import { AsyncCallback, Callback } from './@ohos.base';
import Context from './application/BaseContext';

declare namespace preferences {
  type ValueType = number | string | boolean | Array<number> | Array<string> | Array<boolean> | Uint8Array | object | bigint;

  const MAX_KEY_LENGTH: number;
  const MAX_VALUE_LENGTH: number;

  interface Options {
    name: string;
    dataGroupId?: string | null | undefined;
  }

  /** @throws { BusinessError } 401 - Parameter error.
   * @throws { BusinessError } 15500000 - Inner error. */
  function getPreferences(context: Context, name: string): Promise<Preferences>;
  /** @throws { BusinessError } 401 - Parameter error.
   * @throws { BusinessError } 15500000 - Inner error. */
  function getPreferences(context: Context, options: Options): Promise<Preferences>;
  /** @throws { BusinessError } 401 - Parameter error.
   * @throws { BusinessError } 15500000 - Inner error. */
  function getPreferences(context: Context, options: Options, callback: AsyncCallback<Preferences>): void;
  /** @throws { BusinessError } 401 - Parameter error.
   * @throws { BusinessError } 15500000 - Inner error. */
  function getPreferencesSync(context: Context, options: Options): Preferences;
  /** @throws { BusinessError } 401 - Parameter error.
   * @throws { BusinessError } 15500000 - Inner error. */
  function deletePreferences(context: Context, name: string): Promise<void>;
  /** @throws { BusinessError } 401 - Parameter error.
   * @throws { BusinessError } 15500000 - Inner error. */
  function deletePreferences(context: Context, options: Options): Promise<void>;
  /** @throws { BusinessError } 401 - Parameter error.
   * @throws { BusinessError } 15500000 - Inner error. */
  function removePreferencesFromCache(context: Context, name: string): Promise<void>;
  /** @throws { BusinessError } 401 - Parameter error.
   * @throws { BusinessError } 15500000 - Inner error. */
  function removePreferencesFromCache(context: Context, options: Options): Promise<void>;
  /** @throws { BusinessError } 401 - Parameter error.
   * @throws { BusinessError } 15500000 - Inner error. */
  function removePreferencesFromCacheSync(context: Context, options: Options): void;

  interface Preferences {
    /** @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 15500000 - Inner error. */
    get(key: string, defValue: ValueType): Promise<ValueType>;
    /** @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 15500000 - Inner error. */
    getSync(key: string, defValue: ValueType): ValueType;
    /** @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 15500000 - Inner error. */
    getAll(): Promise<Object>;
    /** @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 15500000 - Inner error. */
    getAllSync(): Object;
    /** @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 15500000 - Inner error. */
    has(key: string): Promise<boolean>;
    /** @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 15500000 - Inner error. */
    hasSync(key: string): boolean;
    /** @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 15500000 - Inner error. */
    put(key: string, value: ValueType): Promise<void>;
    /** @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 15500000 - Inner error. */
    putSync(key: string, value: ValueType): void;
    /** @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 15500000 - Inner error. */
    delete(key: string): Promise<void>;
    /** @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 15500000 - Inner error. */
    deleteSync(key: string): void;
    /** @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 15500000 - Inner error. */
    clear(): Promise<void>;
    /** @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 15500000 - Inner error. */
    clearSync(): void;
    /** @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 15500000 - Inner error. */
    flush(): Promise<void>;
    /** @throws { BusinessError } 401 - Parameter error.
     * @throws { BusinessError } 15500000 - Inner error. */
    flush(callback: AsyncCallback<void>): void;
    on(type: 'change', callback: Callback<string>): void;
    off(type: 'change', callback?: Callback<string>): void;
  }
}

export default preferences;
