import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { HookWatchdog, WatchedCall } from '../../src/core/hook/HookWatchdog'

class Owner implements WatchedCall {
  readonly overruns: Array<[number, number]> = []
  overran(call: number, timeoutMs: number): void {
    this.overruns.push([call, timeoutMs])
  }
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('HookWatchdog', () => {
  it('declares a call overrun after at least the bound and at most a quarter bound later', () => {
    const w = new HookWatchdog(100)
    const owner = new Owner()
    w.begin(owner, 7)
    vi.advanceTimersByTime(99)
    expect(owner.overruns).toEqual([])
    vi.advanceTimersByTime(26)
    expect(owner.overruns).toEqual([[7, 100]])
    expect(w.isTicking()).toBe(false)
  })

  it('never fires for calls that each settle within the bound, however long the stream', () => {
    const w = new HookWatchdog(100)
    const owner = new Owner()
    for (let call = 0; call < 50; call++) {
      w.begin(owner, call)
      vi.advanceTimersByTime(60)
      w.end()
    }
    expect(owner.overruns).toEqual([])
  })

  it('stops ticking once no call is running, and after close()', () => {
    const w = new HookWatchdog(100)
    const owner = new Owner()
    w.begin(owner, 0)
    w.end()
    expect(w.isTicking()).toBe(true)
    vi.advanceTimersByTime(25)
    expect(w.isTicking()).toBe(false)
    w.begin(owner, 1)
    expect(w.isTicking()).toBe(true)
    w.close()
    expect(w.isTicking()).toBe(false)
    vi.advanceTimersByTime(1000)
    expect(owner.overruns).toEqual([])
  })

  it('with a bound of 0 never arms a timer', () => {
    const w = new HookWatchdog(0)
    w.begin(new Owner(), 0)
    expect(w.isTicking()).toBe(false)
  })
})
