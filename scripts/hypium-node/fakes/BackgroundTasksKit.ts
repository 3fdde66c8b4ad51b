// Node fake of @kit.BackgroundTasksKit backgroundTaskManager's transient tasks (requestSuspendDelay,
// cancelSuspendDelay, getRemainingDelayTime), faithful to resourceschedule_background_task_mgr 5.0.0:
// - errors thrown synchronously come from napi_throw_error, so their `code` is a STRING ("401",
//   "9900001"), and service codes are the inner code / 100 (common.cpp HandleErrCode, FindErrCode;
//   arkui_napi native_api.cpp napi_throw_error); getRemainingDelayTime rejects with a plain object
//   whose `code` is a number (common.cpp SetPromise);
// - request ids count up from 1 (decision_maker.h); at most 3 requests per app at a time
//   (pkg_delay_suspend_info.cpp MAX_REQUEST_ID); a request more than 5 s after the app went to the
//   background, or with under 10 s of the daily 10-minute quota left, fails with 9900002
//   (decision_maker.cpp Decide, bgtask_common.cpp); actualDelayTime = min(3 min, quota left);
// - time is counted only while the app is in the background; the callback fires 6 s before the delay
//   ends (delay_suspend_info_ex.h advanceTime_) with one argument {code: 0, data: null} (common.cpp
//   SetCallback); a delay still held 6 s after that gets a backgrounded app killed (watchdog.cpp) —
//   recorded here as a violation — or force-cancelled in the foreground;
// - cancelSuspendDelay of an id that is not a positive integer is 401, of an id not held 9900001.
// The app is in the foreground unless a Node caller moves it (`transientTasks.toBackground()`), as
// under a hypium run on a device.
import { violations } from './BusinessError'

const DELAY_TIME_NORMAL = 3 * 60_000
const ADVANCE_CALLBACK = 6_000
const WATCHDOG = 6_000
const ALLOW_REQUEST_TIME_BG = 5_000
const INIT_QUOTA = 10 * 60_000
const MIN_ALLOW_QUOTA = 10_000
const MAX_REQUESTS = 3

interface DelaySuspendInfo { requestId: number, actualDelayTime: number }

class Held {
  spent = 0
  base = 0
  timer?: ReturnType<typeof setTimeout>
  watchdog?: ReturnType<typeof setTimeout>
  constructor(readonly id: number, readonly actualDelayTime: number, readonly callback: (info: unknown) => void) {}
  remaining(now: number): number {
    const spent = this.base > 0 ? this.spent + (now - this.base) : this.spent
    return Math.max(0, this.actualDelayTime - spent)
  }
}

let nextId = 1
let quota = INIT_QUOTA
let background = false
let backgroundSince = 0
let quotaBase = 0
const held = new Map<number, Held>()

/** Error as napi_throw_error makes it: a plain Error whose `code` is the code as a string. */
function thrown(code: number, message: string): Error {
  const e = new Error(message) as Error & { code: string }
  e.code = String(code)
  return e
}

function paramError(detail: string): Error {
  return thrown(401, `BussinessError 401: Parameter error. ${detail}`)
}

function serviceError(code: number, detail: string): Error {
  return thrown(code, `BussinessError ${code}: ${detail}`)
}

function updateQuota(now: number): void {
  if (quotaBase > 0) {
    quota -= now - quotaBase
    quotaBase = background && held.size > 0 ? now : 0
  }
}

function startCounting(h: Held, now: number): void {
  if (h.base !== 0) return
  h.base = now
  if (quotaBase === 0) quotaBase = now
  const due = Math.max(0, h.remaining(now) - ADVANCE_CALLBACK)
  h.timer = setTimeout(() => expire(h.id), due)
  h.timer.unref?.()
}

function stopCounting(h: Held, now: number): void {
  if (h.base === 0) return
  h.spent += now - h.base
  h.base = 0
  if (h.timer !== undefined) clearTimeout(h.timer)
  h.timer = undefined
}

function expire(id: number): void {
  const h = held.get(id)
  if (h === undefined) return
  h.callback({ code: 0, data: null })
  h.watchdog = setTimeout(() => {
    if (!held.has(id)) return
    if (background) {
      violations.push(`transient task ${id} expired and was not cancelled within ${WATCHDOG} ms: the system kills a backgrounded app`)
    }
    drop(id)
  }, WATCHDOG)
  h.watchdog.unref?.()
}

function drop(id: number): void {
  const h = held.get(id)
  if (h === undefined) return
  const now = Date.now()
  stopCounting(h, now)
  if (h.watchdog !== undefined) clearTimeout(h.watchdog)
  held.delete(id)
  updateQuota(now)
}

function requestSuspendDelay(...args: unknown[]): DelaySuspendInfo {
  if (args.length !== 2) throw paramError('The number of arguments is wrong.')
  const [reason, callback] = args
  if (typeof reason !== 'string') throw paramError('The reason cannot be null and its type must be string.')
  if (typeof callback !== 'function') throw paramError('The callback cannot be null and its type must be function.')
  const now = Date.now()
  if (background && now - backgroundSince > ALLOW_REQUEST_TIME_BG) {
    throw serviceError(9900002, 'Transient task verification failed. Request is not allow after the preset time of entering background.')
  }
  if (held.size >= MAX_REQUESTS) {
    throw serviceError(9900002, 'Transient task verification failed. The number of request exceeds the threshold.')
  }
  updateQuota(now)
  if (quota < MIN_ALLOW_QUOTA) {
    throw serviceError(9900002, 'Transient task verification failed. The remaining time to run transient task is insufficient.')
  }
  const h = new Held(nextId++, Math.min(quota, DELAY_TIME_NORMAL), callback as (info: unknown) => void)
  held.set(h.id, h)
  if (background) startCounting(h, now)
  return { requestId: h.id, actualDelayTime: h.actualDelayTime }
}

function checkId(args: unknown[], counts: number[]): number {
  if (!counts.includes(args.length)) throw paramError('The number of arguments is wrong.')
  const id = args[0]
  if (typeof id !== 'number') throw paramError('The requestId cannot be null and its type must be integer.')
  const int = id | 0
  if (int <= 0) throw paramError('The requestId must be greater than 0.')
  return int
}

function cancelSuspendDelay(...args: unknown[]): void {
  const id = checkId(args, [1])
  if (!held.has(id)) {
    throw serviceError(9900001, 'Caller information verification failed for a transient task. Invalid requestId.')
  }
  drop(id)
}

function getRemainingDelayTime(...args: unknown[]): Promise<number> {
  const id = checkId(args, [1])
  const h = held.get(id)
  if (h === undefined) {
    const message = 'BussinessError 9900001: Caller information verification failed for a transient task. Invalid requestId.'
    return Promise.reject({ data: 9900001, code: 9900001, message })
  }
  return Promise.resolve(h.remaining(Date.now()))
}

export const backgroundTaskManager = { requestSuspendDelay, cancelSuspendDelay, getRemainingDelayTime }

/** Node-only controls (no device counterpart: a device moves the app itself). */
export const transientTasks = {
  toBackground(): void {
    if (background) return
    const now = Date.now()
    background = true
    backgroundSince = now
    for (const h of held.values()) startCounting(h, now)
  },
  toForeground(): void {
    if (!background) return
    const now = Date.now()
    for (const h of held.values()) stopCounting(h, now)
    updateQuota(now)
    background = false
    quotaBase = 0
  },
  /** Ids currently held. */
  held(): number[] {
    return [...held.keys()]
  },
}
