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
    if (this.windows.size > 0 && end >= this.width) {
      let h = 0
      for (let i = 0; i < this.width; i++) {
        h = (Math.imul(h, FragmentIndex.BASE) + text.charCodeAt(i)) | 0
      }
      const seen = this.seen
      const mask = FragmentIndex.SEEN_SIZE - 1
      for (let start = 0; ; start++) {
        if (seen[h & mask] !== 0) {
          const list = this.windows.get(h)
          if (list !== undefined && list.indexOf(text.substring(start, start + this.width)) >= 0) {
            marks.push(start, start + this.width)
          }
        }
        const next = start + this.width
        if (next >= end) {
          break
        }
        h = (Math.imul((h - Math.imul(text.charCodeAt(start), this.topPower)) | 0, FragmentIndex.BASE) +
          text.charCodeAt(next)) | 0
      }
    }
    for (let f = 0; f < this.shortForms.length; f++) {
      const form = this.shortForms[f]
      let at = text.indexOf(form)
      while (at >= 0 && at + form.length <= end) {
        marks.push(at, at + form.length)
        at = text.indexOf(form, at + 1)
      }
    }
    return FragmentIndex.merge(marks)
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
