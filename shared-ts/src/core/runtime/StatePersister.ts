import { SessionGenerations } from '../storage/SessionGenerations'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { HookDiagnosticEvent, PersistEvent } from '../events/AgentEvents'
import { StatePersistenceHookContext } from '../hook/HookContexts'
import { StatePersistenceHookAction } from '../hook/HookResults'
import { RunContext } from './RunContext'
import { RuntimeServices } from './RuntimeServices'

/** Reasons a write happens; the mandatory ones cannot be skipped by beforePersistState. */
export class PersistReason {
  static readonly afterUserInput: string = 'after_user_input'
  static readonly afterModelText: string = 'after_model_text'
  static readonly afterToolBatch: string = 'after_tool_batch'
  static readonly toolStarted: string = 'tool_started'
  static readonly awaitingApproval: string = 'awaiting_approval'
  static readonly approvalDecision: string = 'approval_decision'
  static readonly awaitingPlanReview: string = 'awaiting_plan_review'
  static readonly planReviewDecision: string = 'plan_review_decision'
  static readonly resume: string = 'resume'
  static readonly restore: string = 'restore'
  static readonly suspend: string = 'suspend'
  static readonly terminal: string = 'terminal'
  static readonly compaction: string = 'compaction'
}

export class PersistResult {
  readonly ok: boolean
  readonly skipped: boolean
  readonly error?: ArkAgentError
  /** A beforePersistState hook aborted the write: a decision, not a storage failure (never downgraded). */
  readonly refused: boolean

  constructor(ok: boolean, skipped: boolean, error?: ArkAgentError, refused: boolean = false) {
    this.ok = ok
    this.skipped = skipped
    this.error = error
    this.refused = refused
  }

  /**
   * The failure to report as it is, not as state_save_failed: a hook's refusal, or session_locked —
   * another owner holds the session now (a shared store's lease was taken over), and saying so is
   * what tells the app to stop using this runtime for it.
   */
  get ownError(): ArkAgentError | undefined {
    const e = this.error
    return e !== undefined && (this.refused || e.code === ErrorCodes.sessionLocked) ? e : undefined
  }
}

/**
 * Every write goes through here: beforePersistState (skip honoured only when not mandatory,
 * abort always), a save of a consistent snapshot, afterPersistState (isolated), a persist event.
 */
export class StatePersister {
  private readonly s: RuntimeServices

  constructor(services: RuntimeServices) {
    this.s = services
  }

  async persist(run: RunContext | undefined, reason: string, mandatory: boolean,
    runError?: ArkAgentError): Promise<PersistResult> {
    const storage = this.s.config.storage
    if (storage === undefined) {
      return new PersistResult(true, false)
    }
    const runId = run !== undefined ? run.runId : this.s.state.activeRunId
    this.s.touch()
    const ctx = new StatePersistenceHookContext(this.s.sessionId, runId, this.s.view(), reason, mandatory, runError)
    let action = StatePersistenceHookAction.proceed
    let hookError: ArkAgentError | undefined
    try {
      const before = await this.s.hooks.beforePersistState(ctx)
      action = before.action
      if (action === StatePersistenceHookAction.abort) {
        hookError = before.error ?? new ArkAgentError(ErrorLayer.security, ErrorCodes.hookAbort,
          `A hook refused the '${reason}' write${before.reason !== undefined ? ': ' + before.reason : ''}`,
          ErrorRetryability.never)
      }
    } catch (e) {
      const err = e as ArkAgentError
      if (!mandatory) {
        // A failing gate on an optional write fails closed: the run stops with the hook's error.
        throw err
      }
      // On a mandatory write a hook that throws or hangs is treated like one answering abort
      // (hook_failed / hook_timeout instead of hook_abort): never more permissive than a refusal.
      hookError = err
    }
    if (action === StatePersistenceHookAction.skip && !mandatory) {
      this.s.publish(run, new PersistEvent(this.s.sessionId, runId, reason, mandatory, true, true, 0))
      return new PersistResult(true, true)
    }
    if (hookError !== undefined) {
      this.s.publish(run, new PersistEvent(this.s.sessionId, runId, reason, mandatory, false, false, 0, hookError))
      return new PersistResult(false, false, hookError, true)
    }
    let bytes = 0
    try {
      // Checked and queued together (no await between): a stale copy never reaches the storage.
      this.s.generation = SessionGenerations.advance(storage, this.s.sessionId, this.s.generation)
      const snapshot = this.s.state.snapshot()
      const report = await storage.save(snapshot)
      // The storage's view this state now belongs to (SegmentedStateStorage stamps it on the saved copy).
      this.s.state.storageEpoch = snapshot.storageEpoch
      this.s.state.storageEpochOf = snapshot.storageEpochOf
      bytes = report.bytesWritten
    } catch (e) {
      const err = ArkAgentError.from(e as Object, ErrorLayer.storage, ErrorCodes.stateSaveFailed,
        `Saving state ('${reason}') failed`)
      this.s.publish(run, new PersistEvent(this.s.sessionId, runId, reason, mandatory, false, false, 0, err))
      return new PersistResult(false, false, err)
    }
    const diagnostics = await this.s.hooks.afterPersistState(ctx)
    for (let i = 0; i < diagnostics.length; i++) {
      this.s.publish(run, new HookDiagnosticEvent(this.s.sessionId, runId, 'afterPersistState', diagnostics[i]))
    }
    this.s.publish(run, new PersistEvent(this.s.sessionId, runId, reason, mandatory, false, true, bytes))
    return new PersistResult(true, false)
  }

  /**
   * An optional write at a natural point of a run. A hook's abort is a safety decision and ends the
   * run (thrown), and so does session_locked (another owner has the session); any other storage
   * failure is reported as a diagnostic and the run goes on (the next write, at the latest the
   * terminal one, tries again).
   */
  async autosave(run: RunContext, reason: string): Promise<void> {
    const saved = await this.persist(run, reason, false)
    if (saved.refused && saved.error !== undefined) {
      throw saved.error
    }
    const own = saved.ownError
    if (own !== undefined && own.code === ErrorCodes.sessionLocked) {
      // Another owner has the session now: going on would call the model and run tools for a copy
      // that can never be stored.
      throw own
    }
    if (!saved.ok && saved.error !== undefined) {
      this.s.publish(run, new HookDiagnosticEvent(this.s.sessionId, run.runId, 'persist', saved.error.message))
    }
  }

  /**
   * The mandatory write that must succeed before a run may claim to be resumable (a frozen batch,
   * a plan under review). Throws state_save_failed naming `what` when it did not, or the refusing
   * hook's own error (hook_abort, hook_failed, hook_timeout).
   */
  async persistSuspension(run: RunContext, reason: string, what: string): Promise<void> {
    const saved = await this.persist(run, reason, true)
    if (!saved.ok) {
      const own = saved.ownError
      if (own !== undefined && saved.refused) {
        // A hook's refusal (or its crash or hang) keeps its code: it is a decision, not a storage failure.
        throw new ArkAgentError(own.layer, own.code, `${what} could not be saved, so it is not resumable: ${own.message}`,
          own.retryability)
      }
      if (own !== undefined) {
        throw own
      }
      throw new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateSaveFailed,
        `${what} could not be saved, so it is not resumable: ${saved.error !== undefined ? saved.error.message :
          'unknown error'}`, ErrorRetryability.retryable)
    }
  }

  /** Marks the stored session not resumable; true if that worked. */
  async markNotResumable(reason: string): Promise<boolean> {
    const storage = this.s.config.storage
    if (storage === undefined) {
      return true
    }
    try {
      // A stale copy's failure says nothing of the snapshot another runtime wrote since: no mark.
      this.s.generation = SessionGenerations.advance(storage, this.s.sessionId, this.s.generation)
      await storage.markNotResumable(this.s.sessionId, reason)
      return true
    } catch (e) {
      return false
    }
  }
}
