import { AgentHook } from '../hook/AgentHook'
import { ToolCallHookContext } from '../hook/HookContexts'
import { ToolCallHookResult } from '../hook/HookResults'
import { ToolRiskLevel } from '../model/ToolDefinition'
import { ApprovalPolicy } from './ApprovalPolicy'

/**
 * Defers registered dangerous tools (and, optionally, sensitive ones) to the user at its place in
 * the hook order (hooks after it do not run for a call it defers). The runtime's own gate
 * (`AgentRuntimeConfig.approvalPolicy`) asks for dangerous tools whether or not this hook is
 * registered; this hook can only add deferrals, never waive that gate. Unknown tools pass: the
 * registry answers them with tool_not_found — asking a user to approve a tool that does not exist
 * would hide the real problem.
 */
export class ApprovalPolicyHook extends AgentHook {
  private readonly deferSensitive: boolean

  constructor(deferSensitive: boolean = false) {
    super()
    this.deferSensitive = deferSensitive
  }

  get hookName(): string {
    return 'ApprovalPolicyHook'
  }

  async beforeToolCall(context: ToolCallHookContext): Promise<ToolCallHookResult> {
    const def = context.definition
    if (def === undefined) {
      return ToolCallHookResult.proceed()
    }
    // Fail closed: anything but 'safe' (and 'sensitive' when those are not deferred) asks the user.
    const risk = ApprovalPolicy.riskOf(def)
    if (risk !== ToolRiskLevel.safe && (this.deferSensitive || risk !== ToolRiskLevel.sensitive)) {
      return ToolCallHookResult.defer(`'${context.call.name}' is ${risk} and needs your approval`)
    }
    return ToolCallHookResult.proceed()
  }
}
