import { ApprovalDecidedEvent, ApprovalResolvedEvent } from '../events/ApprovalEvents'
import { ApprovalDecision, DecisionChannel, PendingApprovalItem } from '../state/PendingApproval'
import { RuntimeServices } from './RuntimeServices'
import { PersistReason, StatePersister } from './StatePersister'

/** What an expiry sweep did: how many items it denied, whether that write failed, and whether the batch is now all decided. */
export class ExpirySweep {
  readonly expired: number
  readonly failed: boolean
  readonly allDecided: boolean

  constructor(expired: number, failed: boolean, allDecided: boolean) {
    this.expired = expired
    this.failed = failed
    this.allDecided = allDecided
  }
}

/**
 * Deadlines of pending approvals (AgentRuntimeConfig.approvalDeadlineMs, toolApprovalDeadlineMs): an
 * undecided item past its deadline resolves as denied, channel `expiry`, with a reason the model sees.
 * Swept before every decision, on restore, and when the runtime's timer fires; the time is the
 * runtime's clock (injectable).
 */
export class ApprovalExpiry {
  /** The deadline of a new item for `toolName` frozen at `now`; undefined: none. */
  static deadline(services: RuntimeServices, toolName: string, now: number): number | undefined {
    const config = services.config
    const own = Object.keys(config.toolApprovalDeadlineMs).indexOf(toolName) >= 0 ?
      config.toolApprovalDeadlineMs[toolName] : undefined
    const ms = own !== undefined ? own : config.approvalDeadlineMs
    return ms !== undefined && ms > 0 ? now + ms : undefined
  }

  /** The earliest deadline among the pending items; undefined: none. */
  static next(services: RuntimeServices): number | undefined {
    const batch = services.state.pendingApproval
    let next: number | undefined
    for (let i = 0; batch !== undefined && i < batch.items.length; i++) {
      const it = batch.items[i]
      if (it.isPending() && it.expiresAtMs !== undefined && (next === undefined || it.expiresAtMs < next)) {
        next = it.expiresAtMs
      }
    }
    return next
  }

  /**
   * Denies every pending item whose deadline has passed, in one mandatory write; publishes each as
   * decided (and the batch as resolved when that was its last). A failed write changes nothing.
   */
  static async sweep(services: RuntimeServices, persister: StatePersister): Promise<ExpirySweep> {
    const batch = services.state.pendingApproval
    if (batch === undefined) {
      return new ExpirySweep(0, false, false)
    }
    const now = services.config.clock.now()
    const due: PendingApprovalItem[] = []
    const before: PendingApprovalItem[] = []
    for (let i = 0; i < batch.items.length; i++) {
      const it = batch.items[i]
      if (it.isPending() && it.expiresAtMs !== undefined && it.expiresAtMs <= now) {
        before.push(it.clone())
        due.push(it)
        it.decision = ApprovalDecision.denied
        it.channel = DecisionChannel.expiry
        it.actor = 'runtime'
        it.decidedAtMs = now
        it.denyReason = 'the approval expired before anyone decided'
        it.messageToModel = `Not run: no one approved '${it.toolCall.name}' before its approval expired. ` +
          'Ask the user before trying it again.'
      }
    }
    if (due.length === 0) {
      return new ExpirySweep(0, false, batch.allDecided())
    }
    const saved = await persister.persist(undefined, PersistReason.approvalDecision, true)
    if (!saved.ok) {
      for (let i = 0; i < due.length; i++) {
        due[i].restoreFrom(before[i])
      }
      return new ExpirySweep(0, true, false)
    }
    for (let i = 0; i < due.length; i++) {
      services.publish(undefined, new ApprovalDecidedEvent(services.sessionId, batch.runId, due[i].clone()))
    }
    const all = batch.allDecided()
    if (all) {
      services.publish(undefined, new ApprovalResolvedEvent(services.sessionId, batch.runId, batch.clone()))
    }
    return new ExpirySweep(due.length, false, all)
  }
}
