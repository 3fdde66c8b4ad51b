import { AgentHook } from '../hook/AgentHook'
import { ToolCallHookContext } from '../hook/HookContexts'
import { ToolCallHookResult } from '../hook/HookResults'
import { ToolRiskLevel } from '../model/ToolDefinition'

/**
 * Defers registered dangerous tools (and, optionally, sensitive ones) to the user. Unknown tools
 * pass: the registry answers them with tool_not_found — asking a user to approve a tool that does
 * not exist would hide the real problem.
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
    const risk = def.riskLevel
    if (risk !== ToolRiskLevel.safe && (this.deferSensitive || risk !== ToolRiskLevel.sensitive)) {
      return ToolCallHookResult.defer(`'${def.name}' is ${def.riskLevel} and needs your approval`)
    }
    return ToolCallHookResult.proceed()
  }
}
