import { AppGrantStore, ApprovalGrants } from '../approvals/ApprovalGrants'
import { ApprovalPolicy } from '../approvals/ApprovalPolicy'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { ToolCall } from '../model/ToolCall'
import { ToolRiskLevel } from '../model/ToolDefinition'
import { Redactor } from '../redaction/Redactor'
import { ApprovalGrant, GrantScope, GrantVerdict } from '../state/ApprovalGrant'
import { Ids } from '../util/Ids'
import { DecisionRequest } from './DecisionInput'
import { RuntimeServices } from './RuntimeServices'

/** The remembered decisions in force for a session: its own, and the app's (read from their store when asked). */
export class GrantBook {
  private readonly s: RuntimeServices

  constructor(services: RuntimeServices) {
    this.s = services
  }

  /**
   * The session's grants, then the app's, read from the store now (so a revocation elsewhere counts at
   * the next gate). A store that fails or returns anything but grants is an error (state_load_failed):
   * without the app's "always deny" grants nothing may be taken as allowed.
   */
  async all(): Promise<ApprovalGrant[]> {
    const out = this.s.state.grants.slice()
    const store = this.s.config.appGrants
    if (store !== undefined) {
      const app = await GrantBook.loadApp(store)
      for (let i = 0; i < app.length; i++) {
        out.push(app[i])
      }
    }
    return out
  }

  /** The grant that decides `call` among `grants` (ApprovalGrants.find with this runtime's registry and matchers). */
  find(grants: ApprovalGrant[], call: ToolCall): ApprovalGrant | undefined {
    return ApprovalGrants.find(grants, call, this.s.config.tools.definition(call.name), this.s.config.grantMatchers)
  }

  /**
   * A new grant for `call` as decided, bound to its tool's definition now. An "always allow" never above
   * `askedRisk`, the level the user was asked about: for a tool that became riskier since it is refused
   * (invalid_input), as is any grant for an unknown tool.
   */
  make(call: ToolCall, verdict: GrantVerdict, request: DecisionRequest, approvalId: string, now: number,
    askedRisk: ToolRiskLevel): ApprovalGrant {
    const definition = this.s.config.tools.definition(call.name)
    if (definition === undefined || request.remember === undefined) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidInput,
        `Approval decision refused: '${call.name}' is not a registered tool, so nothing can be remembered for it`,
        ErrorRetryability.never)
    }
    if (verdict === GrantVerdict.allow && ApprovalPolicy.rank(ApprovalPolicy.riskOf(definition)) > ApprovalPolicy.rank(askedRisk)) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidInput, `Approval decision refused: '${call.name}' is ` +
        `${ApprovalPolicy.riskOf(definition)} now but was asked about as ${askedRisk}; nothing is remembered for a tool ` +
        'riskier than what was shown (decide without remember)', ErrorRetryability.never)
    }
    return new ApprovalGrant(Ids.next('grant'), call.name, verdict, request.remember, ApprovalPolicy.riskOf(definition),
      ApprovalGrants.fingerprint(definition), request.matcher, Redactor.text(request.matcherParam),
      Redactor.text(request.actor), now, approvalId)
  }

  /**
   * Adds `grant` and/or takes out the grant `removeId` in one atomic update of the app's store; resolves
   * with the grant taken out (undefined when there was none). Throws state_save_failed.
   */
  async changeApp(grant: ApprovalGrant | undefined, removeId: string): Promise<ApprovalGrant | undefined> {
    const store = this.s.config.appGrants
    if (store === undefined) {
      return undefined
    }
    let removed: ApprovalGrant | undefined
    try {
      await store.update((current: ApprovalGrant[]): ApprovalGrant[] => {
        const next: ApprovalGrant[] = []
        for (let i = 0; i < current.length; i++) {
          if (current[i].grantId === removeId && removeId.length > 0) {
            removed = current[i]
          } else {
            next.push(current[i])
          }
        }
        if (grant !== undefined) {
          next.push(grant)
        }
        return next
      })
    } catch (e) {
      throw ArkAgentError.from(e as Object, ErrorLayer.storage, ErrorCodes.stateSaveFailed, 'The app grants could not be saved')
    }
    return removed
  }

  private static async loadApp(store: AppGrantStore): Promise<ApprovalGrant[]> {
    let loaded: Object
    try {
      loaded = await store.load() as Object
    } catch (e) {
      throw ArkAgentError.from(e as Object, ErrorLayer.storage, ErrorCodes.stateLoadFailed, 'The app grants could not be read')
    }
    if (!(loaded instanceof Array)) {
      throw GrantBook.badStore('not an array')
    }
    const grants = loaded as Object[]
    const out: ApprovalGrant[] = []
    for (let i = 0; i < grants.length; i++) {
      const g = grants[i]
      if (!(g instanceof ApprovalGrant) || (g as ApprovalGrant).scope !== GrantScope.app) {
        throw GrantBook.badStore(`item ${i} is not an app-scope ApprovalGrant`)
      }
      out.push(g as ApprovalGrant)
    }
    return out
  }

  private static badStore(what: string): ArkAgentError {
    return new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateLoadFailed,
      `The app grant store returned something that is not a list of grants (${what})`, ErrorRetryability.never)
  }
}
