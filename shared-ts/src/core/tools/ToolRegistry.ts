import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { ToolCall } from '../model/ToolCall'
import { ToolDefinition } from '../model/ToolDefinition'
import { ToolResult } from '../model/ToolResult'
import { CancellationSource, CancellationToken } from '../util/Cancellation'
import { withTimeout } from '../util/Delay'
import { AgentTool, ToolExecutionContext } from './AgentTool'

/**
 * Holds the tools and executes calls through four gates: registered, arguments parse as JSON,
 * arguments match the schema, execution within the timeout. A failed gate is an error-flagged
 * result for the model, never an exception; only cancellation of the run propagates.
 */
export class ToolRegistry {
  private readonly tools: Map<string, AgentTool> = new Map<string, AgentTool>()
  /** Bound for one execution; 0 disables it. */
  timeoutMs: number

  constructor(tools: AgentTool[] = [], timeoutMs: number = 60000) {
    this.timeoutMs = timeoutMs
    for (let i = 0; i < tools.length; i++) {
      this.register(tools[i])
    }
  }

  register(tool: AgentTool): ToolRegistry {
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

  async execute(call: ToolCall, sessionId: string, runId: string,
    token: CancellationToken = CancellationToken.none): Promise<ToolResult> {
    const tool = this.tools.get(call.name)
    if (tool === undefined) {
      return ToolResult.error(call.id, ErrorCodes.toolNotFound, `Tool '${call.name}' is not registered`)
    }
    const args = ToolRegistry.parseArguments(call.argumentsJson)
    if (typeof args === 'string') {
      return ToolResult.error(call.id, ErrorCodes.toolInvalidArguments, `Invalid arguments for '${call.name}': ${args}`)
    }
    let problem = ''
    try {
      problem = tool.validateArguments(args as Record<string, Object>)
    } catch (e) {
      problem = e instanceof Error ? e.message : String(e)
    }
    if (problem.length > 0) {
      return ToolResult.error(call.id, ErrorCodes.toolInvalidArguments, `Invalid arguments for '${call.name}': ${problem}`)
    }
    token.throwIfCancelled()
    const source = CancellationSource.linked([token])
    const timeoutMs = this.timeoutMs
    try {
      const work = tool.execute(args as Record<string, Object>, new ToolExecutionContext(sessionId, runId, call,
        source.token))
      const text = await withTimeout<string>(work, timeoutMs, (): Error => {
        source.cancel('tool timeout')
        return new ArkAgentError(ErrorLayer.tool, ErrorCodes.toolTimeout,
          `Tool '${call.name}' did not finish within ${timeoutMs} ms`, ErrorRetryability.retryable)
      })
      token.throwIfCancelled()
      return ToolResult.text(call.id, typeof text === 'string' ? text : JSON.stringify(text))
    } catch (e) {
      if (token.isCancelled) {
        throw CancellationToken.cancelledError(token.reason)
      }
      if (e instanceof ArkAgentError && (e as ArkAgentError).code === ErrorCodes.toolTimeout) {
        return ToolResult.error(call.id, ErrorCodes.toolTimeout, (e as ArkAgentError).message)
      }
      const detail = e instanceof Error ? (e as Error).message : String(e)
      return ToolResult.error(call.id, ErrorCodes.toolExecutionFailed, `Tool '${call.name}' failed: ${detail}`)
    } finally {
      source.dispose()
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
