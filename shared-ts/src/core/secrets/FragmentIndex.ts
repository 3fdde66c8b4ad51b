import { HostYield } from '../host/HostYield'

/**
 * Finds where text holds a piece of a secret: any run of `width` consecutive characters of one of
 * the forms it indexes (a rolling hash over every window of the text, each hit checked exactly),
 * and whole occurrences of forms shorter than `width`. Linear in the text's length.
 */
export class FragmentIndex {
  readonly width: number
  /** Window hash → the windows with that hash. */
  private readonly windows: Map<number, string[]> = new Map<number, string[]>()
  /**
   * One byte per value of a window hash's low 16 bits: non-zero when some indexed window has it. The
   * scan looks a hash up in `windows` only when its byte is set, so a text that holds no secret costs
   * a rolling hash and one array read per character (a Map lookup per character cost ~8× more).
   */
  private readonly seen: Uint8Array = new Uint8Array(FragmentIndex.SEEN_SIZE)
  /** Forms shorter than `width`: matched whole. */
  private readonly shortForms: string[] = []
  /** B^(width-1), to take a character out of the rolling hash. */
  private readonly topPower: number

  constructor(width: number) {
    this.width = width
    let p = 1
    for (let i = 1; i < width; i++) {
      p = Math.imul(p, FragmentIndex.BASE)
    }
    this.topPower = p
  }

  private static readonly BASE: number = 0x01000193
  private static readonly SEEN_SIZE: number = 65536

  get isEmpty(): boolean {
    return this.windows.size === 0 && this.shortForms.length === 0
  }

  /** Indexes every window of `form` (or the whole form, when shorter than the width). */
  add(form: string): void {
    if (form.length === 0) {
      return
    }
    if (form.length < this.width) {
      if (this.shortForms.indexOf(form) < 0) {
        this.shortForms.push(form)
      }
      return
    }
    for (let i = 0; i + this.width <= form.length; i++) {
      const w = form.substring(i, i + this.width)
      const h = this.hashOf(w)
      const list = this.windows.get(h)
      this.seen[h & (FragmentIndex.SEEN_SIZE - 1)] = 1
      if (list === undefined) {
        this.windows.set(h, [w])
      } else if (list.indexOf(w) < 0) {
        list.push(w)
      }
    }
  }

  private hashOf(s: string): number {
    let h = 0
    for (let i = 0; i < s.length; i++) {
      h = (Math.imul(h, FragmentIndex.BASE) + s.charCodeAt(i)) | 0
    }
    return h
  }

  /**
   * The stretches of `text` that belong to a secret, as sorted, merged [start, end) pairs flattened
   * into one array; only windows that lie wholly inside `[0, limit)` are looked at (default: all).
   */
  ranges(text: string, limit: number = -1): number[] {
    const end = limit < 0 || limit > text.length ? text.length : limit
    const marks: number[] = []
    this.windowsIn(text, 0, end, end, marks)
    const cursors = this.shortCursors()
    this.shortFormsIn(text, 0, end, end, marks, cursors)
    return FragmentIndex.merge(marks)
  }

  /**
   * What `ranges(text)` returns, found in slices of `slice` start positions with the thread given back
   * between them (HostYield). Every window and every short form is judged against the whole text, so a
   * secret across a slice boundary is found exactly as by one scan: slices split where a match may
   * start, never the text a match is read from.
   */
  async rangesAsync(text: string, slice: number = FragmentIndex.SLICE): Promise<number[]> {
    const end = text.length
    const marks: number[] = []
    const cursors = this.shortCursors()
    const step = slice > 0 ? slice : FragmentIndex.SLICE
    for (let from = 0; from < end; from += step) {
      if (HostYield.due()) {
        await HostYield.now()
      }
      const to = Math.min(end, from + step)
      this.windowsIn(text, from, to, end, marks)
      this.shortFormsIn(text, from, to, end, marks, cursors)
    }
    return FragmentIndex.merge(marks)
  }

  /** Start positions a slice of `rangesAsync` covers (about 1 ms of scanning on a phone). */
  static readonly SLICE: number = 8192

  /** Marks every indexed window of `text` that starts in `[from, to)` and ends by `end`. */
  private windowsIn(text: string, from: number, to: number, end: number, marks: number[]): void {
    const width = this.width
    if (this.windows.size === 0 || from + width > end || from >= to) {
      return
    }
    let h = 0
    for (let i = from; i < from + width; i++) {
      h = (Math.imul(h, FragmentIndex.BASE) + text.charCodeAt(i)) | 0
    }
    const seen = this.seen
    const mask = FragmentIndex.SEEN_SIZE - 1
    for (let start = from; ; start++) {
      if (seen[h & mask] !== 0) {
        const list = this.windows.get(h)
        if (list !== undefined && list.indexOf(text.substring(start, start + width)) >= 0) {
          marks.push(start, start + width)
        }
      }
      const next = start + width
      if (next >= end || start + 1 >= to) {
        break
      }
      h = (Math.imul((h - Math.imul(text.charCodeAt(start), this.topPower)) | 0, FragmentIndex.BASE) +
        text.charCodeAt(next)) | 0
    }
  }

  /** One search position per short form: -2 before its first search. */
  private shortCursors(): number[] {
    const cursors: number[] = []
    for (let f = 0; f < this.shortForms.length; f++) {
      cursors.push(-2)
    }
    return cursors
  }

  /**
   * Marks the whole occurrences of short forms that start in `[from, to)` and end by `end`; `cursors`
   * keeps each form's next occurrence between calls over ascending slices, so the text is searched once.
   */
  private shortFormsIn(text: string, from: number, to: number, end: number, marks: number[], cursors: number[]): void {
    for (let f = 0; f < this.shortForms.length; f++) {
      const form = this.shortForms[f]
      let at = cursors[f]
      if (at === -2 || (at >= 0 && at < from)) {
        at = text.indexOf(form, from)
      }
      while (at >= 0 && at < to && at + form.length <= end) {
        marks.push(at, at + form.length)
        at = text.indexOf(form, at + 1)
      }
      cursors[f] = at
    }
  }

  /** Sorts and merges [start, end) pairs (overlapping or touching ones become one). */
  static merge(marks: number[]): number[] {
    if (marks.length <= 2) {
      return marks
    }
    const order: number[] = []
    for (let i = 0; i < marks.length; i += 2) {
      order.push(i)
    }
    order.sort((a: number, b: number): number => marks[a] - marks[b])
    const out: number[] = []
    for (let k = 0; k < order.length; k++) {
      const s = marks[order[k]]
      const e = marks[order[k] + 1]
      if (out.length > 0 && s <= out[out.length - 1]) {
        if (e > out[out.length - 1]) {
          out[out.length - 1] = e
        }
      } else {
        out.push(s, e)
      }
    }
    return out
  }
}
