// The stored format of the segmented storage: the header (its checksum, its list of segments), the
// not-resumable mark, segment keys and what a segment reference holds.
import { AgentMessage } from '../model/AgentMessage'
import { AgentState } from '../state/AgentState'
import { JsonFields } from '../state/JsonFields'
import { fnv1a } from '../util/Text'

export const NOT_RESUMABLE_KEY: string = 'not-resumable'
/** Stored header: "h1:" + fnv1a(json) + ":" + json. Headers of earlier builds are the bare json. */
export const HEADER_PREFIX: string = 'h1:'

/** `text` with NUL and unpaired surrogates replaced by U+FFFD. */
export function wellFormed(text: string): string {
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
export const MARKER_PREFIX: string = 'm1:'
const SUMMED: RegExp = /^[hm]1:[0-9a-f]{8}:/
/** The only keys this storage ever writes for history; nothing else in a session is ever deleted by a save. */
export const SEGMENT_KEY: RegExp = /^seg-[0-9]{1,9}-[1-9][0-9]{0,8}-[0-9a-f]{8}\.[0-9]{1,9}$/
const DAMAGED_MARKER: string = 'not resumable (the stored reason is damaged)'


/** A saved segment as the header lists it, plus the messages it held (to detect reuse). */
export class SegmentRef {
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


/** A stored header, its checksum verified: the JSON document, or a genesis mark. */
export class HeaderDoc {
  readonly doc: Record<string, Object>
  readonly genesis: boolean

  constructor(doc: Record<string, Object>, genesis: boolean) {
    this.doc = doc
    this.genesis = genesis
  }
}

/** The header's document after its checksum was verified; headers of earlier builds carry none. */
export function readHeaderDoc(text: string, sessionId: string, location: string, f: JsonFields): HeaderDoc {
  let json = text
  if (text.startsWith(HEADER_PREFIX)) {
    if (!SUMMED.test(text) || fnv1a(text.substring(12)) !== text.substring(3, 11)) {
      throw f.fail('$header', `does not match its checksum (${location})`)
    }
    json = text.substring(12)
  } else if (!text.startsWith('{')) {
    throw f.fail('$header', `is not in a known format (${location})`)
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
export function sealHeader(json: string): string {
  return `${HEADER_PREFIX}${fnv1a(json)}:${json}`
}

/** The reason of a stored not-resumable mark; never empty. A damaged mark still means not resumable. */
export function markerReason(text: string): string {
  if (text.startsWith(MARKER_PREFIX)) {
    const reason = text.substring(12)
    return SUMMED.test(text) && fnv1a(reason) === text.substring(3, 11) && reason.length > 0 ? reason :
      DAMAGED_MARKER
  }
  return text.length > 0 ? text : DAMAGED_MARKER
}

export function readSegmentRefs(header: Record<string, Object>, f: JsonFields): SegmentRef[] {
  const raw = f.arr(header, 'segments', '$header')
  const refs: SegmentRef[] = []
  let total = 0
  for (let i = 0; i < raw.length; i++) {
    const p = `$header.segments[${i}]`
    const ref = typeof raw[i] === 'string' ? compactRef(raw[i] as string, i, p, f) :
      objectRef(f.asObject(raw[i], p), p, f)
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
function compactRef(text: string, index: number, path: string, f: JsonFields): SegmentRef {
  const fields = text.split('.')
  if (fields.length !== 3 || !/^[1-9][0-9]{0,8}$/.test(fields[0]) || !/^[0-9a-f]{8}$/.test(fields[1]) ||
    !/^[1-9][0-9]{0,8}$/.test(fields[2])) {
    throw f.fail(path, 'expected "count.hash.parts"')
  }
  const count = Number(fields[0])
  return new SegmentRef(`seg-${index}-${count}-${fields[1]}`, count, fields[1], Number(fields[2]))
}

/** The object form written by earlier builds: {key, count, hash, parts}. */
function objectRef(o: Record<string, Object>, path: string, f: JsonFields): SegmentRef {
  const key = f.str(o, 'key', path)
  if (!/^seg-[0-9]{1,9}-[1-9][0-9]{0,8}-[0-9a-f]{8}$/.test(key)) {
    throw f.fail(`${path}.key`, 'not a segment key')
  }
  return new SegmentRef(key, f.int(o, 'count', path), f.str(o, 'hash', path), f.int(o, 'parts', path))
}

export function genesisHeader(sessionId: string): Record<string, Object> {
  const doc: Record<string, Object> = { 'schemaVersion': AgentState.schemaVersion, 'sessionId': sessionId,
    'genesis': true }
  return doc
}
