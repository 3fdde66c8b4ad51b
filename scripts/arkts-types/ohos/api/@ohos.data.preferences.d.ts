// @ohos.data.preferences (API 12). A Preferences instance holds the whole file in memory:
// put/delete change memory only, flush() writes the file. Limits (API 12): key <= MAX_KEY_LENGTH
// (1024) bytes, value <= MAX_VALUE_LENGTH (16 MB); API 9-11: 80 and 8192. The file name is at
// most 255 bytes and must not contain '/'. Parameter errors throw BusinessError 401.
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

  function getPreferences(context: Context, name: string): Promise<Preferences>;
  function getPreferences(context: Context, options: Options): Promise<Preferences>;
  function getPreferences(context: Context, options: Options, callback: AsyncCallback<Preferences>): void;
  function getPreferencesSync(context: Context, options: Options): Preferences;
  function deletePreferences(context: Context, name: string): Promise<void>;
  function deletePreferences(context: Context, options: Options): Promise<void>;
  function removePreferencesFromCache(context: Context, name: string): Promise<void>;
  function removePreferencesFromCache(context: Context, options: Options): Promise<void>;
  function removePreferencesFromCacheSync(context: Context, options: Options): void;

  interface Preferences {
    get(key: string, defValue: ValueType): Promise<ValueType>;
    getSync(key: string, defValue: ValueType): ValueType;
    getAll(): Promise<Object>;
    getAllSync(): Object;
    has(key: string): Promise<boolean>;
    hasSync(key: string): boolean;
    put(key: string, value: ValueType): Promise<void>;
    putSync(key: string, value: ValueType): void;
    delete(key: string): Promise<void>;
    deleteSync(key: string): void;
    clear(): Promise<void>;
    clearSync(): void;
    flush(): Promise<void>;
    flush(callback: AsyncCallback<void>): void;
    on(type: 'change', callback: Callback<string>): void;
    off(type: 'change', callback?: Callback<string>): void;
  }
}

export default preferences;
