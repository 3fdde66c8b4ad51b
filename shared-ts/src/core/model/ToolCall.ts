/**
 * A tool call requested by the model. `id` pairs it with its result; `index` is its position in the batch.
 * Immutable (read-only accessors): a call is shared by history, pending approvals and hook contexts,
 * so nothing handed a call can change what runs or how its result pairs.
 */
export class ToolCall {
  private readonly callId: string
  private readonly callName: string
  private readonly callArguments: string
  private readonly callIndex: number

  constructor(id: string, name: string, argumentsJson: string, index: number = 0) {
    this.callId = id
    this.callName = name
    this.callArguments = argumentsJson
    this.callIndex = index
  }

  get id(): string {
    return this.callId
  }

  get name(): string {
    return this.callName
  }

  get argumentsJson(): string {
    return this.callArguments
  }

  get index(): number {
    return this.callIndex
  }

  withArguments(argumentsJson: string): ToolCall {
    return new ToolCall(this.id, this.name, argumentsJson, this.index)
  }
}

/** Hooks may rewrite a call, never its id: the result must pair with what the model sent. */
export function preserveToolCallId(originalId: string, call: ToolCall): ToolCall {
  if (call.id === originalId) {
    return call
  }
  return new ToolCall(originalId, call.name, call.argumentsJson, call.index)
}
