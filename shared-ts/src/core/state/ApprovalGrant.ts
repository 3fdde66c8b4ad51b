import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { ToolRiskLevel } from '../model/ToolDefinition'

/** What a remembered decision does to a matching call: runs it without asking, or denies it. */
export enum GrantVerdict {
  allow = 'allow',
  deny = 'deny'
}

/**
 * Where a remembered decision lives: in this session's state, or in the app's grant store
 * (`AgentRuntimeConfig.appGrants`), shared by every session that uses that store.
 */
export enum GrantScope {
  session = 'session',
  app = 'app'
}

/**
 * A remembered decision ("always allow" / "always deny"). Pure data, stored with the session (or the
 * app's grant store). It applies to a call when the call names `toolName`, the tool's definition is
 * still the one it was granted for (`definitionFingerprint`: name, description, risk level and schema),
 * the tool is no riskier than `riskLevel`, and — when `matcher` is set — the app's matcher of that name
 * accepts the call's arguments with `matcherParam`. docs/approvals.md.
 */
export class ApprovalGrant {
  readonly grantId: string
  readonly toolName: string
  readonly verdict: GrantVerdict
  readonly scope: GrantScope
  /** The tool's risk level when granted: a riskier tool is not covered. */
  readonly riskLevel: ToolRiskLevel
  /** The definition it was granted for, as text (ApprovalGrants.fingerprint), compared exactly. */
  readonly definitionFingerprint: string
  /** The name of an app-registered GrantMatcher; '' matches every call of the tool. */
  readonly matcher: string
  /** What the matcher is given with the call's arguments (a path prefix, say). */
  readonly matcherParam: string
  /** Who made it (the actor of the decision that created it). */
  readonly actor: string
  readonly createdAtMs: number
  /** The approval item whose decision created it; '' for one made otherwise. */
  readonly fromApprovalId: string

  constructor(grantId: string, toolName: string, verdict: GrantVerdict, scope: GrantScope, riskLevel: ToolRiskLevel,
    definitionFingerprint: string, matcher: string, matcherParam: string, actor: string, createdAtMs: number,
    fromApprovalId: string) {
    // Made by apps' own stores too: a verdict, scope or level outside the enums would be read as
    // something it is not (a 'DENY' as an allow), so it is refused where it is made.
    if (verdict !== GrantVerdict.allow && verdict !== GrantVerdict.deny) {
      throw ApprovalGrant.invalid(`verdict ${JSON.stringify(verdict as Object ?? null)}; expected 'allow' or 'deny'`)
    }
    if (scope !== GrantScope.session && scope !== GrantScope.app) {
      throw ApprovalGrant.invalid(`scope ${JSON.stringify(scope as Object ?? null)}; expected 'session' or 'app'`)
    }
    if (riskLevel !== ToolRiskLevel.safe && riskLevel !== ToolRiskLevel.sensitive && riskLevel !== ToolRiskLevel.dangerous) {
      throw ApprovalGrant.invalid('a risk level outside safe, sensitive, dangerous')
    }
    const texts: Object[] = [grantId, toolName, definitionFingerprint, matcher, matcherParam, actor, fromApprovalId]
    if (texts.some((t: Object): boolean => typeof t !== 'string') || grantId.length === 0 || toolName.length === 0 ||
      typeof createdAtMs !== 'number' || !Number.isFinite(createdAtMs)) {
      throw ApprovalGrant.invalid('an id, tool name or text that is not a non-empty string, or a time that is not a number')
    }
    this.grantId = grantId
    this.toolName = toolName
    this.verdict = verdict
    this.scope = scope
    this.riskLevel = riskLevel
    this.definitionFingerprint = definitionFingerprint
    this.matcher = matcher
    this.matcherParam = matcherParam
    this.actor = actor
    this.createdAtMs = createdAtMs
    this.fromApprovalId = fromApprovalId
  }

  private static invalid(what: string): ArkAgentError {
    return new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, `An approval grant with ${what}`,
      ErrorRetryability.never)
  }
}
