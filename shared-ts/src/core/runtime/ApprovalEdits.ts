import { ApprovalPolicy } from '../approvals/ApprovalPolicy'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { Thrown } from '../errors/Thrown'
import { CallOrigin, ToolCallHookContext, ToolLookup } from '../hook/HookContexts'
import { ToolCallHookAction } from '../hook/HookResults'
import { ToolCall } from '../model/ToolCall'
import { ToolDefinition, ToolRiskLevel } from '../model/ToolDefinition'
import { SecretVault } from '../secrets/SecretVault'
import { PendingApprovalBatch, PendingApprovalItem } from '../state/PendingApproval'
import { DecisionRequest } from './DecisionInput'
import { GrantBook } from './GrantBook'
import { GrantVerdict } from '../state/ApprovalGrant'
import { RuntimeServices } from './RuntimeServices'

/** An edited call that may be approved, and the risk level it is cleared at. */
export class EditedCall {
  readonly call: ToolCall
  readonly risk: ToolRiskLevel

  constructor(call: ToolCall, risk: ToolRiskLevel) {
    this.call = call
    this.risk = risk
  }
}

/**
 * An approval with edits, checked before it counts: the edited call (same id, the edited arguments,
 * the name unless a rename is allowed) must be able to run as it stands — registered, arguments that
 * parse and match the schema — and goes through every beforeToolCall hook again, marked as the user's
 * edit (CallOrigin.userEdit). A hook that denies or rewrites it refuses the decision: what runs is
 * the edit, byte for byte, or nothing.
 */
export class ApprovalEdits {
  /**
   * Undefined when the request carries no edit, or one identical to the call as asked. Throws
   * approval_edit_refused. Besides the hooks and the registry, an edit must not be one a remembered
   * "always deny" covers, and its tool must be no riskier than what the user was asked about.
   */
  static async check(s: RuntimeServices, grants: GrantBook, batch: PendingApprovalBatch, item: PendingApprovalItem,
    request: DecisionRequest): Promise<EditedCall | undefined> {
    if (!request.hasEdit()) {
      return undefined
    }
    const asked = item.toolCall
    const name = request.name ?? asked.name
    const args = request.argumentsText ?? asked.argumentsJson
    if (name === asked.name && args === asked.argumentsJson) {
      return undefined
    }
    if (name !== asked.name && !s.config.allowToolRenameOnApproval) {
      throw ApprovalEdits.refused(`the tool name can be replaced only when allowToolRenameOnApproval is on`)
    }
    if (SecretVault.leaks(args) || SecretVault.leaks(name) || SecretVault.leaks(ApprovalEdits.unescaped(args))) {
      // What runs must be exactly the edit, and a secret may not be stored: the edit cannot count.
      throw ApprovalEdits.refused('the edited call holds a secret this process keeps')
    }
    const edited = new ToolCall(asked.id, name, args, asked.index)
    const registry = s.config.tools
    const lookup: ToolLookup = (n: string): ToolDefinition | undefined => registry.definition(n)
    const ctx = new ToolCallHookContext(s.sessionId, batch.runId, s.view(), edited, batch.modelMessage,
      registry.definitions(), registry.definition(name), lookup, CallOrigin.userEdit, asked)
    let action: ToolCallHookAction
    let rewritten: ToolCall | undefined
    let why: string | undefined
    try {
      const verdict = await s.hooks.beforeToolCall(ctx)
      action = verdict.action
      rewritten = verdict.call
      why = verdict.reason
    } catch (e) {
      throw ApprovalEdits.refused(`a beforeToolCall hook failed on the edited call (${Thrown.describe(e as Object)})`)
    }
    if (action === ToolCallHookAction.abort || action === ToolCallHookAction.deny) {
      throw ApprovalEdits.refused(`a beforeToolCall hook ${action === ToolCallHookAction.abort ? 'aborted on' : 'denied'} ` +
        `the edited call${why !== undefined && why.length > 0 ? ': ' + why : ''}`)
    }
    if (rewritten !== undefined && (rewritten.name !== edited.name || rewritten.argumentsJson !== edited.argumentsJson)) {
      throw ApprovalEdits.refused('a beforeToolCall hook rewrote the edited call; what runs must be exactly what was ' +
        'approved, so edit it again as it should run')
    }
    // A copy made from the checked texts: a hook that kept the object it was shown cannot change what runs.
    const approved = new ToolCall(asked.id, name, args, asked.index)
    const denied = grants.find(await grants.all(), approved)
    if (denied !== undefined && denied.verdict !== GrantVerdict.allow) {
      throw ApprovalEdits.refused(`a remembered "always deny" covers the edited call (grant ${denied.grantId})`)
    }
    // After the hooks, and read together with no await between: the refusal and the risk describe one definition.
    const refusal = registry.check(approved)
    if (refusal !== undefined) {
      throw ApprovalEdits.refused(`the edited call cannot run: ${refusal.textContent()}`)
    }
    const risk = ApprovalPolicy.riskOf(registry.definition(name))
    if (ApprovalPolicy.rank(risk) > ApprovalPolicy.rank(item.riskLevel)) {
      throw ApprovalEdits.refused(`'${name}' is ${risk}, riskier than the ${item.riskLevel} call you were asked about`)
    }
    return new EditedCall(approved, risk)
  }

  /** JSON text with its escapes undone (`\u0073k` is `sk`): what the tool will read. */
  private static unescaped(args: string): string {
    try {
      return JSON.stringify(JSON.parse(args) as Object)
    } catch (e) {
      return args
    }
  }

  static refused(what: string): ArkAgentError {
    return new ArkAgentError(ErrorLayer.runtime, ErrorCodes.approvalEditRefused, `Approval with edits refused: ${what}`,
      ErrorRetryability.afterAction)
  }
}
