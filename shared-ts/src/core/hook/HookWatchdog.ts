import { startTimer, stopTimer } from '../host/Timers'

/** What a watchdog calls when the call it watches overran its bound. */
export interface WatchedCall {
  overran(call: number, timeoutMs: number): void
}

/** Ticks per bound: a call is declared overrun between 1 and 1.25 bounds after it started. */
const TICKS: number = 4

/**
 * One timer for a whole stream of hook calls instead of a check per call. Calls are serial: the
 * watchdog notes which call is running (a counter bump, no clock read, no allocation) and a timer
 * ticking every bound/4 declares a call overrun when it has seen that same call running for more
 * than a full bound. The timer runs only while calls come in: it stops at the first tick that
 * finds nothing running, so an idle or finished stream holds no timer.
 */
export class HookWatchdog {
  readonly timeoutMs: number
  private generation: number = 0
  private active?: WatchedCall
  private activeCall: number = 0
  /** The generation seen at the last tick; generations start at 1, so 0 is none. */
  private seenGeneration: number = 0
  private seenTicks: number = 0
  private timer: number = 0
  /** Kept apart from `timer`: on Node a handle is an object, and comparing it is slow. */
  private armed: boolean = false
  private readonly tick: () => void

  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs
    this.tick = (): void => this.onTick()
  }

  /** A call started; `call` identifies it to `owner.overran`. */
  begin(owner: WatchedCall, call: number): void {
    this.generation++
    this.active = owner
    this.activeCall = call
    if (!this.armed && this.timeoutMs > 0) {
      this.seenGeneration = 0
      this.armed = true
      this.timer = startTimer(this.tick, this.period())
    }
  }

  /** The call that began last has settled. */
  end(): void {
    this.active = undefined
  }

  /** Whether its timer is pending (for tests and diagnostics). */
  isTicking(): boolean {
    return this.armed
  }

  /** Stops the timer now (the stream ended). */
  close(): void {
    this.active = undefined
    if (this.armed) {
      stopTimer(this.timer)
      this.armed = false
    }
  }

  private period(): number {
    return Math.max(1, Math.ceil(this.timeoutMs / TICKS))
  }

  private onTick(): void {
    this.armed = false
    const owner = this.active
    if (owner === undefined) {
      return
    }
    if (this.generation !== this.seenGeneration) {
      this.seenGeneration = this.generation
      this.seenTicks = 1
    } else {
      this.seenTicks++
    }
    // Seen on `seenTicks` consecutive ticks: it has run for more than (seenTicks - 1) periods.
    if ((this.seenTicks - 1) * this.period() >= this.timeoutMs) {
      this.active = undefined
      owner.overran(this.activeCall, this.timeoutMs)
      return
    }
    this.armed = true
    this.timer = startTimer(this.tick, this.period())
  }
}
