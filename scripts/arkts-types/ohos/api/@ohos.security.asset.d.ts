// @ohos.security.asset (API 11+, Asset Store Kit): the members ArkAgent uses.
declare namespace asset {
  type Value = boolean | number | Uint8Array;
  type AssetMap = Map<Tag, Value>;

  function add(attributes: AssetMap): Promise<void>;
  function remove(query: AssetMap): Promise<void>;
  function update(query: AssetMap, attributesToUpdate: AssetMap): Promise<void>;
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
