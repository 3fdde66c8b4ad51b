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
    const used = new Set<string>()
    const unique: string[] = []
    const seen = new Set<string>()
    for (let i = 0; i < toolNames.length; i++) {
      if (!seen.has(toolNames[i])) {
        seen.add(toolNames[i])
        unique.push(toolNames[i])
      }
    }
    const named = new Map<string, string>()
    const hashed: string[] = []
    for (let i = 0; i < unique.length; i++) {
      const t = unique[i]
      if (McpNames.isPlain(server, t)) {
        named.set(t, `${server}__${t}`)
        used.add(`${server}__${t}`)
      } else {
        hashed.push(t)
      }
    }
    // In the order of the server's spellings, not of the listing: even a hash collision (which a
    // hostile server can search for) resolves the same way whatever order the tools come in.
    hashed.sort((x: string, y: string): number => x < y ? -1 : x > y ? 1 : 0)
    for (let i = 0; i < hashed.length; i++) {
      const t = hashed[i]
      // Sanitised, then hashed: never equal to a plain name (those are left as the server spelt them).
      const base = `${server}__${t}`.replace(new RegExp('[^A-Za-z0-9_-]', 'g'), '_').substring(0, 55)
      let name = `${base}_${fnv1a(t)}`
      while (used.has(name)) {
        name = `${base}_${fnv1a(name + t)}`
      }
      used.add(name)
      named.set(t, name)
    }
    const out: string[] = []
    const given = new Set<string>()
    for (let i = 0; i < toolNames.length; i++) {
      const t = toolNames[i]
      if (given.has(t)) {
        out.push('')
        continue
      }
      given.add(t)
      out.push(named.get(t) as string)
    }
    return out
  }

  private static isPlain(server: string, tool: string): boolean {
    return tool.length > 0 && server.length + 2 + tool.length <= 64 && new RegExp('^[A-Za-z0-9_-]+$').test(tool)
  }
}
