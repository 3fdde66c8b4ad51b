// The storage contract every StateStorage keeps (memory, files, PostgreSQL), as a suite to run per storage.
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ContentPart } from '../../src/core/model/ContentPart'
import { AgentState, SessionStatus } from '../../src/core/state/AgentState'
import { StateCodec } from '../../src/core/state/StateCodec'
import { MemorySegmentBackend, MemoryStateStorage } from '../../src/core/storage/MemoryStateStorage'
import { SegmentBackend } from '../../src/core/storage/SegmentBackend'
import { SegmentedStateStorage, SegmentedStorageOptions } from '../../src/core/storage/SegmentedStateStorage'
import { StateStorage } from '../../src/core/storage/StateStorage'
import { utf8Length } from '../../src/core/util/Text'
import { FileSegmentBackend } from '../../src/node/files/FileSegmentBackend'
import { FileStateStorage } from '../../src/node/files/FileStateStorage'
import { conversation, headerDoc, rejectionOf, richState, sealHeader, sleep } from './fixtures'

// ---------- harness: one contract, two storages ----------

export interface Harness {
  /** The raw backend over the shared data (for corruption and inspection). */
  inner(): SegmentBackend
  /** A fresh instance of the public storage class over the same data. */
  storage(options?: SegmentedStorageOptions): StateStorage
  /** A fresh generic segmented storage over `backend` (used with fault-injecting wrappers). */
  over(backend: SegmentBackend, options?: SegmentedStorageOptions): StateStorage
  /** Sizes in bytes of every stored value of a session, by key (header included as '#header'). */
  storedSizes(sessionId: string): Promise<Map<string, number>>
}

export type HarnessFactory = { name: string, setup: () => Promise<Harness>, teardown: () => Promise<void> }

export function memoryFactory(): HarnessFactory {
  let backend = new MemorySegmentBackend()
  return {
    name: 'MemoryStateStorage',
    setup: async () => {
      backend = new MemorySegmentBackend()
      return {
        inner: () => backend,
        storage: (o?: SegmentedStorageOptions) => new MemoryStateStorage(o ?? new SegmentedStorageOptions(), backend),
        over: (b: SegmentBackend, o?: SegmentedStorageOptions) => new SegmentedStateStorage(b, o ?? new SegmentedStorageOptions()),
        storedSizes: async (sid: string) => {
          const out = new Map<string, number>()
          for (const key of await backend.list(sid)) out.set(key, utf8Length(backend.peek(sid, key)!))
          const h = backend.peek(sid, 'header')
          if (h !== undefined) out.set('#header', utf8Length(h))
          return out
        }
      }
    },
    teardown: async () => {}
  }
}

export function fileFactory(): HarnessFactory {
  let dir = ''
  return {
    name: 'FileStateStorage',
    setup: async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'arkagent-storage-'))
      const root = path.join(dir, 'sessions')
      const backend = new FileSegmentBackend(root)
      return {
        inner: () => backend,
        storage: (o?: SegmentedStorageOptions) => new FileStateStorage(root, o ?? new SegmentedStorageOptions(), { lock: false }),
        over: (b: SegmentBackend, o?: SegmentedStorageOptions) => new SegmentedStateStorage(b, o ?? new SegmentedStorageOptions()),
        storedSizes: async (sid: string) => {
          const out = new Map<string, number>()
          let names: string[] = []
          try { names = await fs.readdir(path.join(root, sid)) } catch { return out }
          for (const n of names) {
            const size = (await fs.stat(path.join(root, sid, n))).size
            if (n.endsWith('.val')) out.set(n.slice(0, -4), size)
            else if (n === 'header.json') out.set('#header', size)
          }
          return out
        }
      }
    },
    teardown: async () => {
      if (dir !== '') await fs.rm(dir, { recursive: true, force: true })
    }
  }
}

// ---------- fault injection ----------

type Op = 'write' | 'sync' | 'commitHeader'

/**
 * Delegates to `inner`, counting write/sync/commitHeader calls; the `failAt`-th one throws. With `torn`,
 * a failing write first stores half of its value (a crash in the middle of writing a file).
 */
class FaultyBackend implements SegmentBackend {
  calls = 0
  readonly log: string[] = []

  constructor(readonly inner: SegmentBackend, public failAt: number, readonly torn: boolean = false) {}

  /** Restarts counting: the n-th write/sync/commitHeader from now on fails. */
  arm(n: number): void {
    this.calls = 0
    this.failAt = n
    this.log.length = 0
  }

  private async tick(op: Op, sessionId: string, key: string, value: string): Promise<void> {
    this.calls++
    this.log.push(`${op}:${key}`)
    if (this.calls === this.failAt) {
      if (this.torn && op === 'write') await this.inner.write(sessionId, key, value.slice(0, Math.floor(value.length / 2)))
      throw new Error(`injected fault at ${op} #${this.calls}`)
    }
  }

  read(s: string, k: string): Promise<string | undefined> { return this.inner.read(s, k) }
  async write(s: string, k: string, v: string): Promise<void> { await this.tick('write', s, k, v); await this.inner.write(s, k, v) }
  async sync(s: string): Promise<void> { await this.tick('sync', s, '', ''); await this.inner.sync(s) }
  async commitHeader(s: string, v: string): Promise<void> { await this.tick('commitHeader', s, '#header', v); await this.inner.commitHeader(s, v) }
  readHeader(s: string): Promise<string | undefined> { return this.inner.readHeader(s) }
  remove(s: string, keys: string[]): Promise<void> { return this.inner.remove(s, keys) }
  list(s: string): Promise<string[]> { return this.inner.list(s) }
  removeSession(s: string): Promise<void> { return this.inner.removeSession(s) }
  location(s: string): string { return this.inner.location(s) }
}

/** Delegates to `inner`; every write/commitHeader waits until `open()` is called, recording the order. */
class GatedBackend implements SegmentBackend {
  readonly log: string[] = []
  private gate: Promise<void>
  private release: () => void = () => {}
  private wrote: () => void = () => {}
  /** Resolves when the first write reached the backend. */
  readonly firstWrite: Promise<void>

  constructor(readonly inner: SegmentBackend) {
    this.gate = new Promise<void>((r) => { this.release = r })
    this.firstWrite = new Promise<void>((r) => { this.wrote = r })
  }

  open(): void { this.release() }
  read(s: string, k: string): Promise<string | undefined> { this.log.push(`read:${k}`); return this.inner.read(s, k) }
  async write(s: string, k: string, v: string): Promise<void> {
    this.log.push(`write:${k}`)
    this.wrote()
    await this.gate
    await this.inner.write(s, k, v)
  }
  sync(s: string): Promise<void> { return this.inner.sync(s) }
  async commitHeader(s: string, v: string): Promise<void> {
    const doc = headerDoc(v) as { plan: string, genesis?: boolean }
    // A session's genesis header (before its first segment) is not one of the gated saves' commits.
    if (doc.genesis === true) return this.inner.commitHeader(s, v)
    this.log.push(`commit:${doc.plan}`)
    await this.gate
    await this.inner.commitHeader(s, v)
  }
  readHeader(s: string): Promise<string | undefined> { this.log.push('readHeader'); return this.inner.readHeader(s) }
  remove(s: string, keys: string[]): Promise<void> { return this.inner.remove(s, keys) }
  list(s: string): Promise<string[]> { return this.inner.list(s) }
  removeSession(s: string): Promise<void> { return this.inner.removeSession(s) }
  location(s: string): string { return this.inner.location(s) }
}

// ---------- helpers ----------

export function opts(segmentSize: number, maxValueBytes: number = 0): SegmentedStorageOptions {
  const o = new SegmentedStorageOptions()
  o.segmentSize = segmentSize
  o.maxValueBytes = maxValueBytes
  return o
}

export function stateWith(sessionId: string, history: AgentMessage[], plan: string = ''): AgentState {
  const s = richState(sessionId)
  s.history = history
  s.plan = plan
  return s
}

/** A state with a small header (no approvals etc.), for tests with a small value limit. */
function lean(sessionId: string, history: AgentMessage[], plan: string = ''): AgentState {
  const s = new AgentState(sessionId)
  s.history = history
  s.plan = plan
  return s
}

async function expectLoadsExactly(storage: StateStorage, expected: AgentState): Promise<void> {
  const loaded = await storage.load(expected.sessionId)
  expect(loaded).toBeDefined()
  expect(StateCodec.encode(loaded!.state)).toBe(StateCodec.encode(expected))
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}

// ---------- the contract ----------

export function storageContract(factory: HarnessFactory): void {
  describe(`StateStorage contract: ${factory.name}`, () => {
    let h: Harness

    beforeEach(async () => {
      h = await factory.setup()
    })

    afterEach(async () => {
      await factory.teardown()
    })

    it('loads undefined for an unknown session', async () => {
      expect(await h.storage().load('never-saved')).toBeUndefined()
    })

    it('round-trips a rich state, in the same instance and in a fresh one', async () => {
      const s = richState('sess-1')
      const st = h.storage(opts(3))
      const report = await st.save(s)
      expect(report.bytesWritten).toBeGreaterThan(0)
      expect(report.segmentsWritten).toBe(3)
      const same = await st.load('sess-1')
      expect(same!.resumable).toBe(true)
      expect(same!.notResumableReason).toBe('')
      expect(StateCodec.encode(same!.state)).toBe(StateCodec.encode(s))
      await expectLoadsExactly(h.storage(opts(3)), s)
    })

    it('round-trips an empty history and keeps sessions apart', async () => {
      const a = new AgentState('a')
      const b = stateWith('b', conversation(10, 'b'))
      const st = h.storage()
      await st.save(a)
      await st.save(b)
      await expectLoadsExactly(h.storage(), a)
      await expectLoadsExactly(h.storage(), b)
    })

    it('loads the last saved snapshot after many saves that grow and shrink the history', async () => {
      const st = h.storage(opts(4))
      let last = new AgentState('grow')
      const all = conversation(40)
      for (const n of [1, 5, 9, 8, 17, 3, 0, 40, 39]) {
        last = stateWith('grow', all.slice(0, n), `n=${n}`)
        await st.save(last)
        await expectLoadsExactly(h.storage(opts(4)), last)
      }
      // Only live segments remain after the cleanup of each save.
      const keys = await h.inner().list('grow')
      expect(keys.filter((k) => k.startsWith('seg-')).length).toBe(Math.ceil(39 / 4))
    })

    for (const variant of [
      { name: 'a warm instance (loaded first)', warm: true, torn: false, o: () => opts(16) },
      { name: 'a cold instance (no load first)', warm: false, torn: false, o: () => opts(16) },
      { name: 'a warm instance, torn writes, split values', warm: true, torn: true, o: () => opts(16, 1024) },
      { name: 'a cold instance, torn writes, split values', warm: false, torn: true, o: () => opts(16, 1024) }
    ]) {
      it(`leaves the previous snapshot loadable when a save fails at its n-th backend write, for every n (${variant.name})`, async () => {
        const sid = 'faults'
        const base = conversation(50)
        const previous = lean(sid, base, 'previous')
        await h.storage(variant.o()).save(previous)
        // The next snapshot changes an early message, appends some, and changes header fields.
        const nextHistory = base.slice()
        nextHistory[3] = AgentMessage.user('edited early message: 改过的消息 ✅')
        nextHistory.push(...conversation(20, 'new'))
        const next = lean(sid, nextHistory, 'next')
        next.status = SessionStatus.completed
        // Warm: one instance reused across all failures (its knowledge of what is stored must stay right).
        const warmBackend = new FaultyBackend(h.inner(), 0, variant.torn)
        const warm = h.over(warmBackend, variant.o())
        if (variant.warm) {
          await expectLoadsExactly(warm, previous)
        }
        let injectedFailures = 0
        let succeeded = false
        for (let n = 1; n < 500 && !succeeded; n++) {
          let faulty: FaultyBackend
          let st: StateStorage
          if (variant.warm) {
            warmBackend.arm(n)
            faulty = warmBackend
            st = warm
          } else {
            faulty = new FaultyBackend(h.inner(), n, variant.torn)
            st = h.over(faulty, variant.o())
          }
          try {
            await st.save(next)
            succeeded = true
            expect(faulty.calls).toBeLessThan(n)
          } catch (e) {
            injectedFailures++
            expect(e).toBeInstanceOf(ArkAgentError)
            expect((e as ArkAgentError).code).toBe(ErrorCodes.stateSaveFailed)
            expect((e as ArkAgentError).layer).toBe(ErrorLayer.storage)
            expect(faulty.calls).toBe(n)
            // A fresh instance over the same data sees exactly the previous snapshot.
            await expectLoadsExactly(h.storage(variant.o()), previous)
          }
        }
        expect(succeeded).toBe(true)
        expect(injectedFailures).toBeGreaterThan(3)
        await expectLoadsExactly(h.storage(variant.o()), next)
      })
    }

    it('keeps markNotResumable across a reload, and a later successful save clears it', async () => {
      const s = stateWith('mark', conversation(5))
      await h.storage().save(s)
      await h.storage().markNotResumable('mark', 'terminal write failed')
      const loaded = await h.storage().load('mark')
      expect(loaded!.resumable).toBe(false)
      expect(loaded!.notResumableReason).toBe('terminal write failed')
      expect(StateCodec.encode(loaded!.state)).toBe(StateCodec.encode(s))
      // A fresh instance that loads, then saves successfully.
      const st = h.storage()
      await st.load('mark')
      await st.save(stateWith('mark', conversation(6)))
      const after = await h.storage().load('mark')
      expect(after!.resumable).toBe(true)
      expect(after!.notResumableReason).toBe('')
    })

    it('stores any not-resumable reason: NUL and unpaired surrogates come back as U+FFFD, nothing else changes', async () => {
      await h.storage().save(stateWith('mark-odd', conversation(2)))
      await h.storage().markNotResumable('mark-odd', 'bad\u0000reason \ud800 end \udc00 😀 北')
      const loaded = await h.storage().load('mark-odd')
      expect([loaded!.resumable, loaded!.notResumableReason]).toEqual([false, 'bad\uFFFDreason \uFFFD end \uFFFD 😀 北'])
    })

    it('clears the not-resumable mark on a successful save also by an instance that never loaded the session', async () => {
      await h.storage().save(stateWith('mark2', conversation(5)))
      await h.storage().markNotResumable('mark2', 'terminal write failed')
      await h.storage().save(stateWith('mark2', conversation(7)))
      const after = await h.storage().load('mark2')
      expect(after!.resumable).toBe(true)
    })

    it('keeps the mark when the later save fails', async () => {
      const s = stateWith('mark3', conversation(5))
      await h.storage().save(s)
      await h.storage().markNotResumable('mark3', 'x')
      const faulty = new FaultyBackend(h.inner(), 1)
      await expect(h.over(faulty).save(stateWith('mark3', conversation(9)))).rejects.toBeInstanceOf(ArkAgentError)
      expect((await h.storage().load('mark3'))!.resumable).toBe(false)
    })

    it('rejects markNotResumable with state_save_failed when the backend write fails', async () => {
      await h.storage().save(stateWith('mark4', conversation(2)))
      const e = await rejectionOf(h.over(new FaultyBackend(h.inner(), 1)).markNotResumable('mark4', 'x'))
      expect(e.code).toBe(ErrorCodes.stateSaveFailed)
    })

    it('rejects a corrupt header with state_corrupt', async () => {
      await h.storage().save(stateWith('corrupt', conversation(5)))
      for (const text of ['{not json', '[]', '{"schemaVersion":2}', JSON.stringify({ schemaVersion: 2, sessionId: 'corrupt' })]) {
        await h.inner().commitHeader('corrupt', text)
        const e = await rejectionOf(h.storage().load('corrupt'))
        expect(e).toBeInstanceOf(ArkAgentError)
        expect({ text, code: e.code, layer: e.layer }).toEqual({ text, code: ErrorCodes.stateCorrupt, layer: ErrorLayer.storage })
      }
    })

    it('rejects a header whose segment list does not match its history length, or that belongs to another session', async () => {
      await h.storage().save(stateWith('hdr', conversation(5)))
      const header = headerDoc((await h.inner().readHeader('hdr'))!)
      header.historyLength = 6
      await h.inner().commitHeader('hdr', sealHeader(header))
      expect((await rejectionOf(h.storage().load('hdr'))).code).toBe(ErrorCodes.stateCorrupt)
      header.historyLength = 5
      header.sessionId = 'someone-else'
      await h.inner().commitHeader('hdr', sealHeader(header))
      const e = await rejectionOf(h.storage().load('hdr'))
      expect(e.code).toBe(ErrorCodes.stateCorrupt)
      expect(e.message).toContain('sessionId')
    })

    it('rejects a header of an unknown version with state_version_unsupported', async () => {
      await h.storage().save(stateWith('future', conversation(5)))
      const header = headerDoc((await h.inner().readHeader('future'))!)
      header.schemaVersion = 4
      await h.inner().commitHeader('future', sealHeader(header))
      const e = await rejectionOf(h.storage().load('future'))
      expect(e.code).toBe(ErrorCodes.stateVersionUnsupported)
      expect(e.layer).toBe(ErrorLayer.storage)
    })

    it('loads a version-1 single-document header by migrating it', async () => {
      const v1 = JSON.stringify({ schemaVersion: 1, sessionId: 'legacy', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })
      await h.inner().commitHeader('legacy', v1)
      const loaded = await h.storage().load('legacy')
      expect(loaded!.state.history.map((m) => m.text())).toEqual(['hi'])
      // The next save rewrites it as version 3.
      const st = h.storage()
      await st.save(loaded!.state)
      expect(headerDoc((await h.inner().readHeader('legacy'))!).schemaVersion).toBe(3)
      await expectLoadsExactly(h.storage(), loaded!.state)
    })

    it('rejects a corrupt segment (content edited) and a missing segment with state_corrupt', async () => {
      await h.storage(opts(4)).save(stateWith('seg', conversation(10)))
      const keys = (await h.inner().list('seg')).filter((k) => k.startsWith('seg-')).sort()
      expect(keys.length).toBe(3)
      const original = (await h.inner().read('seg', keys[1]))!
      await h.inner().write('seg', keys[1], original.replace('catalogue', 'catalogus'))
      let e = await rejectionOf(h.storage(opts(4)).load('seg'))
      expect(e.code).toBe(ErrorCodes.stateCorrupt)
      expect(e.message).toContain(keys[1].replace(/\.\d+$/, ''))
      await h.inner().write('seg', keys[1], original.slice(0, 10))
      expect((await rejectionOf(h.storage(opts(4)).load('seg'))).code).toBe(ErrorCodes.stateCorrupt)
      await h.inner().remove('seg', [keys[1]])
      e = await rejectionOf(h.storage(opts(4)).load('seg'))
      expect(e.code).toBe(ErrorCodes.stateCorrupt)
      expect(e.message).toContain('missing')
    })

    it('rejects a segment with a valid checksum but invalid messages with state_corrupt (never a TypeError)', async () => {
      await h.storage(opts(4)).save(stateWith('seg2', conversation(4)))
      const header = headerDoc((await h.inner().readHeader('seg2'))!)
      const bad = JSON.stringify([{ role: 'tool', content: [] }, 1, 2, 3])
      // Rewrite the header so the checksum matches the bad segment.
      const { fnv1a } = await import('../../src/core/util/Text')
      // The header lists segments as "count.hash.parts"; the key follows from position, count and hash.
      const [count, , parts] = (header.segments[0] as string).split('.')
      const hash = fnv1a(bad)
      header.segments[0] = `${count}.${hash}.${parts}`
      await h.inner().write('seg2', `seg-0-${count}-${hash}.0`, bad)
      await h.inner().commitHeader('seg2', sealHeader(header))
      const e = await rejectionOf(h.storage(opts(4)).load('seg2'))
      expect(e).toBeInstanceOf(ArkAgentError)
      expect(e.code).toBe(ErrorCodes.stateCorrupt)
    })

    it('delete removes the session', async () => {
      await h.storage().save(stateWith('gone', conversation(5)))
      await h.storage().markNotResumable('gone', 'x')
      await h.storage().save(stateWith('kept', conversation(2)))
      const st = h.storage()
      await st.delete('gone')
      expect(await st.load('gone')).toBeUndefined()
      expect(await h.storage().load('gone')).toBeUndefined()
      expect(await h.inner().list('gone')).toEqual([])
      expect((await h.storedSizes('gone')).size).toBe(0)
      expect(await h.storage().load('kept')).toBeDefined()
      // Deleting an unknown session is fine, and the session can be saved again afterwards.
      await st.delete('never-there')
      const again = stateWith('gone', conversation(3))
      await st.save(again)
      await expectLoadsExactly(h.storage(), again)
    })

    it('writes a small, bounded number of bytes when one message is appended to a 5,000-message history', async () => {
      const history = conversation(5000)
      const st = h.storage()
      const first = await st.save(stateWith('big', history))
      const full = utf8Length(StateCodec.encode(stateWith('big', history)))
      expect(first.bytesWritten).toBeGreaterThan(full * 0.9)
      const appended = history.concat([AgentMessage.user('one more question')])
      const report = await st.save(stateWith('big', appended))
      expect(report.segmentsWritten).toBe(1)
      expect(report.segmentsReused).toBe(Math.floor(5000 / 64))
      expect(report.bytesWritten).toBeLessThan(full * 0.02)
      // What was reported is what changed on the backend: the header plus one small segment.
      await expectLoadsExactly(h.storage(), stateWith('big', appended))
      // The same holds for a fresh instance that loaded the session first.
      const fresh = h.storage()
      await fresh.load('big')
      const report2 = await fresh.save(stateWith('big', appended.concat([AgentMessage.assistant('answer')])))
      expect(report2.segmentsWritten).toBe(1)
      expect(report2.bytesWritten).toBeLessThan(full * 0.02)
    })

    it('splits segments into parts within maxValueBytes and still round-trips multi-byte text (Chinese, emoji)', async () => {
      const limit = 1024
      const history: AgentMessage[] = []
      for (let i = 0; i < 30; i++) {
        history.push(AgentMessage.user(`第${i}个问题：北京今天的天气怎么样？🌦️👨‍👩‍👧‍👦 emoji ${'😀'.repeat(i % 7)}`))
        history.push(AgentMessage.tool(`call_${i}`, [ContentPart.text('晴'.repeat(i * 3))], i % 2 === 0, i % 2 === 0 ? 'x' : undefined))
      }
      const s = new AgentState('split')
      s.history = history
      s.plan = '计划'
      const report = await h.storage(opts(8, limit)).save(s)
      expect(report.segmentsWritten).toBe(Math.ceil(history.length / 8))
      const sizes = await h.storedSizes('split')
      const segParts = [...sizes.keys()].filter((k) => k.startsWith('seg-'))
      expect(segParts.length).toBeGreaterThan(report.segmentsWritten)
      for (const [key, size] of sizes) {
        expect({ key, ok: size <= limit }).toEqual({ key, ok: true })
      }
      // Every stored part is valid UTF-16 text on its own (never split inside a surrogate pair).
      for (const key of segParts) {
        const v = (await h.inner().read('split', key))!
        expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(v)).toBe(false)
      }
      await expectLoadsExactly(h.storage(opts(8, limit)), s)
    })

    it('fails a save with state_save_failed when the header alone exceeds maxValueBytes, keeping the previous snapshot', async () => {
      const s = stateWith('tiny', conversation(3))
      await h.storage(opts(64)).save(s)
      const e = await rejectionOf(h.storage(opts(64, 64)).save(stateWith('tiny', conversation(4))))
      expect(e.code).toBe(ErrorCodes.stateSaveFailed)
      await expectLoadsExactly(h.storage(), s)
    })

    it('serializes saves to the same session: the second starts writing only after the first committed', async () => {
      const gated = new GatedBackend(h.inner())
      const st = h.over(gated, opts(4))
      const a = stateWith('serial', conversation(9), 'A')
      const b = stateWith('serial', conversation(13), 'B')
      const pa = st.save(a)
      const pb = st.save(b)
      const pl = st.load('serial')
      await gated.firstWrite
      // Give the queued save and load every chance to (wrongly) start; nothing here is timed.
      await sleep(20)
      await settle()
      // Only the first save has started; it is blocked on its first write. The load (and B) wait.
      expect(gated.log.filter((l) => l.startsWith('write:')).length).toBe(1)
      expect(gated.log.filter((l) => l === 'readHeader').length).toBeLessThanOrEqual(1)
      expect(gated.log.some((l) => l.startsWith('commit:'))).toBe(false)
      gated.open()
      await Promise.all([pa, pb])
      const loaded = await pl
      const commitA = gated.log.indexOf('commit:A')
      const commitB = gated.log.indexOf('commit:B')
      expect(commitA).toBeGreaterThanOrEqual(0)
      expect(commitB).toBeGreaterThan(commitA)
      // Nothing of B was written before A committed.
      const firstWriteAfterA = gated.log.findIndex((l, i) => i > commitA && l.startsWith('write:'))
      const writesOfB = gated.log.slice(commitA + 1, commitB).filter((l) => l.startsWith('write:'))
      expect(writesOfB.length).toBeGreaterThan(0)
      expect(firstWriteAfterA).toBeGreaterThan(commitA)
      expect(StateCodec.encode(loaded!.state)).toBe(StateCodec.encode(b))
      await expectLoadsExactly(h.storage(opts(4)), b)
    })

    it('keeps saves to different sessions independent (one blocked does not block the other)', async () => {
      const gated = new GatedBackend(h.inner())
      const st = h.over(gated, opts(4))
      const blocked = st.save(stateWith('s-one', conversation(3), 'one'))
      await gated.firstWrite
      const other = h.storage(opts(4))
      await other.save(stateWith('s-two', conversation(3), 'two'))
      expect(await h.storage().load('s-two')).toBeDefined()
      gated.open()
      await blocked
    })
  })
}

