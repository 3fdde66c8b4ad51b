import { ToolDefinition, ToolRiskLevel } from '../model/ToolDefinition'

/**
 * Which risk levels the runtime lets a tool call run at without asking the user. Part of the
 * runtime's configuration (on by default, `ApprovalPolicy.standard()`), applied after every
 * `beforeToolCall` hook to the call as they rewrote it: a hook can deny, defer or abort, but its
 * `proceed` never waives this gate. Checked again when each call executes, against the tool's
 * definition at that moment.
 */
export class ApprovalPolicy {
  private readonly policyName: string
  private readonly askSensitive: boolean
  private readonly askDangerous: boolean

  private constructor(name: string, askSensitive: boolean, askDangerous: boolean) {
    this.policyName = name
    this.askSensitive = askSensitive
    this.askDangerous = askDangerous
  }

  /** The default: dangerous tools wait for the user's approval; safe and sensitive ones run. */
  static standard(): ApprovalPolicy {
    return new ApprovalPolicy('standard', false, true)
  }

  /** Dangerous and sensitive tools both wait for the user's approval. */
  static askForSensitiveToo(): ApprovalPolicy {
    return new ApprovalPolicy('ask_for_sensitive_too', true, true)
  }

  /**
   * The opt-out, for headless jobs that accept the risk: every tool runs without asking anyone,
   * dangerous ones included. Hooks may still deny or defer calls.
   */
  static runDangerousToolsWithoutApproval(): ApprovalPolicy {
    return new ApprovalPolicy('run_dangerous_tools_without_approval', false, false)
  }

  get name(): string {
    return this.policyName
  }

  /** Whether a call at this risk level waits for the user. Anything but the three levels asks. */
  needsApproval(risk: ToolRiskLevel): boolean {
    if (risk === ToolRiskLevel.safe) {
      return false
    }
    if (risk === ToolRiskLevel.sensitive) {
      return this.askSensitive
    }
    if (risk === ToolRiskLevel.dangerous) {
      return this.askDangerous
    }
    return true
  }

  /**
   * Whether a call cleared to run at `clearance` (by this policy or by the user's approval) may run
   * with the tool as `definition` describes it now: its risk is no higher than what was cleared, or
   * this policy lets that risk run without asking.
   */
  admits(definition: ToolDefinition | undefined, clearance: ToolRiskLevel): boolean {
    const risk = ApprovalPolicy.riskOf(definition)
    // A clearance outside the three levels clears nothing.
    const cleared = ApprovalPolicy.rank(clearance) <= 2 ? ApprovalPolicy.rank(clearance) : -1
    return ApprovalPolicy.rank(risk) <= cleared || !this.needsApproval(risk)
  }

  /**
   * The risk level of a definition, failing closed: a value that is not a ToolDefinition (plain
   * JavaScript), or a level outside the three, counts as dangerous.
   */
  static riskOf(definition: ToolDefinition | undefined): ToolRiskLevel {
    if (!(definition instanceof ToolDefinition)) {
      return ToolRiskLevel.dangerous
    }
    const risk = definition.riskLevel
    return risk === ToolRiskLevel.safe || risk === ToolRiskLevel.sensitive ? risk : ToolRiskLevel.dangerous
  }

  /** 0 safe, 1 sensitive, 2 dangerous; anything else ranks above dangerous. */
  static rank(risk: ToolRiskLevel): number {
    if (risk === ToolRiskLevel.safe) {
      return 0
    }
    if (risk === ToolRiskLevel.sensitive) {
      return 1
    }
    return risk === ToolRiskLevel.dangerous ? 2 : 3
  }
}
