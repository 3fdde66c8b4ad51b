import { SecretVault } from '../secrets/SecretVault'
import { Thrown } from './Thrown'

/** Which part of the system an error belongs to; the UI uses it to pick a message. */
export enum ErrorLayer {
  security = 'security',
  runtime = 'runtime',
  cancelled = 'cancelled',
  provider = 'provider',
  transport = 'transport',
  storage = 'storage',
  config = 'config',
  tool = 'tool'
}

/** Whether retrying the same operation can succeed. */
export enum ErrorRetryability {
  never = 'never',
  retryable = 'retryable',
  /** Retry only after something changed (a decision, a fixed config). */
  afterAction = 'after_action'
}

/** Every error code the runtime produces, as named constants. */
export class ErrorCodes {
  // security
  static readonly hookAbort: string = 'hook_abort'
  static readonly hookFailed: string = 'hook_failed'
  static readonly hookTimeout: string = 'hook_timeout'
  static readonly toolDenied: string = 'tool_denied'
  static readonly awaitingApproval: string = 'awaiting_approval'
  static readonly pendingApprovalBlocksInput: string = 'pending_approval_blocks_input'
  static readonly pendingPlanReviewBlocksInput: string = 'pending_plan_review_blocks_input'
  // runtime
  static readonly loopDetected: string = 'loop_detected'
  static readonly runInProgress: string = 'run_in_progress'
  static readonly approvalHostMissing: string = 'approval_host_missing'
  static readonly retryLimitExceeded: string = 'retry_limit_exceeded'
  static readonly maxTurns: string = 'max_turns'
  static readonly nothingToResume: string = 'nothing_to_resume'
  static readonly approvalUnknown: string = 'approval_unknown'
  static readonly approvalConsumed: string = 'approval_consumed'
  /**
   * An approval with edits that cannot count: the edited arguments do not match the tool's schema, a
   * beforeToolCall hook denied or rewrote the edited call, or a rename the app does not allow. The
   * item stays pending.
   */
  static readonly approvalEditRefused: string = 'approval_edit_refused'
  /** No remembered grant has that id (revokeGrant). */
  static readonly grantUnknown: string = 'grant_unknown'
  static readonly planReviewMissing: string = 'plan_review_missing'
  /** No elicitation (an MCP server's question or sampling request) has that id. */
  static readonly elicitationUnknown: string = 'elicitation_unknown'
  /** The elicitation was closed without the user: its server request ended, or the app restarted meanwhile. */
  static readonly elicitationClosed: string = 'elicitation_closed'
  /** An accepted answer does not match the requested schema: refused, the elicitation stays pending. */
  static readonly elicitationInvalid: string = 'elicitation_invalid'
  static readonly sessionLocked: string = 'session_locked'
  static readonly sessionNotResumable: string = 'session_not_resumable'
  /** A compaction's summary call passed `summaryTimeoutMs` (the compaction falls back to truncation). */
  static readonly summaryTimeout: string = 'summary_timeout'
  /** The final answer failed the output schema (not JSON, or invalid) after every repair turn (docs/structured-output.md). */
  static readonly outputInvalid: string = 'output_invalid'
  // cancelled
  static readonly cancelled: string = 'cancelled'
  // provider
  static readonly providerBadRequest: string = 'provider_bad_request'
  static readonly providerAuth: string = 'provider_auth'
  static readonly providerForbidden: string = 'provider_forbidden'
  static readonly providerNotFound: string = 'provider_not_found'
  static readonly providerUnprocessable: string = 'provider_unprocessable'
  static readonly providerRateLimited: string = 'provider_rate_limited'
  /** The account's balance or quota is exhausted (DeepSeek 402, Zhipu 1113, OpenAI insufficient_quota, ...). */
  static readonly providerInsufficientBalance: string = 'provider_insufficient_balance'
  /** The vendor's content moderation refused the input or the output. */
  static readonly providerContentFilter: string = 'provider_content_filter'
  /** The conversation is longer than the model's context window. */
  static readonly providerContextLength: string = 'provider_context_length'
  static readonly providerServerError: string = 'provider_server_error'
  static readonly providerHttpError: string = 'provider_http_error'
  static readonly providerMalformedResponse: string = 'provider_malformed_response'
  static readonly providerStreamTruncated: string = 'provider_stream_truncated'
  static readonly providerError: string = 'provider_error'
  // transport
  static readonly transportNetwork: string = 'transport_network'
  static readonly transportTimeout: string = 'transport_timeout'
  static readonly transportFirstChunkTimeout: string = 'transport_first_chunk_timeout'
  static readonly transportIdleTimeout: string = 'transport_idle_timeout'
  static readonly transportInvalidUrl: string = 'transport_invalid_url'
  // storage
  static readonly stateSaveFailed: string = 'state_save_failed'
  static readonly stateCorrupt: string = 'state_corrupt'
  static readonly stateVersionUnsupported: string = 'state_version_unsupported'
  static readonly stateLoadFailed: string = 'state_load_failed'
  // config
  static readonly requestHandlerMissing: string = 'request_handler_missing'
  static readonly requestHandlerDuplicate: string = 'request_handler_duplicate'
  static readonly eventBusClosed: string = 'event_bus_closed'
  static readonly invalidConfig: string = 'invalid_config'
  /** runStream got something that is not an array of well-formed AgentMessages (or no CancellationToken). */
  static readonly invalidInput: string = 'invalid_input'
  /** A stored run owes an answer to an output schema this runtime does not have (absent, or another name): nothing ran. */
  static readonly outputSchemaMismatch: string = 'output_schema_mismatch'
  // tool
  static readonly toolNotFound: string = 'tool_not_found'
  static readonly toolInvalidArguments: string = 'tool_invalid_arguments'
  static readonly toolExecutionFailed: string = 'tool_execution_failed'
  static readonly toolTimeout: string = 'tool_timeout'
  static readonly toolInterrupted: string = 'tool_interrupted'
}

/** Every failure the core reports: a layer, a stable code (`ErrorCodes`), a message without secrets and whether trying again can help (docs/errors.md). */
export class ArkAgentError extends Error {
  readonly layer: ErrorLayer
  readonly code: string
  readonly retryability: ErrorRetryability
  readonly cause?: Error
  /** Seconds the server asked us to wait (HTTP Retry-After), when known. */
  retryAfterMs?: number

  /**
   * Every secret the process holds (SecretVault) is removed from the message and the code here, where
   * any error is made, so no path can forget it; a cause whose message or stack holds one is replaced
   * by a plain Error with the redacted message (an ArkAgentError cause is clean by construction).
   */
  constructor(layer: ErrorLayer, code: string, message: string,
    retryability: ErrorRetryability = ErrorRetryability.never, cause?: Error) {
    super(SecretVault.redact(message))
    this.name = 'ArkAgentError'
    this.layer = layer
    this.code = SecretVault.redact(code)
    this.retryability = retryability
    this.cause = ArkAgentError.cleanCause(cause)
  }

  private static cleanCause(cause: Error | undefined): Error | undefined {
    if (cause === undefined || !SecretVault.active || ArkAgentError.asArkError(cause) !== undefined) {
      return cause
    }
    let stack = ''
    try {
      const s = cause.stack
      stack = typeof s === 'string' ? s : ''
    } catch (e) {
      stack = ''
    }
    const described = Thrown.describe(cause)
    return SecretVault.leaks(stack) || SecretVault.leaks(Thrown.describeRaw(cause)) ? new Error(described) : cause
  }

  isRetryable(): boolean {
    return this.retryability === ErrorRetryability.retryable
  }

  toString(): string {
    return `${this.layer}/${this.code}: ${this.message}`
  }

  /** Wraps anything thrown into an ArkAgentError, keeping ArkAgentErrors as they are. Never throws. */
  static from(thrown: Object | null | undefined, layer: ErrorLayer, code: string, prefix: string): ArkAgentError {
    const known = ArkAgentError.asArkError(thrown)
    if (known !== undefined) {
      return known
    }
    return new ArkAgentError(layer, code, `${prefix}: ${Thrown.describe(thrown)}`, ErrorRetryability.never,
      Thrown.asError(thrown))
  }

  /** `thrown` as an ArkAgentError when it safely is one (a Proxy's throwing instanceof counts as no). */
  static asArkError(thrown: Object | null | undefined): ArkAgentError | undefined {
    try {
      return thrown instanceof ArkAgentError ? thrown as ArkAgentError : undefined
    } catch (e) {
      return undefined
    }
  }
}
