import { ApprovalGrant } from '../state/ApprovalGrant'
import { PendingApprovalBatch, PendingApprovalItem } from '../state/PendingApproval'
import { BusEvent } from './BusEvent'
import { ControllerEventTypes } from './ControllerEventTypes'

/** Published only after the batch was durably written. */
export class ApprovalRequiredEvent extends BusEvent {
  /** A copy of the frozen batch: one item per call in model order, hook-denied and refused calls already decided. */
  readonly batch: PendingApprovalBatch

  constructor(sessionId: string, runId: string, batch: PendingApprovalBatch) {
    super(sessionId, runId)
    this.batch = batch
  }

  /** `ControllerEventTypes.approvalRequired` ('approval.required'). */
  eventType(): string {
    return ControllerEventTypes.approvalRequired
  }
}

export class ApprovalDecidedEvent extends BusEvent {
  /** A copy of the item just decided (approved or denied), published after the decision was written. */
  readonly item: PendingApprovalItem

  constructor(sessionId: string, runId: string, item: PendingApprovalItem) {
    super(sessionId, runId)
    this.item = item
  }

  /** `ControllerEventTypes.approvalDecided` ('approval.decided'). */
  eventType(): string {
    return ControllerEventTypes.approvalDecided
  }
}

export class ApprovalResolvedEvent extends BusEvent {
  /** A copy of the batch once every item is decided (published right after the last `approval.decided`). */
  readonly batch: PendingApprovalBatch

  constructor(sessionId: string, runId: string, batch: PendingApprovalBatch) {
    super(sessionId, runId)
    this.batch = batch
  }

  /** `ControllerEventTypes.approvalResolved` ('approval.resolved'). */
  eventType(): string {
    return ControllerEventTypes.approvalResolved
  }
}

/** What happened to a remembered decision. */
export enum GrantChange {
  added = 'added',
  revoked = 'revoked'
}

/** A remembered decision ("always allow / deny") was made or revoked; published after it was written. */
export class ApprovalGrantEvent extends BusEvent {
  /** The grant (immutable data). */
  readonly grant: ApprovalGrant
  /** `added` or `revoked`. */
  readonly change: GrantChange

  constructor(sessionId: string, runId: string, grant: ApprovalGrant, change: GrantChange) {
    super(sessionId, runId)
    this.grant = grant
    this.change = change
  }

  /** `ControllerEventTypes.approvalGrant` ('approval.grant'). */
  eventType(): string {
    return ControllerEventTypes.approvalGrant
  }
}
