// Approval items (of a frozen batch or the decision log) and remembered grants, to plain JSON and back.
import { ToolRiskLevel } from '../model/ToolDefinition'
import { ApprovalGrant, GrantScope, GrantVerdict } from './ApprovalGrant'
import { JsonFields } from './JsonFields'
import { MessageCodec } from './MessageCodec'
import { ApprovalDecision, DecisionChannel, PendingApprovalItem } from './PendingApproval'

const DECISIONS: string[] = ['pending', 'approved', 'denied']
const RISKS: string[] = ['safe', 'sensitive', 'dangerous']
const CHANNELS: string[] = ['ui', 'policy', 'grant', 'expiry']
const VERDICTS: string[] = ['allow', 'deny']
const SCOPES: string[] = ['session', 'app']

/** The approval parts of the state codec. Optional fields are written only when set. */
export class ApprovalCodec {
  private static readonly f: JsonFields = new JsonFields()

  static encodeItem(it: PendingApprovalItem): Record<string, Object> {
    const o: Record<string, Object> = {
      'approvalId': it.approvalId, 'toolCall': MessageCodec.encodeCall(it.toolCall), 'riskLevel': it.riskLevel,
      'reason': it.reason, 'createdAtMs': it.createdAtMs, 'decision': it.decision
    }
    if (it.denyReason !== undefined) {
      o['denyReason'] = it.denyReason
    }
    if (it.decidedAtMs !== undefined) {
      o['decidedAtMs'] = it.decidedAtMs
    }
    if (it.syntheticResult !== undefined) {
      o['syntheticResult'] = MessageCodec.encodeResult(it.syntheticResult)
    }
    if (it.expiresAtMs !== undefined) {
      o['expiresAtMs'] = it.expiresAtMs
    }
    if (it.decisionReason !== undefined) {
      o['decisionReason'] = it.decisionReason
    }
    if (it.channel !== undefined) {
      o['channel'] = it.channel
    }
    if (it.actor !== undefined) {
      o['actor'] = it.actor
    }
    if (it.messageToModel !== undefined) {
      o['messageToModel'] = it.messageToModel
    }
    if (it.approvedCall !== undefined) {
      o['approvedCall'] = MessageCodec.encodeCall(it.approvedCall)
    }
    if (it.approvedRisk !== undefined) {
      o['approvedRisk'] = it.approvedRisk
    }
    if (it.grantId !== undefined) {
      o['grantId'] = it.grantId
    }
    if (it.executedCall !== undefined) {
      o['executedCall'] = MessageCodec.encodeCall(it.executedCall)
    }
    if (it.executedAtMs !== undefined) {
      o['executedAtMs'] = it.executedAtMs
    }
    return o
  }

  static decodeItem(raw: Object, p: string): PendingApprovalItem {
    const f = ApprovalCodec.f
    const it = f.asObject(raw, p)
    const item = new PendingApprovalItem(f.str(it, 'approvalId', p), MessageCodec.decodeCall(f.obj(it, 'toolCall', p),
      `${p}.toolCall`), f.oneOf(f.str(it, 'riskLevel', p), RISKS, `${p}.riskLevel`) as ToolRiskLevel,
      f.str(it, 'reason', p), f.num(it, 'createdAtMs', p),
      f.oneOf(f.str(it, 'decision', p), DECISIONS, `${p}.decision`) as ApprovalDecision)
    item.denyReason = f.optStr(it, 'denyReason', p)
    item.decidedAtMs = f.optNum(it, 'decidedAtMs', p)
    const synthetic = f.optObj(it, 'syntheticResult', p)
    if (synthetic !== undefined) {
      item.syntheticResult = MessageCodec.decodeResult(synthetic, `${p}.syntheticResult`)
    }
    item.expiresAtMs = f.optNum(it, 'expiresAtMs', p)
    const channel = f.optStr(it, 'channel', p)
    item.channel = channel !== undefined ? f.oneOf(channel, CHANNELS, `${p}.channel`) as DecisionChannel : undefined
    item.decisionReason = f.optStr(it, 'decisionReason', p)
    item.actor = f.optStr(it, 'actor', p)
    item.messageToModel = f.optStr(it, 'messageToModel', p)
    const approved = f.optObj(it, 'approvedCall', p)
    if (approved !== undefined) {
      item.approvedCall = MessageCodec.decodeCall(approved, `${p}.approvedCall`)
      if (item.approvedCall.id !== item.toolCall.id) {
        // The result must pair with what the model sent: an edit never changes the call's id.
        throw f.fail(`${p}.approvedCall.id`, 'differs from the id of the call it approves')
      }
    }
    const approvedRisk = f.optStr(it, 'approvedRisk', p)
    item.approvedRisk = approvedRisk !== undefined ? f.oneOf(approvedRisk, RISKS, `${p}.approvedRisk`) as ToolRiskLevel :
      undefined
    item.grantId = f.optStr(it, 'grantId', p)
    const executed = f.optObj(it, 'executedCall', p)
    if (executed !== undefined) {
      item.executedCall = MessageCodec.decodeCall(executed, `${p}.executedCall`)
    }
    item.executedAtMs = f.optNum(it, 'executedAtMs', p)
    ApprovalCodec.checkItem(item, p)
    return item
  }

  /** A record that contradicts itself is refused: it would run, or report, something no decision said. */
  private static checkItem(item: PendingApprovalItem, p: string): void {
    const f = ApprovalCodec.f
    if (item.decision !== ApprovalDecision.approved && (item.approvedCall !== undefined || item.executedCall !== undefined)) {
      throw f.fail(p, 'an item that is not approved has an approved or executed call')
    }
    if (item.isPending() && (item.channel !== undefined || item.actor !== undefined || item.decidedAtMs !== undefined ||
      item.grantId !== undefined || item.messageToModel !== undefined || item.decisionReason !== undefined)) {
      throw f.fail(p, 'a pending item carries a decision')
    }
    const executed = item.executedCall
    if (executed !== undefined && (executed.id !== item.toolCall.id || executed.name !== item.callToRun().name)) {
      throw f.fail(`${p}.executedCall`, 'is not the call the item approved')
    }
    if ((item.executedAtMs !== undefined) !== (executed !== undefined)) {
      throw f.fail(p, 'executedAtMs and executedCall come together')
    }
    if (item.approvedRisk !== undefined && item.approvedCall === undefined) {
      throw f.fail(p, 'approvedRisk without an approved call')
    }
    if (item.approvedRisk !== undefined && RISKS.indexOf(item.approvedRisk) > RISKS.indexOf(item.riskLevel)) {
      // An approval is never cleared above the level the user was asked about.
      throw f.fail(`${p}.approvedRisk`, 'is above the risk level the item was asked at')
    }
    if (item.channel === DecisionChannel.expiry && item.decision !== ApprovalDecision.denied) {
      throw f.fail(p, 'an expiry that did not deny')
    }
  }

  /** Items of one batch (or the decision log): each checked, ids unique; the log holds decided items only. */
  static decideItemsUnique(items: PendingApprovalItem[], path: string, decidedOnly: boolean): void {
    const seen: string[] = []
    for (let i = 0; i < items.length; i++) {
      if (seen.indexOf(items[i].approvalId) >= 0) {
        throw ApprovalCodec.f.fail(`${path}[${i}].approvalId`, 'appears twice')
      }
      seen.push(items[i].approvalId)
      if (decidedOnly && items[i].isPending()) {
        throw ApprovalCodec.f.fail(`${path}[${i}]`, 'a pending item in the decision log')
      }
    }
  }

  static encodeItems(items: PendingApprovalItem[]): Object[] {
    const out: Object[] = []
    for (let i = 0; i < items.length; i++) {
      out.push(ApprovalCodec.encodeItem(items[i]))
    }
    return out
  }

  static decodeItems(raw: Object[], path: string, decidedOnly: boolean = false): PendingApprovalItem[] {
    const out: PendingApprovalItem[] = []
    for (let i = 0; i < raw.length; i++) {
      out.push(ApprovalCodec.decodeItem(raw[i], `${path}[${i}]`))
    }
    ApprovalCodec.decideItemsUnique(out, path, decidedOnly)
    return out
  }

  static encodeGrants(grants: ApprovalGrant[]): Object[] {
    const out: Object[] = []
    for (let i = 0; i < grants.length; i++) {
      const g = grants[i]
      const o: Record<string, Object> = {
        'grantId': g.grantId, 'toolName': g.toolName, 'verdict': g.verdict, 'scope': g.scope, 'riskLevel': g.riskLevel,
        'definition': g.definitionFingerprint, 'matcher': g.matcher, 'matcherParam': g.matcherParam, 'actor': g.actor,
        'createdAtMs': g.createdAtMs, 'fromApprovalId': g.fromApprovalId
      }
      out.push(o)
    }
    return out
  }

  static decodeGrants(raw: Object[], path: string): ApprovalGrant[] {
    const f = ApprovalCodec.f
    const out: ApprovalGrant[] = []
    for (let i = 0; i < raw.length; i++) {
      const p = `${path}[${i}]`
      const g = f.asObject(raw[i], p)
      const verdict = f.oneOf(f.str(g, 'verdict', p), VERDICTS, `${p}.verdict`) as GrantVerdict
      const scope = f.oneOf(f.str(g, 'scope', p), SCOPES, `${p}.scope`) as GrantScope
      const risk = f.oneOf(f.str(g, 'riskLevel', p), RISKS, `${p}.riskLevel`) as ToolRiskLevel
      const id = f.str(g, 'grantId', p)
      const tool = f.str(g, 'toolName', p)
      const definition = f.str(g, 'definition', p)
      const matcher = f.str(g, 'matcher', p)
      const param = f.str(g, 'matcherParam', p)
      const actor = f.str(g, 'actor', p)
      const at = f.num(g, 'createdAtMs', p)
      const from = f.str(g, 'fromApprovalId', p)
      try {
        out.push(new ApprovalGrant(id, tool, verdict, scope, risk, definition, matcher, param, actor, at, from))
      } catch (e) {
        throw f.fail(p, (e as Error).message)
      }
    }
    return out
  }
}
