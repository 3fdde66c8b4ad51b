import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { GrantMatcher } from '../approvals/GrantMatcher'
import { ApprovalDecisionOptions, APPROVAL_DECISION_OPTION_NAMES } from '../state/ApprovalDecisionOptions'
import { GrantScope } from '../state/ApprovalGrant'
import { ApprovalDecision } from '../state/PendingApproval'
import { ConfigCheck } from '../util/ConfigCheck'

/** The longest actor, reason or message a decision may carry (characters). */
const MAX_TEXT: number = 4000
const MAX_ACTOR: number = 256

/** An approve or deny call, checked: what ApprovalFlow records. */
export class DecisionRequest {
  readonly decision: ApprovalDecision
  readonly actor: string
  readonly reason?: string
  readonly messageToModel?: string
  /** The edited arguments as JSON text of an object; undefined: no edit. */
  readonly argumentsText?: string
  readonly name?: string
  readonly remember?: GrantScope
  readonly matcher: string
  readonly matcherParam: string

  constructor(decision: ApprovalDecision, actor: string, reason?: string, messageToModel?: string, argumentsText?: string,
    name?: string, remember?: GrantScope, matcher: string = '', matcherParam: string = '') {
    this.decision = decision
    this.actor = actor
    this.reason = reason
    this.messageToModel = messageToModel
    this.argumentsText = argumentsText
    this.name = name
    this.remember = remember
    this.matcher = matcher
    this.matcherParam = matcherParam
  }

  hasEdit(): boolean {
    return this.argumentsText !== undefined || this.name !== undefined
  }
}

/**
 * Checks what UI code (plain JavaScript included) passed to approve or deny. Anything unexpected is
 * refused with invalid_input naming it — never ignored: a misspelt option must not turn an edited
 * approval into an approval of the unedited call.
 */
export class DecisionInput {
  static check(decision: ApprovalDecision, details: string | ApprovalDecisionOptions | undefined,
    matchers: GrantMatcher[], hasAppGrants: boolean): DecisionRequest {
    if (decision !== ApprovalDecision.approved && decision !== ApprovalDecision.denied) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, 'A decision must be approved or denied',
        ErrorRetryability.never)
    }
    const raw = details as Object | null | undefined
    if (raw === undefined || raw === null) {
      return new DecisionRequest(decision, 'user')
    }
    const approving = decision === ApprovalDecision.approved
    if (typeof raw === 'string') {
      if (approving) {
        // approve(id, '{"path": ...}') would otherwise approve the unedited call with the edit as its "reason".
        throw DecisionInput.invalid('approve takes options ({ arguments, reason, ... }), not text')
      }
      return new DecisionRequest(decision, 'user', DecisionInput.text(raw as string, 'reason', MAX_TEXT))
    }
    if (typeof raw !== 'object' || raw instanceof Array) {
      throw DecisionInput.invalid(`the options must be an object (ApprovalDecisionOptions); got ${ConfigCheck.show(raw)}`)
    }
    const o = DecisionInput.plain(raw)
    const actor = o.actor !== undefined ? DecisionInput.text(o.actor as Object, 'actor', MAX_ACTOR) : 'user'
    if (actor.length === 0) {
      throw DecisionInput.invalid('actor must not be empty')
    }
    const reason = o.reason !== undefined ? DecisionInput.text(o.reason as Object, 'reason', MAX_TEXT) : undefined
    if (o.messageToModel !== undefined && approving) {
      throw DecisionInput.invalid("messageToModel is for a deny: an approved call's result is what the model gets")
    }
    const message = o.messageToModel !== undefined ? DecisionInput.text(o.messageToModel as Object, 'messageToModel', MAX_TEXT) :
      undefined
    const given = Object.keys(o)
    if (given.indexOf('arguments') >= 0 && o.arguments === undefined || given.indexOf('name') >= 0 && o.name === undefined) {
      // { arguments: edited } with edited undefined (a bug in the caller) must not approve the unedited call.
      throw DecisionInput.invalid('arguments or name is given as undefined')
    }
    if (!approving && (o.arguments !== undefined || o.name !== undefined)) {
      throw DecisionInput.invalid('arguments and name edit an approval; a deny runs nothing')
    }
    const args = o.arguments !== undefined ? DecisionInput.argumentsText(o.arguments as Object) : undefined
    const name = o.name !== undefined ? DecisionInput.text(o.name as Object, 'name', 256) : undefined
    let remember: GrantScope | undefined
    if (o.remember !== undefined) {
      const scope = o.remember as Object
      if (scope !== GrantScope.session && scope !== GrantScope.app) {
        throw DecisionInput.invalid(`remember must be 'session' or 'app'; got ${ConfigCheck.show(scope)}`)
      }
      remember = scope as GrantScope
      if (remember === GrantScope.app && !hasAppGrants) {
        throw DecisionInput.invalid("remember: 'app' needs an app grant store (AgentRuntimeConfig.appGrants)")
      }
    }
    const matcher = o.matcher !== undefined ? DecisionInput.text(o.matcher as Object, 'matcher', 128) : ''
    const param = o.matcherParam !== undefined ? DecisionInput.text(o.matcherParam as Object, 'matcherParam', MAX_TEXT) : ''
    if (matcher.length > 0 && remember === undefined) {
      throw DecisionInput.invalid('matcher limits a remembered decision: give remember too')
    }
    if (param.length > 0 && matcher.length === 0) {
      throw DecisionInput.invalid('matcherParam needs a matcher')
    }
    if (matcher.length > 0 && !matchers.some((m: GrantMatcher): boolean => m.name === matcher)) {
      throw DecisionInput.invalid(`no grant matcher is named ${JSON.stringify(matcher)} (AgentRuntimeConfig.grantMatchers)`)
    }
    return new DecisionRequest(decision, actor, reason, message, args, name, remember, matcher, param)
  }

  /**
   * The options as plain data: own enumerable fields only, each read once (a getter runs once, here),
   * every name known. Anything that does not survive being written as JSON is refused.
   */
  private static plain(raw: Object): ApprovalDecisionOptions {
    let copy: Object
    try {
      ConfigCheck.knownNames(raw, APPROVAL_DECISION_OPTION_NAMES, 'approval decision')
      // Non-enumerable own names too: a misspelt option hidden that way is still a misspelt option.
      const own = Object.getOwnPropertyNames(raw)
      for (let i = 0; i < own.length; i++) {
        if (APPROVAL_DECISION_OPTION_NAMES.indexOf(own[i]) < 0) {
          throw DecisionInput.invalid(`unknown option ${JSON.stringify(own[i].slice(0, 64))}`)
        }
      }
      const source = raw as Record<string, Object>
      const made = source['constructor'] as Object | undefined
      if (made !== undefined && made !== null && made !== (({} as Record<string, Object>)['constructor'] as Object)) {
        // An instance of a class: its getters are not own fields, and a misspelt one would go unseen.
        throw DecisionInput.invalid('the options must be a plain object literal ({ ... }), not an instance of a class')
      }
      // A known option inherited (a class's getter) would be read here but not by a copy: refused, not guessed.
      for (let i = 0; i < APPROVAL_DECISION_OPTION_NAMES.length; i++) {
        const name = APPROVAL_DECISION_OPTION_NAMES[i]
        if (own.indexOf(name) < 0 && source[name] !== undefined) {
          throw DecisionInput.invalid(`option ${name} must be the object's own field, not inherited`)
        }
      }
      const fields: Record<string, Object> = {}
      const names = Object.keys(raw)
      for (let i = 0; i < names.length; i++) {
        fields[names[i]] = source[names[i]]
      }
      copy = fields
    } catch (e) {
      if (e instanceof ArkAgentError && (e as ArkAgentError).code === ErrorCodes.invalidInput) {
        throw e as ArkAgentError
      }
      throw DecisionInput.invalid(e instanceof ArkAgentError ? (e as ArkAgentError).message : 'the options could not be read')
    }
    return copy as ApprovalDecisionOptions
  }

  /** Edited arguments: JSON text of an object, or an object (written as JSON). */
  private static argumentsText(value: Object): string {
    let parsed: Object | null
    let text: string
    if (typeof value === 'string') {
      text = value as string
      try {
        parsed = JSON.parse(text) as Object | null
      } catch (e) {
        throw DecisionInput.invalid('arguments is not valid JSON')
      }
    } else {
      try {
        text = JSON.stringify(value)
        parsed = JSON.parse(text) as Object | null
      } catch (e) {
        throw DecisionInput.invalid('arguments cannot be written as JSON')
      }
    }
    if (parsed === null || typeof parsed !== 'object' || parsed instanceof Array) {
      throw DecisionInput.invalid('arguments must be a JSON object')
    }
    return text
  }

  private static text(value: Object, what: string, max: number): string {
    if (typeof value !== 'string') {
      throw DecisionInput.invalid(`${what} must be a string; got ${ConfigCheck.show(value)}`)
    }
    const s = value as string
    if (s.length > max) {
      throw DecisionInput.invalid(`${what} is ${s.length} characters; at most ${max}`)
    }
    return s
  }

  static invalid(what: string): ArkAgentError {
    return new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidInput, `Approval decision refused: ${what}`,
      ErrorRetryability.never)
  }
}
