// One MCP tool as an AgentTool, and the hook that applies a changed tool list between turns.
import { AgentHook } from '../../core/hook/AgentHook'
import { ModelCallHookContext } from '../../core/hook/HookContexts'
import { ModelCallHookResult } from '../../core/hook/HookResults'
import { ToolDefinition } from '../../core/model/ToolDefinition'
import { ToolResult } from '../../core/model/ToolResult'
import { AgentTool, ToolExecutionContext } from '../../core/tools/AgentTool'
import { ToolRegistry } from '../../core/tools/ToolRegistry'
import type { McpToolSource } from './McpToolSource'
import type { McpServerSpec } from './McpServerSpec'
import type { McpToolInfo } from '../../core/mcp/McpToolInfo'
import { DEFAULT_MCP_CONCURRENT_CALLS } from '../../core/mcp/McpHttpTool'

/** One MCP tool as an AgentTool. */
export class McpTool extends AgentTool {
  private readonly def: ToolDefinition

  constructor(readonly source: McpToolSource, readonly mcpName: string, definition: ToolDefinition) {
    super()
    this.def = definition
  }

  get definition(): ToolDefinition {
    return this.def
  }

  /** What a tool list refresh compares: a tool whose signature changed is replaced. */
  static signature(t: AgentTool): string {
    const d = t.definition
    return JSON.stringify([(t as McpTool).mcpName, d.description, d.parametersJson, d.riskLevel, d.concurrency, d.groupLimit])
  }

  /**
   * The definition of a listed tool, named `name`: its risk and concurrency (rules applied), in the
   * group `mcp:<server>` limited to the spec's `maxConcurrentCalls` (default 4).
   */
  static definitionFor(name: string, info: McpToolInfo, spec: McpServerSpec): ToolDefinition {
    return new ToolDefinition(name, info.description, info.schema ?? info.inputSchema, info.risk, info.concurrency,
      `mcp:${spec.name}`, spec.maxConcurrentCalls ?? DEFAULT_MCP_CONCURRENT_CALLS)
  }

  execute(args: Record<string, Object>, context: ToolExecutionContext): Promise<ToolResult> {
    return this.source.call(this.mcpName, args, context)
  }
}

export class McpRefreshHook extends AgentHook {
  constructor(private readonly source: McpToolSource, private readonly registry: ToolRegistry) {
    super()
  }

  get hookName(): string {
    return `McpRefresh(${this.source.spec.name})`
  }

  async beforeModelCall(context: ModelCallHookContext): Promise<ModelCallHookResult> {
    if (this.source.listChanged) {
      try {
        await this.source.syncInto(this.registry)
      } catch (e) {
        // The server is unreachable right now: keep the tools it had; a call will report the failure.
      }
    }
    return ModelCallHookResult.proceed()
  }
}
