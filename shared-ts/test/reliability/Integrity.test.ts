// Nothing stored is ever silently changed or lost:
// - every single-bit flip in any stored byte (header, each segment part, the not-resumable mark)
//   loads as the same state or fails with a typed error — exhaustively on memory values read back
//   as UTF-8, and sampled on real files;
// - segments without a header are state_corrupt naming where, and nothing is deleted;
// - a save deletes only segment keys a header it could read no longer references;
// - a killed commit's temp file is cleaned when the session is opened; the mark's reason is never empty.
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import {
  AgentMessage,
  AgentState,
  ArkAgentError,
  ErrorCodes,
  FileStateStorage,
  LoadedState,
  MemorySegmentBackend,
  MemoryStateStorage,
  SegmentedStorageOptions,
  StateCodec,
  fnv1a
} from '../../src/index'
import { conversation, richState } from '../foundations/fixtures'
import { cleanupTempDirs, tempDir } from '../runtime/helpers'
import { flush, record } from './summary'
import { cases, MUTATION_RUN } from '../support/scale'

afterEach(() => cleanupTempDirs())
afterAll(() => flush('Integrity'))

const TYPED = [ErrorCodes.stateCorrupt, ErrorCodes.stateVersionUnsupported]

function opts(segmentSize: number, maxValueBytes: number = 0): SegmentedStorageOptions {
  const o = new SegmentedStorageOptions()
  o.segmentSize = segmentSize
  o.maxValueBytes = maxValueBytes
  return o
}

/** A session with several segments, one split into parts, multi-byte text, and a full header. */
function sample(sessionId: string): AgentState {
  const s = richState(sessionId)
  s.history = [...s.history, ...conversation(9), AgentMessage.user('Ünïcödé 北京 😀 "quoted" \\ end'),
    AgentMessage.assistant('长'.repeat(1500))]
  return s
}

class Tally {
  same = 0
  typed = 0
  silent: string[] = []

  get total(): number {
    return this.same + this.typed + this.silent.length
  }
}

/** Classifies one load of a damaged store against the original. */
async function classify(load: () => Promise<LoadedState | undefined>, original: AgentState, resumable: boolean,
  tally: Tally, label: string): Promise<void> {
  let loaded: LoadedState | undefined
  try {
    loaded = await load()
  } catch (e) {
    if (e instanceof ArkAgentError && TYPED.includes(e.code)) {
      tally.typed++
      return
    }
    tally.silent.push(`${label}: untyped ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`)
    return
  }
  if (loaded !== undefined && StateCodec.encode(loaded.state) === StateCodec.encode(original) &&
    loaded.resumable === resumable) {
    tally.same++
  } else {
    tally.silent.push(`${label}: loaded as ${loaded === undefined ? 'nothing' : 'a different state'}`)
  }
}

/** Flips bit `bit` of the UTF-8 bytes of `value` and reads the bytes back as a file read would. */
function flipped(value: string, bit: number): string {
  const bytes = Buffer.from(value, 'utf8')
  bytes[bit >> 3] ^= 1 << (bit & 7)
  return bytes.toString('utf8')
}

describe('bit flips in stored values (memory, every bit of every value)', () => {
  it('every single-bit flip of the header, each segment part and the mark is the same state or a typed error', async () => {
    const backend = new MemorySegmentBackend()
    const options = opts(4, 8192)
    const original = sample('flips')
    await new MemoryStateStorage(options, backend).save(original)
    await new MemoryStateStorage(options, backend).markNotResumable('flips', 'terminal write failed: disk full')
    const keys = ['header', ...(await backend.list('flips'))]
    expect(keys.filter((k) => k.startsWith('seg-')).length).toBeGreaterThan(4)
    const byKey = new Map<string, Tally>()
    for (const key of keys) {
      const value = backend.peek('flips', key)!
      const what = key === 'header' ? 'header' : key.startsWith('seg-') ? 'segments' : 'mark'
      const tally = byKey.get(what) ?? new Tally()
      byKey.set(what, tally)
      for (let bit = 0; bit < Buffer.byteLength(value) * 8; bit += MUTATION_RUN ? 5 : 1) {
        backend.poke('flips', key, flipped(value, bit))
        await classify(() => new MemoryStateStorage(options, backend).load('flips'), original, false, tally, `${key} bit ${bit}`)
      }
      backend.poke('flips', key, value)
    }
    const all = new Tally()
    for (const [what, t] of byKey) {
      all.same += t.same
      all.typed += t.typed
      all.silent.push(...t.silent)
      record('integrity', `bit flips: ${what}`, t.total, 'flips', `${t.typed} typed errors, ${t.same} same state, ${t.silent.length} silent`)
    }
    expect(all.silent).toEqual([])
    expect(all.typed).toBeGreaterThan(0)
  }, 600_000)

  it('headers written before checksums still load, and the next save writes one', async () => {
    const backend = new MemorySegmentBackend()
    const original = sample('legacy')
    await new MemoryStateStorage(opts(4), backend).save(original)
    const sealed = backend.peek('legacy', 'header')!
    expect(sealed.startsWith('h1:')).toBe(true)
    backend.poke('legacy', 'header', sealed.slice(12))
    const loaded = await new MemoryStateStorage(opts(4), backend).load('legacy')
    expect(StateCodec.encode(loaded!.state)).toBe(StateCodec.encode(original))
    const st = new MemoryStateStorage(opts(4), backend)
    await st.load('legacy')
    await st.save(loaded!.state)
    expect(backend.peek('legacy', 'header')!.startsWith('h1:')).toBe(true)
  })
})

describe('bit flips in stored files (real files, sampled)', () => {
  it('a flipped bit anywhere in a session directory is the same state or a typed error', async () => {
    const root = tempDir()
    const options = opts(4, 8192)
    const original = sample('files')
    await new FileStateStorage(root, options, { lock: false }).save(original)
    const dir = path.join(root, 'files')
    const files = (await fs.readdir(dir)).filter((n) => n.endsWith('.val') || n === 'header.json')
    const tally = new Tally()
    let seed = 20261201
    const next = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed }
    for (let i = 0; i < cases(400); i++) {
      const file = path.join(dir, files[next() % files.length])
      const bytes = await fs.readFile(file)
      const bit = next() % (bytes.length * 8)
      const damaged = Buffer.from(bytes)
      damaged[bit >> 3] ^= 1 << (bit & 7)
      await fs.writeFile(file, damaged)
      await classify(() => new FileStateStorage(root, options, { lock: false }).load('files'), original, true, tally,
        `${path.basename(file)} bit ${bit}`)
      await fs.writeFile(file, bytes)
    }
    record('integrity', 'bit flips: files (sampled)', tally.total, 'flips',
      `${tally.typed} typed errors, ${tally.same} same state, ${tally.silent.length} silent`)
    expect(tally.silent).toEqual([])
  })
})

describe('data the storage cannot account for is never deleted', () => {
  it('segments without a header: load and save refuse with state_corrupt naming the directory; nothing is deleted', async () => {
    const root = tempDir()
    const original = sample('headless')
    await new FileStateStorage(root, opts(4), { lock: false }).save(original)
    const dir = path.join(root, 'headless')
    await fs.rm(path.join(dir, 'header.json'))
    const before = (await fs.readdir(dir)).sort()
    const load = new FileStateStorage(root, opts(4), { lock: false }).load('headless')
    await expect(load).rejects.toMatchObject({ code: ErrorCodes.stateCorrupt })
    await expect(new FileStateStorage(root, opts(4), { lock: false }).load('headless')).rejects.toThrow(dir)
    const save = new FileStateStorage(root, opts(4), { lock: false }).save(new AgentState('headless'))
    await expect(save).rejects.toMatchObject({ code: ErrorCodes.stateCorrupt })
    expect((await fs.readdir(dir)).sort()).toEqual(before)
    record('integrity', 'segments without a header', 1, 'sessions', 'state_corrupt, 0 files deleted')
  })

  it('a header that cannot be read is never replaced, and its segments stay', async () => {
    const backend = new MemorySegmentBackend()
    await new MemoryStateStorage(opts(4), backend).save(sample('unreadable'))
    const keys = await backend.list('unreadable')
    backend.poke('unreadable', 'header', 'h1:00000000:{"damaged":true}')
    await expect(new MemoryStateStorage(opts(4), backend).save(new AgentState('unreadable')))
      .rejects.toMatchObject({ code: ErrorCodes.stateCorrupt })
    expect(backend.peek('unreadable', 'header')).toBe('h1:00000000:{"damaged":true}')
    expect((await backend.list('unreadable')).sort()).toEqual(keys.sort())
  })

  it('a save removes only segment keys: values it did not write stay; orphans of a crashed save go', async () => {
    const backend = new MemorySegmentBackend()
    await new MemoryStateStorage(opts(4), backend).save(sample('keys'))
    await backend.write('keys', 'app-notes', 'kept')
    await backend.write('keys', 'seg-junk', 'kept too: not a segment key')
    await backend.write('keys', 'seg-9-3-0badc0de.0', 'orphan of a crashed save')
    const st = new MemoryStateStorage(opts(4), backend)
    const loaded = await st.load('keys')
    loaded!.state.history.push(AgentMessage.user('one more'))
    await st.save(loaded!.state)
    const keys = await backend.list('keys')
    expect(keys).toContain('app-notes')
    expect(keys).toContain('seg-junk')
    expect(keys).not.toContain('seg-9-3-0badc0de.0')
  })

  it('a first save that died after its genesis header restores as nothing stored, and the next save collects its segments', async () => {
    const backend = new MemorySegmentBackend()
    // What a first save leaves when it dies before its commit: the genesis header and its segments.
    await new MemoryStateStorage(opts(4), backend).save(sample('genesis'))
    const segments = (await backend.list('genesis')).filter((k) => k.startsWith('seg-'))
    const genesis = '{"schemaVersion":2,"sessionId":"genesis","genesis":true}'
    backend.poke('genesis', 'header', `h1:${fnv1a(genesis)}:${genesis}`)
    expect(await new MemoryStateStorage(opts(4), backend).load('genesis')).toBeUndefined()
    const st = new MemoryStateStorage(opts(4), backend)
    await st.load('genesis')
    const fresh = new AgentState('genesis')
    fresh.history.push(AgentMessage.user('hello again'))
    await st.save(fresh)
    const left = await backend.list('genesis')
    for (const k of segments) expect(left).not.toContain(k)
    expect((await new MemoryStateStorage(opts(4), backend).load('genesis'))!.state.history.map((m) => m.text())).toEqual(['hello again'])
  })
})

describe('leftovers of a killed process', () => {
  it('header temp files of dead processes are removed when the session is opened; a live process keeps its own', async () => {
    const root = tempDir()
    await new FileStateStorage(root, opts(4), { lock: false }).save(sample('tmp'))
    const dir = path.join(root, 'tmp')
    const dead = path.join(dir, 'header.json.999999999.tmp')
    const live = path.join(dir, `header.json.${process.ppid}.tmp`)
    await fs.writeFile(dead, 'torn')
    await fs.writeFile(live, 'in flight')
    // Without the lock only a dead owner's file is known to be stale.
    await new FileStateStorage(root, opts(4), { lock: false }).load('tmp')
    expect((await fs.readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([path.basename(live)])
    // Holding the session lock, every other temp file is stale.
    const locked = new FileStateStorage(root, opts(4))
    await locked.load('tmp')
    expect((await fs.readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([])
    await locked.close()
  })

  it("the not-resumable mark's reason is never empty: an empty or torn mark still means not resumable", async () => {
    for (const stored of ['', 'm1:', 'm1:00000000:', 'm1:abcdef01:a different reason']) {
      const backend = new MemorySegmentBackend()
      await new MemoryStateStorage(opts(4), backend).save(sample('mark'))
      await backend.write('mark', 'not-resumable', stored)
      const loaded = await new MemoryStateStorage(opts(4), backend).load('mark')
      expect(loaded!.resumable).toBe(false)
      expect(loaded!.notResumableReason.length).toBeGreaterThan(0)
    }
    const backend = new MemorySegmentBackend()
    const st = new MemoryStateStorage(opts(4), backend)
    await st.save(sample('mark2'))
    await st.markNotResumable('mark2', '')
    expect((await new MemoryStateStorage(opts(4), backend).load('mark2'))!.notResumableReason).toBe('not resumable')
  })

})
