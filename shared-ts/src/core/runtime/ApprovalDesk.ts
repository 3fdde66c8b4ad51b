import { GrantRevokeResult } from '../controller/ApprovalHost'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../errors/ArkAgentError'
import { startTimer, stopTimer } from '../host/Timers'
import { ApprovalGrant } from '../state/ApprovalGrant'
import { ConfigCheck } from '../util/ConfigCheck'
import { ApprovalExpiry } from './ApprovalExpiry'
import { ApprovalFlow } from './ApprovalFlow'
import { RestoreReport } from './SessionRestorer'
import { RuntimeServices } from './RuntimeServices'

/**
 * The runtime's side of remembered grants and deadlines: listing and revoking grants (after the
 * session was restored), and the timer that expires pending approvals at their deadline.
 */
export class ApprovalDesk {
  private readonly s: RuntimeServices
  private readonly approvals: ApprovalFlow
  private readonly restore: () => Promise<RestoreReport>
  private readonly continueRun: () => void
  private cancelTimer?: () => void
  private disposed: boolean = false
  /** Expiry writes that failed in a row: the timer backs off (1 s, 2 s, ... 60 s) instead of retrying at once. */
  private failures: number = 0

  constructor(services: RuntimeServices, approvals: ApprovalFlow, restore: () => Promise<RestoreReport>,
    continueRun: () => void) {
    this.s = services
    this.approvals = approvals
    this.restore = restore
    this.continueRun = continueRun
  }

  async listGrants(): Promise<ApprovalGrant[]> {
    await this.restore()
    return await this.approvals.grants.all()
  }

  async revokeGrant(grantId: string): Promise<GrantRevokeResult> {
    const id = typeof grantId === 'string' ? grantId : ''
    try {
      await this.restore()
    } catch (e) {
      return new GrantRevokeResult(false, id, ArkAgentError.from(e as Object, ErrorLayer.storage,
        ErrorCodes.stateLoadFailed, 'The session could not be restored'))
    }
    const error = await this.approvals.revoke(grantId)
    return new GrantRevokeResult(error === undefined, id, error)
  }

  /** Denies the pending items past their deadline; continues the run when that decided the batch. */
  async expire(): Promise<number> {
    await this.restore()
    const sweep = await this.approvals.expire()
    this.failures = sweep.failed ? this.failures + 1 : 0
    if (sweep.expired > 0 && sweep.allDecided) {
      this.continueRun()
    }
    this.arm()
    return sweep.expired
  }

  /** Sets the timer for the earliest deadline of a pending approval (none: no timer). */
  arm(): void {
    this.disarm()
    const next = ApprovalExpiry.next(this.s)
    if (next === undefined || this.disposed) {
      return
    }
    const clock = this.s.config.clock
    const backoff = this.failures > 0 ? Math.min(1000 * Math.pow(2, Math.min(this.failures - 1, 6)), 60000) : 0
    const delay = Math.min(Math.max(backoff, next - clock.now()), ConfigCheck.maxTimerMs)
    const fire = (): void => {
      this.cancelTimer = undefined
      this.expire().catch((): void => {
        // Not expired now (the session could not be read): the next decision or restore sweeps again.
      })
    }
    try {
      // The runtime's clock: a test clock decides when the deadline comes.
      this.cancelTimer = clock.setTimer(delay, fire)
    } catch (e) {
      // A clock of the app's own without setTimer: a plain timer.
      const handle = startTimer(fire, delay)
      this.cancelTimer = (): void => stopTimer(handle)
    }
  }

  dispose(): void {
    this.disposed = true
    this.disarm()
  }

  private disarm(): void {
    const cancel = this.cancelTimer
    if (cancel !== undefined) {
      this.cancelTimer = undefined
      cancel()
    }
  }
}
