import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { fnv1a } from '../util/Text'

/**
 * Registry names of MCP tools, shared by the core's HTTP client and the Node SDK source. A server name
 * has no '_' so `<server>__` prefixes never overlap; a tool name the registry cannot take as it is
 * (characters outside [A-Za-z0-9_-], too long, or equal after that to another tool's name) gets a hash
 * of the server's own name, so the same tool always gets the same name whatever the listing order.
 */
export class McpNames {
  /** Letters, digits and '-', 1-24 characters. */
  static checkServer(name: string): string {
    if (typeof name !== 'string' || !new RegExp('^[A-Za-z0-9-]{1,24}$').test(name)) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig,
        `MCP server name ${JSON.stringify(name)} must be 1-24 letters, digits or '-'`, ErrorRetryability.never)
    }
    return name
  }

  /**
   * One name per distinct MCP tool name in `toolNames` (same order; '' for a duplicate of an earlier
   * entry, which is not offered twice).
   */
  static assign(server: string, toolNames: string[]): string[] {
    const plain = new Set<string>()
    for (let i = 0; i < toolNames.length; i++) {
      if (McpNames.isPlain(server, toolNames[i])) {
        plain.add(toolNames[i])
      }
    }
    const seen = new Set<string>()
    const used = new Set<string>()
    plain.forEach((t: string): void => {
      used.add(`${server}__${t}`)
    })
    const out: string[] = []
    for (let i = 0; i < toolNames.length; i++) {
      const t = toolNames[i]
      if (seen.has(t)) {
        out.push('')
        continue
      }
      seen.add(t)
      if (plain.has(t)) {
        out.push(`${server}__${t}`)
        continue
      }
      // Sanitised, then hashed: never equal to a plain name (those are left as the server spelt them).
      const base = `${server}__${t}`.replace(new RegExp('[^A-Za-z0-9_-]', 'g'), '_').substring(0, 55)
      let name = `${base}_${fnv1a(t)}`
      while (used.has(name)) {
        name = `${base}_${fnv1a(name + t)}`
      }
      used.add(name)
      out.push(name)
    }
    return out
  }

  private static isPlain(server: string, tool: string): boolean {
    return tool.length > 0 && server.length + 2 + tool.length <= 64 && new RegExp('^[A-Za-z0-9_-]+$').test(tool)
  }
}
