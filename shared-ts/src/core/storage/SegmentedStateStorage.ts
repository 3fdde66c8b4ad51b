import { SessionGenerations } from './SessionGenerations'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { AgentState } from '../state/AgentState'
import { JsonFields } from '../state/JsonFields'
import { StateCodec } from '../state/StateCodec'
import { HostYield } from '../host/HostYield'
import { fnv1a, utf8Length } from '../util/Text'
import { fnv1aAsync, utf8LengthAsync, yieldIfDue } from './SlicedText'
import { SegmentBackend } from './SegmentBackend'
import { LoadedState, SaveReport, StateStorage } from './StateStorage'
import { ConfigCheck } from '../util/ConfigCheck'
import { genesisHeader, MARKER_PREFIX, markerReason, NOT_RESUMABLE_KEY, readHeaderDoc, readSegmentRefs, sealHeader, SegmentRef,
  wellFormed } from './SegmentFormat'
import { checkValueSize, partsOf } from './SegmentParts'
import { readHistory } from './SegmentReader'
import { SegmentedStorageOptions, StorageOperation } from './SegmentedStorageOptions'
import { checkNoHeaderlessSegments, cleanUp, knowCommitted, SessionCache } from './SessionCache'
export { SegmentedStorageOptions, StorageOperation } from './SegmentedStorageOptions'

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
    const marker = markerText !== undefined ? markerReason(markerText) : undefined
    if (headerText === undefined) {
      await checkNoHeaderlessSegments(this.backend, sessionId)
      knowCommitted(cache, [], false, marker !== undefined)
      return undefined
    }
    const f = this.fields
    const stored = readHeaderDoc(headerText, sessionId, this.backend.location(sessionId), this.fields)
    if (stored.genesis) {
      // A first save began but never committed: nothing to restore, and its segments are garbage.
      knowCommitted(cache, [], true, marker !== undefined)
      return undefined
    }
    const header = stored.doc
    if (StateCodec.versionOf(header) === 1) {
      // A version-1 document was a single value; it migrates on load and is rewritten on the next save.
      knowCommitted(cache, [], true, marker !== undefined)
      return new LoadedState(StateCodec.decode(JSON.stringify(header)), marker === undefined, marker ?? '')
    }
    const state = StateCodec.decodeHeader(header)
    if (state.sessionId !== sessionId) {
      throw f.fail('$header.sessionId', `belongs to another session '${state.sessionId}'`)
    }
    const refs = readSegmentRefs(header, this.fields)
    const history = await readHistory(this.backend, sessionId, refs, f)
    state.history = history
    StateCodec.checkHistoryRefs(state)
    knowCommitted(cache, refs, true, marker !== undefined)
    return new LoadedState(state, marker === undefined, marker ?? '')
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
      // The parts of each segment to write, cut once (none: the segment is reused).
      const segmentParts: string[][] = []
      for (let start = 0, i = 0; start < history.length; start += size, i++) {
        const end = Math.min(start + size, history.length)
        const old = i < cache.segments.length ? cache.segments[i] : undefined
        if (old !== undefined && old.holds(history, start, end)) {
          next.push(old)
          segmentParts.push([])
          continue
        }
        // `state` is a snapshot: the (UI) thread may run other tasks between two messages encoded,
        // checked or hashed (a segment can hold a 1 MiB tool result).
        const text = await StateCodec.messagesTextPaced(history, start, end, yieldIfDue)
        const hash = await fnv1aAsync(text)
        const key = `seg-${i}-${end - start}-${hash}`
        // Same text already stored under this key (loaded messages, or equal new ones): keep its
        // parts as they are; rewriting a key the committed header references could tear it.
        const kept: SegmentRef | undefined = old !== undefined && old.key === key ? old : undefined
        // Measuring and cutting it runs over the whole text: a slice of its own.
        await yieldIfDue(kept !== undefined ? 0 : text.length)
        const parts = kept !== undefined ? [] : partsOf(text, this.options)
        const ref = new SegmentRef(key, end - start, hash, kept !== undefined ? kept.parts : parts.length)
        ref.messages = history.slice(start, end)
        next.push(ref)
        segmentParts.push(parts)
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
      const headerText = sealHeader(StateCodec.headerText(header))
      checkValueSize(headerText, this.options)
      if (!cache.headerCommitted) {
        // Before the first segment of a session: segments without a header then always mean a lost header.
        await this.backend.commitHeader(sessionId, sealHeader(
          JSON.stringify(genesisHeader(sessionId))))
        cache.headerCommitted = true
      }
      for (let i = 0; i < next.length; i++) {
        const parts = segmentParts[i]
        if (parts.length === 0) {
          reused++
          continue
        }
        for (let p = 0; p < parts.length; p++) {
          await this.backend.write(sessionId, `${next[i].key}.${p}`, parts[p])
          bytes += await utf8LengthAsync(parts[p])
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
    await cleanUp(this.backend, sessionId, cache, previous, next)
    return new SaveReport(bytes, written, reused)
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
      await checkNoHeaderlessSegments(this.backend, sessionId)
      knowCommitted(cache, [], false, marker !== undefined)
      return
    }
    const stored = readHeaderDoc(headerText, sessionId, this.backend.location(sessionId), this.fields)
    let refs: SegmentRef[] = []
    if (!stored.genesis && StateCodec.versionOf(stored.doc) >= 2) {
      refs = readSegmentRefs(stored.doc, this.fields)
    }
    knowCommitted(cache, refs, true, marker !== undefined)
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
