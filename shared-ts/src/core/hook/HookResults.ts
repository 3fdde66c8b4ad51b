import { ArkAgentError } from '../errors/ArkAgentError'
import { AgentMessage } from '../model/AgentMessage'
import { ModelRequest } from '../model/ModelRequest'
import { ModelResponse } from '../model/ModelResponse'
import { ToolCall } from '../model/ToolCall'
import { ToolResult } from '../model/ToolResult'

// Every result has a private constructor and named factories carrying exactly the actions of its
// slot (spec table 4.3), so a hook cannot return an action its slot does not have.

/** What a beforeRun hook decided: proceed (possibly with rewritten input) or abort the run. */
export enum BeforeRunHookAction {
  proceed = 'proceed',
  abort = 'abort'
}

/** A beforeRun hook's answer (build it with the static methods). */
export class BeforeRunHookResult {
  readonly action: BeforeRunHookAction
  readonly input?: AgentMessage[]
  readonly reason?: string
  readonly error?: ArkAgentError

  private constructor(action: BeforeRunHookAction, input?: AgentMessage[], reason?: string, error?: ArkAgentError) {
    this.action = action
    this.input = input
    this.reason = reason
    this.error = error
  }

  static proceed(input?: AgentMessage[]): BeforeRunHookResult {
    return new BeforeRunHookResult(BeforeRunHookAction.proceed, input)
  }

  static abort(reason?: string, error?: ArkAgentError): BeforeRunHookResult {
    return new BeforeRunHookResult(BeforeRunHookAction.abort, undefined, reason, error)
  }
}

/** What a beforeModelCall hook decided: proceed (possibly with a rewritten request), respond without calling the model, or abort. */
export enum ModelCallHookAction {
  proceed = 'proceed',
  respond = 'respond',
  abort = 'abort'
}

/** A beforeModelCall hook's answer (build it with the static methods). */
export class ModelCallHookResult {
  readonly action: ModelCallHookAction
  readonly request?: ModelRequest
  readonly response?: ModelResponse
  readonly reason?: string
  readonly error?: ArkAgentError

  private constructor(action: ModelCallHookAction, request?: ModelRequest, response?: ModelResponse,
    reason?: string, error?: ArkAgentError) {
    this.action = action
    this.request = request
    this.response = response
    this.reason = reason
    this.error = error
  }

  static proceed(request?: ModelRequest): ModelCallHookResult {
    return new ModelCallHookResult(ModelCallHookAction.proceed, request)
  }

  /** Answer without calling the model (cache, canned reply, offline mode). */
  static respond(response: ModelResponse): ModelCallHookResult {
    return new ModelCallHookResult(ModelCallHookAction.respond, undefined, response)
  }

  static abort(reason?: string, error?: ArkAgentError): ModelCallHookResult {
    return new ModelCallHookResult(ModelCallHookAction.abort, undefined, undefined, reason, error)
  }
}

/** What an onModelChunk hook decided about a streamed chunk: proceed (possibly rewritten), drop it, or abort. */
export enum ModelChunkHookAction {
  proceed = 'proceed',
  drop = 'drop',
  abort = 'abort'
}

/** An onModelChunk hook's answer (build it with the static methods). */
export class ModelChunkHookResult {
  readonly action: ModelChunkHookAction
  readonly text?: string
  readonly reason?: string
  readonly error?: ArkAgentError

  private constructor(action: ModelChunkHookAction, text?: string, reason?: string, error?: ArkAgentError) {
    this.action = action
    this.text = text
    this.reason = reason
    this.error = error
  }

  private static readonly passThrough: ModelChunkHookResult = new ModelChunkHookResult(ModelChunkHookAction.proceed)

  /** Keep the chunk, optionally rewritten. */
  static proceed(text?: string): ModelChunkHookResult {
    if (text === undefined) {
      return ModelChunkHookResult.passThrough
    }
    return new ModelChunkHookResult(ModelChunkHookAction.proceed, text)
  }

  /** The chunk is removed: never shown, never stored. */
  static drop(reason?: string): ModelChunkHookResult {
    return new ModelChunkHookResult(ModelChunkHookAction.drop, undefined, reason)
  }

  static abort(reason?: string, error?: ArkAgentError): ModelChunkHookResult {
    return new ModelChunkHookResult(ModelChunkHookAction.abort, undefined, reason, error)
  }
}

/** What an afterModelCall hook decided: proceed (possibly with a rewritten response), retry the call, or abort. */
export enum ModelResponseHookAction {
  proceed = 'proceed',
  retry = 'retry',
  abort = 'abort'
}

/** An afterModelCall hook's answer (build it with the static methods). */
export class ModelResponseHookResult {
  readonly action: ModelResponseHookAction
  readonly response?: ModelResponse
  readonly reason?: string
  readonly error?: ArkAgentError

  private constructor(action: ModelResponseHookAction, response?: ModelResponse, reason?: string,
    error?: ArkAgentError) {
    this.action = action
    this.response = response
    this.reason = reason
    this.error = error
  }

  static proceed(response?: ModelResponse): ModelResponseHookResult {
    return new ModelResponseHookResult(ModelResponseHookAction.proceed, response)
  }

  /** Discard this answer and call the model again (bounded by the runtime's max retries). */
  static retry(reason?: string): ModelResponseHookResult {
    return new ModelResponseHookResult(ModelResponseHookAction.retry, undefined, reason)
  }

  static abort(reason?: string, error?: ArkAgentError): ModelResponseHookResult {
    return new ModelResponseHookResult(ModelResponseHookAction.abort, undefined, reason, error)
  }
}

/** What a beforeToolCall hook decided: proceed (possibly with a rewritten call), deny it, defer it to the user, or abort. */
export enum ToolCallHookAction {
  proceed = 'proceed',
  deny = 'deny',
  defer = 'defer',
  abort = 'abort'
}

/** A beforeToolCall hook's answer (build it with the static methods). */
export class ToolCallHookResult {
  readonly action: ToolCallHookAction
  readonly call?: ToolCall
  readonly syntheticResult?: ToolResult
  readonly reason?: string
  readonly error?: ArkAgentError

  private constructor(action: ToolCallHookAction, call?: ToolCall, syntheticResult?: ToolResult, reason?: string,
    error?: ArkAgentError) {
    this.action = action
    this.call = call
    this.syntheticResult = syntheticResult
    this.reason = reason
    this.error = error
  }

  static proceed(call?: ToolCall): ToolCallHookResult {
    return new ToolCallHookResult(ToolCallHookAction.proceed, call)
  }

  /** Do not run the tool; the model gets `syntheticResult` (or an error-flagged tool_denied result). */
  static deny(syntheticResult?: ToolResult, reason?: string): ToolCallHookResult {
    return new ToolCallHookResult(ToolCallHookAction.deny, undefined, syntheticResult, reason)
  }

  /**
   * Let the user decide: freezes the whole batch for approval. `call` optionally rewrites the call
   * first (its id stays). What the user approves is the call as rewritten up to this hook; hooks
   * registered after it do not run for this call, neither now nor after the approval.
   */
  static defer(reason?: string, call?: ToolCall): ToolCallHookResult {
    return new ToolCallHookResult(ToolCallHookAction.defer, call, undefined, reason)
  }

  static abort(reason?: string, error?: ArkAgentError): ToolCallHookResult {
    return new ToolCallHookResult(ToolCallHookAction.abort, undefined, undefined, reason, error)
  }

  /** The same verdict about `call` (the pipeline reports the call as rewritten so far with it). */
  withCall(call: ToolCall): ToolCallHookResult {
    return new ToolCallHookResult(this.action, call, this.syntheticResult, this.reason, this.error)
  }
}

/** What an afterToolCall hook decided: proceed (possibly with a rewritten result), stop the run, or abort. */
export enum ToolResultHookAction {
  proceed = 'proceed',
  stop = 'stop',
  abort = 'abort'
}

/** An afterToolCall hook's answer (build it with the static methods). */
export class ToolResultHookResult {
  readonly action: ToolResultHookAction
  readonly result?: ToolResult
  /** Messages appended after the batch's tool results, accumulated in hook order. */
  readonly injectedMessages: AgentMessage[]
  readonly reason?: string
  readonly error?: ArkAgentError

  private constructor(action: ToolResultHookAction, result: ToolResult | undefined, injectedMessages: AgentMessage[],
    reason?: string, error?: ArkAgentError) {
    this.action = action
    this.result = result
    this.injectedMessages = injectedMessages
    this.reason = reason
    this.error = error
  }

  static proceed(result?: ToolResult, injectedMessages: AgentMessage[] = []): ToolResultHookResult {
    return new ToolResultHookResult(ToolResultHookAction.proceed, result, injectedMessages)
  }

  /** Keep the result, then end the agent loop after this batch. */
  static stop(result?: ToolResult, injectedMessages: AgentMessage[] = [], reason?: string): ToolResultHookResult {
    return new ToolResultHookResult(ToolResultHookAction.stop, result, injectedMessages, reason)
  }

  static abort(reason?: string, error?: ArkAgentError): ToolResultHookResult {
    return new ToolResultHookResult(ToolResultHookAction.abort, undefined, [], reason, error)
  }
}

/** What an onTurnCompletion hook decided: accept the answer, continue the run with another turn, or abort. */
export enum TurnCompletionHookAction {
  accept = 'accept',
  continueRun = 'continue_run',
  abort = 'abort'
}

/** An onTurnCompletion hook's answer (build it with the static methods). */
export class TurnCompletionHookResult {
  readonly action: TurnCompletionHookAction
  /** With continue_run: messages added before the next model call (e.g. "keep going"). */
  readonly injectedMessages: AgentMessage[]
  readonly reason?: string
  readonly error?: ArkAgentError

  private constructor(action: TurnCompletionHookAction, injectedMessages: AgentMessage[], reason?: string,
    error?: ArkAgentError) {
    this.action = action
    this.injectedMessages = injectedMessages
    this.reason = reason
    this.error = error
  }

  static accept(): TurnCompletionHookResult {
    return new TurnCompletionHookResult(TurnCompletionHookAction.accept, [])
  }

  static continueRun(injectedMessages: AgentMessage[] = [], reason?: string): TurnCompletionHookResult {
    return new TurnCompletionHookResult(TurnCompletionHookAction.continueRun, injectedMessages, reason)
  }

  static abort(reason?: string, error?: ArkAgentError): TurnCompletionHookResult {
    return new TurnCompletionHookResult(TurnCompletionHookAction.abort, [], reason, error)
  }
}

/** What a beforePersistState hook decided about a write: proceed, skip it (an optional write only), or abort. */
export enum StatePersistenceHookAction {
  proceed = 'proceed',
  skip = 'skip',
  abort = 'abort'
}

/** A beforePersistState hook's answer (build it with the static methods). */
export class StatePersistenceHookResult {
  readonly action: StatePersistenceHookAction
  readonly reason?: string
  readonly error?: ArkAgentError

  private constructor(action: StatePersistenceHookAction, reason?: string, error?: ArkAgentError) {
    this.action = action
    this.reason = reason
    this.error = error
  }

  static proceed(): StatePersistenceHookResult {
    return new StatePersistenceHookResult(StatePersistenceHookAction.proceed)
  }

  /** Skip this write; ignored for mandatory writes. */
  static skip(reason?: string): StatePersistenceHookResult {
    return new StatePersistenceHookResult(StatePersistenceHookAction.skip, reason)
  }

  /** Refuse the write; honoured even for mandatory writes (the run then fails). */
  static abort(reason?: string, error?: ArkAgentError): StatePersistenceHookResult {
    return new StatePersistenceHookResult(StatePersistenceHookAction.abort, reason, error)
  }
}

/** What a beforeCompaction hook decided: proceed, skip this compaction, or abort. */
export enum CompactionHookAction {
  proceed = 'proceed',
  skip = 'skip',
  abort = 'abort'
}

/**
 * beforeCompaction's answer. proceed may rewrite the summary and pin more messages (history indices
 * in [from, upTo): they are sent as they are; an assistant message's tool results come with it);
 * skip leaves the context as it is this time; abort ends the run.
 */
export class CompactionHookResult {
  readonly action: CompactionHookAction
  readonly summary?: string
  readonly pin: number[]
  readonly reason?: string
  readonly error?: ArkAgentError

  private constructor(action: CompactionHookAction, summary: string | undefined, pin: number[], reason?: string,
    error?: ArkAgentError) {
    this.action = action
    this.summary = summary
    this.pin = pin
    this.reason = reason
    this.error = error
  }

  static proceed(summary?: string, pin: number[] = []): CompactionHookResult {
    return new CompactionHookResult(CompactionHookAction.proceed, summary, pin.slice())
  }

  static skip(reason?: string): CompactionHookResult {
    return new CompactionHookResult(CompactionHookAction.skip, undefined, [], reason)
  }

  static abort(reason?: string, error?: ArkAgentError): CompactionHookResult {
    return new CompactionHookResult(CompactionHookAction.abort, undefined, [], reason, error)
  }
}
