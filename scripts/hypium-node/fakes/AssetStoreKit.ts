// Node fake of @kit.AssetStoreKit's asset module (API 12 behaviour, js-apis-asset): one store per
// app, items keyed by ALIAS. add() needs SECRET (1-1024 bytes) and ALIAS (1-256 bytes) and rejects
// an existing alias with 24000003 unless CONFLICT_RESOLUTION is OVERWRITE; query() rejects with
// 24000002 when nothing matches and returns SECRET only with RETURN_TYPE ALL; remove() and
// update() reject with 24000002 for a missing alias. Malformed arguments throw BusinessError 401
// synchronously, as the NAPI layer does. As the service does (security_asset 5.0.0,
// services/core_service/src/operations/operation_query.rs:184-188), a query with RETURN_TYPE ALL
// but no ALIAS is refused with 24000017 ("Batch secret query is not supported"), and (operation_add.rs:
// 142-150) an add that carries IS_PERSISTENT at all, true or false, needs the permission
// ohos.permission.STORE_PERSISTENT_DATA, which the test app does not hold: 201.
import { FakeBusinessError } from './BusinessError'

enum TagType { BOOL = 0x01 << 28, NUMBER = 0x02 << 28, BYTES = 0x03 << 28 }
enum Tag {
  SECRET = TagType.BYTES | 0x01, ALIAS = TagType.BYTES | 0x02, ACCESSIBILITY = TagType.NUMBER | 0x03,
  REQUIRE_PASSWORD_SET = TagType.BOOL | 0x04, AUTH_TYPE = TagType.NUMBER | 0x05, SYNC_TYPE = TagType.NUMBER | 0x10,
  IS_PERSISTENT = TagType.BOOL | 0x11, DATA_LABEL_NORMAL_1 = TagType.BYTES | 0x30, RETURN_TYPE = TagType.NUMBER | 0x40,
  RETURN_LIMIT = TagType.NUMBER | 0x41, CONFLICT_RESOLUTION = TagType.NUMBER | 0x44,
}
enum Accessibility { DEVICE_POWERED_ON = 0, DEVICE_FIRST_UNLOCKED = 1, DEVICE_UNLOCKED = 2 }
enum ReturnType { ALL = 0, ATTRIBUTES = 1 }
enum ConflictResolution { OVERWRITE = 0, THROW_ERROR = 1 }
enum ErrorCode {
  PERMISSION_DENIED = 201, NOT_SYSTEM_APPLICATION = 202, INVALID_ARGUMENT = 401, SERVICE_UNAVAILABLE = 24000001,
  NOT_FOUND = 24000002, DUPLICATED = 24000003, ACCESS_DENIED = 24000004, STATUS_MISMATCH = 24000005,
  OUT_OF_MEMORY = 24000006, DATA_CORRUPTED = 24000007, DATABASE_ERROR = 24000008, CRYPTO_ERROR = 24000009,
  IPC_ERROR = 24000010, BMS_ERROR = 24000011, ACCOUNT_ERROR = 24000012, ACCESS_TOKEN_ERROR = 24000013,
  FILE_OPERATION_ERROR = 24000014, GET_SYSTEM_TIME_ERROR = 24000015, LIMIT_EXCEEDED = 24000016, UNSUPPORTED = 24000017,
}
type Value = boolean | number | Uint8Array
type AssetMap = Map<Tag, Value>

const items = new Map<string, AssetMap>()
/** The permissions the test app holds (its module.json5 requests none of the asset ones). */
const GRANTED = new Set<string>()

function invalid(message: string): FakeBusinessError {
  return new FakeBusinessError(ErrorCode.INVALID_ARGUMENT, `Parameter error. ${message}`)
}

function mapOf(value: unknown, what: string): AssetMap {
  if (!(value instanceof Map)) throw invalid(`${what} must be an AssetMap.`)
  for (const [tag, v] of value) {
    const type = (tag as number) & (0x0f << 28)
    const ok = type === TagType.BYTES ? v instanceof Uint8Array : type === TagType.NUMBER ? typeof v === 'number' :
      type === TagType.BOOL ? typeof v === 'boolean' : false
    if (!ok) throw invalid(`The value of tag ${tag} has the wrong type.`)
  }
  return value as AssetMap
}

function bytes(map: AssetMap, tag: Tag, name: string, max: number, required: boolean): Uint8Array | undefined {
  const v = map.get(tag)
  if (v === undefined) {
    if (required) throw invalid(`${name} is required.`)
    return undefined
  }
  const b = v as Uint8Array
  if (b.length < 1 || b.length > max) throw invalid(`${name} must be 1-${max} bytes.`)
  return b
}

const keyOf = (alias: Uint8Array): string => Buffer.from(alias).toString('hex')
const reject = (code: ErrorCode, message: string): Promise<never> => Promise.reject(new FakeBusinessError(code, message))

function add(attributes: AssetMap): Promise<void> {
  const map = mapOf(attributes, 'attributes')
  bytes(map, Tag.SECRET, 'SECRET', 1024, true)
  const alias = bytes(map, Tag.ALIAS, 'ALIAS', 256, true) as Uint8Array
  if (map.has(Tag.IS_PERSISTENT) && !GRANTED.has('ohos.permission.STORE_PERSISTENT_DATA')) {
    return reject(ErrorCode.PERMISSION_DENIED, 'The caller doesn\'t have the permission.')
  }
  const key = keyOf(alias)
  if (items.has(key) && map.get(Tag.CONFLICT_RESOLUTION) !== ConflictResolution.OVERWRITE) {
    return reject(ErrorCode.DUPLICATED, 'The asset already exists.')
  }
  const stored: AssetMap = new Map()
  for (const [tag, v] of map) if (tag !== Tag.CONFLICT_RESOLUTION) stored.set(tag, v instanceof Uint8Array ? new Uint8Array(v) : v)
  items.set(key, stored)
  return Promise.resolve()
}

function matching(query: AssetMap): Array<[string, AssetMap]> {
  const alias = bytes(query, Tag.ALIAS, 'ALIAS', 256, false)
  if (alias !== undefined) {
    const item = items.get(keyOf(alias))
    return item !== undefined ? [[keyOf(alias), item]] : []
  }
  return [...items.entries()]
}

function query(q: AssetMap): Promise<Array<AssetMap>> {
  const map = mapOf(q, 'query')
  const all = map.get(Tag.RETURN_TYPE) === ReturnType.ALL
  if (all && !map.has(Tag.ALIAS)) return reject(ErrorCode.UNSUPPORTED, 'The capability is not supported.')
  const found = matching(map)
  if (found.length === 0) return reject(ErrorCode.NOT_FOUND, 'The asset is not found.')
  return Promise.resolve(found.map(([, item]) => {
    const out: AssetMap = new Map()
    for (const [tag, v] of item) if (tag !== Tag.SECRET || all) out.set(tag, v instanceof Uint8Array ? new Uint8Array(v) : v)
    return out
  }))
}

function remove(q: AssetMap): Promise<void> {
  const found = matching(mapOf(q, 'query'))
  if (found.length === 0) return reject(ErrorCode.NOT_FOUND, 'The asset is not found.')
  for (const [key] of found) items.delete(key)
  return Promise.resolve()
}

function update(q: AssetMap, attributesToUpdate: AssetMap): Promise<void> {
  const map = mapOf(q, 'query')
  const changes = mapOf(attributesToUpdate, 'attributesToUpdate')
  const alias = bytes(map, Tag.ALIAS, 'ALIAS', 256, true) as Uint8Array
  if (changes.has(Tag.ALIAS)) throw invalid('ALIAS cannot be updated.')
  bytes(changes, Tag.SECRET, 'SECRET', 1024, false)
  const item = items.get(keyOf(alias))
  if (item === undefined) return reject(ErrorCode.NOT_FOUND, 'The asset is not found.')
  for (const [tag, v] of changes) item.set(tag, v instanceof Uint8Array ? new Uint8Array(v) : v)
  return Promise.resolve()
}

export const asset = {
  TagType, Tag, Accessibility, ReturnType, ConflictResolution, ErrorCode, add, query, remove, update,
}
