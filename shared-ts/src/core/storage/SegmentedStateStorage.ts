import { SessionGenerations } from './SessionGenerations'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { AgentMessage } from '../model/AgentMessage'
import { AgentState } from '../state/AgentState'
import { JsonFields } from '../state/JsonFields'
import { StateCodec } from '../state/StateCodec'
import { SerialQueue } from '../util/SerialQueue'
import { HostYield } from '../util/HostYield'
import { fnv1a, splitByUtf8Bytes, utf8Length } from '../util/Text'
import { SegmentBackend } from './SegmentBackend'
import { LoadedState, SaveReport, StateStorage } from './StateStorage'
import { ConfigCheck } from '../util/ConfigCheck'

const NOT_RESUMABLE_KEY: string = 'not-resumable'
/** Segment reads in flight at once during a load. */
const READ_WINDOW: number = 16
/** Stored header: "h1:" + fnv1a(json) + ":" + json. Headers of earlier builds are the bare json. */
const HEADER_PREFIX: string = 'h1:'
/** What a storage is asked to do (told to `beforeOperation`). */
export enum StorageOperation {
  load = 'load',
  save = 'save',
  mark = 'mark',
  delete = 'delete'
}

/** `text` with NUL and unpaired surrogates replaced by U+FFFD. */
function wellFormed(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0) {
      out += '\uFFFD'
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text.substring(i, i + 2)
        i++
      } else {
        out += '\uFFFD'
      }
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      out += '\uFFFD'
    } else {
      out += text.charAt(i)
    }
  }
  return out
}

/** Stored not-resumable mark: "m1:" + fnv1a(reason) + ":" + reason. Earlier builds stored the bare reason. */
const MARKER_PREFIX: string = 'm1:'
const SUMMED: RegExp = /^[hm]1:[0-9a-f]{8}:/
/** The only keys this storage ever writes for history; nothing else in a session is ever deleted by a save. */
const SEGMENT_KEY: RegExp = /^seg-[0-9]{1,9}-[1-9][0-9]{0,8}-[0-9a-f]{8}\.[0-9]{1,9}$/
const DAMAGED_MARKER: string = 'not resumable (the stored reason is damaged)'

export class SegmentedStorageOptions {
  /** Messages per history segment. */
  segmentSize: number = 64
  /** Largest value the backend accepts, in UTF-8 bytes (0 = no limit); bigger segments are split into parts. */
  maxValueBytes: number = 0
  /**
   * How many bytes the backend stores for a text, for a backend that stores some characters in
   * more bytes than their UTF-8 (HarmonyOS preferences escape what XML rejects); undefined: the
   * UTF-8 length. Parts are cut so that each stays within maxValueBytes by this measure.
   */
  storedBytes: ((text: string) => number) | undefined = undefined
}

/** A saved segment as the header lists it, plus the messages it held (to detect reuse). */
class SegmentRef {
  readonly key: string
  readonly count: number
  readonly hash: string
  readonly parts: number
  /** The message objects this segment was written from (or loaded into): reused only while all are the same. */
  messages: AgentMessage[] = []

  constructor(key: string, count: number, hash: string, parts: number) {
    this.key = key
    this.count = count
    this.hash = hash
    this.parts = parts
  }

  partKeys(): string[] {
    const keys: string[] = []
    for (let p = 0; p < this.parts; p++) {
      keys.push(`${this.key}.${p}`)
    }
    return keys
  }

  /** True when history[start, start + count) are exactly the objects this segment holds. */
  holds(history: AgentMessage[], start: number, end: number): boolean {
    if (end - start !== this.count || this.messages.length !== this.count) {
      return false
    }
    for (let i = 0; i < this.count; i++) {
      if (this.messages[i] !== history[start + i]) {
        return false
      }
    }
    return true
  }
}

/** What this process knows is on disk for one session. */
class SessionCache {
  segments: SegmentRef[] = []
  /** False until `segments` reflects the committed header (after a load, a save, or adopting the header). */
  known: boolean = false
  /** Whether a header (state or genesis) is committed: before the first segment, a genesis header is. */
  headerCommitted: boolean = false
  markerPresent: boolean = false
  /** Orphans of an earlier crashed save are collected once per process. */
  collected: boolean = false
  /**
   * This instance's view of the session: a new value (from the storage's counter, never reused, even
   * for a session evicted and seen again) whenever ownership changed hands (forget). States read
   * from an older view are stale.
   */
  epoch: number
  readonly queue: SerialQueue = new SerialQueue()

  constructor(epoch: number) {
    this.epoch = epoch
  }
}

/** A stored header, its checksum verified: the JSON document, or a genesis mark. */
class HeaderDoc {
  readonly doc: Record<string, Object>
  readonly genesis: boolean

  constructor(doc: Record<string, Object>, genesis: boolean) {
    this.doc = doc
    this.genesis = genesis
  }
}

/**
 * StateStorage over a SegmentBackend. History lives in fixed-size segments under
 * content-addressed keys, so a save writes only segments that changed (normally the last one)
 * and never overwrites anything the committed header references. The header is written last:
 * a save interrupted at any write leaves the previous snapshot loadable.
 *
 * Integrity: every stored value carries a checksum (segments in the header's list, the header and
 * the not-resumable mark in their own value), so a damaged byte loads as a typed error
 * (state_corrupt), never as a different state. A session's first save commits a genesis header
 * before any segment, so segments found without a header mean the header was lost: that is
 * state_corrupt too, and nothing is deleted. A save only ever deletes segment keys a header it
 * read (or wrote) no longer references; a header it cannot read is never replaced.
 */
export class SegmentedStateStorage implements StateStorage {
  private readonly backend: SegmentBackend
  private readonly options: SegmentedStorageOptions
  private readonly sessions: Map<string, SessionCache> = new Map<string, SessionCache>()
  private readonly fields: JsonFields = new JsonFields()
  private epochs: number = 0

  constructor(backend: SegmentBackend, options: SegmentedStorageOptions = new SegmentedStorageOptions()) {
    if (!(options instanceof SegmentedStorageOptions)) {
      throw ConfigCheck.invalid(`Storage options must be a SegmentedStorageOptions; got ${ConfigCheck.show(options)}`)
    }
    if (typeof options.segmentSize !== 'number' || !Number.isSafeInteger(options.segmentSize) || options.segmentSize < 1 ||
      options.segmentSize > 100000) {
      throw ConfigCheck.invalid(`segmentSize must be a positive integer (messages per segment, at most 100000); got ${
        ConfigCheck.show(options.segmentSize)}`)
    }
    if (typeof options.maxValueBytes !== 'number' || !Number.isSafeInteger(options.maxValueBytes) || options.maxValueBytes < 0) {
      throw ConfigCheck.invalid(`maxValueBytes must be an integer, 0 (no limit) or more; got ${ConfigCheck.show(options.maxValueBytes)}`)
    }
    if (options.storedBytes !== undefined && typeof options.storedBytes !== 'function') {
      throw ConfigCheck.invalid(`storedBytes must be a function or undefined; got ${ConfigCheck.show(options.storedBytes)}`)
    }
    if (backend === undefined || backend === null || typeof backend !== 'object') {
      throw ConfigCheck.invalid(`A segmented storage needs a SegmentBackend; got ${ConfigCheck.show(backend)}`)
    }
    this.backend = backend
    this.options = options
  }

  async load(sessionId: string): Promise<LoadedState | undefined> {
    return this.serial<LoadedState | undefined>(sessionId, async (): Promise<LoadedState | undefined> => {
      await this.open(sessionId, StorageOperation.load)
      const loaded = await this.doLoad(sessionId)
      this.afterLoad(sessionId)
      if (loaded !== undefined) {
        loaded.state.storageEpoch = this.cache(sessionId).epoch
        loaded.state.storageEpochOf = this
      }
      return loaded
    })
  }

  async save(state: AgentState): Promise<SaveReport> {
    return this.serial<SaveReport>(state.sessionId, async (): Promise<SaveReport> => {
      await this.open(state.sessionId, StorageOperation.save)
      const cache = this.cache(state.sessionId)
      if (state.storageEpochOf === this && state.storageEpoch !== cache.epoch) {
        // Read before ownership of the session last changed hands: what another owner stored since
        // would be overwritten by an older state.
        throw new ArkAgentError(ErrorLayer.runtime, ErrorCodes.sessionLocked, `Session '${state.sessionId}' changed ` +
          'hands since this state was read: load it again before writing', ErrorRetryability.afterAction)
      }
      const report = await this.doSave(state)
      if (state.storageEpochOf === undefined || state.storageEpochOf === this) {
        // A state that belongs to another storage (a copy, a backup) keeps its stamp there.
        state.storageEpoch = cache.epoch
        state.storageEpochOf = this
      }
      return report
    })
  }

  async markNotResumable(sessionId: string, reason: string): Promise<void> {
    await this.serial<boolean>(sessionId, async (): Promise<boolean> => {
      await this.open(sessionId, StorageOperation.mark)
      // Any store can hold it: no NUL, no lone surrogate (a reason is for people; U+FFFD in their place).
      const text = typeof reason === 'string' && reason.length > 0 ? wellFormed(reason) : 'not resumable'
      try {
        await this.backend.write(sessionId, NOT_RESUMABLE_KEY, `${MARKER_PREFIX}${fnv1a(text)}:${text}`)
        await this.backend.sync(sessionId)
      } catch (e) {
        throw ArkAgentError.from(e as Object, ErrorLayer.storage, ErrorCodes.stateSaveFailed,
          'Could not mark the session not resumable')
      }
      this.cache(sessionId).markerPresent = true
      return true
    })
  }

  /**
   * Drops what this instance knows of a session (its segment list): the next operation reads the
   * committed header again. For storages shared by several owners, when ownership changes hands.
   */
  protected forget(sessionId: string): void {
    const c = this.sessions.get(sessionId)
    if (c !== undefined) {
      c.epoch = ++this.epochs
      // The queue stays: operations already waiting on this session keep their order.
      c.segments = []
      c.known = false
      c.headerCommitted = false
      c.markerPresent = false
      c.collected = false
    }
  }

  async delete(sessionId: string): Promise<void> {
    await this.serial<boolean>(sessionId, async (): Promise<boolean> => {
      await this.open(sessionId, StorageOperation.delete)
      await this.backend.removeSession(sessionId)
      // Forgotten, not removed: operations already waiting on this session keep their queue. Not a
      // change of hands: a state read before may create the session again.
      const epoch = this.cache(sessionId).epoch
      this.forget(sessionId)
      this.cache(sessionId).epoch = epoch
      return true
    })
  }

  /**
   * Runs first, inside the session's queue, for every load, save, mark and delete: where a store is
   * shared by several owners, this is where an instance takes ownership (or is refused). Returns true
   * when what this instance knew of the session is stale (ownership changed hands since).
   */
  protected async beforeOperation(sessionId: string, operation: StorageOperation): Promise<boolean> {
    return false
  }

  /** Runs inside the session's queue when a load succeeded (what this instance knows is current now). */
  protected afterLoad(sessionId: string): void {
  }

  /**
   * Drops what this instance keeps of a session (its segment list and the messages it references)
   * when no operation on it is queued or running: for storages that serve many sessions over time,
   * called when an instance is done with one. A later operation starts from the committed header.
   */
  protected evict(sessionId: string): void {
    const c = this.sessions.get(sessionId)
    if (c !== undefined && c.queue.idle) {
      this.sessions.delete(sessionId)
    }
  }

  /**
   * Gives a session up through `giveUp` (a lock, a lease), after the operations queued on it: states
   * read before are stale here from then on, and nothing of the session stays in memory. While a
   * runtime of this process still uses the session (restored and not disposed, or running), that
   * happens once the last of them is done (SessionGenerations).
   */
  protected async releaseSession(sessionId: string, giveUp: () => Promise<void>): Promise<void> {
    if (SessionGenerations.inUse(this, sessionId)) {
      SessionGenerations.releaseWhenUnused(this, sessionId, (): void => {
        this.releaseSessionNow(sessionId, giveUp).then((): void => {}, (): void => {})
      })
      return
    }
    await this.releaseSessionNow(sessionId, giveUp)
  }

  /** `releaseSession` at once (closing a storage). */
  protected async releaseSessionNow(sessionId: string, giveUp: () => Promise<void>): Promise<void> {
    await this.exclusive<boolean>(sessionId, async (): Promise<boolean> => {
      await giveUp()
      this.forget(sessionId)
      return true
    })
    this.evict(sessionId)
  }

  /**
   * After giving a session up (a lock, a lease): states read before are stale here from now on, and
   * nothing of the session is kept in memory once its queue is idle.
   */
  protected handOver(sessionId: string): void {
    this.forget(sessionId)
    this.evict(sessionId)
  }

  /** Every session this instance has queued an operation for. */
  protected knownSessions(): string[] {
    const out: string[] = []
    this.sessions.forEach((c: SessionCache, id: string): void => {
      out.push(id)
    })
    return out
  }

  /** Runs `op` in the session's queue, after the operations already waiting there. */
  protected exclusive<T>(sessionId: string, op: () => Promise<T>): Promise<T> {
    return this.serial<T>(sessionId, op)
  }

  private async open(sessionId: string, operation: StorageOperation): Promise<void> {
    if (await this.beforeOperation(sessionId, operation)) {
      this.forget(sessionId)
    }
  }

  private async doLoad(sessionId: string): Promise<LoadedState | undefined> {
    let headerText: string | undefined
    let markerText: string | undefined
    try {
      headerText = await this.backend.readHeader(sessionId)
      markerText = await this.backend.read(sessionId, NOT_RESUMABLE_KEY)
    } catch (e) {
      throw ArkAgentError.from(e as Object, ErrorLayer.storage, ErrorCodes.stateLoadFailed,
        `Could not read session '${sessionId}'`)
    }
    const cache = this.cache(sessionId)
    const marker = markerText !== undefined ? SegmentedStateStorage.markerReason(markerText) : undefined
    if (headerText === undefined) {
      await this.checkNoHeaderlessSegments(sessionId)
      SegmentedStateStorage.know(cache, [], false, marker !== undefined)
      return undefined
    }
    const f = this.fields
    const stored = this.readHeaderDoc(headerText, sessionId)
    if (stored.genesis) {
      // A first save began but never committed: nothing to restore, and its segments are garbage.
      SegmentedStateStorage.know(cache, [], true, marker !== undefined)
      return undefined
    }
    const header = stored.doc
    if (StateCodec.versionOf(header) === 1) {
      // A version-1 document was a single value; it migrates on load and is rewritten on the next save.
      SegmentedStateStorage.know(cache, [], true, marker !== undefined)
      return new LoadedState(StateCodec.decode(JSON.stringify(header)), marker === undefined, marker ?? '')
    }
    const state = StateCodec.decodeHeader(header)
    if (state.sessionId !== sessionId) {
      throw f.fail('$header.sessionId', `belongs to another session '${state.sessionId}'`)
    }
    const refs = this.readSegmentRefs(header)
    // Segment reads are independent: issue them a window at a time (a restore of a long history is
    // dominated by I/O latency otherwise) and decode in order.
    const texts: string[] = []
    for (let start = 0; start < refs.length; start += READ_WINDOW) {
      const reads: Promise<string>[] = []
      for (let i = start; i < Math.min(start + READ_WINDOW, refs.length); i++) {
        reads.push(this.readSegment(sessionId, refs[i]))
      }
      const done = await Promise.all<string>(reads)
      for (let i = 0; i < done.length; i++) {
        texts.push(done[i])
      }
    }
    const history: AgentMessage[] = []
    for (let i = 0; i < refs.length; i++) {
      // Decoding a long history is the longest work of a restore: give the (UI) thread back between segments.
      if (HostYield.due()) {
        await HostYield.now()
      }
      const ref = refs[i]
      const text = texts[i]
      if (fnv1a(text) !== ref.hash) {
        throw f.fail(`segment ${ref.key}`, 'content does not match its checksum')
      }
      let raw: Object | null
      try {
        raw = JSON.parse(text) as Object | null
      } catch (e) {
        throw f.fail(`segment ${ref.key}`, 'not valid JSON')
      }
      if (!(raw instanceof Array) || (raw as Object[]).length !== ref.count) {
        throw f.fail(`segment ${ref.key}`, `expected ${ref.count} messages`)
      }
      const messages = StateCodec.decodeMessages(raw as Object[], `segment ${ref.key}`)
      ref.messages = messages
      for (let m = 0; m < messages.length; m++) {
        history.push(messages[m])
      }
    }
    state.history = history
    StateCodec.checkHistoryRefs(state)
    SegmentedStateStorage.know(cache, refs, true, marker !== undefined)
    return new LoadedState(state, marker === undefined, marker ?? '')
  }

  /** The header's document after its checksum was verified; headers of earlier builds carry none. */
  private readHeaderDoc(text: string, sessionId: string): HeaderDoc {
    const f = this.fields
    let json = text
    if (text.startsWith(HEADER_PREFIX)) {
      if (!SUMMED.test(text) || fnv1a(text.substring(12)) !== text.substring(3, 11)) {
        throw f.fail('$header', `does not match its checksum (${this.backend.location(sessionId)})`)
      }
      json = text.substring(12)
    } else if (!text.startsWith('{')) {
      throw f.fail('$header', `is not in a known format (${this.backend.location(sessionId)})`)
    }
    const doc = f.parse(json, '$header')
    // Checked for every reader (a save adopting the header too): a header of another session is never built on.
    const owner: Object | undefined = doc['sessionId']
    if (doc['genesis'] !== true && typeof owner === 'string' && owner !== sessionId) {
      throw f.fail('$header.sessionId', `belongs to another session '${owner as string}'`)
    }
    if (doc['genesis'] === true) {
      if (f.str(doc, 'sessionId', '$header') !== sessionId) {
        throw f.fail('$header.sessionId', 'belongs to another session')
      }
      return new HeaderDoc(doc, true)
    }
    return new HeaderDoc(doc, false)
  }

  /** A header of this build: its JSON behind its checksum. */
  private static sealHeader(json: string): string {
    return `${HEADER_PREFIX}${fnv1a(json)}:${json}`
  }

  /** The reason of a stored not-resumable mark; never empty. A damaged mark still means not resumable. */
  private static markerReason(text: string): string {
    if (text.startsWith(MARKER_PREFIX)) {
      const reason = text.substring(12)
      return SUMMED.test(text) && fnv1a(reason) === text.substring(3, 11) && reason.length > 0 ? reason :
        DAMAGED_MARKER
    }
    return text.length > 0 ? text : DAMAGED_MARKER
  }

  /** Segments without any header: the header was lost. Refuse, so nothing is mistaken for a fresh session. */
  private async checkNoHeaderlessSegments(sessionId: string): Promise<void> {
    let keys: string[]
    try {
      keys = await this.backend.list(sessionId)
    } catch (e) {
      throw ArkAgentError.from(e as Object, ErrorLayer.storage, ErrorCodes.stateLoadFailed,
        `Could not read session '${sessionId}'`)
    }
    let segments = 0
    for (let i = 0; i < keys.length; i++) {
      if (SEGMENT_KEY.test(keys[i])) {
        segments++
      }
    }
    if (segments > 0) {
      throw new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateCorrupt,
        `Session '${sessionId}' has ${segments} stored history segment(s) but no header ` +
        `(${this.backend.location(sessionId)}): the header was lost; nothing was deleted`, ErrorRetryability.never)
    }
  }

  private static know(cache: SessionCache, refs: SegmentRef[], headerCommitted: boolean, markerPresent: boolean): void {
    cache.segments = refs
    cache.known = true
    cache.headerCommitted = headerCommitted
    cache.markerPresent = markerPresent
  }

  private async readSegment(sessionId: string, ref: SegmentRef): Promise<string> {
    let text = ''
    for (let p = 0; p < ref.parts; p++) {
      let part: string | undefined
      try {
        part = await this.backend.read(sessionId, `${ref.key}.${p}`)
      } catch (e) {
        throw ArkAgentError.from(e as Object, ErrorLayer.storage, ErrorCodes.stateLoadFailed,
          `Could not read segment ${ref.key}`)
      }
      if (part === undefined) {
        throw this.fields.fail(`segment ${ref.key}`, `missing (${this.backend.location(sessionId)})`)
      }
      text += part
    }
    return text
  }

  private readSegmentRefs(header: Record<string, Object>): SegmentRef[] {
    const f = this.fields
    const raw = f.arr(header, 'segments', '$header')
    const refs: SegmentRef[] = []
    let total = 0
    for (let i = 0; i < raw.length; i++) {
      const p = `$header.segments[${i}]`
      const ref = typeof raw[i] === 'string' ? SegmentedStateStorage.compactRef(raw[i] as string, i, p, f) :
        SegmentedStateStorage.objectRef(f.asObject(raw[i], p), p, f)
      if (ref.count < 1 || ref.parts < 1) {
        throw f.fail(p, 'empty segment')
      }
      total += ref.count
      refs.push(ref)
    }
    if (total !== f.int(header, 'historyLength', '$header')) {
      throw f.fail('$header.historyLength', 'does not match the segments')
    }
    return refs
  }

  /**
   * The header lists a segment as "count.hash.parts" (its key is derived from its position): the
   * header is rewritten on every save and must fit one value (8192 bytes on older HarmonyOS
   * preferences), so each listed segment costs ~16 bytes instead of ~65.
   */
  private static compactRef(text: string, index: number, path: string, f: JsonFields): SegmentRef {
    const fields = text.split('.')
    if (fields.length !== 3 || !/^[1-9][0-9]{0,8}$/.test(fields[0]) || !/^[0-9a-f]{8}$/.test(fields[1]) ||
      !/^[1-9][0-9]{0,8}$/.test(fields[2])) {
      throw f.fail(path, 'expected "count.hash.parts"')
    }
    const count = Number(fields[0])
    return new SegmentRef(`seg-${index}-${count}-${fields[1]}`, count, fields[1], Number(fields[2]))
  }

  /** The object form written by earlier builds: {key, count, hash, parts}. */
  private static objectRef(o: Record<string, Object>, path: string, f: JsonFields): SegmentRef {
    const key = f.str(o, 'key', path)
    if (!/^seg-[0-9]{1,9}-[1-9][0-9]{0,8}-[0-9a-f]{8}$/.test(key)) {
      throw f.fail(`${path}.key`, 'not a segment key')
    }
    return new SegmentRef(key, f.int(o, 'count', path), f.str(o, 'hash', path), f.int(o, 'parts', path))
  }

  private async doSave(state: AgentState): Promise<SaveReport> {
    const sessionId = state.sessionId
    const cache = this.cache(sessionId)
    const size = this.options.segmentSize
    const history = state.history
    const next: SegmentRef[] = []
    let bytes = 0
    let written = 0
    let reused = 0
    try {
      if (!cache.known) {
        await this.adoptCommitted(sessionId, cache)
      }
      // The header goes in first and the segments last: the header text is checked to load back
      // before any byte is written, so a state that could not be stored writes nothing.
      const header = StateCodec.encodeHeader(state)
      const segmentTexts: string[] = []
      for (let start = 0, i = 0; start < history.length; start += size, i++) {
        const end = Math.min(start + size, history.length)
        const old = i < cache.segments.length ? cache.segments[i] : undefined
        if (old !== undefined && old.holds(history, start, end)) {
          next.push(old)
          segmentTexts.push('')
          continue
        }
        // `state` is a snapshot: the (UI) thread may run other tasks between two segment encodings.
        if (HostYield.due()) {
          await HostYield.now()
        }
        const text = StateCodec.messagesText(history, start, end)
        const hash = fnv1a(text)
        const key = `seg-${i}-${end - start}-${hash}`
        // Same text already stored under this key (loaded messages, or equal new ones): keep its
        // parts as they are; rewriting a key the committed header references could tear it.
        const kept: SegmentRef | undefined = old !== undefined && old.key === key ? old : undefined
        const ref = new SegmentRef(key, end - start, hash, kept !== undefined ? kept.parts : this.parts(text).length)
        ref.messages = history.slice(start, end)
        next.push(ref)
        segmentTexts.push(kept !== undefined ? '' : text)
      }
      const segs: Object[] = []
      for (let i = 0; i < next.length; i++) {
        segs.push(`${next[i].count}.${next[i].hash}.${next[i].parts}`)
      }
      header['segments'] = segs
      header['historyLength'] = history.length
      if (HostYield.due()) {
        await HostYield.now()
      }
      const headerText = SegmentedStateStorage.sealHeader(StateCodec.headerText(header))
      this.checkValueSize(headerText)
      if (!cache.headerCommitted) {
        // Before the first segment of a session: segments without a header then always mean a lost header.
        await this.backend.commitHeader(sessionId, SegmentedStateStorage.sealHeader(
          JSON.stringify(SegmentedStateStorage.genesis(sessionId))))
        cache.headerCommitted = true
      }
      for (let i = 0; i < next.length; i++) {
        const text = segmentTexts[i]
        if (text.length === 0) {
          reused++
          continue
        }
        const parts = this.parts(text)
        for (let p = 0; p < parts.length; p++) {
          await this.backend.write(sessionId, `${next[i].key}.${p}`, parts[p])
          bytes += utf8Length(parts[p])
        }
        written++
      }
      if (written > 0) {
        await this.backend.sync(sessionId)
      }
      await this.backend.commitHeader(sessionId, headerText)
      bytes += utf8Length(headerText)
    } catch (e) {
      const known = ArkAgentError.asArkError(e as Object)
      if (known !== undefined && known.code === ErrorCodes.stateLoadFailed) {
        // A read inside the save (the committed header, adopted first) failed: the save failed.
        throw new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateSaveFailed, known.message, known.retryability,
          known as Error)
      }
      throw ArkAgentError.from(e as Object, ErrorLayer.storage, ErrorCodes.stateSaveFailed,
        `Could not save session '${sessionId}'`)
    }
    const previous = cache.segments
    cache.segments = next
    await this.cleanUp(sessionId, cache, previous, next)
    return new SaveReport(bytes, written, reused)
  }

  private static genesis(sessionId: string): Record<string, Object> {
    const doc: Record<string, Object> = { 'schemaVersion': AgentState.schemaVersion, 'sessionId': sessionId,
      'genesis': true }
    return doc
  }

  /**
   * Best effort after the commit: a failure here leaves garbage, never an inconsistent state. Only
   * segment keys are ever removed: those the previous header referenced and this one does not,
   * and, once per process, segments of saves that crashed before their commit.
   */
  private async cleanUp(sessionId: string, cache: SessionCache, previous: SegmentRef[], next: SegmentRef[]): Promise<void> {
    try {
      const live = new Set<string>()
      for (let i = 0; i < next.length; i++) {
        const keys = next[i].partKeys()
        for (let k = 0; k < keys.length; k++) {
          live.add(keys[k])
        }
      }
      const stale: string[] = []
      if (!cache.collected) {
        cache.collected = true
        const all = await this.backend.list(sessionId)
        for (let i = 0; i < all.length; i++) {
          if (SEGMENT_KEY.test(all[i]) && !live.has(all[i])) {
            stale.push(all[i])
          }
        }
      } else {
        for (let i = 0; i < previous.length; i++) {
          const keys = previous[i].partKeys()
          for (let k = 0; k < keys.length; k++) {
            if (!live.has(keys[k])) {
              stale.push(keys[k])
            }
          }
        }
      }
      const clearsMarker = cache.markerPresent
      if (clearsMarker) {
        stale.push(NOT_RESUMABLE_KEY)
      }
      if (stale.length > 0) {
        await this.backend.remove(sessionId, stale)
      }
      if (clearsMarker) {
        cache.markerPresent = false
      }
    } catch (e) {
      cache.collected = false
    }
  }

  /**
   * Before the first save of a session this process has not loaded: learns which segments the
   * committed header references, so the save reuses them instead of rewriting them in place (a
   * crash in the middle of such a rewrite would corrupt the committed snapshot), and whether a
   * not-resumable mark exists (a successful save clears it). A header it cannot read, or segments
   * without a header, refuse the save with state_corrupt: replacing what cannot be read would lose it.
   */
  private async adoptCommitted(sessionId: string, cache: SessionCache): Promise<void> {
    const headerText = await this.backend.readHeader(sessionId)
    const marker = await this.backend.read(sessionId, NOT_RESUMABLE_KEY)
    if (headerText === undefined) {
      await this.checkNoHeaderlessSegments(sessionId)
      SegmentedStateStorage.know(cache, [], false, marker !== undefined)
      return
    }
    const stored = this.readHeaderDoc(headerText, sessionId)
    let refs: SegmentRef[] = []
    if (!stored.genesis && StateCodec.versionOf(stored.doc) === 2) {
      refs = this.readSegmentRefs(stored.doc)
    }
    SegmentedStateStorage.know(cache, refs, true, marker !== undefined)
  }

  /** `text` cut into values the backend accepts: halving the UTF-8 budget until each stored part fits. */
  private parts(text: string): string[] {
    const max = this.options.maxValueBytes
    let parts = splitByUtf8Bytes(text, max)
    const measure = this.options.storedBytes
    for (let budget = max; measure !== undefined && budget > 1 && SegmentedStateStorage.anyOver(parts, measure, max);) {
      budget = Math.floor(budget / 2)
      parts = splitByUtf8Bytes(text, budget)
    }
    return parts
  }

  private static anyOver(parts: string[], measure: (text: string) => number, max: number): boolean {
    for (let i = 0; i < parts.length; i++) {
      if (measure(parts[i]) > max) {
        return true
      }
    }
    return false
  }

  private storedLength(text: string): number {
    const measure = this.options.storedBytes
    return measure !== undefined ? measure(text) : utf8Length(text)
  }

  private checkValueSize(text: string): void {
    if (this.options.maxValueBytes > 0 && this.storedLength(text) > this.options.maxValueBytes) {
      throw new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateSaveFailed,
        `The state header is larger than the backend's value limit of ${this.options.maxValueBytes} bytes`,
        ErrorRetryability.never)
    }
  }

  private cache(sessionId: string): SessionCache {
    let c = this.sessions.get(sessionId)
    if (c === undefined) {
      c = new SessionCache(++this.epochs)
      this.sessions.set(sessionId, c)
    }
    return c
  }

  /** Operations on one session run one after another, in call order. */
  private serial<T>(sessionId: string, op: () => Promise<T>): Promise<T> {
    return this.cache(sessionId).queue.run<T>(op)
  }
}
