import { ArkAgentError } from '../errors/ArkAgentError'
import { AgentMessage } from '../model/AgentMessage'
import { ModelRequest } from '../model/ModelRequest'
import { ModelResponse } from '../model/ModelResponse'
import { ToolCall } from '../model/ToolCall'
import { ToolDefinition } from '../model/ToolDefinition'
import { ToolResult } from '../model/ToolResult'
import { AgentState } from '../state/AgentState'

/** Gives the state snapshot a hook context shows, made only when the hook reads it. */
export type StateSupplier = () => AgentState

/**
 * Produces the state snapshot a hook sees, only if the hook reads it: the chunk path must not copy
 * the history for every chunk. The supplier runs at most once per pipeline pass; every context
 * handed to a hook has a forked view, so each hook gets its own copy of that snapshot and a hook
 * mutating it changes neither the next hook's view nor the runtime's state.
 */
export class StateView {
  /** Marks forks (never called): a fork copies its root's snapshot, with no closure per fork. */
  private static readonly forkSupplier: StateSupplier = (): AgentState => new AgentState('')

  private readonly supplier: StateSupplier
  private readonly root?: StateView
  private cached?: AgentState

  constructor(supplier: StateSupplier, root?: StateView) {
    this.supplier = supplier
    this.root = root
    this.cached = undefined
  }

  static of(state: AgentState): StateView {
    return new StateView((): AgentState => state)
  }

  get(): AgentState {
    if (this.cached === undefined) {
      const root = this.root
      this.cached = root !== undefined && this.supplier === StateView.forkSupplier ? root.get().snapshot() :
        this.supplier()
    }
    return this.cached
  }

  /** Whether this view's snapshot was taken (a hook read `state`). */
  isMaterialized(): boolean {
    return this.cached !== undefined
  }

  /** A view of the same pass for another context: its own copy of the pass's snapshot, made lazily. */
  fork(): StateView {
    return new StateView(StateView.forkSupplier, this.root !== undefined ? this.root : this)
  }
}

/** Common part of every context: read-only; `state` is a snapshot, never the runtime's own. */
export class HookContextBase {
  readonly sessionId: string
  readonly runId: string
  protected readonly view: StateView

  constructor(sessionId: string, runId: string, view: StateView) {
    this.sessionId = sessionId
    this.runId = runId
    this.view = view
  }

  get state(): AgentState {
    return this.view.get()
  }

  /** True once a hook read `state` through this context (its snapshot copy then exists). */
  stateWasRead(): boolean {
    return this.view.isMaterialized()
  }
}

export class BeforeRunHookContext extends HookContextBase {
  readonly input: AgentMessage[]

  constructor(sessionId: string, runId: string, view: StateView, input: AgentMessage[]) {
    super(sessionId, runId, view)
    this.input = input
  }

  copyWith(input?: AgentMessage[]): BeforeRunHookContext {
    return new BeforeRunHookContext(this.sessionId, this.runId, this.view.fork(), input ?? this.input)
  }
}

export class ModelCallHookContext extends HookContextBase {
  /** A turn of the run. */
  static readonly purposeTurn: string = 'turn'
  /** The summary call of a context compaction (its answer goes to beforeCompaction, not to the run). */
  static readonly purposeCompaction: string = 'compaction'
  /** An MCP server's `sampling/createMessage` (its answer goes to the server, not to the run's history). */
  static readonly purposeSampling: string = 'sampling'

  readonly request: ModelRequest
  readonly turn: number
  /** Why the model is called: `purposeTurn`, `purposeCompaction` or `purposeSampling`. */
  readonly purpose: string

  constructor(sessionId: string, runId: string, view: StateView, request: ModelRequest, turn: number,
    purpose: string = ModelCallHookContext.purposeTurn) {
    super(sessionId, runId, view)
    this.request = request
    this.turn = turn
    this.purpose = purpose
  }

  copyWith(request?: ModelRequest): ModelCallHookContext {
    return new ModelCallHookContext(this.sessionId, this.runId, this.view.fork(), request ?? this.request, this.turn,
      this.purpose)
  }
}

export class ModelChunkHookContext extends HookContextBase {
  readonly text: string
  /** True for reasoning (thinking) chunks, false for visible text. */
  readonly reasoning: boolean
  /** Position of the chunk within this model call, from 0. */
  readonly chunkIndex: number
  readonly turn: number
  /** Why the model is called (ModelCallHookContext.purposeTurn, or purposeSampling for an MCP server's request). */
  readonly purpose: string

  constructor(sessionId: string, runId: string, view: StateView, text: string, reasoning: boolean,
    chunkIndex: number, turn: number, purpose: string = ModelCallHookContext.purposeTurn) {
    super(sessionId, runId, view)
    this.text = text
    this.reasoning = reasoning
    this.chunkIndex = chunkIndex
    this.turn = turn
    this.purpose = purpose
  }

  copyWith(text?: string): ModelChunkHookContext {
    return new ModelChunkHookContext(this.sessionId, this.runId, this.view.fork(), text ?? this.text, this.reasoning,
      this.chunkIndex, this.turn, this.purpose)
  }
}

export class ModelResponseHookContext extends HookContextBase {
  readonly response: ModelResponse
  readonly turn: number
  /** 0 for the first answer of this turn, 1 after one retry, ... */
  readonly attempt: number
  /** Why the model was called (ModelCallHookContext.purposeTurn, or purposeSampling for an MCP server's request). */
  readonly purpose: string

  constructor(sessionId: string, runId: string, view: StateView, response: ModelResponse, turn: number,
    attempt: number, purpose: string = ModelCallHookContext.purposeTurn) {
    super(sessionId, runId, view)
    this.response = response
    this.turn = turn
    this.attempt = attempt
    this.purpose = purpose
  }

  copyWith(response?: ModelResponse): ModelResponseHookContext {
    return new ModelResponseHookContext(this.sessionId, this.runId, this.view.fork(), response ?? this.response,
      this.turn, this.attempt, this.purpose)
  }
}

/** Where a call a beforeToolCall hook sees comes from: the model, or the user's edit of an approval. */
export enum CallOrigin {
  model = 'model',
  userEdit = 'user_edit'
}

/** Finds the registered definition of a tool by name (undefined: no such tool). */
export type ToolLookup = (name: string) => ToolDefinition | undefined

export class ToolCallHookContext extends HookContextBase {
  /** The call as rewritten by the hooks before this one. */
  readonly call: ToolCall
  readonly modelMessage: AgentMessage
  readonly availableTools: ToolDefinition[]
  /**
   * The registered definition of the tool `call` names — of the call as rewritten so far, so its
   * risk level and schema are those of what would run. Undefined for an unknown tool.
   */
  readonly definition?: ToolDefinition
  /**
   * `model` for a call the model made; `user_edit` when the call is the user's edit of an approval
   * item, put through the hooks again before the decision counts (docs/approvals.md): then
   * `proposedCall` is the call the user was asked about, and a rewrite of the edit refuses the decision.
   */
  readonly origin: CallOrigin
  /** For `user_edit`: the call as it was put to the user, before the edit. */
  readonly proposedCall?: ToolCall
  private readonly lookup?: ToolLookup

  /**
   * `lookup` resolves a renamed call's definition (the runtime passes its registry); without it the
   * definition is looked up in `availableTools`.
   */
  constructor(sessionId: string, runId: string, view: StateView, call: ToolCall, modelMessage: AgentMessage,
    availableTools: ToolDefinition[], definition?: ToolDefinition, lookup?: ToolLookup,
    origin: CallOrigin = CallOrigin.model, proposedCall?: ToolCall) {
    super(sessionId, runId, view)
    this.call = call
    this.modelMessage = modelMessage
    this.availableTools = availableTools
    this.definition = definition
    this.lookup = lookup
    this.origin = origin
    this.proposedCall = proposedCall
  }

  /** The context for the next hook: the rewritten call with the definition of the tool it now names. */
  copyWith(call?: ToolCall): ToolCallHookContext {
    const next = call ?? this.call
    const definition = next.name === this.call.name ? this.definition : this.resolve(next.name)
    return new ToolCallHookContext(this.sessionId, this.runId, this.view.fork(), next, this.modelMessage,
      this.availableTools.slice(), definition, this.lookup, this.origin, this.proposedCall)
  }

  private resolve(name: string): ToolDefinition | undefined {
    const lookup = this.lookup
    if (lookup !== undefined) {
      return lookup(name)
    }
    for (let i = 0; i < this.availableTools.length; i++) {
      if (this.availableTools[i].name === name) {
        return this.availableTools[i]
      }
    }
    return undefined
  }
}

export class ToolResultHookContext extends HookContextBase {
  readonly call: ToolCall
  readonly result: ToolResult

  constructor(sessionId: string, runId: string, view: StateView, call: ToolCall, result: ToolResult) {
    super(sessionId, runId, view)
    this.call = call
    this.result = result
  }

  copyWith(result?: ToolResult): ToolResultHookContext {
    return new ToolResultHookContext(this.sessionId, this.runId, this.view.fork(), this.call, result ?? this.result)
  }
}

export class TurnCompletionHookContext extends HookContextBase {
  /** The assistant message that ended the turn (no tool calls). */
  readonly message: AgentMessage
  /** The turn within this run, from 1; 0 for an answer restored after a restart (the model is not asked again). */
  readonly turn: number

  constructor(sessionId: string, runId: string, view: StateView, message: AgentMessage, turn: number) {
    super(sessionId, runId, view)
    this.message = message
    this.turn = turn
  }

  /** The same context for another hook (with its own state copy). */
  copyWith(): TurnCompletionHookContext {
    return new TurnCompletionHookContext(this.sessionId, this.runId, this.view.fork(), this.message, this.turn)
  }
}

export class StatePersistenceHookContext extends HookContextBase {
  readonly reason: string
  /** When true, skip is not honoured (approval, suspend and terminal writes). */
  readonly mandatory: boolean
  readonly runError?: ArkAgentError

  constructor(sessionId: string, runId: string, view: StateView, reason: string, mandatory: boolean,
    runError?: ArkAgentError) {
    super(sessionId, runId, view)
    this.reason = reason
    this.mandatory = mandatory
    this.runError = runError
  }

  /** The same context for another hook (with its own state copy). */
  copyWith(): StatePersistenceHookContext {
    return new StatePersistenceHookContext(this.sessionId, this.runId, this.view.fork(), this.reason, this.mandatory,
      this.runError)
  }
}

export class AfterRunHookContext extends HookContextBase {
  readonly stopReason: string
  readonly error?: ArkAgentError
  readonly finalMessage?: AgentMessage

  constructor(sessionId: string, runId: string, view: StateView, stopReason: string, error?: ArkAgentError,
    finalMessage?: AgentMessage) {
    super(sessionId, runId, view)
    this.stopReason = stopReason
    this.error = error
    this.finalMessage = finalMessage
  }

  /** The same context for another hook (with its own state copy). */
  copyWith(): AfterRunHookContext {
    return new AfterRunHookContext(this.sessionId, this.runId, this.view.fork(), this.stopReason, this.error,
      this.finalMessage)
  }
}

/**
 * A compaction about to take effect (beforeCompaction) or just stored (afterCompaction): history
 * [from, upTo) is replaced in requests by `summary`, except the `pinned` indices, sent as they are.
 * `messages` is a copy of history [from, upTo). `truncated` is true when no summary could be made
 * (the summary is then a note saying what was left out).
 */
export class CompactionHookContext extends HookContextBase {
  readonly from: number
  readonly upTo: number
  readonly messages: AgentMessage[]
  readonly summary: string
  readonly pinned: number[]
  readonly truncated: boolean
  /** Estimated tokens of the next request without this compaction, and with it. */
  readonly tokensBefore: number
  readonly tokensAfter: number

  constructor(sessionId: string, runId: string, view: StateView, from: number, upTo: number, messages: AgentMessage[],
    summary: string, pinned: number[], truncated: boolean, tokensBefore: number, tokensAfter: number) {
    super(sessionId, runId, view)
    this.from = from
    this.upTo = upTo
    this.messages = messages
    this.summary = summary
    this.pinned = pinned.slice()
    this.truncated = truncated
    this.tokensBefore = tokensBefore
    this.tokensAfter = tokensAfter
  }

  /** The same compaction for the next hook: the summary and pins as rewritten so far, fresh copies. */
  copyWith(summary?: string, pinned?: number[]): CompactionHookContext {
    return new CompactionHookContext(this.sessionId, this.runId, this.view.fork(), this.from, this.upTo,
      this.messages.slice(), summary !== undefined ? summary : this.summary,
      (pinned !== undefined ? pinned : this.pinned).slice(), this.truncated, this.tokensBefore, this.tokensAfter)
  }
}
