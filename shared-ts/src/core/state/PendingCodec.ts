// What a session waits on, to plain JSON and back: a frozen approval batch, a plan review, a tool batch in progress.
import { ToolRiskLevel } from '../model/ToolDefinition'
import { JsonFields } from './JsonFields'
import { ApprovalCodec } from './ApprovalCodec'
import { PendingApprovalBatch } from './PendingApproval'
import { PendingPlanReview, PlanReviewDecision } from './PendingPlanReview'
import { ToolBatchEntry, ToolBatchProgress } from './ToolBatchProgress'
import { MessageCodec } from './MessageCodec'

const PLAN_DECISIONS: string[] = ['pending', 'approved', 'rejected']
const RISKS: string[] = ['safe', 'sensitive', 'dangerous']

/** The pending parts of the state codec. */
export class PendingCodec {
  private static readonly f: JsonFields = new JsonFields()

  static encodeBatch(b: PendingApprovalBatch): Record<string, Object> {
    const o: Record<string, Object> = {
      'batchId': b.batchId, 'runId': b.runId, 'items': ApprovalCodec.encodeItems(b.items),
      'modelMessage': MessageCodec.encodeMessage(b.modelMessage), 'createdAtMs': b.createdAtMs
    }
    return o
  }

  static decodeBatch(o: Record<string, Object>, path: string): PendingApprovalBatch {
    const f = PendingCodec.f
    const items = ApprovalCodec.decodeItems(f.arr(o, 'items', path), `${path}.items`)
    return new PendingApprovalBatch(f.str(o, 'batchId', path), f.str(o, 'runId', path), items,
      MessageCodec.decodeMessage(f.obj(o, 'modelMessage', path), `${path}.modelMessage`), f.num(o, 'createdAtMs', path))
  }

  static encodePlanReview(r: PendingPlanReview): Record<string, Object> {
    const o: Record<string, Object> = {
      'reviewId': r.reviewId, 'runId': r.runId, 'plan': r.plan, 'toolCall': MessageCodec.encodeCall(r.toolCall),
      'modelMessage': MessageCodec.encodeMessage(r.modelMessage), 'createdAtMs': r.createdAtMs, 'decision': r.decision
    }
    if (r.reason !== undefined) {
      o['reason'] = r.reason
    }
    return o
  }

  static decodePlanReview(o: Record<string, Object>, path: string): PendingPlanReview {
    const f = PendingCodec.f
    const r = new PendingPlanReview(f.str(o, 'reviewId', path), f.str(o, 'runId', path), f.str(o, 'plan', path),
      MessageCodec.decodeCall(f.obj(o, 'toolCall', path), `${path}.toolCall`),
      MessageCodec.decodeMessage(f.obj(o, 'modelMessage', path), `${path}.modelMessage`), f.num(o, 'createdAtMs', path),
      f.oneOf(f.str(o, 'decision', path), PLAN_DECISIONS, `${path}.decision`) as PlanReviewDecision)
    r.reason = f.optStr(o, 'reason', path)
    return r
  }

  static encodeToolBatch(b: ToolBatchProgress): Record<string, Object> {
    const entries: Object[] = []
    for (let i = 0; i < b.entries.length; i++) {
      const e = b.entries[i]
      const o: Record<string, Object> = { 'call': MessageCodec.encodeCall(e.call), 'started': e.started }
      if (e.clearance !== ToolRiskLevel.safe) {
        o['clearance'] = e.clearance
      }
      if (e.result !== undefined) {
        o['result'] = MessageCodec.encodeResult(e.result)
      }
      if (e.approvalId !== undefined) {
        o['approvalId'] = e.approvalId
      }
      entries.push(o)
    }
    const o: Record<string, Object> = {
      'batchId': b.batchId, 'runId': b.runId, 'modelMessage': MessageCodec.encodeMessage(b.modelMessage),
      'entries': entries
    }
    return o
  }

  static decodeToolBatch(o: Record<string, Object>, path: string): ToolBatchProgress {
    const f = PendingCodec.f
    const raw = f.arr(o, 'entries', path)
    const entries: ToolBatchEntry[] = []
    for (let i = 0; i < raw.length; i++) {
      const p = `${path}.entries[${i}]`
      const e = f.asObject(raw[i], p)
      const result = f.optObj(e, 'result', p)
      // Absent in older states: cleared as safe, so a riskier tool is not run on it (fails closed).
      const clearance = f.optStr(e, 'clearance', p)
      entries.push(new ToolBatchEntry(MessageCodec.decodeCall(f.obj(e, 'call', p), `${p}.call`), f.bool(e, 'started', p),
        result !== undefined ? MessageCodec.decodeResult(result, `${p}.result`) : undefined,
        clearance !== undefined ? f.oneOf(clearance, RISKS, `${p}.clearance`) as ToolRiskLevel : ToolRiskLevel.safe,
        f.optStr(e, 'approvalId', p)))
    }
    return new ToolBatchProgress(f.str(o, 'batchId', path), f.str(o, 'runId', path),
      MessageCodec.decodeMessage(f.obj(o, 'modelMessage', path), `${path}.modelMessage`), entries)
  }

  // ---- migration ----
}
