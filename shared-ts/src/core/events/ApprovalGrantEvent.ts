import { ApprovalGrant } from '../state/ApprovalGrant'
import { BusEvent } from './BusEvent'
import { ControllerEventTypes } from './ControllerEventTypes'

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
