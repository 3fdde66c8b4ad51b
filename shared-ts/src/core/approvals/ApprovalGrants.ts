import { ToolCall } from '../model/ToolCall'
import { ToolDefinition } from '../model/ToolDefinition'
import { ApprovalGrant, GrantVerdict } from '../state/ApprovalGrant'
import { ApprovalPolicy } from './ApprovalPolicy'
import { GrantMatcher, PathPrefixMatcher } from './GrantMatcher'

/**
 * Where app-scope grants are kept (`AgentRuntimeConfig.appGrants`): read at every gate, changed when
 * a decision remembers for the app or a grant is revoked. `update` must apply `change` atomically —
 * to the grants as they are when it runs, with no other change in between — and resolve with what it
 * stored. `StorageGrantStore` keeps them in any StateStorage. A load that fails fails the gate (the
 * run ends with that error): without the app's "always deny" grants nothing can be known to be allowed.
 */
export interface AppGrantStore {
  load(): Promise<ApprovalGrant[]>
  update(change: (current: ApprovalGrant[]) => ApprovalGrant[]): Promise<ApprovalGrant[]>
}

/** Matching remembered decisions against a call (docs/approvals.md). */
export class ApprovalGrants {
  /** The text a grant is bound to: the definition's risk level, name, description and schema. */
  static fingerprint(definition: ToolDefinition): string {
    return `${ApprovalPolicy.riskOf(definition)}\u0000${definition.name}\u0000${definition.description}\u0000${definition.parametersJson}`
  }

  /**
   * The grant that decides `call`, or undefined. An applicable "always deny" wins over any "always
   * allow". A grant applies only to the tool it names and (with a matcher) when the matcher says so —
   * failing closed as GrantMatcher says. An "always allow" also needs the definition it was granted
   * for, at no higher risk; an "always deny" stays in force whatever the tool's definition becomes.
   * A verdict that is not exactly `allow` counts as a deny.
   */
  static find(grants: ApprovalGrant[], call: ToolCall, definition: ToolDefinition | undefined,
    matchers: GrantMatcher[]): ApprovalGrant | undefined {
    if (!(definition instanceof ToolDefinition) || grants.length === 0) {
      return undefined
    }
    const fingerprint = ApprovalGrants.fingerprint(definition)
    const risk = ApprovalPolicy.rank(ApprovalPolicy.riskOf(definition))
    let allowed: ApprovalGrant | undefined
    for (let i = 0; i < grants.length; i++) {
      const g = grants[i]
      const deny = g.verdict !== GrantVerdict.allow
      if (g.toolName !== call.name ||
        (!deny && (g.definitionFingerprint !== fingerprint || risk > ApprovalPolicy.rank(g.riskLevel)))) {
        continue
      }
      if (!ApprovalGrants.matches(g, call, matchers, deny)) {
        continue
      }
      if (deny) {
        return g
      }
      if (allowed === undefined) {
        allowed = g
      }
    }
    return allowed
  }

  /** Whether the grant's matcher accepts the call; `failingMatches`: what a missing or failing matcher means. */
  private static matches(g: ApprovalGrant, call: ToolCall, matchers: GrantMatcher[], failingMatches: boolean): boolean {
    if (g.matcher.length === 0) {
      return true
    }
    let matcher: GrantMatcher | undefined
    for (let i = 0; i < matchers.length; i++) {
      if (matchers[i].name === g.matcher) {
        matcher = matchers[i]
        break
      }
    }
    if (matcher === undefined) {
      return failingMatches
    }
    try {
      const parsed = JSON.parse(call.argumentsJson) as Object
      if (parsed === null || typeof parsed !== 'object' || parsed instanceof Array) {
        return failingMatches
      }
      const args = parsed as Record<string, Object>
      const verdict = (failingMatches && matcher instanceof PathPrefixMatcher ?
        (matcher as PathPrefixMatcher).matchesForDeny(args, g.matcherParam) : matcher.matches(args, g.matcherParam)) as Object
      return failingMatches ? verdict !== false : verdict === true
    } catch (e) {
      return failingMatches
    }
  }
}
