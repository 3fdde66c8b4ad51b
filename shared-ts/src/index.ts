// @arkagent/core for Node: the core plus Node-only adapters that need no other package. Adapters
// with a dependency of their own have an entry each: @arkagent/core/mcp (the MCP SDK) and
// @arkagent/core/zod (zod), both optional peer dependencies.
export * from './core/index'
export { FileSegmentBackend } from './node/files/FileSegmentBackend'
export { FileStateStorage } from './node/files/FileStateStorage'
export type { FileStorageOptions } from './node/files/FileStateStorage'
export { LOCK_FILE } from './node/files/SessionLock'
export { FetchTransport, networkError } from './node/transport/FetchTransport'
export type { FetchTransportOptions } from './node/transport/FetchTransport'
export { abortSignalFromToken, tokenFromAbortSignal } from './node/transport/AbortSignalBridge'
export { migratePostgres, POSTGRES_SCHEMA_VERSION, postgresMigrations } from './node/postgres/PostgresMigrations'
export { PostgresSegmentBackend } from './node/postgres/PostgresSegmentBackend'
export { PostgresStateStorage } from './node/postgres/PostgresStateStorage'
export type { PgQueryable, PostgresStorageOptions } from './node/postgres/PostgresOptions'
