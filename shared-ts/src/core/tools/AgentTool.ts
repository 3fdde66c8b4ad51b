import { ToolCall } from '../model/ToolCall'
import { ToolDefinition } from '../model/ToolDefinition'
import { ToolResult } from '../model/ToolResult'
import { CancellationToken } from '../util/Cancellation'

/** What a tool gets besides its arguments. Honour `token`: it fires on cancel and on timeout. */
export class ToolExecutionContext {
  readonly sessionId: string
  readonly runId: string
  readonly call: ToolCall
  readonly token: CancellationToken

  constructor(sessionId: string, runId: string, call: ToolCall, token: CancellationToken) {
    this.sessionId = sessionId
    this.runId = runId
    this.call = call
    this.token = token
  }
}

/**
 * A callable tool. Arguments reach `execute` only after they parsed as a JSON object and passed
 * `validateArguments` (by default `definition.validate`: the JSON-Schema check of `parameters`, compiled once).
 * Return the text for the model, or a `ToolResult` to hand back typed parts (an image, a resource,
 * structured json) or an error-flagged result without throwing; throw to report a failure.
 */
export abstract class AgentTool {
  abstract get definition(): ToolDefinition

  /** Returns '' when valid, else a message naming the bad field (the compiled parameters schema's verdict). */
  validateArguments(args: Record<string, Object>): string {
    return this.definition.validate(args)
  }

  abstract execute(args: Record<string, Object>, context: ToolExecutionContext): Promise<string | ToolResult>
}

/** A FunctionTool's body: gets the validated arguments and the call's context (session, run, the call, a cancellation token) and returns the result text or a ToolResult. */
export type ToolHandler = (args: Record<string, Object>, context: ToolExecutionContext) => Promise<string | ToolResult>

/** A tool from a definition and an arrow function. */
export class FunctionTool extends AgentTool {
  private readonly def: ToolDefinition
  private readonly handler: ToolHandler

  constructor(definition: ToolDefinition, handler: ToolHandler) {
    super()
    this.def = definition
    this.handler = handler
  }

  /** The definition given to the constructor (name, description, parameters schema). */
  get definition(): ToolDefinition {
    return this.def
  }

  /** Calls the handler with the arguments and the call's context; its text or ToolResult is the tool's result. */
  execute(args: Record<string, Object>, context: ToolExecutionContext): Promise<string | ToolResult> {
    return this.handler(args, context)
  }
}
