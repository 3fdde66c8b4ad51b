// How long an operation holds the thread it runs on (section 10): a ticker re-arms itself with
// setImmediate and records the gaps between two of its turns while the operation runs — microtasks
// included, since a chain of resolved promises keeps the thread as surely as a loop does.
//
// Three clocks per gap: the wall clock; the CPU time of the JS thread alone (Linux: the thread's
// schedstat, read with one pread per turn; elsewhere the process CPU time), which is the time the
// runtime's code actually held the thread — on a loaded machine the wall clock also counts the time
// the OS gave to other processes, and the process CPU time counts the GC's helper threads; and the
// process CPU time, kept for comparison.
import fs from 'node:fs'
import path from 'node:path'

/**
 * The longest gap (wall clock), the gap in which the JS thread ran longest (its own CPU time), the
 * process CPU time of the busiest gap, and the operation's whole wall time.
 */
export interface Stretch { longestMs: number, longestThreadMs: number, longestCpuMs: number, totalMs: number, turns: number }

function now(): number {
  return Number(process.hrtime.bigint()) / 1e6
}

/** The JS thread's own CPU clock, when the OS exposes one (Linux schedstat: ns on CPU). */
const threadClock: (() => number) | undefined = ((): (() => number) | undefined => {
  if (process.platform !== 'linux') return undefined
  try {
    const fd = fs.openSync(`/proc/self/task/${process.pid}/schedstat`, 'r')
    const buf = Buffer.alloc(96)
    const read = (): number => {
      const n = fs.readSync(fd, buf, 0, buf.length, 0)
      return Number(buf.toString('latin1', 0, n).split(' ')[0]) / 1e6
    }
    return Number.isFinite(read()) ? read : undefined
  } catch {
    return undefined
  }
})()

/** Which clock the thread column used, for the table's note. */
export const THREAD_CLOCK: string = threadClock !== undefined ? 'JS-thread CPU (schedstat)' : 'process CPU (no per-thread clock here)'

/**
 * CPU time the Node fakes spent doing what a device does off the JS thread (the preferences file's
 * parse on the load executor, its write in flush's async work): excluded from both CPU figures.
 */
let offThreadCpu = 0
let offThreadThread = 0

function processCpuMs(): number {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

function threadMs(): number {
  return threadClock !== undefined ? threadClock() : processCpuMs()
}

/** Counts the synchronous part of `method` (an async method of a fake) as off-thread time. */
export function offThread(target: Record<string, unknown>, method: string): void {
  const original = target[method] as (...args: unknown[]) => unknown
  if (typeof original !== 'function' || (original as { offThread?: boolean }).offThread) return
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    const c0 = processCpuMs()
    const t0 = threadMs()
    try {
      return original.apply(this, args)
    } finally {
      offThreadCpu += processCpuMs() - c0
      offThreadThread += threadMs() - t0
    }
  }
  ;(wrapped as { offThread?: boolean }).offThread = true
  target[method] = wrapped
}

let profiled = 0
/** [start, end] (µs, the monotonic clock CPU profiles use) of the busiest stretch of the last measurement. */
let lastBusiest: number[] = []

export async function measureStretch(op: () => Promise<unknown>, gc: () => void): Promise<Stretch> {
  // The setup (seeding 10,000 messages) leaves garbage: collect it now, not inside the measurement.
  gc()
  const profileDir = process.env.UI_BENCH_PROFILE
  let session: import('node:inspector/promises').Session | undefined
  if (profileDir !== undefined) {
    const inspector = await import('node:inspector/promises')
    session = new inspector.Session()
    session.connect()
    await session.post('Profiler.enable')
    await session.post('Profiler.start')
  }
  try {
    return await measureStretchOf(op)
  } finally {
    if (session !== undefined && profileDir !== undefined) {
      const { profile } = await session.post('Profiler.stop')
      fs.writeFileSync(path.join(profileDir, `op-${profiled++}.cpuprofile`), JSON.stringify({ ...profile, busiest: lastBusiest }))
      session.disconnect()
    }
  }
}

async function measureStretchOf(op: () => Promise<unknown>): Promise<Stretch> {
  let running = true
  let turns = 0
  let longest = 0
  let longestThread = 0
  let busiestCpu = 0
  const t0 = now()
  let last = t0
  let lastThread = threadMs() - offThreadThread
  let lastCpu = processCpuMs() - offThreadCpu
  const gap = (): void => {
    const t = now()
    const th = threadMs() - offThreadThread
    const c = processCpuMs() - offThreadCpu
    longest = Math.max(longest, t - last)
    if (th - lastThread > longestThread) {
      longestThread = th - lastThread
      busiestCpu = c - lastCpu
      lastBusiest = [last * 1000, t * 1000]
    }
    last = t
    lastThread = th
    lastCpu = c
  }
  const tick = (): void => {
    gap()
    turns++
    if (running) setImmediate(tick)
  }
  setImmediate(tick)
  await op()
  running = false
  gap()
  return { longestMs: longest, longestThreadMs: longestThread, longestCpuMs: busiestCpu, totalMs: last - t0, turns }
}
