// The segmented format, exactly: what a save writes and reuses (O(new messages), counted), what
// each kind of damage is called, which header forms load, when the not-resumable mark is kept and
// cleared, what clean-up removes and when it retries, and which options are refused.
import { describe, expect, it } from 'vitest'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { AgentState } from '../../src/core/state/AgentState'
import { StateCodec } from '../../src/core/state/StateCodec'
import { MemorySegmentBackend, MemoryStateStorage } from '../../src/core/storage/MemoryStateStorage'
import { SegmentBackend } from '../../src/core/storage/SegmentBackend'
import { SegmentedStateStorage, SegmentedStorageOptions } from '../../src/core/storage/SegmentedStateStorage'
import { fnv1a } from '../../src/core/util/Text'
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

/** Records every backend call in order. */
class Logged implements SegmentBackend {
  readonly log: string[] = []
  failRemove = false
  failList = false
  failRead = false
  constructor(readonly inner: MemorySegmentBackend = new MemorySegmentBackend()) {}
  read(s: string, k: string): Promise<string | undefined> {
    this.log.push(`read ${k}`)
    return this.failRead ? Promise.reject(new Error('disk unreadable')) : this.inner.read(s, k)
  }
  write(s: string, k: string, v: string): Promise<void> { this.log.push(`write ${k}`); return this.inner.write(s, k, v) }
  sync(s: string): Promise<void> { this.log.push('sync'); return this.inner.sync(s) }
  commitHeader(s: string, v: string): Promise<void> {
    this.log.push(headerDoc(v).genesis === true ? 'commit genesis' : 'commit')
    return this.inner.commitHeader(s, v)
  }
  readHeader(s: string): Promise<string | undefined> {
    this.log.push('readHeader')
    return this.failRead ? Promise.reject(new Error('disk unreadable')) : this.inner.readHeader(s)
  }
  remove(s: string, keys: string[]): Promise<void> {
    this.log.push(`remove ${keys.join(',')}`)
    return this.failRemove ? Promise.reject(new Error('remove failed')) : this.inner.remove(s, keys)
  }
  list(s: string): Promise<string[]> {
    this.log.push('list')
    return this.failList ? Promise.reject(new Error('list failed')) : this.inner.list(s)
  }
  removeSession(s: string): Promise<void> { return this.inner.removeSession(s) }
  location(s: string): string { return `test location of ${s}` }
  reset(): void { this.log.length = 0 }
}

async function failure(p: Promise<unknown>): Promise<string> {
  const e = await rejectionOf(p)
  expect(e).toBeInstanceOf(ArkAgentError)
  expect(e.code).toBe(ErrorCodes.stateCorrupt)
  return e.message
}

describe('what a save writes', () => {
  it('the first save: genesis header, every segment, one sync, the header; then only what changed', async () => {
    const b = new Logged()
    const st = new SegmentedStateStorage(b, opts(3))
    const s = stateOf('w', conversation(7))
    const first = await st.save(s)
    expect(b.log.filter((l) => l !== 'readHeader' && !l.startsWith('read ') && l !== 'list' && !l.startsWith('remove')))
      .toEqual(['commit genesis', expect.stringMatching(/^write seg-0-3-[0-9a-f]{8}\.0$/), expect.stringMatching(/^write seg-1-3-[0-9a-f]{8}\.0$/),
        expect.stringMatching(/^write seg-2-1-[0-9a-f]{8}\.0$/), 'sync', 'commit'])
    expect([first.segmentsWritten, first.segmentsReused]).toEqual([3, 0])
    expect(first.bytesWritten).toBeGreaterThan(0)
    // Appending one message rewrites only the last segment; the first two are reused as they are.
    b.reset()
    s.history.push(AgentMessage.user('one more'))
    const second = await st.save(s)
    expect([second.segmentsWritten, second.segmentsReused]).toEqual([1, 2])
    expect(b.log.filter((l) => l.startsWith('write'))).toEqual([expect.stringMatching(/^write seg-2-2-[0-9a-f]{8}\.0$/)])
    expect(b.log).toContain('sync')
    expect(b.log.indexOf('sync')).toBeLessThan(b.log.indexOf('commit'))
    // Nothing changed: no segment written, no sync, just the header.
    b.reset()
    const third = await st.save(s)
    expect([third.segmentsWritten, third.segmentsReused]).toEqual([0, 3])
    expect(b.log.filter((l) => l === 'sync' || l.startsWith('write'))).toEqual([])
    expect(b.log).toContain('commit')
  })

  it('a message replaced in the middle of a segment is written again (reuse needs the same objects)', async () => {
    const b = new MemorySegmentBackend()
    const st = new MemoryStateStorage(opts(4), b)
    const s = stateOf('mid', conversation(8))
    await st.save(s)
    s.history[1] = AgentMessage.user('edited')
    const r = await st.save(s)
    expect([r.segmentsWritten, r.segmentsReused]).toEqual([1, 1])
    expect((await new MemoryStateStorage(opts(4), b).load('mid'))!.state.history[1].text()).toBe('edited')
    s.history[0] = AgentMessage.user('first edited')
    s.history[7] = AgentMessage.user('last edited')
    const r2 = await st.save(s)
    expect([r2.segmentsWritten, r2.segmentsReused]).toEqual([2, 0])
    const back = (await new MemoryStateStorage(opts(4), b).load('mid'))!.state
    expect(StateCodec.encode(back)).toBe(StateCodec.encode(s))
  })

  it('equal content under a known key is not written again, even from another instance or after a load', async () => {
    const b = new Logged()
    const s = stateOf('same', conversation(6))
    await new SegmentedStateStorage(b, opts(3)).save(s)
    b.reset()
    const other = new SegmentedStateStorage(b, opts(3))
    const copy = stateOf('same', conversation(6))
    const r = await other.save(copy)
    expect([r.segmentsWritten, r.segmentsReused]).toEqual([0, 2])
    expect(b.log.filter((l) => l.startsWith('write'))).toEqual([])
  })

  it('a segment already stored in another number of parts keeps its parts (never rewrites a committed key)', async () => {
    const b = new MemorySegmentBackend()
    const s = stateOf('parts', [AgentMessage.user('x'.repeat(300)), AgentMessage.user('y'.repeat(300))])
    await new MemoryStateStorage(opts(2, 256), b).save(s)
    const keys = (await b.list('parts')).sort()
    expect(keys.length).toBeGreaterThan(2)
    const r = await new MemoryStateStorage(opts(2, 0), b).save(stateOf('parts', s.history.slice()))
    expect(r.segmentsWritten).toBe(0)
    expect((await b.list('parts')).sort()).toEqual(keys)
    expect((await new MemoryStateStorage(opts(2, 0), b).load('parts'))!.state.history.length).toBe(2)
  })

  it('a header larger than the value limit is refused before anything is written', async () => {
    const b = new Logged()
    const st = new SegmentedStateStorage(b, opts(64, 300))
    const s = stateOf('big', conversation(2))
    s.plan = 'p'.repeat(400)
    const e = await rejectionOf(st.save(s))
    expect(e.code).toBe(ErrorCodes.stateSaveFailed)
    expect(e.message).toBe("The state header is larger than the backend's value limit of 300 bytes")
    expect(b.log.filter((l) => l.startsWith('write') || l.startsWith('commit'))).toEqual([])
  })

  it('a backend failure during a save is state_save_failed naming the session', async () => {
    const b = new Logged()
    b.inner.write = async () => { throw new Error('disk full') }
    const e = await rejectionOf(new SegmentedStateStorage(b, opts(3)).save(stateOf('full', conversation(2))))
    expect({ code: e.code, layer: e.layer, message: e.message })
      .toEqual({ code: ErrorCodes.stateSaveFailed, layer: ErrorLayer.storage, message: "Could not save session 'full': disk full" })
  })
})

describe('what each kind of damage is called', () => {
  async function stored(history = conversation(5), size = 4) {
    const b = new MemorySegmentBackend()
    await new MemoryStateStorage(opts(size), b).save(stateOf('d', history))
    return b
  }
  const load = (b: MemorySegmentBackend) => new MemoryStateStorage(opts(4), b).load('d')
  const withHeader = async (b: MemorySegmentBackend, edit: (h: Record<string, any>) => void) => {
    const h = headerDoc(b.peek('d', 'header')!)
    edit(h)
    b.poke('d', 'header', sealHeader(h))
  }

  it('header checksum, unknown format, JSON, another session (state and genesis)', async () => {
    const b = await stored()
    const sealed = b.peek('d', 'header')!
    b.poke('d', 'header', sealed.slice(0, 11) + ':' + sealed.slice(12).replace('"d"', '"e"'))
    expect(await failure(load(b))).toBe("Invalid state at $header: does not match its checksum (memory session 'd')")
    b.poke('d', 'header', 'h1:zzzz')
    expect(await failure(load(b))).toBe("Invalid state at $header: does not match its checksum (memory session 'd')")
    b.poke('d', 'header', 'garbage')
    expect(await failure(load(b))).toBe("Invalid state at $header: is not in a known format (memory session 'd')")
    b.poke('d', 'header', '{"schemaVersion":2,')
    expect(await failure(load(b))).toBe('Invalid state at $header: not valid JSON')
    b.poke('d', 'header', sealed)
    await withHeader(b, (h) => { h.sessionId = 'other' })
    expect(await failure(load(b))).toBe("Invalid state at $header.sessionId: belongs to another session 'other'")
    b.poke('d', 'header', sealHeader({ schemaVersion: 2, sessionId: 'other', genesis: true }))
    expect(await failure(load(b))).toBe('Invalid state at $header.sessionId: belongs to another session')
  })

  it('a save never builds on a stored header of another session (it is refused, nothing is written)', async () => {
    const b = await stored()
    await withHeader(b, (h) => { h.sessionId = 'other' })
    const before = b.peek('d', 'header')
    const e = await rejectionOf(new MemoryStateStorage(opts(4), b).save(stateOf('d', conversation(6))))
    expect([e.code, e.message]).toEqual([ErrorCodes.stateCorrupt, "Invalid state at $header.sessionId: belongs to another session 'other'"])
    expect(b.peek('d', 'header')).toBe(before)
  })

  it('segment list: length, entry forms, counts, keys', async () => {
    const b = await stored()
    const original = headerDoc(b.peek('d', 'header')!)
    const reset = () => b.poke('d', 'header', sealHeader(original))
    const cases: Array<[(h: Record<string, any>) => void, string]> = [
      [(h) => { h.historyLength = 4 }, 'Invalid state at $header.historyLength: does not match the segments'],
      [(h) => { h.segments = 'x' }, 'Invalid state at $header.segments: expected an array'],
      [(h) => { h.segments[0] = '4.abc.1' }, 'Invalid state at $header.segments[0]: expected "count.hash.parts"'],
      [(h) => { h.segments[0] = '4.0123456789.1' }, 'Invalid state at $header.segments[0]: expected "count.hash.parts"'],
      [(h) => { h.segments[0] = '04.01234567.1' }, 'Invalid state at $header.segments[0]: expected "count.hash.parts"'],
      [(h) => { h.segments[0] = '4.01234567.0' }, 'Invalid state at $header.segments[0]: expected "count.hash.parts"'],
      [(h) => { h.segments[0] = '4.01234567.1.2' }, 'Invalid state at $header.segments[0]: expected "count.hash.parts"'],
      [(h) => { h.segments[0] = 'x4.01234567.1' }, 'Invalid state at $header.segments[0]: expected "count.hash.parts"'],
      [(h) => { h.segments[0] = '4.01234567.1x' }, 'Invalid state at $header.segments[0]: expected "count.hash.parts"'],
      [(h) => { h.segments[0] = '4.0123456G.1' }, 'Invalid state at $header.segments[0]: expected "count.hash.parts"'],
      [(h) => { h.segments[0] = 7 }, 'Invalid state at $header.segments[0]: expected an object'],
      [(h) => { h.segments[0] = { key: 'seg-0-4-01234567', count: 0, hash: '01234567', parts: 1 } }, 'Invalid state at $header.segments[0]: empty segment'],
      [(h) => { h.segments[0] = { key: 'seg-0-4-01234567', count: 4, hash: '01234567', parts: 0 } }, 'Invalid state at $header.segments[0]: empty segment'],
      [(h) => { h.segments[0] = { key: '../etc/passwd', count: 4, hash: '01234567', parts: 1 } }, 'Invalid state at $header.segments[0].key: not a segment key'],
      [(h) => { h.segments[0] = { key: 'xseg-0-4-01234567', count: 4, hash: '01234567', parts: 1 } }, 'Invalid state at $header.segments[0].key: not a segment key'],
      [(h) => { h.segments[0] = { key: 'seg-0-4-01234567x', count: 4, hash: '01234567', parts: 1 } }, 'Invalid state at $header.segments[0].key: not a segment key'],
      [(h) => { h.segments[0] = { key: 'seg-12-4-01234567', count: 4, hash: '01234567', parts: 1 } }, "Invalid state at segment seg-12-4-01234567: missing (memory session 'd')"],
      [(h) => { h.segments[0] = { key: 'seg-0-45-01234567', count: 4, hash: '01234567', parts: 1 } }, "Invalid state at segment seg-0-45-01234567: missing (memory session 'd')"],
      [(h) => { h.segments[0] = { count: 4, hash: '01234567', parts: 1 } }, 'Invalid state at $header.segments[0].key: expected a string']
    ]
    for (const [edit, message] of cases) {
      reset()
      await withHeader(b, edit)
      expect(await failure(load(b))).toBe(message)
    }
  })

  it('segment content: missing part, checksum, JSON, message count, bad messages', async () => {
    const b = await stored(conversation(4), 4)
    const h = headerDoc(b.peek('d', 'header')!)
    const [count, hash] = (h.segments[0] as string).split('.')
    const key = `seg-0-${count}-${hash}`
    const original = b.peek('d', `${key}.0`)!
    b.poke('d', `${key}.0`, original.replace('catalogue', 'Catalogue'))
    expect(await failure(load(b))).toBe(`Invalid state at segment ${key}: content does not match its checksum`)
    const put = (text: string) => {
      const sum = fnv1a(text)
      b.poke('d', `seg-0-${count}-${sum}.0`, text)
      b.poke('d', 'header', sealHeader({ ...h, segments: [`${count}.${sum}.1`] }))
      return `seg-0-${count}-${sum}`
    }
    let k = put('not json [')
    expect(await failure(load(b))).toBe(`Invalid state at segment ${k}: not valid JSON`)
    k = put('{"a":1}')
    expect(await failure(load(b))).toBe(`Invalid state at segment ${k}: expected 4 messages`)
    k = put(JSON.stringify(StateCodec.encodeMessages(conversation(3), 0, 3)))
    expect(await failure(load(b))).toBe(`Invalid state at segment ${k}: expected 4 messages`)
    k = put(JSON.stringify([...StateCodec.encodeMessages(conversation(3), 0, 3), { role: 'user' }]))
    expect(await failure(load(b))).toBe(`Invalid state at segment ${k}[3].content: expected an array`)
  })

  it('a backend that cannot be read is state_load_failed naming the session or the segment', async () => {
    const b = new Logged()
    await new SegmentedStateStorage(b, opts(4)).save(stateOf('u', conversation(3)))
    b.failRead = true
    const e = await rejectionOf(new SegmentedStateStorage(b, opts(4)).load('u'))
    expect({ code: e.code, message: e.message }).toEqual({ code: ErrorCodes.stateLoadFailed, message: "Could not read session 'u': disk unreadable" })
    b.failRead = false
    const reads = b.inner.read.bind(b.inner)
    b.inner.read = async (s, key) => key.startsWith('seg-') ? Promise.reject(new Error('bad sector')) : reads(s, key)
    const e2 = await rejectionOf(new SegmentedStateStorage(b, opts(4)).load('u'))
    expect(e2.code).toBe(ErrorCodes.stateLoadFailed)
    expect(e2.message).toMatch(/^Could not read segment seg-0-3-[0-9a-f]{8}: bad sector$/)
    b.failList = true
    b.inner.read = reads
    await b.inner.removeSession('u')
    const e3 = await rejectionOf(new SegmentedStateStorage(b, opts(4)).load('u'))
    expect({ code: e3.code, message: e3.message }).toEqual({ code: ErrorCodes.stateLoadFailed, message: "Could not read session 'u': list failed" })
  })
})

describe('the not-resumable mark', () => {
  it('marked, loaded as not resumable with its reason, kept by loads, cleared by the next successful save', async () => {
    const b = new MemorySegmentBackend()
    const st = new MemoryStateStorage(opts(4), b)
    await st.save(stateOf('m', conversation(2)))
    await st.markNotResumable('m', 'terminal write failed: disk full')
    for (let i = 0; i < 2; i++) {
      const l = (await new MemoryStateStorage(opts(4), b).load('m'))!
      expect([l.resumable, l.notResumableReason]).toEqual([false, 'terminal write failed: disk full'])
    }
    const writer = new MemoryStateStorage(opts(4), b)
    const loaded = (await writer.load('m'))!
    await writer.save(loaded.state)
    expect(await b.read('m', 'not-resumable')).toBeUndefined()
    const l2 = (await new MemoryStateStorage(opts(4), b).load('m'))!
    expect([l2.resumable, l2.notResumableReason]).toEqual([true, ''])
  })

  it('a mark set by another instance is cleared by a save that never loaded (it reads the mark first)', async () => {
    const b = new MemorySegmentBackend()
    await new MemoryStateStorage(opts(4), b).save(stateOf('m2', conversation(2)))
    await new MemoryStateStorage(opts(4), b).markNotResumable('m2', 'x')
    await new MemoryStateStorage(opts(4), b).save(stateOf('m2', conversation(3)))
    expect(await b.read('m2', 'not-resumable')).toBeUndefined()
  })

  it('a mark on a session that was never saved loads as nothing stored, and the first save clears it', async () => {
    const b = new MemorySegmentBackend()
    await new MemoryStateStorage(opts(4), b).markNotResumable('m3', 'early failure')
    expect(await new MemoryStateStorage(opts(4), b).load('m3')).toBeUndefined()
    const st = new MemoryStateStorage(opts(4), b)
    await st.load('m3')
    await st.save(stateOf('m3', conversation(1)))
    expect(await b.read('m3', 'not-resumable')).toBeUndefined()
    expect((await new MemoryStateStorage(opts(4), b).load('m3'))!.resumable).toBe(true)
  })

  it('a version-1 document with a mark is not resumable', async () => {
    const b = new MemorySegmentBackend()
    b.poke('v1', 'header', JSON.stringify({ schemaVersion: 1, sessionId: 'v1', messages: [] }))
    await new MemoryStateStorage(opts(4), b).markNotResumable('v1', 'why')
    const l = (await new MemoryStateStorage(opts(4), b).load('v1'))!
    expect([l.resumable, l.notResumableReason]).toEqual([false, 'why'])
    b.poke('v1', 'not-resumable', '')
    const l2 = (await new MemoryStateStorage(opts(4), b).load('v1'))!
    expect([l2.resumable, l2.notResumableReason.length > 0]).toEqual([false, true])
  })

  it('a failed mark is state_save_failed and does not count as present', async () => {
    const b = new Logged()
    const st = new SegmentedStateStorage(b, opts(4))
    await st.save(stateOf('m4', conversation(1)))
    b.inner.write = async () => { throw new Error('no space') }
    const e = await rejectionOf(st.markNotResumable('m4', 'x'))
    expect({ code: e.code, message: e.message }).toEqual({ code: ErrorCodes.stateSaveFailed,
      message: 'Could not mark the session not resumable: no space' })
    b.reset()
    await st.save(stateOf('m4', conversation(1)))
    expect(b.log.some((l) => l.includes('not-resumable'))).toBe(false)
  })
})

describe('clean-up after a commit', () => {
  it('removes the previous snapshot\'s replaced segments; orphans of crashed saves once per process; retries after a failure', async () => {
    const b = new Logged()
    const st = new SegmentedStateStorage(b, opts(2))
    const s = stateOf('c', conversation(3))
    await st.save(s)
    await b.inner.write('c', 'seg-5-2-0badc0de.0', 'orphan')
    b.reset()
    s.history.push(AgentMessage.user('4th'))
    await st.save(s)
    // The first save in this instance listed once; the orphan written afterwards is not seen until a new instance.
    expect(b.log.filter((l) => l === 'list')).toEqual([])
    expect(b.log.filter((l) => l.startsWith('remove'))).toEqual([expect.stringMatching(/^remove seg-1-1-[0-9a-f]{8}\.0$/)])
    const fresh = new SegmentedStateStorage(b, opts(2))
    b.failRemove = true
    b.reset()
    await fresh.save(s)
    expect(b.log).toContain('list')
    expect(await b.inner.list('c')).toContain('seg-5-2-0badc0de.0')
    b.failRemove = false
    b.reset()
    await fresh.save(s)
    expect(b.log).toContain('list')
    expect(await b.inner.list('c')).not.toContain('seg-5-2-0badc0de.0')
    b.reset()
    await fresh.save(s)
    expect(b.log).not.toContain('list')
    expect(b.log.filter((l) => l.startsWith('remove'))).toEqual([])
  })

  it('a listing that fails leaves everything in place and is tried again at the next save', async () => {
    const b = new Logged()
    const st = new SegmentedStateStorage(b, opts(2))
    await st.save(stateOf('l', conversation(2)))
    await b.inner.write('l', 'seg-7-1-0badc0de.0', 'orphan')
    const other = new SegmentedStateStorage(b, opts(2))
    b.failList = true
    await other.save(stateOf('l', conversation(3)))
    b.failList = false
    await other.save(stateOf('l', conversation(3)))
    expect(await b.inner.list('l')).not.toContain('seg-7-1-0badc0de.0')
  })
})

describe('options and keys', () => {
  it('refuses a segment size or value limit that is not a usable integer', () => {
    for (const bad of [0, -1, 1.5, NaN, Infinity]) {
      expect(() => new MemoryStateStorage(opts(bad))).toThrow('segmentSize must be a positive integer')
    }
    for (const bad of [-1, 1.5, NaN]) {
      expect(() => new MemoryStateStorage(opts(4, bad))).toThrow('maxValueBytes must be an integer, 0 (no limit) or more')
    }
    expect(() => new MemoryStateStorage(opts(1, 0))).not.toThrow()
  })

  it('the memory backend keeps the header apart from the keys it lists, and names its sessions', async () => {
    const b = new MemorySegmentBackend()
    await b.commitHeader('k', 'h')
    await b.write('k', 'a', '1')
    await b.write('k', 'header', 'not the header')
    expect((await b.list('k')).sort()).toEqual(['a', 'header'])
    expect(b.peek('k', 'header')).toBe('h')
    await b.remove('k', ['a', 'header'])
    expect(await b.list('k')).toEqual([])
    expect(b.location('k')).toBe("memory session 'k'")
  })
})

describe('states read before the session changed hands', () => {
  class HandedOver extends MemoryStateStorage {
    handOver(sessionId: string): void { this.forget(sessionId) }
  }

  it('are refused (session_locked); a state loaded since, or a new one, is written; a delete changes no hands', async () => {
    const storage = new HandedOver(opts(4))
    await storage.save(stateOf('h', conversation(3)))
    const old = (await storage.load('h'))!.state
    storage.handOver('h')
    const e = await rejectionOf(storage.save(old))
    expect(e.code).toBe(ErrorCodes.sessionLocked)
    const fresh = (await storage.load('h'))!.state
    fresh.history = conversation(4)
    await storage.save(fresh)
    await storage.save(fresh)
    expect((await storage.load('h'))!.state.history.length).toBe(4)
    const beforeDelete = (await storage.load('h'))!.state
    await storage.delete('h')
    await storage.save(beforeDelete)
    expect((await storage.load('h'))!.state.history.length).toBe(4)
    const brandNew = stateOf('h2', conversation(1))
    await storage.save(brandNew)
    expect(brandNew.storageEpoch).toBeGreaterThan(0)
  })
})

describe('a state copied from one storage into another', () => {
  it('is written there (its view belongs to the storage it came from)', async () => {
    class HandedOver extends MemoryStateStorage {
      handOver(sessionId: string): void { this.forget(sessionId) }
    }
    const from = new HandedOver(opts(4))
    await from.save(stateOf('copy', conversation(3)))
    from.handOver('copy')
    from.handOver('copy')
    const state = (await from.load('copy'))!.state
    const to = new MemoryStateStorage(opts(4))
    await to.save(state)
    expect((await to.load('copy'))?.state.history.length).toBe(3)
  })
})

describe('a state saved into a second storage (a backup)', () => {
  it('keeps its view of the first: an old copy is still refused there after being mirrored', async () => {
    class HandedOver extends MemoryStateStorage {
      handOver(sessionId: string): void { this.forget(sessionId) }
    }
    const primary = new HandedOver(opts(4))
    await primary.save(stateOf('m', conversation(2)))
    const old = (await primary.load('m'))!.state
    primary.handOver('m')
    const current = (await primary.load('m'))!.state
    current.history = conversation(3)
    await primary.save(current)
    await new MemoryStateStorage(opts(4)).save(old)
    expect((await rejectionOf(primary.save(old))).code).toBe(ErrorCodes.sessionLocked)
    expect((await primary.load('m'))!.state.history.length).toBe(3)
  })
})
