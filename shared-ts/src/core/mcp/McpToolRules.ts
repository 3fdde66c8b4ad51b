import { Thrown } from '../errors/Thrown'
import { ToolConcurrency, ToolRiskLevel } from '../model/ToolDefinition'
import { ConfigCheck } from '../util/ConfigCheck'
import { McpSkippedTool } from './McpSkippedTool'
import { McpToolInfo } from './McpToolInfo'

/**
 * Which of a server's tools are offered, by the server's own tool names: `allow` (only these),
 * `block` (never these) and a `predicate` (asked about each tool left, with its description, schema
 * and final risk; only `true` keeps it). Applied to every listing, before tools reach a registry or a
 * model; a tool left out is still the server's — calling it by name through the client is not refused.
 */
export interface McpToolFilter {
  allow?: string[]
  block?: string[]
  predicate?: (tool: McpToolInfo) => boolean
}

const FILTER_KEYS: string[] = ['allow', 'block', 'predicate']

/**
 * The per-server rules both MCP clients apply to a listing: risk overrides (`{ tool: level }`, own
 * keys only, each level checked), then the filter. Checked where they are given: a bad value is
 * invalid_config naming it.
 */
export class McpToolRules {
  private readonly risk: Map<string, ToolRiskLevel> = new Map<string, ToolRiskLevel>()
  private readonly concurrency: Map<string, ToolConcurrency> = new Map<string, ToolConcurrency>()
  private readonly allow?: Set<string>
  private readonly block: Set<string> = new Set<string>()
  private readonly predicate?: (tool: McpToolInfo) => boolean

  /** `what` names the server in errors (`MCP server 'notes'`). */
  /** `concurrency`: per tool name, over what its annotations say (readOnlyHint → concurrent). */
  constructor(what: string, risk?: Record<string, ToolRiskLevel>, filter?: McpToolFilter,
    concurrency?: Record<string, ToolConcurrency>) {
    this.readConcurrency(what, concurrency)
    if (risk !== undefined) {
      if (risk === null || typeof risk !== 'object' || (risk as Object) instanceof Array) {
        throw ConfigCheck.invalid(`${what}: risk must map tool names to risk levels`)
      }
      const names = Object.keys(risk as Object)
      for (let i = 0; i < names.length; i++) {
        const level: Object | undefined = (risk as Record<string, Object>)[names[i]]
        if (level !== ToolRiskLevel.safe && level !== ToolRiskLevel.sensitive && level !== ToolRiskLevel.dangerous) {
          throw ConfigCheck.invalid(`${what}: risk of '${names[i].substring(0, 64)}' is ${ConfigCheck.show(level)}; ` +
            'expected \'safe\', \'sensitive\' or \'dangerous\'')
        }
        this.risk.set(names[i], level as ToolRiskLevel)
      }
    }
    if (filter === undefined) {
      return
    }
    if (filter === null || typeof filter !== 'object' || (filter as Object) instanceof Array) {
      throw ConfigCheck.invalid(`${what}: filter must be an object with allow, block and/or predicate`)
    }
    const keys = Object.keys(filter as Object)
    for (let i = 0; i < keys.length; i++) {
      if (FILTER_KEYS.indexOf(keys[i]) < 0) {
        throw ConfigCheck.invalid(`${what}: filter has an unknown option ${JSON.stringify(keys[i].substring(0, 64))}; ` +
          `known options are ${FILTER_KEYS.join(', ')}`)
      }
    }
    if (filter.allow !== undefined) {
      this.allow = McpToolRules.names(filter.allow, `${what}: filter.allow`)
    }
    if (filter.block !== undefined) {
      this.block = McpToolRules.names(filter.block, `${what}: filter.block`)
    }
    const predicate = filter.predicate
    if (predicate !== undefined) {
      if (typeof predicate !== 'function') {
        throw ConfigCheck.invalid(`${what}: filter.predicate must be a function of a tool answering true to keep it`)
      }
      this.predicate = predicate
    }
  }

  private readConcurrency(what: string, concurrency?: Record<string, ToolConcurrency>): void {
    if (concurrency === undefined) {
      return
    }
    if (concurrency === null || typeof concurrency !== 'object' || (concurrency as Object) instanceof Array) {
      throw ConfigCheck.invalid(`${what}: concurrency must map tool names to 'serial' or 'concurrent'`)
    }
    const names = Object.keys(concurrency as Object)
    for (let i = 0; i < names.length; i++) {
      const mode: Object | undefined = (concurrency as Record<string, Object>)[names[i]]
      if (mode !== ToolConcurrency.serial && mode !== ToolConcurrency.concurrent) {
        throw ConfigCheck.invalid(`${what}: concurrency of '${names[i].substring(0, 64)}' is ${ConfigCheck.show(mode)}; ` +
          'expected \'serial\' or \'concurrent\'')
      }
      this.concurrency.set(names[i], mode as ToolConcurrency)
    }
  }

  /** The risk a tool is offered with: the override for its name, else what its annotations say. */
  riskOf(info: McpToolInfo): ToolRiskLevel {
    const level = this.risk.get(info.name)
    return level !== undefined ? level : info.risk
  }

  /**
   * The tools to offer, in order: risk overridden, then filtered. A predicate that throws leaves its
   * tool out (never in by accident) and reports it in `skipped`.
   */
  apply(infos: McpToolInfo[], skipped: McpSkippedTool[]): McpToolInfo[] {
    const out: McpToolInfo[] = []
    for (let i = 0; i < infos.length; i++) {
      const listed = infos[i]
      const risk = this.riskOf(listed)
      const mode = this.concurrency.get(listed.name)
      const concurrency = mode !== undefined ? mode : listed.concurrency
      const info = risk === listed.risk && concurrency === listed.concurrency ? listed :
        new McpToolInfo(listed.name, listed.description, listed.inputSchema, risk, listed.schema, concurrency)
      const allow = this.allow
      if ((allow !== undefined && !allow.has(info.name)) || this.block.has(info.name)) {
        continue
      }
      const predicate = this.predicate
      if (predicate !== undefined) {
        let keep = false
        try {
          keep = predicate(info) === true
        } catch (e) {
          skipped.push(new McpSkippedTool(info.name, `the tool filter's predicate failed: ${Thrown.describe(e as Object)}`))
          continue
        }
        if (!keep) {
          continue
        }
      }
      out.push(info)
    }
    return out
  }

  private static names(list: string[], what: string): Set<string> {
    if (!(list instanceof Array)) {
      throw ConfigCheck.invalid(`${what} must be an array of tool names (the server's spelling)`)
    }
    const out = new Set<string>()
    for (let i = 0; i < list.length; i++) {
      if (typeof list[i] !== 'string') {
        throw ConfigCheck.invalid(`${what}[${i}] must be a tool name (a string); got ${ConfigCheck.show(list[i] as Object)}`)
      }
      out.add(list[i])
    }
    return out
  }
}
