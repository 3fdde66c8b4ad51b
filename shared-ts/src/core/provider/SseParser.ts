/** One dispatched server-sent event. */
export class SseEvent {
  /** The `event:` field, or 'message' when absent. */
  readonly event: string
  /** All `data:` lines of the event joined with "\n". */
  readonly data: string
  /** The last event id seen on the stream (it persists across events, as the spec says). */
  readonly id: string

  constructor(event: string, data: string, id: string) {
    this.event = event
    this.data = data
    this.id = id
  }
}

/** Called with each complete server-sent event, in order. */
export type SseEventHandler = (event: SseEvent) => void

const LF: number = 10
const CR: number = 13
const COLON: number = 58
const SPACE: number = 32

/**
 * Incremental parser for the `text/event-stream` format (WHATWG HTML, "server-sent events"):
 * LF, CR and CRLF line ends (a CRLF split across chunks included), a leading BOM, comments,
 * `data`/`event`/`id`/`retry` fields, events split at any chunk boundary. An event still open when
 * the stream ends is discarded, as the spec requires.
 *
 * Speed: lines are found with indexOf (positions of the next CR and LF are cached so a chunk is
 * scanned once) and fields are matched in place; only field values are sliced out. A line that
 * spans chunks is collected as parts and joined once, so a huge line fed in tiny pieces stays linear.
 */
export class SseParser {
  /** The reconnection time from the last valid `retry:` field, or -1. */
  retryMs: number = -1

  private pending: string[] = []
  private pendingCR: boolean = false
  private started: boolean = false
  private data: string = ''
  private hasData: boolean = false
  private eventType: string = ''
  private lastId: string = ''

  /** Feeds the next piece of decoded text; `onEvent` runs for every event completed by it. */
  feed(chunk: string, onEvent: SseEventHandler): void {
    let text = chunk
    if (!this.started) {
      if (text.length === 0) {
        return
      }
      this.started = true
      if (text.charCodeAt(0) === 0xfeff) {
        text = text.substring(1)
      }
    }
    let pos = 0
    if (this.pendingCR) {
      if (text.length === 0) {
        return
      }
      this.pendingCR = false
      if (text.charCodeAt(0) === LF) {
        pos = 1
      }
    }
    const len = text.length
    let nextLf = text.indexOf('\n', pos)
    let nextCr = text.indexOf('\r', pos)
    if (this.pending.length > 0) {
      const end = SseParser.lineEnd(nextLf, nextCr)
      if (end < 0) {
        this.pending.push(pos === 0 ? text : text.substring(pos))
        return
      }
      this.pending.push(text.substring(pos, end))
      const line = this.pending.join('')
      this.pending = []
      this.processLine(line, 0, line.length, onEvent)
      pos = this.afterTerminator(text, end)
    }
    while (pos < len) {
      if (nextLf !== -1 && nextLf < pos) {
        nextLf = text.indexOf('\n', pos)
      }
      if (nextCr !== -1 && nextCr < pos) {
        nextCr = text.indexOf('\r', pos)
      }
      const end = SseParser.lineEnd(nextLf, nextCr)
      if (end < 0) {
        this.pending.push(text.substring(pos))
        return
      }
      this.processLine(text, pos, end, onEvent)
      pos = this.afterTerminator(text, end)
    }
  }

  /** Convenience for tests and small inputs: feeds `chunk` and returns the completed events. */
  feedAll(chunk: string): SseEvent[] {
    const out: SseEvent[] = []
    this.feed(chunk, (event: SseEvent): void => {
      out.push(event)
    })
    return out
  }

  /** True when the stream stopped inside an unfinished line or event (it would be discarded). */
  hasIncompleteEvent(): boolean {
    return this.pending.length > 0 || this.hasData
  }

  /** Back to the initial state (including the BOM check and the last event id). */
  reset(): void {
    this.pending = []
    this.pendingCR = false
    this.started = false
    this.data = ''
    this.hasData = false
    this.eventType = ''
    this.lastId = ''
    this.retryMs = -1
  }

  private static lineEnd(nextLf: number, nextCr: number): number {
    if (nextLf < 0) {
      return nextCr
    }
    if (nextCr < 0) {
      return nextLf
    }
    return nextLf < nextCr ? nextLf : nextCr
  }

  /** Position after the terminator at `end`; a CR at the very end of a chunk may pair with a later LF. */
  private afterTerminator(text: string, end: number): number {
    if (text.charCodeAt(end) === CR) {
      if (end + 1 === text.length) {
        this.pendingCR = true
        return end + 1
      }
      if (text.charCodeAt(end + 1) === LF) {
        return end + 2
      }
    }
    return end + 1
  }

  private processLine(text: string, start: number, end: number, onEvent: SseEventHandler): void {
    if (start === end) {
      this.dispatch(onEvent)
      return
    }
    const first = text.charCodeAt(start)
    if (first === COLON) {
      return
    }
    // Field names are matched in place: 'd' data, 'e' event, 'i' id, 'r' retry.
    if (first === 100 && this.isField(text, start, end, 'data')) {
      const value = SseParser.value(text, start + 4, end)
      if (this.hasData) {
        this.data = this.data + '\n' + value
      } else {
        this.data = value
        this.hasData = true
      }
    } else if (first === 101 && this.isField(text, start, end, 'event')) {
      this.eventType = SseParser.value(text, start + 5, end)
    } else if (first === 105 && this.isField(text, start, end, 'id')) {
      const id = SseParser.value(text, start + 2, end)
      if (id.indexOf('\u0000') < 0) {
        this.lastId = id
      }
    } else if (first === 114 && this.isField(text, start, end, 'retry')) {
      const value = SseParser.value(text, start + 5, end)
      if (value.length > 0 && /^[0-9]+$/.test(value)) {
        this.retryMs = parseInt(value, 10)
      }
    }
  }

  /** True when the line's field name is exactly `name` (followed by ':' or the end of the line). */
  private isField(text: string, start: number, end: number, name: string): boolean {
    const after = start + name.length
    if (after > end || !text.startsWith(name, start)) {
      return false
    }
    return after === end || text.charCodeAt(after) === COLON
  }

  /** The value after `field:` (one leading space dropped); '' for a bare field name. */
  private static value(text: string, colonPos: number, end: number): string {
    if (colonPos >= end) {
      return ''
    }
    let from = colonPos + 1
    if (from < end && text.charCodeAt(from) === SPACE) {
      from++
    }
    return text.substring(from, end)
  }

  private dispatch(onEvent: SseEventHandler): void {
    if (!this.hasData) {
      this.eventType = ''
      return
    }
    const event = new SseEvent(this.eventType.length > 0 ? this.eventType : 'message', this.data, this.lastId)
    this.data = ''
    this.hasData = false
    this.eventType = ''
    onEvent(event)
  }
}
