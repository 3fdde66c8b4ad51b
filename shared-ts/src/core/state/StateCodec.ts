import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { Thrown } from '../errors/Thrown'
import { ContentPart, ContentPartType, PART_TYPES } from '../model/ContentPart'
import { CompactionCheckpoint } from './CompactionCheckpoint'
import { ContextWindow } from '../context/ContextWindow'
import { AgentMessage, MessageRole } from '../model/AgentMessage'
import { ToolCall } from '../model/ToolCall'
import { ToolRiskLevel } from '../model/ToolDefinition'
import { ToolResult } from '../model/ToolResult'
import { AgentState, SessionStatus, StoredError } from './AgentState'
import { JsonFields } from './JsonFields'
import { ApprovalDecision, PendingApprovalBatch, PendingApprovalItem } from './PendingApproval'
import { PendingPlanReview, PlanReviewDecision } from './PendingPlanReview'
import { ToolBatchEntry, ToolBatchProgress } from './ToolBatchProgress'

const ROLES: string[] = ['system', 'user', 'assistant', 'tool']
const STATUSES: string[] = ['idle', 'running', 'awaiting_approval', 'awaiting_plan_review', 'completed', 'cancelled',
  'failed']
const DECISIONS: string[] = ['pending', 'approved', 'denied']
const PLAN_DECISIONS: string[] = ['pending', 'approved', 'rejected']
const RISKS: string[] = ['safe', 'sensitive', 'dangerous']

/**
 * Encodes AgentState to plain JSON and back, validating every field. Version 2 is current;
 * version 1 (one JSON document: sessionId, messages, optional pendingApproval) is migrated.
 * The header (everything but history) and messages are encoded separately so storage can keep
 * history in segments.
 */
export class StateCodec {
  private static readonly f: JsonFields = new JsonFields()

  // ---- whole document ----

  /**
   * The whole state as one JSON document. Encode checks what decode checks: the text is decoded
   * before it is returned, and a state that would not load back is refused with
   * ArkAgentError(storage, state_save_failed) naming the field, so nothing unloadable is written.
   */
  static encode(state: AgentState): string {
    return StateCodec.checked('the state', (): string => {
      const doc = StateCodec.encodeHeader(state)
      doc['history'] = StateCodec.encodeMessages(state.history, 0, state.history.length)
      return JSON.stringify(doc)
    }, (text: string): void => {
      StateCodec.decode(text)
    })
  }

  /** The stored text of messages [from, to) of `messages`, checked to decode (see `encode`). */
  static messagesText(messages: AgentMessage[], from: number, to: number): string {
    return StateCodec.checked(`messages ${from}-${to - 1}`, (): string =>
      JSON.stringify(StateCodec.encodeMessages(messages, from, to)), (text: string): void => {
      StateCodec.decodeMessages(JSON.parse(text) as Object[], '$')
    })
  }

  /** The stored text of a header document, checked to decode (see `encode`). */
  static headerText(header: Record<string, Object>): string {
    return StateCodec.checked('the state header', (): string => JSON.stringify(header), (text: string): void => {
      StateCodec.decodeHeader(StateCodec.f.parse(text, '$'))
    })
  }

  /** `encode()`'s text once `decode` accepted it; whatever either throws names `what` and refuses the write. */
  private static checked(what: string, encode: () => string, decode: (text: string) => void): string {
    try {
      const text = encode()
      decode(text)
      return text
    } catch (e) {
      throw StateCodec.unloadable(what, e as Object)
    }
  }

  private static unloadable(what: string, e: Object): ArkAgentError {
    return new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateSaveFailed,
      `Refused to write ${what}: it would not load back (${Thrown.describe(e)})`, ErrorRetryability.never)
  }

  static decode(text: string): AgentState {
    const doc = StateCodec.f.parse(text, '$')
    const version = StateCodec.versionOf(doc)
    if (version === 1) {
      return StateCodec.migrateV1(doc)
    }
    const state = StateCodec.decodeHeader(doc)
    state.history = StateCodec.decodeMessages(StateCodec.f.arr(doc, 'history', '$'), '$.history')
    StateCodec.checkHistoryRefs(state)
    return state
  }

  // ---- header ----

  static encodeHeader(state: AgentState): Record<string, Object> {
    const h: Record<string, Object> = {
      'schemaVersion': AgentState.schemaVersion,
      'sessionId': state.sessionId,
      'status': state.status,
      'activeRunId': state.activeRunId,
      'runCount': state.runCount,
      'turn': state.turn,
      'lastStopReason': state.lastStopReason,
      'consumedApprovalIds': state.consumedApprovalIds,
      'loopWarned': state.loopWarned,
      'plan': state.plan,
      'updatedAtMs': state.updatedAtMs
    }
    if (state.lastError !== undefined) {
      const e: Record<string, Object> = {
        'layer': state.lastError.layer, 'code': state.lastError.code, 'message': state.lastError.message
      }
      h['lastError'] = e
    }
    if (state.pendingApproval !== undefined) {
      h['pendingApproval'] = StateCodec.encodeBatch(state.pendingApproval)
    }
    if (state.pendingPlanReview !== undefined) {
      h['pendingPlanReview'] = StateCodec.encodePlanReview(state.pendingPlanReview)
    }
    if (state.toolBatch !== undefined) {
      h['toolBatch'] = StateCodec.encodeToolBatch(state.toolBatch)
    }
    // Both only once compaction is in use, so sessions without it keep their exact bytes.
    if (state.compaction !== undefined) {
      const c = state.compaction
      const o: Record<string, Object> = {
        'id': c.id, 'upTo': c.upTo, 'summary': c.summary, 'pinned': c.pinned, 'truncated': c.truncated,
        'createdAtMs': c.createdAtMs
      }
      h['compaction'] = o
    }
    if (state.tokenCalibration !== 1) {
      h['tokenCalibration'] = state.tokenCalibration
    }
    return h
  }

  /** Decodes a version-2 header into a state with empty history. */
  static decodeHeader(h: Record<string, Object>): AgentState {
    const f = StateCodec.f
    const version = StateCodec.versionOf(h)
    if (version !== 2) {
      throw new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateCorrupt,
        `Header has schema version ${version}, expected 2`, ErrorRetryability.never)
    }
    const state = new AgentState(f.str(h, 'sessionId', '$'))
    state.status = f.oneOf(f.str(h, 'status', '$'), STATUSES, '$.status') as SessionStatus
    state.activeRunId = f.str(h, 'activeRunId', '$')
    state.runCount = f.int(h, 'runCount', '$')
    state.turn = f.int(h, 'turn', '$')
    state.lastStopReason = f.str(h, 'lastStopReason', '$')
    state.consumedApprovalIds = f.strArr(h, 'consumedApprovalIds', '$')
    state.loopWarned = f.optBool(h, 'loopWarned', '$', false)
    state.plan = f.optStr(h, 'plan', '$') ?? ''
    state.updatedAtMs = f.num(h, 'updatedAtMs', '$')
    const err = f.optObj(h, 'lastError', '$')
    if (err !== undefined) {
      state.lastError = new StoredError(f.str(err, 'layer', '$.lastError'), f.str(err, 'code', '$.lastError'),
        f.str(err, 'message', '$.lastError'))
    }
    const batch = f.optObj(h, 'pendingApproval', '$')
    if (batch !== undefined) {
      state.pendingApproval = StateCodec.decodeBatch(batch, '$.pendingApproval')
    }
    const review = f.optObj(h, 'pendingPlanReview', '$')
    if (review !== undefined) {
      state.pendingPlanReview = StateCodec.decodePlanReview(review, '$.pendingPlanReview')
    }
    const tb = f.optObj(h, 'toolBatch', '$')
    if (tb !== undefined) {
      state.toolBatch = StateCodec.decodeToolBatch(tb, '$.toolBatch')
    }
    const c = f.optObj(h, 'compaction', '$')
    if (c !== undefined) {
      const p = '$.compaction'
      const pinnedRaw = f.arr(c, 'pinned', p)
      const pinned: number[] = []
      for (let i = 0; i < pinnedRaw.length; i++) {
        const v = pinnedRaw[i]
        if (typeof v !== 'number' || !Number.isInteger(v as number)) {
          throw f.fail(`${p}.pinned[${i}]`, 'expected an integer')
        }
        pinned.push(v as number)
      }
      state.compaction = new CompactionCheckpoint(f.str(c, 'id', p), f.int(c, 'upTo', p), f.str(c, 'summary', p), pinned,
        f.optBool(c, 'truncated', p, false), f.num(c, 'createdAtMs', p))
      // upTo is checked against the history once it is loaded (checkHistoryRefs); the pins here.
      const problem = state.compaction.problem(Number.MAX_SAFE_INTEGER)
      if (problem.length > 0) {
        throw f.fail(p, problem)
      }
    }
    const calibration = h['tokenCalibration']
    if (calibration !== undefined) {
      if (typeof calibration !== 'number' || !Number.isFinite(calibration as number) || (calibration as number) <= 0) {
        throw f.fail('$.tokenCalibration', 'expected a positive number')
      }
      // Within the range calibration keeps (ContextCompactor): a stored extreme cannot starve or flood requests.
      state.tokenCalibration = Math.min(8, Math.max(0.5, calibration as number))
    }
    return state
  }

  /** Fields that point into the history (the compaction's upTo) checked once the history is loaded. */
  static checkHistoryRefs(state: AgentState): void {
    const c = state.compaction
    if (c !== undefined) {
      const problem = c.problem(state.history.length)
      if (problem.length > 0) {
        throw StateCodec.f.fail('$.compaction', problem)
      }
      // A request built from it must not split a tool call from its results.
      const history = state.history
      if (c.upTo < history.length && history[c.upTo].role === MessageRole.tool) {
        throw StateCodec.f.fail('$.compaction.upTo', 'the kept history would start at a tool result')
      }
      const whole = ContextWindow.expandPins(history, c.pinned, c.upTo)
      if (whole.length !== c.pinned.length || whole.some((v: number, i: number): boolean => v !== c.pinned[i])) {
        throw StateCodec.f.fail('$.compaction.pinned', 'a pinned tool call or result without the rest of its exchange')
      }
    }
  }

  static versionOf(doc: Record<string, Object>): number {
    const v = doc['schemaVersion']
    if (!Number.isInteger(v as number)) {
      throw new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateCorrupt, 'State has no valid schemaVersion',
        ErrorRetryability.never)
    }
    const n = v as number
    if (n !== 1 && n !== 2) {
      throw new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateVersionUnsupported,
        `State schema version ${n} is not supported (this build reads 1 and 2)`, ErrorRetryability.never)
    }
    return n
  }

  // ---- messages ----

  static encodeMessages(messages: AgentMessage[], from: number, to: number): Object[] {
    const out: Object[] = []
    for (let i = from; i < to; i++) {
      out.push(StateCodec.encodeMessage(messages[i]))
    }
    return out
  }

  static decodeMessages(items: Object[], path: string): AgentMessage[] {
    const out: AgentMessage[] = []
    for (let i = 0; i < items.length; i++) {
      out.push(StateCodec.decodeMessage(StateCodec.f.asObject(items[i], `${path}[${i}]`), `${path}[${i}]`))
    }
    return out
  }

  static encodeMessage(m: AgentMessage): Record<string, Object> {
    const content: Object[] = []
    for (let i = 0; i < m.partCount(); i++) {
      const p = m.partAt(i)
      const part: Record<string, Object> = { 'type': p.type, 'text': p.text }
      // Typed parts only: a text part stays two fields, as it was stored before typed parts existed.
      if (p.mimeType.length > 0) {
        part['mimeType'] = p.mimeType
      }
      if (p.data.length > 0) {
        part['data'] = p.data
      }
      if (p.uri.length > 0) {
        part['uri'] = p.uri
      }
      content.push(part)
    }
    const o: Record<string, Object> = { 'role': m.role, 'content': content }
    if (m.callCount() > 0) {
      const calls: Object[] = []
      for (let i = 0; i < m.callCount(); i++) {
        calls.push(StateCodec.encodeCall(m.callAt(i)))
      }
      o['toolCalls'] = calls
    }
    if (m.toolCallId !== undefined) {
      o['toolCallId'] = m.toolCallId
    }
    if (m.isError) {
      o['isError'] = true
    }
    if (m.errorCode !== undefined) {
      o['errorCode'] = m.errorCode
    }
    return o
  }

  static decodeMessage(o: Record<string, Object>, path: string): AgentMessage {
    const f = StateCodec.f
    const role = f.oneOf(f.str(o, 'role', path), ROLES, `${path}.role`) as MessageRole
    const content = StateCodec.decodeParts(f.arr(o, 'content', path), `${path}.content`)
    const calls: ToolCall[] = []
    const rawCalls = f.optArr(o, 'toolCalls', path)
    for (let i = 0; i < rawCalls.length; i++) {
      calls.push(StateCodec.decodeCall(f.asObject(rawCalls[i], `${path}.toolCalls[${i}]`), `${path}.toolCalls[${i}]`))
    }
    const toolCallId = f.optStr(o, 'toolCallId', path)
    if (role === MessageRole.tool && toolCallId === undefined) {
      throw f.fail(path, 'tool message without toolCallId')
    }
    return new AgentMessage(role, content, calls, toolCallId, f.optBool(o, 'isError', path, false),
      f.optStr(o, 'errorCode', path))
  }

  private static decodeParts(items: Object[], path: string): ContentPart[] {
    const f = StateCodec.f
    const parts: ContentPart[] = []
    for (let i = 0; i < items.length; i++) {
      const p = f.asObject(items[i], `${path}[${i}]`)
      const type = f.str(p, 'type', `${path}[${i}]`)
      const text = f.str(p, 'text', `${path}[${i}]`)
      if (type === ContentPartType.text) {
        parts.push(ContentPart.text(text))
      } else if (type === ContentPartType.reasoning) {
        parts.push(ContentPart.reasoning(text))
      } else if (PART_TYPES.indexOf(type) < 0) {
        throw f.fail(`${path}[${i}].type`, 'unknown content part type')
      } else {
        const where = `${path}[${i}]`
        const part = ContentPart.of(type as ContentPartType, text, f.optStr(p, 'mimeType', where) ?? '',
          f.optStr(p, 'data', where) ?? '', f.optStr(p, 'uri', where) ?? '')
        const problem = part.problem()
        if (problem.length > 0) {
          throw f.fail(where, problem)
        }
        parts.push(part)
      }
    }
    return parts
  }

  private static encodeCall(c: ToolCall): Record<string, Object> {
    const o: Record<string, Object> = { 'id': c.id, 'name': c.name, 'arguments': c.argumentsJson, 'index': c.index }
    return o
  }

  private static decodeCall(o: Record<string, Object>, path: string): ToolCall {
    const f = StateCodec.f
    return new ToolCall(f.str(o, 'id', path), f.str(o, 'name', path), f.str(o, 'arguments', path),
      f.int(o, 'index', path))
  }

  private static encodeResult(r: ToolResult): Record<string, Object> {
    const m = StateCodec.encodeMessage(AgentMessage.tool(r.callId, r.content, r.isError, r.errorCode))
    return m
  }

  private static decodeResult(o: Record<string, Object>, path: string): ToolResult {
    const m = StateCodec.decodeMessage(o, path)
    if (m.role !== MessageRole.tool) {
      throw StateCodec.f.fail(`${path}.role`, 'expected a tool result')
    }
    // decodeMessage guarantees a tool message its toolCallId.
    return new ToolResult(m.toolCallId as string, m.content, m.isError, m.errorCode)
  }

  // ---- approvals, plan review, tool batch ----

  private static encodeBatch(b: PendingApprovalBatch): Record<string, Object> {
    const items: Object[] = []
    for (let i = 0; i < b.items.length; i++) {
      const it = b.items[i]
      const o: Record<string, Object> = {
        'approvalId': it.approvalId, 'toolCall': StateCodec.encodeCall(it.toolCall), 'riskLevel': it.riskLevel,
        'reason': it.reason, 'createdAtMs': it.createdAtMs, 'decision': it.decision
      }
      if (it.denyReason !== undefined) {
        o['denyReason'] = it.denyReason
      }
      if (it.decidedAtMs !== undefined) {
        o['decidedAtMs'] = it.decidedAtMs
      }
      if (it.syntheticResult !== undefined) {
        o['syntheticResult'] = StateCodec.encodeResult(it.syntheticResult)
      }
      items.push(o)
    }
    const o: Record<string, Object> = {
      'batchId': b.batchId, 'runId': b.runId, 'items': items,
      'modelMessage': StateCodec.encodeMessage(b.modelMessage), 'createdAtMs': b.createdAtMs
    }
    return o
  }

  private static decodeBatch(o: Record<string, Object>, path: string): PendingApprovalBatch {
    const f = StateCodec.f
    const rawItems = f.arr(o, 'items', path)
    const items: PendingApprovalItem[] = []
    for (let i = 0; i < rawItems.length; i++) {
      const p = `${path}.items[${i}]`
      const it = f.asObject(rawItems[i], p)
      const item = new PendingApprovalItem(f.str(it, 'approvalId', p), StateCodec.decodeCall(f.obj(it, 'toolCall', p),
        `${p}.toolCall`), f.oneOf(f.str(it, 'riskLevel', p), RISKS, `${p}.riskLevel`) as ToolRiskLevel,
        f.str(it, 'reason', p), f.num(it, 'createdAtMs', p),
        f.oneOf(f.str(it, 'decision', p), DECISIONS, `${p}.decision`) as ApprovalDecision)
      item.denyReason = f.optStr(it, 'denyReason', p)
      item.decidedAtMs = f.optNum(it, 'decidedAtMs', p)
      const synthetic = f.optObj(it, 'syntheticResult', p)
      if (synthetic !== undefined) {
        item.syntheticResult = StateCodec.decodeResult(synthetic, `${p}.syntheticResult`)
      }
      items.push(item)
    }
    return new PendingApprovalBatch(f.str(o, 'batchId', path), f.str(o, 'runId', path), items,
      StateCodec.decodeMessage(f.obj(o, 'modelMessage', path), `${path}.modelMessage`), f.num(o, 'createdAtMs', path))
  }

  private static encodePlanReview(r: PendingPlanReview): Record<string, Object> {
    const o: Record<string, Object> = {
      'reviewId': r.reviewId, 'runId': r.runId, 'plan': r.plan, 'toolCall': StateCodec.encodeCall(r.toolCall),
      'modelMessage': StateCodec.encodeMessage(r.modelMessage), 'createdAtMs': r.createdAtMs, 'decision': r.decision
    }
    if (r.reason !== undefined) {
      o['reason'] = r.reason
    }
    return o
  }

  private static decodePlanReview(o: Record<string, Object>, path: string): PendingPlanReview {
    const f = StateCodec.f
    const r = new PendingPlanReview(f.str(o, 'reviewId', path), f.str(o, 'runId', path), f.str(o, 'plan', path),
      StateCodec.decodeCall(f.obj(o, 'toolCall', path), `${path}.toolCall`),
      StateCodec.decodeMessage(f.obj(o, 'modelMessage', path), `${path}.modelMessage`), f.num(o, 'createdAtMs', path),
      f.oneOf(f.str(o, 'decision', path), PLAN_DECISIONS, `${path}.decision`) as PlanReviewDecision)
    r.reason = f.optStr(o, 'reason', path)
    return r
  }

  private static encodeToolBatch(b: ToolBatchProgress): Record<string, Object> {
    const entries: Object[] = []
    for (let i = 0; i < b.entries.length; i++) {
      const e = b.entries[i]
      const o: Record<string, Object> = { 'call': StateCodec.encodeCall(e.call), 'started': e.started }
      if (e.clearance !== ToolRiskLevel.safe) {
        o['clearance'] = e.clearance
      }
      if (e.result !== undefined) {
        o['result'] = StateCodec.encodeResult(e.result)
      }
      entries.push(o)
    }
    const o: Record<string, Object> = {
      'batchId': b.batchId, 'runId': b.runId, 'modelMessage': StateCodec.encodeMessage(b.modelMessage),
      'entries': entries
    }
    return o
  }

  private static decodeToolBatch(o: Record<string, Object>, path: string): ToolBatchProgress {
    const f = StateCodec.f
    const raw = f.arr(o, 'entries', path)
    const entries: ToolBatchEntry[] = []
    for (let i = 0; i < raw.length; i++) {
      const p = `${path}.entries[${i}]`
      const e = f.asObject(raw[i], p)
      const result = f.optObj(e, 'result', p)
      // Absent in older states: cleared as safe, so a riskier tool is not run on it (fails closed).
      const clearance = f.optStr(e, 'clearance', p)
      entries.push(new ToolBatchEntry(StateCodec.decodeCall(f.obj(e, 'call', p), `${p}.call`), f.bool(e, 'started', p),
        result !== undefined ? StateCodec.decodeResult(result, `${p}.result`) : undefined,
        clearance !== undefined ? f.oneOf(clearance, RISKS, `${p}.clearance`) as ToolRiskLevel : ToolRiskLevel.safe))
    }
    return new ToolBatchProgress(f.str(o, 'batchId', path), f.str(o, 'runId', path),
      StateCodec.decodeMessage(f.obj(o, 'modelMessage', path), `${path}.modelMessage`), entries)
  }

  // ---- migration ----

  /** Version 1: {schemaVersion:1, sessionId, messages:[...], isRunning?, pendingApproval?}. */
  private static migrateV1(doc: Record<string, Object>): AgentState {
    const f = StateCodec.f
    const state = new AgentState(f.str(doc, 'sessionId', '$'))
    state.history = StateCodec.decodeMessages(f.arr(doc, 'messages', '$'), '$.messages')
    const running = f.optBool(doc, 'isRunning', '$', false)
    const batch = f.optObj(doc, 'pendingApproval', '$')
    if (batch !== undefined) {
      state.pendingApproval = StateCodec.decodeBatch(batch, '$.pendingApproval')
      state.status = SessionStatus.awaitingApproval
      state.activeRunId = state.pendingApproval.runId
    } else {
      // A v1 session that was running when saved was interrupted; restore() reports it so.
      state.status = running ? SessionStatus.running : SessionStatus.idle
    }
    state.updatedAtMs = f.optNum(doc, 'updatedAtMs', '$') ?? 0
    return state
  }
}
