/** A tool call requested by the model. `id` pairs it with its result; `index` is its position in the batch. */
export class ToolCall {
  readonly id: string
  readonly name: string
  readonly argumentsJson: string
  readonly index: number

  constructor(id: string, name: string, argumentsJson: string, index: number = 0) {
    this.id = id
    this.name = name
    this.argumentsJson = argumentsJson
    this.index = index
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
