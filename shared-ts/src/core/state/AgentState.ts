import { AgentMessage } from '../model/AgentMessage'
import { CompactionCheckpoint } from './CompactionCheckpoint'
import { ApprovalGrant } from './ApprovalGrant'
import { PendingApprovalBatch, PendingApprovalItem } from './PendingApproval'
import { PendingElicitation } from './PendingElicitation'
import { PendingPlanReview } from './PendingPlanReview'
import { ToolBatchProgress } from './ToolBatchProgress'
import { Redactor } from '../redaction/Redactor'

/** Where a session stands between calls. */
export enum SessionStatus {
  idle = 'idle',
  running = 'running',
  awaitingApproval = 'awaiting_approval',
  awaitingPlanReview = 'awaiting_plan_review',
  completed = 'completed',
  cancelled = 'cancelled',
  failed = 'failed'
}

/** The last error of a session, as plain data (an Error object does not survive a reload). */
export class StoredError {
  readonly layer: string
  readonly code: string
  readonly message: string

  constructor(layer: string, code: string, message: string) {
    this.layer = layer
    this.code = code
    this.message = message
  }
}

/**
 * Everything the runtime must remember about a session. Owned by the runtime alone; hooks and the
 * controller only ever see `snapshot()`s.
 */
export class AgentState {
  static readonly schemaVersion: number = 3

  readonly sessionId: string
  history: AgentMessage[] = []
  status: SessionStatus = SessionStatus.idle
  activeRunId: string = ''
  runCount: number = 0
  turn: number = 0
  lastStopReason: string = ''
  lastError?: StoredError
  pendingApproval?: PendingApprovalBatch
  pendingPlanReview?: PendingPlanReview
  toolBatch?: ToolBatchProgress
  /** MCP servers' questions and sampling requests: the pending ones and the latest closed ones (docs/mcp.md). */
  elicitations: PendingElicitation[] = []
  /** The session's remembered decisions ("always allow / deny"; docs/approvals.md). */
  grants: ApprovalGrant[] = []
  /**
   * Decided approval items of resumed batches and calls decided by a grant without a batch, oldest
   * first, each with its proposed, approved and executed call. Bounded (the latest 64, within about 32 K characters).
   */
  decisions: PendingApprovalItem[] = []
  /** Recent approval ids of consumed batches, so a late decision gets a precise error. Bounded. */
  consumedApprovalIds: string[] = []
  /** Whether the loop detector already warned the model in the active run. */
  loopWarned: boolean = false
  plan: string = ''
  updatedAtMs: number = 0
  /** The latest context compaction (docs/compaction.md); absent until the first one. */
  compaction?: CompactionCheckpoint
  /** Provider-reported prompt tokens per estimated token (1 until a provider reports usage). */
  tokenCalibration: number = 1
  /** The output schema (its name, OutputSchema.name) the active run's final answer owes; '' when none. */
  outputSchema: string = ''
  /** Repair turns the active run has had for invalid final answers. */
  outputRepairs: number = 0
  /**
   * Not stored: which of the storage's views of the session this state was read from or last saved
   * to (SegmentedStateStorage: it changes when ownership of the session changed hands). -1: none.
   * A save of a state read from an older view is refused (session_locked).
   */
  storageEpoch: number = -1
  /** The storage object `storageEpoch` belongs to (a state copied into another storage carries no view there). */
  storageEpochOf?: Object

  constructor(sessionId: string) {
    this.sessionId = sessionId
  }

  /**
   * Adds a message to the history — the one way in for the runtime — with every secret the process
   * holds removed (Redactor.message): history is stored, shown to hooks and sent to the model.
   */
  append(message: AgentMessage): void {
    this.history.push(Redactor.message(message))
  }

  /** A deep copy: the history array is new (messages are immutable), mutable parts are cloned. */
  snapshot(): AgentState {
    const copy = new AgentState(this.sessionId)
    copy.history = this.history.slice()
    copy.status = this.status
    copy.activeRunId = this.activeRunId
    copy.runCount = this.runCount
    copy.turn = this.turn
    copy.lastStopReason = this.lastStopReason
    copy.lastError = this.lastError !== undefined ?
      new StoredError(this.lastError.layer, this.lastError.code, this.lastError.message) : undefined
    copy.pendingApproval = this.pendingApproval !== undefined ? this.pendingApproval.clone() : undefined
    copy.pendingPlanReview = this.pendingPlanReview !== undefined ? this.pendingPlanReview.clone() : undefined
    copy.toolBatch = this.toolBatch !== undefined ? this.toolBatch.clone() : undefined
    copy.elicitations = this.elicitations.map((e: PendingElicitation): PendingElicitation => e.clone())
    copy.consumedApprovalIds = this.consumedApprovalIds.slice()
    copy.grants = this.grants.slice()
    copy.decisions = this.decisions.map((d: PendingApprovalItem): PendingApprovalItem => d.clone())
    copy.loopWarned = this.loopWarned
    copy.plan = this.plan
    copy.updatedAtMs = this.updatedAtMs
    copy.compaction = this.compaction !== undefined ? this.compaction.clone() : undefined
    copy.tokenCalibration = this.tokenCalibration
    copy.outputSchema = this.outputSchema
    copy.outputRepairs = this.outputRepairs
    copy.storageEpoch = this.storageEpoch
    copy.storageEpochOf = this.storageEpochOf
    return copy
  }

  isTerminal(): boolean {
    return this.status === SessionStatus.completed || this.status === SessionStatus.cancelled ||
      this.status === SessionStatus.failed
  }
}
