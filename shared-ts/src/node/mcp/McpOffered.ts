// What a Node MCP source offers of a server's listing and results: risk from annotations, the text a
// model reads, and listed tools with every secret left out.
import { McpContent } from '../../core/mcp/McpContent'
import { McpSkippedTool } from '../../core/mcp/McpSkippedTool'
import { McpToolInfo } from '../../core/mcp/McpToolInfo'
import { ContentPart } from '../../core/model/ContentPart'
import { ToolRiskLevel } from '../../core/model/ToolDefinition'
import { SecretVault } from '../../core/secrets/SecretVault'

/**
 * Risk from the server's annotations: read-only → safe; destructive, or no hint at all →
 * dangerous; explicitly neither read-only nor destructive → sensitive.
 */
export function riskOf(annotations: { readOnlyHint?: boolean, destructiveHint?: boolean } | undefined): ToolRiskLevel {
  return McpToolInfo.riskOf(annotations as Object | undefined)
}

/** What a text-only model is sent for an MCP result (the typed parts: `McpContent.toParts`). */
export function resultText(content: unknown, structured: unknown): string {
  return ContentPart.modelTextOf(McpContent.toParts(content as Object, structured as Object))
}

/** A listed tool as it may be offered: a name or schema holding a secret left out, a description redacted. */
export function withoutSecrets(read: McpToolInfo | McpSkippedTool): McpToolInfo | McpSkippedTool {
  if (!SecretVault.active) return read
  if (read instanceof McpSkippedTool) return new McpSkippedTool(SecretVault.redact(read.name), SecretVault.redact(read.reason), read.keyword)
  if (SecretVault.leaks(read.name) || SecretVault.leaks(JSON.stringify(read.inputSchema))) {
    return new McpSkippedTool(SecretVault.redact(read.name), 'its name or input schema carries a secret')
  }
  const description = SecretVault.redact(read.description)
  return description === read.description ? read : new McpToolInfo(read.name, description, read.inputSchema, read.risk, read.schema)
}
