// @arkagent/core/mcp: MCP servers as tool sources, through the official TypeScript SDK
// (`@modelcontextprotocol/sdk`, an optional peer dependency: install it to use this entry).
export { McpToolSource } from './node/mcp/McpToolSource'
export { McpTool } from './node/mcp/McpTool'
export { resultText as mcpResultText, riskOf as mcpRiskOf } from './node/mcp/McpOffered'
export type { McpServerSpec } from './node/mcp/McpServerSpec'
