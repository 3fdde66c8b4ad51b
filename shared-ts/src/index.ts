// @arkagent/core for Node: the core plus Node-only adapters.
export * from './core/index'
export { FileSegmentBackend, FileStateStorage, LOCK_FILE } from './node/FileStateStorage'
export type { FileStorageOptions } from './node/FileStateStorage'
export { FetchTransport, networkError } from './node/FetchTransport'
export type { FetchTransportOptions } from './node/FetchTransport'
export { McpTool, McpToolSource, resultText as mcpResultText, riskOf as mcpRiskOf } from './node/mcp/McpToolSource'
export type { McpServerSpec } from './node/mcp/McpToolSource'
export { abortSignalFromToken, tokenFromAbortSignal } from './node/AbortSignalBridge'
export { formatZodIssue, ZodTool, zodTool, type ZodToolOptions } from './node/zodTool'
export {
  migratePostgres, POSTGRES_SCHEMA_VERSION, postgresMigrations, PostgresSegmentBackend, PostgresStateStorage,
} from './node/PostgresStateStorage'
export type { PgQueryable, PostgresStorageOptions } from './node/PostgresStateStorage'
