import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { Thrown } from '../errors/Thrown'
import { ToolCall } from '../model/ToolCall'
import { ToolDefinition } from '../model/ToolDefinition'
import { ModelCheck } from '../model/ModelCheck'
import { ToolResult } from '../model/ToolResult'
import { Redactor } from '../redaction/Redactor'
import { CancellationSource, CancellationToken } from '../util/Cancellation'
import { ConfigCheck } from '../util/ConfigCheck'
import { withTimeout } from '../util/Delay'
import { AgentTool, ToolExecutionContext } from './AgentTool'
import { ToolOutput } from './ToolOutput'

/**
 * The runtime's last word before a call runs, given the definition of the tool about to run: '' lets
 * it run, anything else is the reason it does not (an error-flagged tool_denied result).
 */
export type ToolAdmission = (definition: ToolDefinition) => string

/** Used when neither the registry nor the runtime config names a tool timeout. */
export const DEFAULT_TOOL_TIMEOUT_MS: number = 60000

/**
 * Holds the tools and executes calls through four gates: registered, arguments parse as JSON,
 * arguments match the schema, execution within the timeout. A failed gate — and anything a tool
 * throws, rejects with or returns that is not a result — is an error-flagged result for the
 * model, never an exception; only cancellation of the run propagates.
 */
export class ToolRegistry {
  private readonly tools: Map<string, AgentTool> = new Map<string, AgentTool>()
  private timeout: number
  private explicitTimeout: boolean
  private readonly groupLimits: Map<string, number> = new Map<string, number>()

  /** `timeoutMs` bounds one execution (0 disables); see `timeoutMs` for how it meets the runtime config. */
  constructor(tools: AgentTool[] = [], timeoutMs?: number) {
    if (!(tools instanceof Array)) {
      throw ConfigCheck.invalid(`ToolRegistry tools must be an array of AgentTool; got ${ConfigCheck.show(tools)}`)
    }
    this.timeout = timeoutMs !== undefined ? ConfigCheck.timeoutMs(timeoutMs, 'ToolRegistry timeoutMs') :
      DEFAULT_TOOL_TIMEOUT_MS
    this.explicitTimeout = timeoutMs !== undefined
    for (let i = 0; i < tools.length; i++) {
      this.register(tools[i])
    }
  }

  /**
   * Bound for one execution in ms; 0 disables it. Set here (constructor or setter) or through
   * `AgentRuntimeConfig.toolTimeoutMs`: an explicit value always wins over the default, and two
   * different explicit values for one registry are a config error when the runtime is built.
   */
  get timeoutMs(): number {
    return this.timeout
  }

  set timeoutMs(ms: number) {
    this.timeout = ConfigCheck.timeoutMs(ms, 'ToolRegistry timeoutMs')
    this.explicitTimeout = true
  }

  /** Whether the timeout was set explicitly (not the default). */
  get hasExplicitTimeout(): boolean {
    return this.explicitTimeout
  }

  register(tool: AgentTool): ToolRegistry {
    if (!(tool instanceof AgentTool)) {
      throw ConfigCheck.invalid(`A tool must be an AgentTool (FunctionTool or a subclass); got ${ConfigCheck.show(tool)}`)
    }
    if (!(tool.definition instanceof ToolDefinition)) {
      throw ConfigCheck.invalid(`A tool's definition must be a ToolDefinition; got ${ConfigCheck.show(tool.definition)}`)
    }
    const name = tool.definition.name
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig,
        `Tool name '${name}' must be 1-64 letters, digits, '_' or '-'`, ErrorRetryability.never)
    }
    if (this.tools.has(name)) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, `Tool '${name}' is already registered`,
        ErrorRetryability.never)
    }
    this.tools.set(name, tool)
    return this
  }

  /**
   * At most `limit` concurrent calls of the tools whose definition names `group` run at once (an MCP
   * server's tools, say), over the limit their definitions state; the runtime's `maxConcurrentTools`
   * still applies. Unset: the definitions' limit (0: none).
   */
  setConcurrencyLimit(group: string, limit: number): ToolRegistry {
    ConfigCheck.text(group, 'concurrency group', 1, 256)
    this.groupLimits.set(group, ConfigCheck.count(limit, 1, `concurrency limit of '${group.slice(0, 64)}'`, 1024))
    return this
  }

  /** The limit of a concurrency group; 0 when it has none. */
  concurrencyLimit(group: string): number {
    const limit = this.groupLimits.get(group)
    return limit !== undefined ? limit : 0
  }

  /** Removes a tool (a tool source that lost it); true if it was there. Calls already frozen keep their result rules: an unknown name is tool_not_found. */
  unregister(name: string): boolean {
    return this.tools.delete(name)
  }

  get(name: string): AgentTool | undefined {
    return this.tools.get(name)
  }

  definition(name: string): ToolDefinition | undefined {
    const tool = this.tools.get(name)
    return tool === undefined ? undefined : tool.definition
  }

  definitions(): ToolDefinition[] {
    const out: ToolDefinition[] = []
    this.tools.forEach((tool: AgentTool): void => {
      out.push(tool.definition)
    })
    return out
  }

  /**
   * The gates that need no execution — registered, arguments parse as a JSON object, arguments
   * match the schema — for `call` exactly as given. Undefined when all pass, else the
   * error-flagged result the call gets instead of running.
   */
  check(call: ToolCall): ToolResult | undefined {
    const prepared = this.prepare(call)
    return prepared instanceof ToolResult ? Redactor.toolResult(prepared as ToolResult) : undefined
  }

  /**
   * Runs one call through every gate. `admit`, when given, sees the definition of the tool about to
   * run, after the static gates and with nothing awaited in between; a non-empty answer (or a throw)
   * is an error-flagged tool_denied result and the tool does not run.
   */
  async execute(call: ToolCall, sessionId: string, runId: string,
    token: CancellationToken = CancellationToken.none, admit?: ToolAdmission): Promise<ToolResult> {
    // Whatever a tool returns or throws reaches the model, history, events and storage: no secret in it.
    return await Redactor.toolResultAsync(await this.run(call, sessionId, runId, token, admit))
  }

  private async run(call: ToolCall, sessionId: string, runId: string, token: CancellationToken,
    admit?: ToolAdmission): Promise<ToolResult> {
    const prepared = this.prepare(call)
    if (prepared instanceof ToolResult) {
      return prepared as ToolResult
    }
    const args = prepared as Record<string, Object>
    const tool = this.tools.get(call.name) as AgentTool
    if (admit !== undefined) {
      const refused = ToolRegistry.admission(admit, tool)
      if (refused.length > 0) {
        return ToolResult.error(call.id, ErrorCodes.toolDenied, refused)
      }
    }
    token.throwIfCancelled()
    const source = CancellationSource.linked([token])
    const timeoutMs = this.timeout
    let value: Object | null | undefined
    try {
      // Promise.resolve: a plain-JS tool that returns a value instead of a promise still works.
      const work = Promise.resolve<string | ToolResult>(tool.execute(args, new ToolExecutionContext(sessionId, runId,
        call, source.token)))
      value = await withTimeout<string | ToolResult>(work, timeoutMs, (): Error => {
        source.cancel('tool timeout')
        return new ArkAgentError(ErrorLayer.tool, ErrorCodes.toolTimeout,
          `Tool '${call.name}' did not finish within ${timeoutMs} ms`, ErrorRetryability.retryable)
      })
    } catch (e) {
      if (token.isCancelled) {
        throw CancellationToken.cancelledError(token.reason)
      }
      const known = ArkAgentError.asArkError(e as Object)
      if (known !== undefined && known.code === ErrorCodes.toolTimeout) {
        return ToolResult.error(call.id, ErrorCodes.toolTimeout, known.message)
      }
      return ToolResult.error(call.id, ErrorCodes.toolExecutionFailed,
        `Tool '${call.name}' failed: ${Thrown.describe(e as Object)}`)
    } finally {
      source.dispose()
    }
    token.throwIfCancelled()
    if (value instanceof ToolResult) {
      return ToolRegistry.adopt(call, value as ToolResult)
    }
    const text = ToolOutput.toText(value)
    if (text === undefined) {
      return ToolResult.error(call.id, ErrorCodes.toolExecutionFailed,
        `Tool '${call.name}' returned ${ToolOutput.problem(value)}`)
    }
    return ToolResult.text(call.id, text)
  }

  /**
   * A result a tool built itself, checked like a hook's (a plain-JS tool can hand over anything that
   * passes instanceof) and bound to the call it answers: the tool's own callId is ignored, and an
   * error-flagged result is tool_execution_failed whatever code the tool gave (codes name the layer
   * that failed; a tool cannot pass itself off as a denial or a timeout). Its parts stay.
   */
  private static adopt(call: ToolCall, value: ToolResult): ToolResult {
    let checked: ToolResult
    try {
      checked = ModelCheck.result(value, 'result')
    } catch (e) {
      return ToolResult.error(call.id, ErrorCodes.toolExecutionFailed,
        `Tool '${call.name}' returned an invalid ToolResult: ${Thrown.describe(e as Object)}`)
    }
    return new ToolResult(call.id, checked.content, checked.isError,
      checked.isError ? ErrorCodes.toolExecutionFailed : undefined)
  }

  /** The parsed arguments when every static gate passes, else the error-flagged result. */
  private prepare(call: ToolCall): ToolResult | Record<string, Object> {
    const tool = this.tools.get(call.name)
    if (tool === undefined) {
      return ToolResult.error(call.id, ErrorCodes.toolNotFound, `Tool '${call.name}' is not registered`)
    }
    const args = ToolRegistry.parseArguments(call.argumentsJson)
    if (typeof args === 'string') {
      return ToolResult.error(call.id, ErrorCodes.toolInvalidArguments, `Invalid arguments for '${call.name}': ${args}`)
    }
    const problem = ToolRegistry.validate(tool, args as Record<string, Object>)
    if (problem.length > 0) {
      return ToolResult.error(call.id, ErrorCodes.toolInvalidArguments, `Invalid arguments for '${call.name}': ${problem}`)
    }
    return args as Record<string, Object>
  }

  /** The admission's answer, failing closed: a throw or a non-string answer refuses. */
  private static admission(admit: ToolAdmission, tool: AgentTool): string {
    try {
      const answer = admit(tool.definition)
      return typeof answer === 'string' ? answer : 'the approval check gave no answer'
    } catch (e) {
      return `the approval check failed: ${Thrown.describe(e as Object)}`
    }
  }

  /** The tool's own validator, failing closed: a throw or a non-string answer is a problem. */
  private static validate(tool: AgentTool, args: Record<string, Object>): string {
    try {
      const problem = tool.validateArguments(args)
      if (typeof problem === 'string') {
        return problem
      }
      return `the argument validator returned ${problem === null ? 'null' : typeof problem}, not a message ` +
        "('' means valid)"
    } catch (e) {
      const described = Thrown.describe(e as Object)
      return described.length > 0 ? described : 'the argument validator failed'
    }
  }

  /** Parses arguments as a JSON object; an empty string means no arguments. Returns the problem as a string. */
  static parseArguments(json: string): Record<string, Object> | string {
    const text = json.trim()
    if (text.length === 0) {
      const empty: Record<string, Object> = {}
      return empty
    }
    let value: Object | null
    try {
      value = JSON.parse(text) as Object | null
    } catch (e) {
      return `not valid JSON (${text.length > 80 ? text.slice(0, 80) + '…' : text})`
    }
    if (value === null || typeof value !== 'object' || value instanceof Array) {
      return 'expected a JSON object'
    }
    return value as Record<string, Object>
  }
}
