import { ToolConcurrency, ToolDefinition } from '../model/ToolDefinition'
import { ConfigCheck } from '../util/ConfigCheck'
import { ToolResult } from '../model/ToolResult'
import { AgentTool, ToolExecutionContext } from '../tools/AgentTool'
import { CancellationToken } from '../util/Cancellation'
import { McpContent } from './McpContent'
import { McpHttpClient } from './McpHttpClient'
import { McpNames } from './McpNames'
import { McpToolInfo } from './McpToolInfo'

/** How many calls of one server's concurrent tools run at once unless told otherwise. */
export const DEFAULT_MCP_CONCURRENT_CALLS: number = 4

/** A server's tool as an AgentTool named `<server>__<tool>` (McpNames). */
export class McpHttpTool extends AgentTool {
  private readonly client: McpHttpClient
  private readonly mcpName: string
  private readonly def: ToolDefinition

  /**
   * Named `<server>__<tool>` by McpNames; `registryName` is how `all` passes names it made unique. A
   * concurrent tool (readOnlyHint, or the client's `concurrency` option) counts against the group
   * `mcp:<server>`, at most `maxConcurrentCalls` at once (docs/tools.md).
   */
  constructor(client: McpHttpClient, serverName: string, info: McpToolInfo, registryName?: string,
    maxConcurrentCalls: number = DEFAULT_MCP_CONCURRENT_CALLS) {
    super()
    this.client = client
    this.mcpName = info.name
    const schema = info.schema
    // From plain JavaScript a listing entry may lack it: serial unless it says concurrent.
    const concurrency = info.concurrency === ToolConcurrency.concurrent ? ToolConcurrency.concurrent : ToolConcurrency.serial
    this.def = new ToolDefinition(registryName !== undefined ? registryName :
      McpNames.assign(McpNames.checkServer(serverName), [info.name])[0], info.description,
      schema !== undefined ? schema : info.inputSchema, info.risk, concurrency, `mcp:${serverName}`,
      ConfigCheck.count(maxConcurrentCalls, 1, 'maxConcurrentCalls', 1024))
  }

  get definition(): ToolDefinition {
    return this.def
  }

  /**
   * The server's content as typed parts; an `isError` answer, or a result that is not an object, is an
   * error-flagged result (McpContent.toResult, as in the Node client).
   */
  async execute(args: Record<string, Object>, context: ToolExecutionContext): Promise<string | ToolResult> {
    // The call's id goes with it: a question the server asks meanwhile is shown as part of this call.
    const result = await this.client.callTool(this.mcpName, args, context.token, context.call.id)
    return McpContent.toResult(context.call.id, this.mcpName, result.answer)
  }

  /**
   * Every tool of a server the client offers (its risk overrides and filter applied; its listing cache
   * used), ready to register (names from McpNames: stable, unique, valid).
   */
  static async all(client: McpHttpClient, serverName: string, token: CancellationToken = CancellationToken.none,
    maxConcurrentCalls: number = DEFAULT_MCP_CONCURRENT_CALLS): Promise<AgentTool[]> {
    McpNames.checkServer(serverName)
    const infos = await client.listTools(token)
    const names: string[] = []
    for (let i = 0; i < infos.length; i++) {
      names.push(infos[i].name)
    }
    const assigned = McpNames.assign(serverName, names)
    const out: AgentTool[] = []
    for (let i = 0; i < infos.length; i++) {
      if (assigned[i].length > 0) {
        out.push(new McpHttpTool(client, serverName, infos[i], assigned[i], maxConcurrentCalls))
      }
    }
    return out
  }
}
