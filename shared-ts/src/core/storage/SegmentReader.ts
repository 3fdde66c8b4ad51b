// A stored history read back: its segments fetched a window at a time, each checked against the
// header's checksum and decoded in order, the (UI) thread given back between segments.
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../errors/ArkAgentError'
import { AgentMessage } from '../model/AgentMessage'
import { JsonFields } from '../state/JsonFields'
import { StateCodec } from '../state/StateCodec'
import { HostYield } from '../host/HostYield'
import { fnv1a } from '../util/Text'
import { SegmentBackend } from './SegmentBackend'
import { SegmentRef } from './SegmentFormat'

/** Segment reads in flight at once during a load. */
const READ_WINDOW: number = 16

async function readSegment(backend: SegmentBackend, sessionId: string, ref: SegmentRef, f: JsonFields): Promise<string> {
  let text = ''
  for (let p = 0; p < ref.parts; p++) {
    let part: string | undefined
    try {
      part = await backend.read(sessionId, `${ref.key}.${p}`)
    } catch (e) {
      throw ArkAgentError.from(e as Object, ErrorLayer.storage, ErrorCodes.stateLoadFailed,
        `Could not read segment ${ref.key}`)
    }
    if (part === undefined) {
      throw f.fail(`segment ${ref.key}`, `missing (${backend.location(sessionId)})`)
    }
    text += part
  }
  return text
}

/**
 * The messages of `refs`, in order; each segment's messages are remembered on its ref (a save reuses
 * a segment only while they are the same objects). A missing part, a checksum mismatch or a segment
 * that is not its count of messages is state_corrupt; a failed read is state_load_failed.
 */
export async function readHistory(backend: SegmentBackend, sessionId: string, refs: SegmentRef[],
  f: JsonFields): Promise<AgentMessage[]> {
  // Segment reads are independent: issue them a window at a time (a restore of a long history is
  // dominated by I/O latency otherwise) and decode in order.
  const texts: string[] = []
  for (let start = 0; start < refs.length; start += READ_WINDOW) {
    const reads: Promise<string>[] = []
    for (let i = start; i < Math.min(start + READ_WINDOW, refs.length); i++) {
      reads.push(readSegment(backend, sessionId, refs[i], f))
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
  return history
}
