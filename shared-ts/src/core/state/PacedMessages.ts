// The stored text of messages, built and checked to decode in steps that each hold the thread briefly:
// a message at a time, and a long text (a 1 MiB tool result) written and read back slice by slice, so
// no single JSON.parse of a megabyte holds the (UI) thread.
import { AgentMessage } from '../model/AgentMessage'
import { JsonFields } from './JsonFields'
import { MessageCodec } from './MessageCodec'

/** Texts of at least this many code units are written and read back in slices of this many. */
export const LONG_TEXT: number = 32768

/** The part fields that may hold a long text (`MessageCodec.encodeMessage`). */
const LONG_FIELDS: string[] = ['text', 'data']

export class PacedMessages {
  /**
   * The JSON text of messages [from, to), equal to `JSON.stringify(MessageCodec.encodeMessages(...))`,
   * every message's text decoded again (`MessageCodec.decodeMessage`) at the path the whole text
   * would give it. `pause` runs between steps, told how many code units the next step parses.
   */
  static async text(messages: AgentMessage[], from: number, to: number, f: JsonFields,
    pause: (units: number) => Promise<void>): Promise<string> {
    // Joined once at the end, not concatenated piece by piece: `+=` links the pieces into a tree the
    // engine copies on first read, walking it (tens of ms for a megabyte of small pieces, in one step);
    // join copies each piece once, in order.
    const pieces: string[] = ['[']
    for (let i = from; i < to; i++) {
      await pause(0)
      if (i > from) {
        pieces.push(',')
      }
      pieces.push(await PacedMessages.message(messages[i], `$[${i - from}]`, f, pause))
    }
    pieces.push(']')
    await pause(PacedMessages.total(pieces))
    return pieces.join('')
  }

  /** Code units in `pieces`. */
  private static total(pieces: string[]): number {
    let n = 0
    for (let i = 0; i < pieces.length; i++) {
      n += pieces[i].length
    }
    return n
  }

  /** Code units of the texts in messages [from, to) (parts, tool call arguments): roughly what encoding them costs. */
  static size(messages: AgentMessage[], from: number, to: number): number {
    let n = 0
    for (let i = from; i < to; i++) {
      const m = messages[i]
      for (let p = 0; p < m.partCount(); p++) {
        n += m.partAt(p).text.length + m.partAt(p).data.length
      }
      for (let c = 0; c < m.callCount(); c++) {
        n += m.callAt(c).argumentsJson.length
      }
    }
    return n
  }

  /** One message's text, checked to decode. */
  private static async message(m: AgentMessage, path: string, f: JsonFields,
    pause: (units: number) => Promise<void>): Promise<string> {
    const record = MessageCodec.encodeMessage(m)
    // Long texts leave the record for a placeholder; the record is encoded and checked without them.
    const longs: string[] = []
    const paths: string[] = []
    const content = record['content'] as Record<string, Object>[]
    for (let j = 0; j < content.length; j++) {
      for (let k = 0; k < LONG_FIELDS.length; k++) {
        const v = content[j][LONG_FIELDS[k]]
        if (typeof v === 'string' && (v as string).length >= LONG_TEXT) {
          content[j][LONG_FIELDS[k]] = PacedMessages.placeholder(longs.length)
          longs.push(v as string)
          paths.push(`${path}.content[${j}].${LONG_FIELDS[k]}`)
        }
      }
    }
    let check = JSON.stringify(record)
    let piece = check
    let placed = false
    if (longs.length > 0) {
      const literals: string[] = []
      for (let n = 0; n < longs.length; n++) {
        literals.push(await PacedMessages.literal(longs[n], paths[n], f, pause))
      }
      const whole = PacedMessages.substituted(check, literals)
      placed = whole !== undefined
      // Else a text of the message equals a placeholder: the message is encoded and checked whole.
      piece = whole !== undefined ? whole : JSON.stringify(MessageCodec.encodeMessage(m))
      check = whole !== undefined ? check : piece
    }
    await pause(check.length)
    const parsed = f.asObject(JSON.parse(check) as Object, path)
    if (placed) {
      // Each placeholder occurs once in the text, where its long text's literal (checked above) went.
      PacedMessages.restore(f.arr(parsed, 'content', path) as Record<string, Object>[], longs)
    }
    MessageCodec.decodeMessage(parsed, path)
    return piece
  }

  /**
   * The JSON literal of `s`, equal to `JSON.stringify(s)`: built slice by slice (never between the
   * halves of a surrogate pair; JSON.stringify writes a string code point by code point), each
   * slice's literal parsed back and compared with the slice.
   */
  static async literal(s: string, path: string, f: JsonFields, pause: (units: number) => Promise<void>,
    slice: number = LONG_TEXT): Promise<string> {
    const step = Math.max(1, Math.floor(slice))
    const out: string[] = ['"']
    for (let from = 0; from < s.length;) {
      let to = Math.min(s.length, from + step)
      const c = s.charCodeAt(to - 1)
      if (to < s.length && c >= 0xd800 && c <= 0xdbff && s.charCodeAt(to) >= 0xdc00 && s.charCodeAt(to) <= 0xdfff) {
        to++
      }
      const part = s.substring(from, to)
      await pause(0)
      const lit = JSON.stringify(part)
      if (JSON.parse(lit) !== part) {
        throw f.fail(path, `a text of ${s.length} characters does not read back (at ${from})`)
      }
      out.push(lit.substring(1, lit.length - 1))
      from = to
    }
    out.push('"')
    await pause(s.length)
    return out.join('')
  }

  /** Text that stands for long text `n` (NUL on both sides: no part of a JSON text a model writes). */
  private static placeholder(n: number): string {
    return `\u0000arkagent-long-text-${n}\u0000`
  }

  /**
   * `piece` with each placeholder's literal replaced by `literals`; undefined unless each occurs in
   * `piece` exactly once (found in `piece` alone, never inside a literal put in).
   */
  private static substituted(piece: string, literals: string[]): string | undefined {
    const at: number[] = []
    for (let n = 0; n < literals.length; n++) {
      const tag = JSON.stringify(PacedMessages.placeholder(n))
      const first = piece.indexOf(tag)
      if (first < 0 || piece.indexOf(tag, first + 1) >= 0) {
        return undefined
      }
      at.push(first)
    }
    const order = at.map((v: number, n: number): number => n).sort((x: number, y: number): number => at[x] - at[y])
    const out: string[] = []
    let done = 0
    for (let i = 0; i < order.length; i++) {
      const n = order[i]
      out.push(piece.substring(done, at[n]))
      out.push(literals[n])
      done = at[n] + JSON.stringify(PacedMessages.placeholder(n)).length
    }
    out.push(piece.substring(done))
    return out.join('')
  }

  /** Puts the long texts back where their placeholders are, in the parts of a record. */
  private static restore(content: Record<string, Object>[], longs: string[]): void {
    for (let j = 0; j < content.length; j++) {
      if (typeof content[j] !== 'object' || content[j] === null) {
        continue
      }
      for (let k = 0; k < LONG_FIELDS.length; k++) {
        const v = content[j][LONG_FIELDS[k]]
        for (let n = 0; typeof v === 'string' && n < longs.length; n++) {
          if (v === PacedMessages.placeholder(n)) {
            content[j][LONG_FIELDS[k]] = longs[n]
          }
        }
      }
    }
  }
}
