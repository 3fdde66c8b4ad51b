// @ohos.security.asset (API 11+, Asset Store Kit): the members ArkAgent uses. The @throws tags are
// those of interface_sdk-js at OpenHarmony-v5.0.0-Release (api/@ohos.security.asset.d.ts), abridged
// to their codes: ets-loader warns (TS28040) about a call no try/catch surrounds. The service
// refuses a query with RETURN_TYPE ALL and no ALIAS (24000017), and an add carrying IS_PERSISTENT
// without ohos.permission.STORE_PERSISTENT_DATA (201).
declare namespace asset {
  type Value = boolean | number | Uint8Array;
  type AssetMap = Map<Tag, Value>;

  /**
   * @throws { BusinessError } 201 - The caller doesn't have the permission.
   * @throws { BusinessError } 401 - Parameter error.
   * @throws { BusinessError } 24000001 - The ASSET service is unavailable.
   * @throws { BusinessError } 24000003 - The asset already exists.
   * @throws { BusinessError } 24000005 - The screen lock status does not match.
   * @throws { BusinessError } 24000006 - Insufficient memory.
   * @throws { BusinessError } 24000007 - The asset is corrupted.
   * @throws { BusinessError } 24000008 - The database operation failed.
   * @throws { BusinessError } 24000009 - The cryptography operation failed.
   * @throws { BusinessError } 24000010 - IPC failed.
   * @throws { BusinessError } 24000011 - Calling the Bundle Manager service failed.
   * @throws { BusinessError } 24000012 - Calling the OS Account service failed.
   * @throws { BusinessError } 24000013 - Calling the Access Token service failed.
   * @throws { BusinessError } 24000014 - The file operation failed.
   * @throws { BusinessError } 24000015 - Getting the system time failed.
   */
  function add(attributes: AssetMap): Promise<void>;
  /**
   * @throws { BusinessError } 401 - Parameter error.
   * @throws { BusinessError } 24000001 - The ASSET service is unavailable.
   * @throws { BusinessError } 24000002 - The asset is not found.
   * @throws { BusinessError } 24000006 - Insufficient memory.
   * @throws { BusinessError } 24000007 - The asset is corrupted.
   * @throws { BusinessError } 24000008 - The database operation failed.
   * @throws { BusinessError } 24000010 - IPC failed.
   * @throws { BusinessError } 24000011 - Calling the Bundle Manager service failed.
   * @throws { BusinessError } 24000012 - Calling the OS Account service failed.
   * @throws { BusinessError } 24000013 - Calling the Access Token service failed.
   * @throws { BusinessError } 24000015 - Getting the system time failed.
   */
  function remove(query: AssetMap): Promise<void>;
  /**
   * @throws { BusinessError } 401 - Parameter error.
   * @throws { BusinessError } 24000001 - The ASSET service is unavailable.
   * @throws { BusinessError } 24000002 - The asset is not found.
   * @throws { BusinessError } 24000003 - The asset already exists.
   * @throws { BusinessError } 24000005 - The screen lock status does not match.
   * @throws { BusinessError } 24000006 - Insufficient memory.
   * @throws { BusinessError } 24000007 - The asset is corrupted.
   * @throws { BusinessError } 24000008 - The database operation failed.
   * @throws { BusinessError } 24000009 - The cryptography operation failed.
   * @throws { BusinessError } 24000010 - IPC failed.
   */
  function update(query: AssetMap, attributesToUpdate: AssetMap): Promise<void>;
  /**
   * @throws { BusinessError } 401 - Parameter error.
   * @throws { BusinessError } 24000001 - The ASSET service is unavailable.
   * @throws { BusinessError } 24000002 - The asset is not found.
   * @throws { BusinessError } 24000004 - Access denied.
   * @throws { BusinessError } 24000005 - The screen lock status does not match.
   * @throws { BusinessError } 24000006 - Insufficient memory.
   * @throws { BusinessError } 24000007 - The asset is corrupted.
   * @throws { BusinessError } 24000008 - The database operation failed.
   * @throws { BusinessError } 24000009 - The cryptography operation failed.
   * @throws { BusinessError } 24000010 - IPC failed.
   * @throws { BusinessError } 24000017 - The capability is not supported.
   */
  function query(query: AssetMap): Promise<Array<AssetMap>>;

  enum TagType {
    BOOL = 0x01 << 28,
    NUMBER = 0x02 << 28,
    BYTES = 0x03 << 28
  }

  enum Tag {
    SECRET = TagType.BYTES | 0x01,
    ALIAS = TagType.BYTES | 0x02,
    ACCESSIBILITY = TagType.NUMBER | 0x03,
    REQUIRE_PASSWORD_SET = TagType.BOOL | 0x04,
    AUTH_TYPE = TagType.NUMBER | 0x05,
    SYNC_TYPE = TagType.NUMBER | 0x10,
    IS_PERSISTENT = TagType.BOOL | 0x11,
    DATA_LABEL_NORMAL_1 = TagType.BYTES | 0x30,
    RETURN_TYPE = TagType.NUMBER | 0x40,
    RETURN_LIMIT = TagType.NUMBER | 0x41,
    CONFLICT_RESOLUTION = TagType.NUMBER | 0x44
  }

  enum Accessibility {
    DEVICE_POWERED_ON = 0,
    DEVICE_FIRST_UNLOCKED = 1,
    DEVICE_UNLOCKED = 2
  }

  enum ReturnType {
    ALL = 0,
    ATTRIBUTES = 1
  }

  enum ConflictResolution {
    OVERWRITE = 0,
    THROW_ERROR = 1
  }

  enum ErrorCode {
    PERMISSION_DENIED = 201,
    NOT_SYSTEM_APPLICATION = 202,
    INVALID_ARGUMENT = 401,
    SERVICE_UNAVAILABLE = 24000001,
    NOT_FOUND = 24000002,
    DUPLICATED = 24000003,
    ACCESS_DENIED = 24000004,
    STATUS_MISMATCH = 24000005,
    OUT_OF_MEMORY = 24000006,
    DATA_CORRUPTED = 24000007,
    DATABASE_ERROR = 24000008,
    CRYPTO_ERROR = 24000009,
    IPC_ERROR = 24000010,
    BMS_ERROR = 24000011,
    ACCOUNT_ERROR = 24000012,
    ACCESS_TOKEN_ERROR = 24000013,
    FILE_OPERATION_ERROR = 24000014,
    GET_SYSTEM_TIME_ERROR = 24000015,
    LIMIT_EXCEEDED = 24000016,
    UNSUPPORTED = 24000017
  }
}

export default asset;
