// Pins details of the segmented storage that the broader format tests leave open: the exact
// not-resumable reasons, when a save removes the mark (and when it must not touch it), which
// header a save commits, the segment-list entry forms, the header size boundary and which
// segments a save re-encodes.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorCodes } from '../../src/core/errors/ArkAgentError'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { AgentState } from '../../src/core/state/AgentState'
import { StateCodec } from '../../src/core/state/StateCodec'
import { MemorySegmentBackend, MemoryStateStorage } from '../../src/core/storage/MemoryStateStorage'
import { SegmentBackend } from '../../src/core/storage/SegmentBackend'
import { SegmentedStateStorage, SegmentedStorageOptions } from '../../src/core/storage/SegmentedStateStorage'
import { fnv1a, utf8Length } from '../../src/core/util/Text'
import { conversation, headerDoc, rejectionOf, sealHeader } from './fixtures'

function opts(segmentSize: number, maxValueBytes = 0): SegmentedStorageOptions {
  const o = new SegmentedStorageOptions()
  o.segmentSize = segmentSize
  o.maxValueBytes = maxValueBytes
  return o
}

function stateOf(id: string, history: AgentMessage[]): AgentState {
  const s = new AgentState(id)
  s.history = history
  return s
}

/** Records removes and header commits over a memory backend. */
class Recording implements SegmentBackend {
  readonly removed: string[][] = []
  readonly commits: string[] = []
  constructor(readonly inner: MemorySegmentBackend = new MemorySegmentBackend()) {}
  read(s: string, k: string): Promise<string | undefined> { return this.inner.read(s, k) }
  write(s: string, k: string, v: string): Promise<void> { return this.inner.write(s, k, v) }
  sync(s: string): Promise<void> { return this.inner.sync(s) }
  commitHeader(s: string, v: string): Promise<void> {
    this.commits.push(headerDoc(v).genesis === true ? 'genesis' : 'state')
    return this.inner.commitHeader(s, v)
  }
  readHeader(s: string): Promise<string | undefined> { return this.inner.readHeader(s) }
  remove(s: string, keys: string[]): Promise<void> { this.removed.push(keys.slice()); return this.inner.remove(s, keys) }
  list(s: string): Promise<string[]> { return this.inner.list(s) }
  removeSession(s: string): Promise<void> { return this.inner.removeSession(s) }
  location(s: string): string { return this.inner.location(s) }
  removedKeys(): string[] { return ([] as string[]).concat(...this.removed) }
}

const V1 = (id: string) => JSON.stringify({ schemaVersion: 1, sessionId: id, messages: [] })
const GENESIS = (id: string) => sealHeader({ schemaVersion: 2, sessionId: id, genesis: true })
const DAMAGED = 'not resumable (the stored reason is damaged)'

afterEach(() => { vi.restoreAllMocks() })

describe('not-resumable reasons as loaded', () => {
  async function reasonFor(stored: string): Promise<[boolean, string]> {
    const b = new MemorySegmentBackend()
    await new MemoryStateStorage(opts(4), b).save(stateOf('r', conversation(2)))
    b.poke('r', 'not-resumable', stored)
    const l = (await new MemoryStateStorage(opts(4), b).load('r'))!
    return [l.resumable, l.notResumableReason]
  }

  it('an empty reason is stored as "not resumable"', async () => {
    const b = new MemorySegmentBackend()
    const st = new MemoryStateStorage(opts(4), b)
    await st.save(stateOf('e', conversation(2)))
    await st.markNotResumable('e', '')
    const l = (await new MemoryStateStorage(opts(4), b).load('e'))!
    expect([l.resumable, l.notResumableReason]).toEqual([false, 'not resumable'])
  })

  it('a reason that is not a string (a JavaScript caller) is stored as "not resumable", never a crash', async () => {
    for (const reason of [null, undefined, 42, { text: 'x' }] as unknown[]) {
      const b = new MemorySegmentBackend()
      const st = new MemoryStateStorage(opts(4), b)
      await st.save(stateOf('n', conversation(2)))
      await st.markNotResumable('n', reason as string)
      const l = (await new MemoryStateStorage(opts(4), b).load('n'))!
      expect([l.resumable, l.notResumableReason]).toEqual([false, 'not resumable'])
    }
  })

  it('a bare reason of an earlier build loads as it is', async () => {
    expect(await reasonFor('legacy: disk full')).toEqual([false, 'legacy: disk full'])
  })

  it('a summed mark whose checksum, separator or reason is wrong loads as the damaged reason', async () => {
    expect(fnv1a('tampered')).not.toBe('00000000')
    expect(await reasonFor('m1:00000000:tampered')).toEqual([false, DAMAGED])
    expect(await reasonFor(`m1:${fnv1a('abc')}Xabc`)).toEqual([false, DAMAGED])
    expect(await reasonFor(`m1:${fnv1a('')}:`)).toEqual([false, DAMAGED])
    expect(await reasonFor(`m1:${fnv1a('fine')}:fine`)).toEqual([false, 'fine'])
  })

  it('a version-1 document without a mark loads resumable with an empty reason', async () => {
    const b = new MemorySegmentBackend()
    b.poke('v1', 'header', V1('v1'))
    const l = (await new MemoryStateStorage(opts(4), b).load('v1'))!
    expect([l.resumable, l.notResumableReason]).toEqual([true, ''])
  })
})

describe('when a save removes the not-resumable mark', () => {
  it('a mark set by the same instance after a save is cleared by its next save, and only once', async () => {
    const b = new Recording()
    const st = new SegmentedStateStorage(b, opts(4))
    const s = stateOf('same', conversation(2))
    await st.save(s)
    await st.markNotResumable('same', 'why')
    await st.save(s)
    expect(await b.inner.read('same', 'not-resumable')).toBeUndefined()
    expect(b.removedKeys()).toEqual(['not-resumable'])
    await st.save(s)
    expect(b.removedKeys()).toEqual(['not-resumable'])
  })

  it('a save never asks to remove a mark that was not there (after any kind of load or none)', async () => {
    const scenarios: Array<[string, (b: MemorySegmentBackend) => Promise<void>, boolean]> = [
      ['nothing stored, loaded', async () => {}, true],
      ['nothing stored, not loaded', async () => {}, false],
      ['genesis header, loaded', async (b) => { b.poke('g', 'header', GENESIS('g')) }, true],
      ['version-1 header, loaded', async (b) => { b.poke('g', 'header', V1('g')) }, true],
      ['saved state, loaded', async (b) => { await new MemoryStateStorage(opts(4), b).save(stateOf('g', conversation(2))) }, true],
      ['saved state, not loaded', async (b) => { await new MemoryStateStorage(opts(4), b).save(stateOf('g', conversation(2))) }, false]
    ]
    for (const [name, setUp, loadFirst] of scenarios) {
      const b = new Recording()
      await setUp(b.inner)
      const st = new SegmentedStateStorage(b, opts(4))
      if (loadFirst) {
        await st.load('g')
      }
      await st.save(stateOf('g', conversation(2)))
      expect({ name, removed: b.removedKeys() }).toEqual({ name, removed: [] })
    }
  })

  it('a mark next to a genesis or version-1 header, or alone, is cleared by the next save', async () => {
    const scenarios: Array<[string, string | undefined, boolean]> = [
      ['genesis, loaded', GENESIS('k'), true],
      ['version 1, loaded', V1('k'), true],
      ['no header, not loaded', undefined, false],
      ['genesis, not loaded', GENESIS('k'), false]
    ]
    for (const [name, header, loadFirst] of scenarios) {
      const b = new MemorySegmentBackend()
      if (header !== undefined) {
        b.poke('k', 'header', header)
      }
      await new MemoryStateStorage(opts(4), b).markNotResumable('k', 'why')
      const st = new MemoryStateStorage(opts(4), b)
      if (loadFirst) {
        await st.load('k')
      }
      await st.save(stateOf('k', conversation(2)))
      expect({ name, mark: await b.read('k', 'not-resumable') }).toEqual({ name, mark: undefined })
    }
  })
})

describe('which header a save commits', () => {
  it('after loading a genesis or version-1 header the save commits only its state header', async () => {
    for (const header of [GENESIS('h'), V1('h')]) {
      const b = new Recording()
      b.inner.poke('h', 'header', header)
      const st = new SegmentedStateStorage(b, opts(4))
      await st.load('h')
      await st.save(stateOf('h', conversation(5)))
      expect(b.commits).toEqual(['state'])
      const back = (await new MemoryStateStorage(opts(4), b.inner).load('h'))!
      expect(back.state.history.length).toBe(5)
    }
  })

  it('a header exactly at the value limit is accepted, one byte over is refused', async () => {
    const probe = new MemorySegmentBackend()
    await new MemoryStateStorage(opts(4), probe).save(stateOf('lim', []))
    const size = utf8Length(probe.peek('lim', 'header')!)
    const ok = new MemorySegmentBackend()
    await new MemoryStateStorage(opts(4, size), ok).save(stateOf('lim', []))
    expect(ok.peek('lim', 'header')).toBe(probe.peek('lim', 'header'))
    const e = await rejectionOf(new MemoryStateStorage(opts(4, size - 1)).save(stateOf('lim', [])))
    expect([e.code, e.message]).toEqual([ErrorCodes.stateSaveFailed,
      `The state header is larger than the backend's value limit of ${size - 1} bytes`])
  })
})

describe('damage messages not covered elsewhere', () => {
  async function stored(): Promise<[MemorySegmentBackend, Record<string, any>]> {
    const b = new MemorySegmentBackend()
    await new MemoryStateStorage(opts(4), b).save(stateOf('d', conversation(2)))
    return [b, headerDoc(b.peek('d', 'header')!)]
  }
  const corrupt = async (b: MemorySegmentBackend): Promise<string> => {
    const e = await rejectionOf(new MemoryStateStorage(opts(4), b).load('d'))
    expect(e.code).toBe(ErrorCodes.stateCorrupt)
    return e.message
  }

  it('segments without a header name the count and the location', async () => {
    const b = new MemorySegmentBackend()
    await b.write('d', 'seg-0-1-01234567.0', 'x')
    expect(await corrupt(b)).toBe("Session 'd' has 1 stored history segment(s) but no header (memory session 'd'): " +
      'the header was lost; nothing was deleted')
  })

  it('a genesis header without a session id names $header.sessionId', async () => {
    const b = new MemorySegmentBackend()
    b.poke('d', 'header', sealHeader({ schemaVersion: 2, genesis: true }))
    expect(await corrupt(b)).toBe('Invalid state at $header.sessionId: expected a string')
  })

  it('a bad historyLength names $header.historyLength', async () => {
    const [b, h] = await stored()
    b.poke('d', 'header', sealHeader({ ...h, historyLength: -1 }))
    expect(await corrupt(b)).toBe('Invalid state at $header.historyLength: expected a non-negative integer')
  })

  it('a compact entry with trailing junk in its count or leading junk in its parts is refused', async () => {
    const [b, h] = await stored()
    const [count, hash, parts] = (h.segments[0] as string).split('.')
    expect([count, parts]).toEqual(['2', '1'])
    for (const entry of [`2x.${hash}.1`, `2.${hash}.x1`, `2.${hash}.01`]) {
      b.poke('d', 'header', sealHeader({ ...h, segments: [entry] }))
      expect(await corrupt(b)).toBe('Invalid state at $header.segments[0]: expected "count.hash.parts"')
    }
  })
})

describe('what a save re-encodes', () => {
  it('segments holding the same message objects are not encoded again; a grown last segment is', async () => {
    const b = new MemorySegmentBackend()
    const st = new MemoryStateStorage(opts(2), b)
    const s = stateOf('enc', conversation(6))
    await st.save(s)
    const spy = vi.spyOn(StateCodec, 'messagesText')
    s.history.push(AgentMessage.user('7th'))
    const r = await st.save(s)
    expect([r.segmentsWritten, r.segmentsReused]).toEqual([1, 3])
    expect(spy.mock.calls.map((c) => [c[1], c[2]])).toEqual([[6, 7]])
    spy.mockClear()
    s.history.push(AgentMessage.user('8th'))
    const r2 = await st.save(s)
    expect([r2.segmentsWritten, r2.segmentsReused]).toEqual([1, 3])
    expect(spy.mock.calls.map((c) => [c[1], c[2]])).toEqual([[6, 8]])
    const back = (await new MemoryStateStorage(opts(2), b).load('enc'))!.state
    expect(StateCodec.encode(back)).toBe(StateCodec.encode(s))
  })

  it('segments loaded by this instance are not encoded again', async () => {
    const b = new MemorySegmentBackend()
    await new MemoryStateStorage(opts(2), b).save(stateOf('ld', conversation(6)))
    const st = new MemoryStateStorage(opts(2), b)
    const s = (await st.load('ld'))!.state
    const spy = vi.spyOn(StateCodec, 'messagesText')
    const r = await st.save(s)
    expect([r.segmentsWritten, r.segmentsReused]).toEqual([0, 3])
    expect(spy).not.toHaveBeenCalled()
  })

  it('emptying the history removes exactly the old segment keys', async () => {
    const b = new Recording()
    const st = new SegmentedStateStorage(b, opts(4))
    await st.save(stateOf('em', conversation(2)))
    const before = await b.inner.list('em')
    await st.save(stateOf('em', []))
    expect(b.removed).toEqual([before])
    expect(await b.inner.list('em')).toEqual([])
  })
})

describe('the memory backend test helpers', () => {
  it('peek reads any key, and "header" means the header', async () => {
    const b = new MemorySegmentBackend()
    await b.commitHeader('p', 'the header')
    await b.write('p', 'a', '1')
    expect(b.peek('p', 'a')).toBe('1')
    expect(b.peek('p', 'header')).toBe('the header')
    expect(b.peek('p', 'missing')).toBeUndefined()
  })
})
