// fast-check arbitraries for every kind of state the runtime can produce: all roles, content kinds,
// tool calls, approvals, plan reviews, tool batches, and text with anything a model or a tool can
// send (every code point, lone surrogates, control characters, quotes, JSON-looking text).
import fc from 'fast-check'
import { AgentMessage, MessageRole } from '../../src/core/model/AgentMessage'
import { ContentPart } from '../../src/core/model/ContentPart'
import { ToolCall } from '../../src/core/model/ToolCall'
import { ToolRiskLevel } from '../../src/core/model/ToolDefinition'
import { ToolResult } from '../../src/core/model/ToolResult'
import { AgentState, SessionStatus, StoredError } from '../../src/core/state/AgentState'
import { ApprovalDecision, DecisionChannel, PendingApprovalBatch, PendingApprovalItem } from '../../src/core/state/PendingApproval'
import { ApprovalGrant, GrantScope, GrantVerdict } from '../../src/core/state/ApprovalGrant'
import { PendingPlanReview, PlanReviewDecision } from '../../src/core/state/PendingPlanReview'
import { ToolBatchEntry, ToolBatchProgress } from '../../src/core/state/ToolBatchProgress'

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c))
const control = fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c))
const special = fc.constantFrom('"', '\\', '{', '}', '[', ']', ':', ',', '\u2028', '\u2029', '\ufeff', '😀', '北', '\u0000')

/** Any text: every code point, lone surrogates, control and JSON-special characters. */
export const anyText: fc.Arbitrary<string> = fc.string({
  unit: fc.oneof({ weight: 6, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
    { weight: 1, arbitrary: loneSurrogate }, { weight: 1, arbitrary: control }, { weight: 2, arbitrary: special }),
  maxLength: 40
})

const id = fc.oneof(fc.stringMatching(/^[a-z_0-9]{1,12}$/), anyText)
const count = fc.nat({ max: 1_000_000 })
const time = fc.oneof(fc.nat({ max: 2 ** 45 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 }))

export const toolCall: fc.Arbitrary<ToolCall> = fc.record({ id, name: id, args: anyText, index: fc.nat({ max: 64 }) })
  .map((c) => new ToolCall(c.id, c.name, c.args, c.index))

const base64 = fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString('base64'))
const mime = fc.constantFrom('image/png', 'image/jpeg', 'audio/wav', 'text/plain', 'application/octet-stream', 'x/ü;"')
const uri = fc.oneof(fc.constantFrom('file:///a.txt', 'notes://welcome', 'https://例子.cn/x?y="z"'), anyText.filter((t) => t.length > 0))

/** Text and reasoning, and every typed part (image, audio, resource with text, bytes or neither, json). */
const part: fc.Arbitrary<ContentPart> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.boolean(), anyText)
    .map(([reasoning, text]) => reasoning ? ContentPart.reasoning(text) : ContentPart.text(text)) },
  { weight: 1, arbitrary: fc.tuple(mime, base64.filter((b) => b.length > 0)).map(([m, b]) => ContentPart.image(m, b)) },
  { weight: 1, arbitrary: fc.tuple(mime, base64.filter((b) => b.length > 0)).map(([m, b]) => ContentPart.audio(m, b)) },
  { weight: 1, arbitrary: fc.tuple(uri, fc.option(mime, { nil: '' }), fc.oneof(anyText.map((t) => [t, '']), base64.map((b) => ['', b])))
    .map(([u, m, [t, b]]) => ContentPart.resource(u, m, t, b)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => ContentPart.json(JSON.stringify(v))) }
)

const optCode = fc.option(id, { nil: undefined })

export const message: fc.Arbitrary<AgentMessage> = fc.oneof(
  fc.tuple(fc.constantFrom(MessageRole.system, MessageRole.user), fc.array(part, { maxLength: 3 }), fc.boolean(), optCode)
    .map(([role, parts, err, code]) => new AgentMessage(role, parts, [], undefined, err, code)),
  fc.tuple(fc.array(part, { maxLength: 3 }), fc.array(toolCall, { maxLength: 3 }), fc.boolean(), optCode)
    .map(([parts, calls, err, code]) => new AgentMessage(MessageRole.assistant, parts, calls, undefined, err, code)),
  fc.tuple(id, fc.array(part, { maxLength: 2 }), fc.boolean(), optCode)
    .map(([callId, parts, err, code]) => AgentMessage.tool(callId, parts, err, code))
)

export const toolResult: fc.Arbitrary<ToolResult> = fc.tuple(id, fc.array(part, { maxLength: 2 }), fc.boolean(), optCode)
  .map(([callId, parts, err, code]) => new ToolResult(callId, parts, err, code))

const batch: fc.Arbitrary<PendingApprovalBatch> = fc.tuple(id, id, message, time,
  fc.array(fc.record({
    approvalId: id, call: toolCall, risk: fc.constantFrom(ToolRiskLevel.safe, ToolRiskLevel.sensitive, ToolRiskLevel.dangerous),
    reason: anyText, created: time,
    decision: fc.constantFrom(ApprovalDecision.pending, ApprovalDecision.approved, ApprovalDecision.denied),
    denyReason: fc.option(anyText, { nil: undefined }), decidedAt: fc.option(time, { nil: undefined }),
    synthetic: fc.option(toolResult, { nil: undefined }),
    channel: fc.constantFrom(undefined, DecisionChannel.ui, DecisionChannel.policy, DecisionChannel.grant),
    actor: fc.option(anyText, { nil: undefined }), expires: fc.option(time, { nil: undefined }),
    edited: fc.option(anyText, { nil: undefined }), executed: fc.boolean(), toModel: fc.option(anyText, { nil: undefined })
  }), { maxLength: 4 })).map(([batchId, runId, msg, created, items]) => new PendingApprovalBatch(batchId, runId,
  items.map((it, i) => {
    // Consistent records only (the decoder refuses self-contradicting ones): ids unique, decision fields on decided items.
    const item = new PendingApprovalItem(`${it.approvalId}#${i}`, it.call, it.risk, it.reason, it.created, it.decision)
    item.expiresAtMs = it.expires
    item.syntheticResult = it.synthetic
    item.denyReason = it.denyReason
    if (it.decision !== ApprovalDecision.pending) {
      item.decidedAtMs = it.decidedAt
      item.channel = it.channel
      item.actor = it.actor
      item.messageToModel = it.toModel
    }
    if (it.decision === ApprovalDecision.approved && it.edited !== undefined) {
      item.approvedCall = new ToolCall(it.call.id, it.call.name, it.edited, it.call.index)
      if (it.executed) {
        item.executedCall = item.approvedCall
        item.executedAtMs = it.created
      }
    }
    return item
  }), msg, created))

const review: fc.Arbitrary<PendingPlanReview> = fc.tuple(id, id, anyText, toolCall, message, time,
  fc.constantFrom(PlanReviewDecision.pending, PlanReviewDecision.approved, PlanReviewDecision.rejected),
  fc.option(anyText, { nil: undefined })).map(([rid, runId, plan, call, msg, created, decision, reason]) => {
  const r = new PendingPlanReview(rid, runId, plan, call, msg, created, decision)
  r.reason = reason
  return r
})

const progress: fc.Arbitrary<ToolBatchProgress> = fc.tuple(id, id, message,
  fc.array(fc.tuple(toolCall, fc.boolean(), fc.option(toolResult, { nil: undefined })), { maxLength: 4 }))
  .map(([bid, runId, msg, entries]) => new ToolBatchProgress(bid, runId, msg,
    entries.map(([c, started, result]) => new ToolBatchEntry(c, started, result))))

/**
 * A state of `sessionId` with every field drawn at random (history up to `maxHistory` messages).
 * `lean`: no approvals, plan review or tool batch (a small header, for value-size limits).
 */
export function stateOf(sessionId: string, maxHistory: number = 20, lean: boolean = false): fc.Arbitrary<AgentState> {
  const none = fc.constant(undefined)
  return fc.record({
    history: fc.array(message, { maxLength: maxHistory }),
    status: fc.constantFrom(...Object.values(SessionStatus)),
    activeRunId: id, runCount: count, turn: count, lastStopReason: anyText,
    lastError: fc.option(fc.tuple(id, id, anyText), { nil: undefined }),
    pending: lean ? none : fc.option(batch, { nil: undefined }), review: lean ? none : fc.option(review, { nil: undefined }),
    toolBatch: lean ? none : fc.option(progress, { nil: undefined }),
    consumed: fc.array(id, { maxLength: 4 }), loopWarned: fc.boolean(), plan: anyText, updatedAtMs: time,
    log: lean ? none : fc.option(batch, { nil: undefined }),
    grants: fc.array(fc.record({ gid: id, tool: id, allow: fc.boolean(), app: fc.boolean(),
      risk: fc.constantFrom(ToolRiskLevel.safe, ToolRiskLevel.sensitive, ToolRiskLevel.dangerous), def: anyText,
      matcher: anyText, param: anyText, actor: anyText, at: time, from: anyText }), { maxLength: lean ? 0 : 3 })
  }).map((r) => {
    const s = new AgentState(sessionId)
    s.history = r.history
    s.status = r.status
    s.activeRunId = r.activeRunId
    s.runCount = r.runCount
    s.turn = r.turn
    s.lastStopReason = r.lastStopReason
    s.lastError = r.lastError !== undefined ? new StoredError(r.lastError[0], r.lastError[1], r.lastError[2]) : undefined
    s.pendingApproval = r.pending
    s.pendingPlanReview = r.review
    s.toolBatch = r.toolBatch
    s.consumedApprovalIds = r.consumed
    s.loopWarned = r.loopWarned
    s.plan = r.plan
    s.updatedAtMs = r.updatedAtMs
    // The decision log holds decided items only.
    s.decisions = r.log !== undefined ? r.log.items.filter((i) => !i.isPending()) : []
    s.grants = r.grants.map((g, i) => new ApprovalGrant(`${g.gid}#${i}`, `t${g.tool}`, g.allow ? GrantVerdict.allow : GrantVerdict.deny,
      g.app ? GrantScope.app : GrantScope.session, g.risk, g.def, g.matcher, g.param, g.actor, g.at, g.from))
    return s
  })
}
