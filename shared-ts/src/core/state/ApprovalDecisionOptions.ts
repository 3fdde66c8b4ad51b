/**
 * What an approve or deny call may carry besides the decision (docs/approvals.md). Every field is
 * optional; a name that is not one of these is refused (invalid_input), so a misspelt `argument`
 * never approves the unedited call.
 */
export interface ApprovalDecisionOptions {
  /**
   * Approve only: the edited arguments, as JSON text or a JSON object. Checked against the tool's
   * schema and put through the beforeToolCall hooks again; what runs is exactly this call.
   */
  arguments?: string | Object
  /** Approve only: a replacement tool name, accepted only when `AgentRuntimeConfig.allowToolRenameOnApproval` is on. */
  name?: string
  /** Who decides: an identity string the app supplies (at most 256 characters); default `user`. */
  actor?: string
  /** Why, in the user's words: recorded, published, and (on a deny without `messageToModel`) told to the model. */
  reason?: string
  /** Deny only: what the model is told, instead of `reason`. */
  messageToModel?: string
  /** Remember this decision for later calls of the tool: `session` or `app` (needs `AgentRuntimeConfig.appGrants`). */
  remember?: string
  /** With `remember`: the name of an app-registered GrantMatcher that limits the grant to calls it accepts. */
  matcher?: string
  /** With `matcher`: what the matcher is given with the arguments (a path prefix, say). */
  matcherParam?: string
}

/** The option names ApprovalDecisionOptions has. */
export const APPROVAL_DECISION_OPTION_NAMES: string[] = ['arguments', 'name', 'actor', 'reason', 'messageToModel',
  'remember', 'matcher', 'matcherParam']
