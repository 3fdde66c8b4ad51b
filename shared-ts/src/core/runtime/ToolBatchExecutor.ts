import { ApprovalPolicy } from '../approvals/ApprovalPolicy'
import { ArkAgentError, ErrorCodes } from '../errors/ArkAgentError'
import { ToolCallHookContext, ToolLookup } from '../hook/HookContexts'
import { ToolCallHookAction } from '../hook/HookResults'
import { AgentMessage } from '../model/AgentMessage'
import { ToolCall } from '../model/ToolCall'
import { ToolDefinition, ToolRiskLevel } from '../model/ToolDefinition'
import { ToolResult } from '../model/ToolResult'
import { ToolBatchEntry, ToolBatchProgress } from '../state/ToolBatchProgress'
import { ToolAdmission } from '../tools/ToolRegistry'
import { ModelTurn } from './ModelTurn'
import { BatchExecution } from './BatchExecution'
import { BatchOutcome } from './BatchOutcome'
import { RunContext } from './RunContext'
import { RuntimeServices } from './RuntimeServices'
import { StatePersister } from './StatePersister'
import { ApprovalGrant, GrantVerdict } from '../state/ApprovalGrant'
import { GrantBook } from './GrantBook'

export { BatchOutcome } from './BatchOutcome'

/** The verdict of the gate phase for one call of a batch: the hooks', then the approval policy's. */
export class GatedCall {
  readonly call: ToolCall
  readonly action: ToolCallHookAction
  readonly syntheticResult?: ToolResult
  readonly reason: string
  /** The registry's answer when the call, as rewritten, cannot run (unknown tool, bad arguments). */
  readonly refusal?: ToolResult
  /** The risk level of the call's definition when it was gated (what the user is asked about). */
  readonly risk: ToolRiskLevel
  /** The remembered decision that answered the call: an "always deny" (action deny), or an "always allow" the policy asked for. */
  readonly grant?: ApprovalGrant

  constructor(call: ToolCall, action: ToolCallHookAction, reason: string, syntheticResult?: ToolResult,
    refusal?: ToolResult, risk: ToolRiskLevel = ToolRiskLevel.safe, grant?: ApprovalGrant) {
    this.call = call
    this.action = action
    this.reason = reason
    this.syntheticResult = syntheticResult
    this.refusal = refusal
    this.risk = risk
    this.grant = grant
  }

  /** A call the user is asked about when its batch freezes: not denied, and able to run. */
  needsDecision(): boolean {
    return this.action !== ToolCallHookAction.deny && this.refusal === undefined
  }

  /** A defer that freezes the batch (a deferred call that cannot run is answered without asking). */
  freezes(): boolean {
    return this.action === ToolCallHookAction.defer && this.refusal === undefined
  }
}


/**
 * Gates every call of a batch before any runs (so a defer anywhere means zero side effects),
 * then executes with a durable write-ahead mark per call: a call marked started is never run
 * again, even after a crash.
 */
export class ToolBatchExecutor {
  private readonly s: RuntimeServices
  private readonly persister: StatePersister
  private readonly grants: GrantBook

  constructor(services: RuntimeServices, persister: StatePersister, grants: GrantBook) {
    this.s = services
    this.persister = persister
    this.grants = grants
  }

  /**
   * Runs beforeToolCall for every call in model order, then the runtime's approval policy on the
   * call as the hooks left it: a call they let proceed whose tool the policy asks about is
   * deferred (a hook's proceed never waives the gate). Throws on abort. Each verdict carries the
   * call as rewritten, its risk level, and the registry's refusal when that call cannot run as it
   * stands (unknown tool, arguments that do not parse or match the schema): such a call never
   * freezes a batch, and in a frozen batch it is a decided item with that error, so the user is
   * never asked to approve a call that cannot run. Outside a frozen batch it goes to execution,
   * where the registry answers it through the same events and afterToolCall hooks as any other result.
   * Remembered decisions (docs/approvals.md) are read once per batch, before the hooks: an applicable
   * "always deny" denies the call whatever the hooks said but deny; an "always allow" answers only the
   * policy's question — never a hook's defer.
   */
  async gate(run: RunContext, message: AgentMessage, available: ToolDefinition[]): Promise<GatedCall[]> {
    const hooked: GatedCall[] = []
    const registry = this.s.config.tools
    const lookup: ToolLookup = (name: string): ToolDefinition | undefined => registry.definition(name)
    for (let i = 0; i < message.callCount(); i++) {
      const original = message.callAt(i)
      const ctx = new ToolCallHookContext(this.s.sessionId, run.runId, this.s.view(), original, message, available,
        registry.definition(original.name), lookup)
      const result = await this.s.hooks.beforeToolCall(ctx)
      if (result.action === ToolCallHookAction.abort) {
        throw ModelTurn.abortError('beforeToolCall', result.reason, result.error)
      }
      const call = result.call ?? original
      if (result.action === ToolCallHookAction.deny) {
        const reason = result.reason ?? 'denied by policy'
        const synthetic = result.syntheticResult !== undefined ? result.syntheticResult.forCall(call.id) :
          ToolResult.error(call.id, ErrorCodes.toolDenied, `Tool call denied: ${reason}`)
        hooked.push(new GatedCall(call, ToolCallHookAction.deny, reason, synthetic, undefined,
          ApprovalPolicy.riskOf(registry.definition(call.name))))
      } else {
        hooked.push(new GatedCall(call, result.action, result.reason ?? 'needs approval'))
      }
    }
    // Read after every hook answered: a grant revoked while a hook ran no longer decides anything.
    const grants = await this.grants.all()
    const gated: GatedCall[] = []
    for (let i = 0; i < hooked.length; i++) {
      gated.push(hooked[i].action === ToolCallHookAction.deny ? hooked[i] : this.policyOn(hooked[i], grants))
    }
    return gated
  }

  /** The policy and the remembered grants on a call the hooks let through or deferred. */
  private policyOn(hooked: GatedCall, grants: ApprovalGrant[]): GatedCall {
    const registry = this.s.config.tools
    const call = hooked.call
    // Read together, with no await between: the refusal, the risk and the grant describe one definition.
    const risk = ApprovalPolicy.riskOf(registry.definition(call.name))
    const refusal = registry.check(call)
    const grant = refusal === undefined ? this.grants.find(grants, call) : undefined
    if (grant !== undefined && grant.verdict !== GrantVerdict.allow) {
      return new GatedCall(call, ToolCallHookAction.deny, 'denied by a remembered decision', ToolResult.error(call.id,
        ErrorCodes.toolDenied, `Not run: the user chose to always deny '${call.name}'`), undefined, risk, grant)
    }
    if (hooked.action === ToolCallHookAction.defer) {
      return new GatedCall(call, ToolCallHookAction.defer, hooked.reason, undefined, refusal, risk)
    }
    if (refusal === undefined && this.s.policy.needsApproval(risk)) {
      return grant !== undefined ? new GatedCall(call, ToolCallHookAction.proceed, '', undefined, undefined, risk, grant) :
        new GatedCall(call, ToolCallHookAction.defer, `'${call.name}' is ${risk} and needs your approval`,
          undefined, undefined, risk)
    }
    return new GatedCall(call, ToolCallHookAction.proceed, '', undefined, refusal, risk)
  }

  /**
   * Executes every entry that has no result yet (BatchExecution: concurrent tools overlap, everything
   * the model and hooks see stays in model order). Entries found started without a result (a crash
   * mid-call) get tool_interrupted instead of running again.
   */
  async execute(run: RunContext, batch: ToolBatchProgress): Promise<BatchOutcome> {
    return await new BatchExecution(this.s, this.persister, run, batch,
      (entry: ToolBatchEntry): ToolAdmission => this.admission(entry)).execute()
  }

  /**
   * The last check before a call runs, made by the registry on the definition it is about to run
   * (no await in between): a tool that is riskier now than what the call was cleared at, and that
   * the policy would ask about, is not run — whatever kind of batch the call is in.
   */
  private admission(entry: ToolBatchEntry): ToolAdmission {
    const policy = this.s.policy
    const clearance = entry.clearance
    return (definition: ToolDefinition): string => {
      if (policy.admits(definition, clearance)) {
        return ''
      }
      return `'${entry.call.name}' is ${ApprovalPolicy.riskOf(definition)} now but was cleared to run as ${clearance}: ` +
        'not run (the tool changed after the decision; the model may call it again to ask anew)'
    }
  }

  /** Moves a finished batch into history: the model message, its results in order, then injections. */
  static commit(services: RuntimeServices, batch: ToolBatchProgress, injected: AgentMessage[]): void {
    const state = services.state
    state.append(batch.modelMessage)
    for (let i = 0; i < batch.entries.length; i++) {
      const e = batch.entries[i]
      const r = e.result ?? ToolBatchExecutor.interrupted(e.call)
      state.append(AgentMessage.tool(e.call.id, r.content, r.isError, r.errorCode))
    }
    for (let i = 0; i < injected.length; i++) {
      state.append(injected[i])
    }
    services.state.toolBatch = undefined
  }

  /** Pairs every unfinished call with an error result (used when a run ends mid-batch). */
  static closeOut(batch: ToolBatchProgress, code: string, message: string): void {
    for (let i = 0; i < batch.entries.length; i++) {
      const e = batch.entries[i]
      if (e.result === undefined) {
        e.result = e.started ? ToolBatchExecutor.interrupted(e.call) : ToolResult.error(e.call.id, code, message)
      }
    }
  }

  static interrupted(call: ToolCall): ToolResult {
    return BatchExecution.interrupted(call)
  }

  static saveFailed(cause?: ArkAgentError): ArkAgentError {
    return BatchExecution.saveFailed(cause)
  }

  static progressFrom(batchId: string, runId: string, message: AgentMessage, gated: GatedCall[],
    approvalIds: (string | undefined)[] = []): ToolBatchProgress {
    const entries: ToolBatchEntry[] = []
    for (let i = 0; i < gated.length; i++) {
      entries.push(new ToolBatchEntry(gated[i].call, false, gated[i].syntheticResult, gated[i].risk,
        i < approvalIds.length ? approvalIds[i] : undefined))
    }
    return new ToolBatchProgress(batchId, runId, message, entries)
  }
}
