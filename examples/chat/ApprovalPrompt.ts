// The chat's approval prompt: one pending call, asked until it is decided or left pending.
//   y  allow this call once            a  allow, and allow this tool from now on in this session
//   e  edit the arguments, then allow  n  deny
//   q  (or Ctrl-D) leave; the decision stays pending and is asked again on the next start
import type { AgentController, ApprovalDecisionResult, PendingApprovalItem } from '@arkagent/core'
import type { ChatIO } from './ChatApp'

/** What the chat shows when the answer is not one of the keys. */
export const APPROVAL_HELP =
  '  y  allow this call once\n' +
  '  a  always: allow it, and later calls of this tool in this session run without asking\n' +
  '  e  edit: type new arguments (JSON on one line), then allow the call with exactly them\n' +
  '  n  deny; the model is told\n' +
  '  q  leave; the decision stays pending (start again with the same --session to decide)\n'

/** The question for one item, with its deadline when it has one (`now`: ms since the epoch). */
export function approvalQuestion(item: PendingApprovalItem, now: number): string {
  const deadline = item.expiresAtMs !== undefined ? `; ${deadlineText(item.expiresAtMs, now)}` : ''
  return `\nAllow ${item.toolCall.name} ${printable(item.toolCall.argumentsJson)} (${item.riskLevel}${deadline})? ` +
    '[y/n, a always, e edit, q to quit] '
}

/** "decide by 14:05:00, 4m 30s left" (local time), or that the deadline has passed. */
export function deadlineText(expiresAtMs: number, now: number): string {
  const left = Math.ceil((expiresAtMs - now) / 1000)
  if (left <= 0) return 'its deadline has passed: it counts as denied'
  const h = Math.floor(left / 3600)
  const m = Math.floor((left % 3600) / 60)
  const s = left % 60
  const span = h > 0 ? `${h}h ${m}m` : m > 0 ? `${m}m ${s}s` : `${s}s`
  return `decide by ${new Date(expiresAtMs).toTimeString().slice(0, 8)}, ${span} left`
}

/**
 * Asks about `item` until it is decided (true) or the user leaves it pending (false: q, Ctrl-D).
 * A decision the runtime refuses (an edit that does not fit the tool's schema, a failed write) is
 * shown and the same item is asked again while it is still pending.
 */
export async function askApproval(item: PendingApprovalItem, io: ChatIO, controller: AgentController): Promise<boolean> {
  const call = `${item.toolCall.name} ${printable(item.toolCall.argumentsJson)}`
  // Decided meanwhile (its deadline passed while another item was asked): shown, not asked.
  if (!isPending(controller, item.approvalId)) {
    const now = controller.pendingBatch()?.find(item.approvalId)
    if (now !== undefined) io.write(`\n${decided(now, call)}`)
    return true
  }
  for (;;) {
    const answer = await io.prompt(approvalQuestion(item, Date.now()))
    const a = answer === null ? 'q' : answer.trim().toLowerCase()
    let result: ApprovalDecisionResult
    let done: string
    if (a === 'q' || a === 'quit') {
      return false
    } else if (a === 'y' || a === 'yes') {
      result = await controller.approve(item.approvalId)
      done = ''
    } else if (a === 'n' || a === 'no') {
      result = await controller.deny(item.approvalId, 'denied in the chat')
      done = `Denied: ${call}\n`
    } else if (a === 'a' || a === 'always') {
      result = await controller.approve(item.approvalId, { remember: 'session' })
      done = `Allowed; ${item.toolCall.name} runs without asking for the rest of this session.\n`
    } else if (a === 'e' || a === 'edit') {
      io.write(`Current arguments: ${printable(item.toolCall.argumentsJson)}\n`)
      const line = await io.prompt('New arguments (JSON on one line; Enter to go back): ')
      if (line === null) return false
      const edited = line.trim()
      if (edited === '') continue
      result = await controller.approve(item.approvalId, { arguments: edited })
      done = `Allowed with the edited arguments: ${item.toolCall.name} ${printable(edited)}\n`
    } else {
      io.write(`Please answer with one of these keys (Enter is not a decision):\n${APPROVAL_HELP}`)
      continue
    }
    if (!result.ok) {
      io.write(`Not decided: ${printable(result.error?.message ?? 'the decision was refused')}\n`)
      if (isPending(controller, item.approvalId)) continue
      return true
    }
    if (!result.applied) {
      // Decided before this answer counted (its deadline passed, say): that decision stands.
      io.write(result.item !== undefined ? decided(result.item, call) : `Already ${result.decision}: ${call}\n`)
      return true
    }
    io.write(done)
    return true
  }
}

function decided(item: PendingApprovalItem, call: string): string {
  const reason = item.denyReason ?? item.decisionReason
  return `Already ${item.decision}: ${call}${reason !== undefined ? ` (${printable(reason)})` : ''}\n`
}

function isPending(controller: AgentController, approvalId: string): boolean {
  return controller.listPendingApprovals().some((it) => it.approvalId === approvalId)
}

/**
 * Text from a model or a tool server as the terminal shows it: control characters (escape sequences
 * that could move the cursor, rewrite a line or fake an approval prompt) are shown as U+FFFD;
 * newlines and tabs stay.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '\uFFFD')
}
