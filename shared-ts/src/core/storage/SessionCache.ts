// What this process knows is on disk for one session, and the housekeeping that keeps it true:
// segments without a header refused, unreferenced segments removed after a commit.
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { SerialQueue } from '../util/SerialQueue'
import { SegmentBackend } from './SegmentBackend'
import { NOT_RESUMABLE_KEY, SEGMENT_KEY, SegmentRef } from './SegmentFormat'

/** What this process knows is on disk for one session. */
export class SessionCache {
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

export function knowCommitted(cache: SessionCache, refs: SegmentRef[], headerCommitted: boolean, markerPresent: boolean): void {
  cache.segments = refs
  cache.known = true
  cache.headerCommitted = headerCommitted
  cache.markerPresent = markerPresent
}

/** Segments without any header: the header was lost. Refuse, so nothing is mistaken for a fresh session. */
export async function checkNoHeaderlessSegments(backend: SegmentBackend, sessionId: string): Promise<void> {
  let keys: string[]
  try {
    keys = await backend.list(sessionId)
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
      `(${backend.location(sessionId)}): the header was lost; nothing was deleted`, ErrorRetryability.never)
  }
}

/**
 * Best effort after the commit: a failure here leaves garbage, never an inconsistent state. Only
 * segment keys are ever removed: those the previous header referenced and this one does not,
 * and, once per process, segments of saves that crashed before their commit.
 */
export async function cleanUp(backend: SegmentBackend, sessionId: string, cache: SessionCache, previous: SegmentRef[],
  next: SegmentRef[]): Promise<void> {
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
      const all = await backend.list(sessionId)
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
      await backend.remove(sessionId, stale)
    }
    if (clearsMarker) {
      cache.markerPresent = false
    }
  } catch (e) {
    cache.collected = false
  }
}
