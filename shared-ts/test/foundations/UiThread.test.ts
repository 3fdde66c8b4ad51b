import { describe, expect, it } from 'vitest'
import { HostYield } from '../../src/core/host/HostYield'
import { SecretVault } from '../../src/core/secrets/SecretVault'
import { FragmentIndex } from '../../src/core/secrets/FragmentIndex'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { AgentState } from '../../src/core/state/AgentState'
import { MemorySegmentBackend, MemoryStateStorage } from '../../src/core/storage/MemoryStateStorage'
import { SegmentedStorageOptions } from '../../src/core/storage/SegmentedStateStorage'

/** Busy-waits `ms` (synchronous work, as a decode loop is). */
function spin(ms: number): void {
  const until = Date.now() + ms
  while (Date.now() < until) {
    // busy
  }
}

/** Longest gap between two turns of a setImmediate ticker while `op` runs. */
async function longestStretch(op: () => Promise<void>): Promise<number> {
  let running = true
  let last = performance.now()
  let longest = 0
  const tick = (): void => {
    const t = performance.now()
    longest = Math.max(longest, t - last)
    last = t
    if (running) setImmediate(tick)
  }
  setImmediate(tick)
  await op()
  running = false
  return Math.max(longest, performance.now() - last)
}

describe('HostYield: giving the (UI) thread back during long work', () => {
  it('a loop of resolved promises holds the thread; asking due() between steps gives it back every budgetMs of work', async () => {
    const steps = async (withYield: boolean): Promise<void> => {
      for (let i = 0; i < 60; i++) {
        spin(1)
        await Promise.resolve()
        if (withYield && HostYield.due()) {
          await HostYield.now()
        }
      }
    }
    // Without yields no macrotask runs between the 60 steps of at least 1 ms each (each moves Date.now() on by one).
    const held = await longestStretch(() => steps(false))
    expect(held).toBeGreaterThanOrEqual(55)
    // With them: a slice ends at the first check after 8 ms, so it holds at most 9 steps of at least 1 ms,
    // and 60 steps make at least 6 slices whatever the machine's load (a preempted step only ends its slice
    // sooner). How long each slice really lasts is measured by the benchmark (bench/ui-thread.ts).
    const before = HostYield.yields
    await steps(true)
    expect(HostYield.yields - before).toBeGreaterThanOrEqual(6)
  })

  it('waiting for I/O is not work: after the thread was free, the next check starts a new slice instead of yielding', async () => {
    // The thread runs a macrotask: whatever slice a previous check began is over.
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(HostYield.due()).toBe(false)
    await new Promise((resolve) => setTimeout(resolve, 20))
    const before = HostYield.yields
    expect(HostYield.due()).toBe(false)
    expect(HostYield.yields).toBe(before)
  })

  it('budgetMs 0 never yields', async () => {
    const budget = HostYield.budgetMs
    HostYield.budgetMs = 0
    try {
      HostYield.due()
      spin(12)
      expect(HostYield.due()).toBe(false)
    } finally {
      HostYield.budgetMs = budget
    }
  })

  it('a restore of a long history yields between segments and still loads every message in order', async () => {
    const disk = new MemorySegmentBackend()
    const storage = new MemoryStateStorage(new SegmentedStorageOptions(), disk)
    const state = new AgentState('long-yield')
    for (let i = 0; i < 6000; i++) {
      state.history.push(i % 2 === 0 ? AgentMessage.user(`question ${i} ${'x'.repeat(200)}`) : AgentMessage.assistant(`answer ${i}`))
    }
    await storage.save(state)
    const budget = HostYield.budgetMs
    HostYield.budgetMs = 1
    try {
      const before = HostYield.yields
      const loaded = await new MemoryStateStorage(new SegmentedStorageOptions(), disk).load('long-yield')
      expect(loaded?.state.history.length).toBe(6000)
      expect(loaded?.state.history[5999].text()).toBe('answer 5999')
      expect(HostYield.yields).toBeGreaterThan(before)
    } finally {
      HostYield.budgetMs = budget
    }
  })
})

describe('SecretVault on long texts', () => {
  it('a long text scanned clean is remembered until a secret is registered; then the same text is scanned again', () => {
    const text = `log line without anything sensitive\n`.repeat(2000) + 'tail ZETA-91b7c4e2f0a8-key ok'
    expect(SecretVault.redact(text)).toBe(text)
    // Equal content, another string object: still recognised as scanned.
    const copy = (' ' + text).slice(1)
    expect(SecretVault.redact(copy)).toBe(copy)
    SecretVault.register('ZETA-91b7c4e2f0a8-key')
    const again = SecretVault.redact(text)
    expect(again).not.toContain('ZETA-91b7c4e2f0a8')
    expect(again.endsWith('ok')).toBe(true)
  })

  it('the index finds every secret window through its prefilter, at any offset of a long text', () => {
    const index = new FragmentIndex(8)
    index.add('s3cr3t-value-42')
    const filler = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(3000)
    for (const at of [0, 1, 7, 8, 50_000, filler.length - 15]) {
      const text = filler.slice(0, at) + 's3cr3t-value-42' + filler.slice(at)
      const ranges = index.ranges(text)
      expect(ranges).toEqual([at, at + 15])
    }
    expect(index.ranges(filler)).toEqual([])
  })
})
