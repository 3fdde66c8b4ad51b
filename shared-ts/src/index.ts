// @arkagent/core for Node: the core plus Node-only adapters.
export * from './core/index'
export { FileSegmentBackend, FileStateStorage, LOCK_FILE } from './node/FileStateStorage'
export type { FileStorageOptions } from './node/FileStateStorage'
export { FetchTransport, networkError } from './node/FetchTransport'
export type { FetchTransportOptions } from './node/FetchTransport'
export { abortSignalFromToken, tokenFromAbortSignal } from './node/AbortSignalBridge'
export { formatZodIssue, ZodTool, zodTool, type ZodToolOptions } from './node/zodTool'
