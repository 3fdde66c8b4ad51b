import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { Thrown } from '../errors/Thrown'
import { CompactionCheckpoint } from './CompactionCheckpoint'
import { AgentMessage, MessageRole } from '../model/AgentMessage'
import { AgentState, SessionStatus, StoredError } from './AgentState'
import { JsonFields } from './JsonFields'
import { ElicitationCodec } from './ElicitationCodec'
import { MessageCodec } from './MessageCodec'
import { ApprovalCodec } from './ApprovalCodec'
import { PendingCodec } from './PendingCodec'
import { OutputObligationCodec } from './OutputObligationCodec'
import { LONG_TEXT, PacedMessages } from './PacedMessages'

const STATUSES: string[] = ['idle', 'running', 'awaiting_approval', 'awaiting_plan_review', 'completed', 'cancelled',
  'failed']

/**
 * Encodes AgentState to plain JSON and back, validating every field. Version 3 is current (version 2
 * plus the approval records: grants, the decision log, and the new fields of approval items); a
 * version-2 header is read as version 3 without them, and version 1 (one JSON document: sessionId,
 * messages, optional pendingApproval) is migrated.
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
      doc['history'] = MessageCodec.encodeMessages(state.history, 0, state.history.length)
      return JSON.stringify(doc)
    }, (text: string): void => {
      StateCodec.decode(text)
    })
  }

  /** The stored text of messages [from, to) of `messages`, checked to decode (see `encode`). */
  static messagesText(messages: AgentMessage[], from: number, to: number): string {
    return StateCodec.checked(`messages ${from}-${to - 1}`, (): string =>
      JSON.stringify(MessageCodec.encodeMessages(messages, from, to)), (text: string): void => {
      MessageCodec.decodeMessages(JSON.parse(text) as Object[], '$')
    })
  }

  /**
   * `messagesText`, the same text and the same check, one message at a time: `pause` runs before
   * each message is encoded (told 0) and before its text is decoded again (told the text's length in
   * code units, the size of that step): storage gives the thread back there. The text of an array is its elements' texts between brackets, joined by commas, so each
   * message's text is checked on its own, at the path the whole text would give it.
   */
  static async messagesTextPaced(messages: AgentMessage[], from: number, to: number,
    pause: (units: number) => Promise<void>): Promise<string> {
    if (PacedMessages.size(messages, from, to) < LONG_TEXT) {
      // Short texts: one step, as quick as the pauses would be.
      return StateCodec.messagesText(messages, from, to)
    }
    try {
      return await PacedMessages.text(messages, from, to, StateCodec.f, pause)
    } catch (e) {
      throw StateCodec.unloadable(`messages ${from}-${to - 1}`, e as Object)
    }
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
    state.history = MessageCodec.decodeMessages(StateCodec.f.arr(doc, 'history', '$'), '$.history')
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
      h['pendingApproval'] = PendingCodec.encodeBatch(state.pendingApproval)
    }
    if (state.pendingPlanReview !== undefined) {
      h['pendingPlanReview'] = PendingCodec.encodePlanReview(state.pendingPlanReview)
    }
    if (state.toolBatch !== undefined) {
      h['toolBatch'] = PendingCodec.encodeToolBatch(state.toolBatch)
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
    OutputObligationCodec.encode(state, h)
    // Only while there are some, so sessions without MCP server requests keep their exact bytes.
    if (state.elicitations.length > 0) {
      h['elicitations'] = ElicitationCodec.encode(state.elicitations)
    }
    if (state.grants.length > 0) {
      h['grants'] = ApprovalCodec.encodeGrants(state.grants)
    }
    if (state.decisions.length > 0) {
      h['decisions'] = ApprovalCodec.encodeItems(state.decisions)
    }
    return h
  }

  /** Decodes a version-2 or version-3 header into a state with empty history. */
  static decodeHeader(h: Record<string, Object>): AgentState {
    const f = StateCodec.f
    const version = StateCodec.versionOf(h)
    if (version !== 2 && version !== 3) {
      throw new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateCorrupt,
        `Header has schema version ${version}, expected 2 or 3`, ErrorRetryability.never)
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
      state.pendingApproval = PendingCodec.decodeBatch(batch, '$.pendingApproval')
    }
    const review = f.optObj(h, 'pendingPlanReview', '$')
    if (review !== undefined) {
      state.pendingPlanReview = PendingCodec.decodePlanReview(review, '$.pendingPlanReview')
    }
    state.elicitations = ElicitationCodec.decode(f.optArr(h, 'elicitations', '$'), '$.elicitations')
    // Absent in version 2: a migrated session has no grants and an empty decision log.
    state.grants = ApprovalCodec.decodeGrants(f.optArr(h, 'grants', '$'), '$.grants')
    state.decisions = ApprovalCodec.decodeItems(f.optArr(h, 'decisions', '$'), '$.decisions', true)
    const tb = f.optObj(h, 'toolBatch', '$')
    if (tb !== undefined) {
      state.toolBatch = PendingCodec.decodeToolBatch(tb, '$.toolBatch')
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
    OutputObligationCodec.decode(h, state, f)
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
      const whole = CompactionCheckpoint.expandPins(history, c.pinned, c.upTo)
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
    if (n !== 1 && n !== 2 && n !== 3) {
      throw new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateVersionUnsupported,
        `State schema version ${n} is not supported (this build reads 1 to 3)`, ErrorRetryability.never)
    }
    return n
  }

  // ---- messages (MessageCodec) ----

  static encodeMessages(messages: AgentMessage[], from: number, to: number): Object[] {
    return MessageCodec.encodeMessages(messages, from, to)
  }

  static decodeMessages(items: Object[], path: string): AgentMessage[] {
    return MessageCodec.decodeMessages(items, path)
  }

  static encodeMessage(m: AgentMessage): Record<string, Object> {
    return MessageCodec.encodeMessage(m)
  }

  static decodeMessage(o: Record<string, Object>, path: string): AgentMessage {
    return MessageCodec.decodeMessage(o, path)
  }

  /** Version 1: {schemaVersion:1, sessionId, messages:[...], isRunning?, pendingApproval?}. */
  private static migrateV1(doc: Record<string, Object>): AgentState {
    const f = StateCodec.f
    const state = new AgentState(f.str(doc, 'sessionId', '$'))
    state.history = MessageCodec.decodeMessages(f.arr(doc, 'messages', '$'), '$.messages')
    const running = f.optBool(doc, 'isRunning', '$', false)
    const batch = f.optObj(doc, 'pendingApproval', '$')
    if (batch !== undefined) {
      state.pendingApproval = PendingCodec.decodeBatch(batch, '$.pendingApproval')
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
