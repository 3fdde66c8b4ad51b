/**
 * A tool an MCP server listed that was left out of the listing, and why: it has no name, its input
 * schema is not a JSON-Schema object, or the schema was refused by the validator (`keyword` names
 * the refused keyword) — a tool is never offered with a schema checked weaker than it says.
 */
export class McpSkippedTool {
  /** The tool's name as the server spelled it ('' when it gave none). */
  readonly name: string
  /** Why it was left out. */
  readonly reason: string
  /** The refused JSON Schema keyword ('' when the schema as a whole, or something else, was the problem). */
  readonly keyword: string

  constructor(name: string, reason: string, keyword: string = '') {
    this.name = name
    this.reason = reason
    this.keyword = keyword
  }

  /** One line for a log: `MCP tool 'x' left out: ...`. */
  toString(): string {
    return `MCP tool ${JSON.stringify(this.name)} left out: ${this.reason}`
  }
}
