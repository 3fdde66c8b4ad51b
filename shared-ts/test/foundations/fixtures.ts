import { fnv1a } from '../../src/core/util/Text'
import { ArkAgentError } from '../../src/core/errors/ArkAgentError'
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

/** Resolves after `ms` on a real timer (used only to create interleaving opportunities, never asserted on). */
export function sleep(ms: number): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, ms))
}

/** Awaits the rejection of `p` and returns the error (fails if it resolves). */
export async function rejectionOf(p: Promise<unknown>): Promise<ArkAgentError> {
  try {
    await p
  } catch (e) {
    return e as ArkAgentError
  }
  throw new Error('expected a rejection, but the promise resolved')
}

/** Calls `f` and returns what it threw (fails if it returns). */
export function thrownBy(f: () => unknown): ArkAgentError {
  try {
    f()
  } catch (e) {
    return e as ArkAgentError
  }
  throw new Error('expected a throw, but the call returned')
}

/** A pending-approval batch with one undecided item, one approved and one hook-denied (synthetic result). */
export function richBatch(runId: string = 'run_1'): PendingApprovalBatch {
  const calls = [
    new ToolCall('call_a', 'delete_file', '{"path":"/tmp/a"}', 0),
    new ToolCall('call_b', 'read_file', '{"path":"/tmp/b"}', 1),
    new ToolCall('call_c', 'wipe_disk', '{}', 2)
  ]
  const modelMessage = AgentMessage.assistant('I will do three things', calls, 'thinking about it')
  const pending = new PendingApprovalItem('appr_a', calls[0], ToolRiskLevel.dangerous, 'deletes a file', 1000)
  pending.expiresAtMs = 4102444800000
  const approved = new PendingApprovalItem('appr_b', calls[1], ToolRiskLevel.safe, 'batch frozen', 1000,
    ApprovalDecision.approved)
  approved.decidedAtMs = 1500
  approved.channel = DecisionChannel.ui
  approved.actor = 'alice@example.com'
  approved.decisionReason = 'only the notes file'
  approved.approvedCall = new ToolCall('call_b', 'read_file', '{"path":"/tmp/b/notes.txt"}', 1)
  approved.approvedRisk = ToolRiskLevel.safe
  const denied = new PendingApprovalItem('appr_c', calls[2], ToolRiskLevel.dangerous, 'policy', 1000,
    ApprovalDecision.denied)
  denied.denyReason = 'never wipe disks'
  denied.decidedAtMs = 1001
  denied.channel = DecisionChannel.policy
  denied.actor = 'policy'
  denied.messageToModel = 'Wiping disks is not allowed here.'
  denied.syntheticResult = ToolResult.error('call_c', 'tool_denied', 'denied by policy')
  return new PendingApprovalBatch('batch_1', runId, [pending, approved, denied], modelMessage, 999)
}

/** A state exercising every field the codec knows. */
export function richState(sessionId: string = 'session-1'): AgentState {
  const s = new AgentState(sessionId)
  const call1 = new ToolCall('call_1', 'search', '{"q":"天气 🌦"}', 0)
  const call2 = new ToolCall('call_2', 'fetch', '{"url":"https://example.com"}', 1)
  s.history = [
    AgentMessage.system('You are helpful.'),
    AgentMessage.user('北京今天天气怎么样？😀'),
    AgentMessage.assistant('Let me look.', [call1, call2], 'The user wants weather; call search.'),
    AgentMessage.tool('call_1', [ContentPart.text('晴, 25°C')]),
    AgentMessage.tool('call_2', [ContentPart.text('HTTP 500')], true, 'tool_execution_failed'),
    new AgentMessage(MessageRole.assistant, [ContentPart.reasoning('r1'), ContentPart.text('t1'),
      ContentPart.reasoning('r2'), ContentPart.text('')]),
    AgentMessage.user(''),
    AgentMessage.tool('call_img', [ContentPart.text('chart:'), ContentPart.image('image/png', 'iVBORw0KGgo='),
      ContentPart.resource('notes://a', 'text/plain', 'note ✓'), ContentPart.resource('file:///b.bin', '', '', 'AAEC'),
      ContentPart.json('{"n":1,"s":"北"}')])
  ]
  s.status = SessionStatus.awaitingApproval
  s.activeRunId = 'run_1'
  s.runCount = 3
  s.turn = 2
  s.lastStopReason = 'awaiting_approval'
  s.lastError = new StoredError('provider', 'provider_rate_limited', 'slow down "quoted" \\ backslash')
  s.pendingApproval = richBatch('run_1')
  const planCall = new ToolCall('call_plan', 'submit_plan', '{"plan":"1. a\\n2. b"}', 0)
  s.pendingPlanReview = new PendingPlanReview('review_1', 'run_1', '1. a\n2. b', planCall,
    AgentMessage.assistant('', [planCall]), 1234, PlanReviewDecision.rejected)
  s.pendingPlanReview.reason = 'too vague'
  const tbCalls = [new ToolCall('call_x', 'x', '{}', 0), new ToolCall('call_y', 'y', '{"n":1.5}', 1),
    new ToolCall('call_z', 'z', '{}', 2)]
  s.toolBatch = new ToolBatchProgress('tb_1', 'run_1', AgentMessage.assistant('', tbCalls), [
    new ToolBatchEntry(tbCalls[0], true, ToolResult.text('call_x', 'done')),
    new ToolBatchEntry(tbCalls[1], true),
    new ToolBatchEntry(tbCalls[2], false, undefined, ToolRiskLevel.dangerous, 'appr_old_1')
  ])
  s.consumedApprovalIds = ['appr_old_1', 'appr_old_2']
  s.grants = [new ApprovalGrant('grant_1', 'write_file', GrantVerdict.allow, GrantScope.session, ToolRiskLevel.dangerous,
    'dangerous\u0000write_file\u0000Writes a file\u0000{"type":"object"}', 'path-prefix', '/tmp/', 'alice', 1600, 'appr_old_1')]
  const logged = new PendingApprovalItem('appr_old_1', new ToolCall('call_w', 'write_file', '{"path":"/etc/x"}', 0),
    ToolRiskLevel.dangerous, 'dangerous', 900, ApprovalDecision.approved)
  logged.decidedAtMs = 950
  logged.channel = DecisionChannel.ui
  logged.actor = 'alice'
  logged.grantId = 'grant_1'
  logged.approvedCall = new ToolCall('call_w', 'write_file', '{"path":"/tmp/x"}', 0)
  logged.executedCall = logged.approvedCall
  logged.executedAtMs = 960
  const expired = new PendingApprovalItem('appr_old_2', new ToolCall('call_v', 'wipe_disk', '{}', 1),
    ToolRiskLevel.dangerous, 'dangerous', 900, ApprovalDecision.denied)
  expired.expiresAtMs = 930
  expired.decidedAtMs = 940
  expired.channel = DecisionChannel.expiry
  expired.actor = 'runtime'
  expired.denyReason = 'the approval expired before anyone decided'
  expired.messageToModel = 'Not run: expired.'
  s.decisions = [logged, expired]
  s.loopWarned = true
  s.plan = 'step one; step two'
  s.updatedAtMs = 1700000000123
  return s
}

/** A plain-data view of a state for deep equality (class instances compared field by field). */
export function plain(state: AgentState): unknown {
  return JSON.parse(JSON.stringify(state))
}

/** `n` small but varied messages (user/assistant/tool triples with calls). */
export function conversation(n: number, prefix: string = 'm'): AgentMessage[] {
  const out: AgentMessage[] = []
  for (let i = 0; out.length < n; i++) {
    const k = out.length % 3
    if (k === 0) {
      out.push(AgentMessage.user(`${prefix}${i}: please look up item number ${i} in the catalogue`))
    } else if (k === 1) {
      out.push(AgentMessage.assistant(`checking ${i}`, [new ToolCall(`call_${prefix}${i}`, 'lookup', `{"item":${i}}`)]))
    } else {
      out.push(AgentMessage.tool(`call_${prefix}${i - 1}`, [ContentPart.text(`item ${i} is in stock: 42 units`)]))
    }
  }
  return out
}

/** The JSON document inside a stored header ("h1:<checksum>:<json>", or bare JSON from earlier builds). */
export function headerDoc(stored: string): Record<string, any> {
  return JSON.parse(stored.startsWith('h1:') ? stored.slice(12) : stored) as Record<string, any>
}

/** A header document stored as this build stores it, with a checksum that matches. */
export function sealHeader(doc: Record<string, unknown>): string {
  const json = JSON.stringify(doc)
  return `h1:${fnv1a(json)}:${json}`
}
