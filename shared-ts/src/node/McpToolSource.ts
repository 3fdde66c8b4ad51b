// MCP servers as tools under the control plane (Node): the official SDK's client over stdio or
// Streamable HTTP. Every MCP call is an AgentTool call, so it passes the same hooks, approval gates,
// at-most-once marks and loop detection as a local tool.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { AgentHook } from '../core/hook/AgentHook'
import { ModelCallHookContext } from '../core/hook/HookContexts'
import { ModelCallHookResult } from '../core/hook/HookResults'
import { AgentTool, ToolExecutionContext } from '../core/tools/AgentTool'
import { ToolDefinition, ToolRiskLevel } from '../core/model/ToolDefinition'
import { ToolRegistry } from '../core/tools/ToolRegistry'
import { ErrorCodes } from '../core/errors/ArkAgentError'
import { McpContent } from '../core/mcp/McpContent'
import { ContentPart } from '../core/model/ContentPart'
import { ToolResult } from '../core/model/ToolResult'

/** One MCP server: a command (stdio) or a URL (Streamable HTTP). */
export interface McpServerSpec {
  /** Prefix of the tool names (`<name>__<tool>`). */
  name: string
  command?: string
  args?: string[]
  env?: Record<string, string>
  url?: string
  /** Risk per MCP tool name, over what the annotations say. */
  risk?: Record<string, ToolRiskLevel>
}

interface McpToolInfo {
  name: string
  description?: string
  inputSchema?: Record<string, unknown>
  annotations?: { readOnlyHint?: boolean, destructiveHint?: boolean }
}


/**
 * Risk from the server's annotations: read-only → safe; destructive, or no hint at all →
 * dangerous; explicitly neither read-only nor destructive → sensitive.
 */
export function riskOf(annotations: McpToolInfo['annotations']): ToolRiskLevel {
  if (annotations?.readOnlyHint === true) return ToolRiskLevel.safe
  if (annotations?.destructiveHint === false) return ToolRiskLevel.sensitive
  return ToolRiskLevel.dangerous
}

/** What a text-only model is sent for an MCP result (the typed parts: `McpContent.toParts`). */
export function resultText(content: unknown, structured: unknown): string {
  return ContentPart.modelTextOf(McpContent.toParts(content as Object, structured as Object))
}

export class McpToolSource {
  readonly spec: McpServerSpec
  private client?: Client
  private connecting?: Promise<Client>
  /** The server said its tool list changed (`notifications/tools/list_changed`) since the last listing. */
  listChanged: boolean = false

  constructor(spec: McpServerSpec) {
    if ((spec.command === undefined) === (spec.url === undefined)) {
      throw new Error(`MCP server '${spec.name}': give a command or a url`)
    }
    this.spec = spec
  }

  /** Connects (once; again after a failure), returning the client. */
  private connect(): Promise<Client> {
    if (this.client !== undefined) return Promise.resolve(this.client)
    this.connecting ??= (async () => {
      const client = new Client({ name: 'arkagent', version: '0.1.0' })
      const transport = this.spec.url !== undefined
        ? new StreamableHTTPClientTransport(new URL(this.spec.url))
        : new StdioClientTransport({ command: this.spec.command as string, args: this.spec.args ?? [], env: this.spec.env, stderr: 'ignore' })
      transport.onclose = () => { if (this.client === client) this.client = undefined }
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => { this.listChanged = true })
      try {
        await client.connect(transport)
      } finally {
        this.connecting = undefined
      }
      this.client = client
      return client
    })()
    return this.connecting
  }

  /** The server's tools as AgentTools named `<server>__<tool>` (unique, 1-64 of [A-Za-z0-9_-]). */
  async tools(): Promise<AgentTool[]> {
    const client = await this.connect()
    this.listChanged = false
    const listed = (await client.listTools()).tools as McpToolInfo[]
    const used = new Set<string>()
    return listed.map((info) => {
      let name = `${this.spec.name}__${info.name}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64)
      for (let i = 2; used.has(name); i++) name = `${name.slice(0, 60)}_${i}`
      used.add(name)
      const risk = this.spec.risk?.[info.name] ?? riskOf(info.annotations)
      const schema = (info.inputSchema ?? { type: 'object' }) as Record<string, Object>
      return new McpTool(this, info.name, new ToolDefinition(name, info.description ?? info.name, schema, risk))
    })
  }

  /** Registers every tool of the server; returns their names. */
  async register(registry: ToolRegistry): Promise<string[]> {
    const tools = await this.tools()
    for (const t of tools) registry.register(t)
    return tools.map((t) => t.definition.name)
  }

  /**
   * Brings `registry` in line with the server's current list: new tools registered, vanished ones
   * removed (only this server's `<name>__` tools are touched). Returns what changed.
   */
  async syncInto(registry: ToolRegistry): Promise<{ added: string[], removed: string[] }> {
    const tools = await this.tools()
    const now = new Set(tools.map((t) => t.definition.name))
    const prefix = `${this.spec.name}__`
    const removed = registry.definitions().map((d) => d.name).filter((n) => n.startsWith(prefix) && !now.has(n))
    for (const n of removed) registry.unregister(n)
    const added: string[] = []
    for (const t of tools) {
      if (registry.get(t.definition.name) === undefined) {
        registry.register(t)
        added.push(t.definition.name)
      }
    }
    return { added, removed }
  }

  /**
   * A hook that applies a changed tool list before the next model call — between turns, never in
   * the middle of a batch (batches run after the model answered). The request being built keeps the
   * list it was made with; the next turn offers the new one.
   */
  refreshHook(registry: ToolRegistry): AgentHook {
    return new McpRefreshHook(this, registry)
  }

  /**
   * Calls a tool; a dead connection is reopened first. The answer's content becomes typed parts
   * (text, image, audio, resource, json); an `isError` answer is an error-flagged result with them.
   */
  async call(tool: string, args: Record<string, Object>, context: ToolExecutionContext): Promise<ToolResult> {
    const controller = new AbortController()
    const off = context.token.onCancel(() => controller.abort())
    let result: Awaited<ReturnType<Client['callTool']>>
    try {
      const client = await this.connect()
      result = await client.callTool({ name: tool, arguments: args }, undefined, { signal: controller.signal })
    } catch (e) {
      // The transport may be gone (a crashed or restarted server): reconnect on the next call.
      const dead = this.client
      this.client = undefined
      if (dead !== undefined) void dead.close().catch(() => {})
      throw e
    } finally {
      off()
    }
    const parts = McpContent.toParts(result.content as Object, result.structuredContent as Object)
    const isError = result.isError === true
    if (isError && parts.length === 0) parts.push(ContentPart.text(`MCP tool ${tool} reported an error`))
    return new ToolResult(context.call.id, parts, isError, isError ? ErrorCodes.toolExecutionFailed : undefined)
  }

  async close(): Promise<void> {
    const client = this.client
    this.client = undefined
    if (client !== undefined) await client.close()
  }
}

/** One MCP tool as an AgentTool. */
export class McpTool extends AgentTool {
  private readonly def: ToolDefinition

  constructor(private readonly source: McpToolSource, readonly mcpName: string, definition: ToolDefinition) {
    super()
    this.def = definition
  }

  get definition(): ToolDefinition {
    return this.def
  }

  execute(args: Record<string, Object>, context: ToolExecutionContext): Promise<ToolResult> {
    return this.source.call(this.mcpName, args, context)
  }
}

class McpRefreshHook extends AgentHook {
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
