// @arkagent/core — the platform-neutral core (ArkTS-strict). Also synced into the HAR as .ets.

// errors
export { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from './errors/ArkAgentError'
export { Thrown } from './errors/Thrown'

// model
export { ContentPart, ContentPartType, PART_TYPES } from './model/ContentPart'
export { AgentMessage, MessageRole } from './model/AgentMessage'
export { ToolCall, preserveToolCallId } from './model/ToolCall'
export { ToolResult } from './model/ToolResult'
export { ToolConcurrency, ToolDefinition, ToolRiskLevel } from './model/ToolDefinition'
export { ModelRequest } from './model/ModelRequest'
export { OutputFormat } from './model/OutputFormat'
export { FinishReason, ModelResponse, Usage } from './model/ModelResponse'
export { ModelCheck, ModelProblem } from './model/ModelCheck'

// util
export { CancellationSource, CancellationToken } from './util/Cancellation'
export type { CancelListener } from './util/Cancellation'
export { delay, withTimeout } from './util/Delay'
export { ConfigCheck } from './util/ConfigCheck'
export { Ids } from './util/Ids'
export { HostYield } from './host/HostYield'
export { fnv1a, splitByUtf8Bytes, utf8Length } from './util/Text'

// events
export { BusEvent, CustomEvent } from './events/BusEvent'
export { ControllerEventTypes } from './events/ControllerEventTypes'
export { EventBus } from './events/EventBus'
export type { EventListener, RequestHandler } from './events/EventBus'
export {
  AgentCancelledEvent,
  AgentFailedEvent,
  AgentResumedEvent,
  AgentStartedEvent,
  AgentSuccessEvent,
  AgentSuspendedEvent,
  HookDiagnosticEvent,
  LlmAfterEvent,
  LlmBeforeEvent,
  LlmChunkEvent,
  LoopAction,
  LoopDetectedEvent,
  PersistEvent,
  PlanReviewRequiredEvent,
  PlanReviewResolvedEvent,
  SessionRestoredEvent,
  ToolAfterEvent,
  ToolBeforeEvent
} from './events/AgentEvents'
export {
  CompactionWarningEvent,
  ContextCompactedEvent
} from './events/CompactionEvents'

// hooks
export { AgentHook } from './hook/AgentHook'
export { AgentHookPipeline, DEFAULT_HOOK_TIMEOUT_MS } from './hook/AgentHookPipeline'
export { HookWatchdog } from './hook/HookWatchdog'
export type { WatchedCall } from './hook/HookWatchdog'
export type { ChunkHookContinuation } from './hook/ChunkHookPass'
export { HookResultCheck } from './hook/HookResultCheck'
export { HookGuard } from './hook/HookGuard'
export {
  AfterRunHookContext,
  BeforeRunHookContext,
  CompactionHookContext,
  HookContextBase,
  ModelCallHookContext,
  ModelChunkHookContext,
  ModelResponseHookContext,
  StatePersistenceHookContext,
  StateView,
  ToolCallHookContext,
  ToolResultHookContext,
  TurnCompletionHookContext
} from './hook/HookContexts'
export type { StateSupplier, ToolLookup } from './hook/HookContexts'
export { CallOrigin } from './hook/HookContexts'
export {
  BeforeRunHookAction,
  BeforeRunHookResult,
  CompactionHookAction,
  CompactionHookResult,
  ModelCallHookAction,
  ModelCallHookResult,
  ModelChunkHookAction,
  ModelChunkHookResult,
  ModelResponseHookAction,
  ModelResponseHookResult,
  StatePersistenceHookAction,
  StatePersistenceHookResult,
  ToolCallHookAction,
  ToolCallHookResult,
  ToolResultHookAction,
  ToolResultHookResult,
  TurnCompletionHookAction,
  TurnCompletionHookResult
} from './hook/HookResults'

// controller
export { AgentController } from './controller/AgentController'
export type { ApprovalHost } from './controller/ApprovalHost'

// state
export { AgentState, SessionStatus, StoredError } from './state/AgentState'
export {
  ApprovalDecision,
  ApprovalDecisionResult,
  DecisionChannel,
  PendingApprovalBatch,
  PendingApprovalItem
} from './state/PendingApproval'
export { ApprovalGrant, GrantScope, GrantVerdict } from './state/ApprovalGrant'
export type { ApprovalDecisionOptions } from './state/ApprovalDecisionOptions'
export { GrantRevokeResult } from './controller/ApprovalHost'
export { ApprovalGrants } from './approvals/ApprovalGrants'
export type { AppGrantStore } from './approvals/ApprovalGrants'
export { PathPrefixMatcher } from './approvals/GrantMatcher'
export type { GrantMatcher } from './approvals/GrantMatcher'
export { StorageGrantStore } from './storage/StorageGrantStore'
export {
  ApprovalDecidedEvent,
  ApprovalGrantEvent,
  ApprovalRequiredEvent,
  ApprovalResolvedEvent,
  GrantChange
} from './events/ApprovalEvents'
export { PendingPlanReview, PlanReviewDecision, PlanReviewDecisionResult } from './state/PendingPlanReview'
export { ToolBatchEntry, ToolBatchProgress } from './state/ToolBatchProgress'
export { StateCodec } from './state/StateCodec'
export { JsonFields } from './state/JsonFields'

// storage
export { LoadedState, SaveReport } from './storage/StateStorage'
export type { StateStorage } from './storage/StateStorage'
export type { SegmentBackend } from './storage/SegmentBackend'
export { SegmentedStateStorage, SegmentedStorageOptions, StorageOperation } from './storage/SegmentedStateStorage'
export { MemorySegmentBackend, MemoryStateStorage } from './storage/MemoryStateStorage'

// tools
export { AgentTool, FunctionTool, ToolExecutionContext } from './tools/AgentTool'
export type { ToolHandler } from './tools/AgentTool'
export type { ToolAdmission } from './tools/ToolRegistry'
export { DEFAULT_TOOL_TIMEOUT_MS, ToolRegistry } from './tools/ToolRegistry'
export { ToolOutput } from './tools/ToolOutput'
export { SchemaValidator } from './tools/SchemaValidator'

// JSON Schema (tool arguments): draft 2020-12 and draft-07, local $ref, linear-time patterns
export { JsonSchema } from './schema/JsonSchema'
export { OutputSchema } from './output/OutputSchema'
export { OutputFault, OutputVerdict } from './output/OutputVerdict'
export { OutputText } from './output/OutputText'
export { PartialJson } from './output/PartialJson'
export { OutputInstruction } from './output/OutputInstruction'
export { OutputPartialEvent } from './events/OutputPartialEvent'
export { JsonSchemaDialect, JsonSchemaOptions } from './schema/JsonSchemaOptions'
export { JsonSchemaError } from './schema/JsonSchemaError'

// approvals
export { ApprovalPolicy } from './approvals/ApprovalPolicy'
export { ApprovalPolicyHook } from './approvals/ApprovalPolicyHook'

// providers and transport
export { StreamingEvent, StreamingEventType } from './provider/StreamingEvent'
export type { ModelProvider, ModelStreamSink } from './provider/ModelProvider'
export { ScriptedProvider, ScriptedTurn } from './provider/ScriptedProvider'
export type { ScriptFunction } from './provider/ScriptedProvider'
export { OpenAICompatibleProvider } from './provider/OpenAICompatibleProvider'
export type { OpenAICompatibleOptions, PresetProviderOptions } from './provider/ProviderOptions'
export { ProviderPreset, ProviderPresets } from './provider/ProviderPresets'
export { RetryPolicy } from './provider/RetryPolicy'
export { ApiKey } from './provider/ApiKey'
export { SecretVault } from './secrets/SecretVault'
export { Redactor, StreamRedactor } from './redaction/Redactor'
export { SseEvent, SseParser } from './provider/SseParser'
export type { SseEventHandler } from './provider/SseParser'
export { httpError, parseRetryAfter } from './provider/HttpErrorMapper'
export { decodeChunk, encodeChatRequest, WireChoiceDelta, WireChunk, WireRequestOptions, WireToolCallDelta } from './provider/OpenAIWireFormat'
export { ErrorRule, VendorErrorBody } from './provider/VendorErrors'
export { ModelFamily, OutputMode, ReasoningEcho, ThinkingStyle, TokenLimitParam, UsageLocation, WireProfile } from './provider/WireProfile'
export { HttpRequest, HttpResponseHead } from './transport/HttpTransport'
export type { HttpStreamHandler, HttpTransport } from './transport/HttpTransport'
export { HttpResponseReader } from './transport/HttpResponseReader'
export { SystemClock } from './transport/Clock'
export type { Clock } from './transport/Clock'

// loop detection
export { LoopCheck, LoopKind, LoopVerdict } from './loop/LoopDetectorPort'
export type { LoopDetectorPort } from './loop/LoopDetectorPort'
export { LoopDetector, LoopDetectorStats } from './loop/LoopDetector'
export { LoopDetectorOptions, LoopDiagnosisOptions } from './loop/LoopDetectorOptions'
export { canonicalJson } from './loop/CanonicalJson'
export { hash53 } from './loop/StringHash'
export { DiagnosisAnswer, parseDiagnosisAnswer } from './loop/LoopDiagnosis'
export { UserRequest } from './loop/UserRequest'

// runtime
export { AgentRuntime } from './runtime/AgentRuntime'
export { McpHttpClient } from './mcp/McpHttpClient'
export { McpHttpTool } from './mcp/McpHttpTool'
export { McpCallResult, McpToolInfo } from './mcp/McpToolInfo'
export { McpSkippedTool } from './mcp/McpSkippedTool'
export { McpContent } from './mcp/McpContent'
export { McpNames } from './mcp/McpNames'
export type { McpHeaderProvider, McpHttpClientOptions } from './mcp/McpHttpClientOptions'
export type { McpToolFilter } from './mcp/McpToolRules'
export { McpClientFeatures, McpRoot } from './mcp/McpClientFeatures'
export type { McpElicitationHandler, McpSamplingHandler } from './mcp/McpClientFeatures'
export { McpElicitationAction, McpElicitationAnswer, McpElicitationRequest } from './mcp/McpElicitation'
export { McpSamplingAnswer, McpSamplingRequest } from './mcp/McpSampling'
export { McpRpcError, McpServerRequests } from './mcp/McpServerRequests'
export {
  ElicitationAction, ElicitationClosedBy, ElicitationDecisionResult, ElicitationKind, PendingElicitation
} from './state/PendingElicitation'
export { ElicitationRequiredEvent, ElicitationResolvedEvent, SamplingCompletedEvent, SamplingOutcome } from './events/ElicitationEvents'
export { ElicitationPersistReason } from './runtime/ElicitationFlow'
export { SamplingPolicy } from './elicitation/SamplingPolicy'
export { ServerRequests } from './elicitation/ServerRequests'
export type { ServerRequestHost } from './elicitation/ServerRequestHost'
export { Agent, createAgent } from './runtime/CreateAgent'
export type { AgentOptions } from './runtime/CreateAgent'
export { AgentRuntimeConfig } from './runtime/AgentRuntimeConfig'
export { CallbackObserver, RunOutcome, RunStatus, StopReason } from './runtime/RunOutcome'
export type { AgentEventCallback, AgentObserver } from './runtime/RunOutcome'
export { RestoreKind, RestoreReport } from './runtime/SessionRestorer'
export { PersistReason } from './runtime/StatePersister'
export { SUBMIT_PLAN_TOOL } from './runtime/PlanReviewFlow'
export { CompactionOptions } from './context/CompactionOptions'
export { ContextWindow, SUMMARY_HEADER } from './context/ContextWindow'
export { Summarizer, SummaryRequest } from './context/Summarizer'
export { TokenEstimator } from './context/TokenEstimator'
export { CompactionCheckpoint } from './state/CompactionCheckpoint'
