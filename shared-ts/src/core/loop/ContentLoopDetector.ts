import { hash53 } from './StringHash'

/** A piece of streamed text that now occurs `count` times where it counts as chanting. */
export class ContentRepeat {
  readonly text: string
  readonly count: number

  constructor(text: string, count: number) {
    this.text = text
    this.count = count
  }
}

/** The tuning of one ContentLoopDetector (LoopDetectorOptions holds the user-facing defaults). */
export class ContentRules {
  /** The same sentence this often back to back is chanting. */
  threshold: number = 6
  /** Longest block of sentences checked for repeating as a whole (a paragraph said again and again). */
  maxBlock: number = 16
  /** A block of 2..maxBlock sentences repeated this often back to back is chanting. */
  blockRepeats: number = 4
  /** A sentence without an end is cut here; the unpunctuated-repeat check then starts over. */
  maxChars: number = 2000
  /** Width of the rolling pieces that catch repetition without punctuation. */
  pieceChars: number = 32
  /** The same piece this often inside one unbroken sentence is chanting. */
  pieceRepeats: number = 8
}

/** What the start of a line says about it. */
enum LineKind {
  /** Still reading the line's first characters. */
  undecided = 0,
  prose = 1,
  /** Code, a table row, a list item, a heading, a quote or a fence: never a chanting candidate. */
  structure = 2
}

/** Bullet characters that start a list item on their own. */
const BULLETS: string = '•·◦▪▫●○■□–—'
/** Chinese numerals used to number list items (`一、`, `（二）`). */
const HAN_NUMERALS: string = '一二三四五六七八九十百'

/** Buffered line start needed to tell a list item (`12. `) or a fence (```) from prose. */
const HEAD_CHARS: number = 6

/**
 * Detects chanting in streamed text, whatever the chunking.
 *
 * Markdown-aware: lines inside fenced code, indented code, table rows, list items, headings and
 * quotes are never candidates (generated files, logs and status tables repeat by nature).
 * Script-aware: sentences end at `。！？；` and at a line end, and at `.!?` only when followed by
 * white space, so `src/a.ts` or `v1.2` never cut a sentence. Sentences are normalised (lower case,
 * white space collapsed); there is no minimum length, so a short Chinese sentence counts like any
 * other. Only text with letters (`weight` ≥ 2: a CJK character 2, other letters and digits 1) can
 * make a verdict.
 *
 * Three rules, all counted since the last reset (the runtime resets at every tool call, so a
 * sentence the model says once per turn never adds up) and broken by any structure line (a heading
 * or list item between two sentences means the text is organised, not chanted):
 *  - the same sentence (`OK.`, `好的。`, `Let me check.`) `threshold` times back to back;
 *  - a block of 2..maxBlock sentences (alternating short answers, a paragraph) repeated
 *    `blockRepeats` times back to back — a stock sentence between varying ones never is;
 *  - inside one unbroken sentence, the same `pieceChars`-wide piece `pieceRepeats` times with every
 *    position a repeat: a phrase repeated without punctuation recurs at every offset, whatever its
 *    period.
 * Work per sentence is O(maxBlock); memory is one pending sentence (≤ maxChars), its pieces'
 * hashes, and the last maxBlock sentences.
 */
export class ContentLoopDetector {
  private readonly rules: ContentRules
  /** Something was recorded since the last reset. */
  private dirty: boolean = false
  // Current line.
  private kind: LineKind = LineKind.undecided
  private head: string = ''
  private inFence: boolean = false
  // Current sentence (normalised).
  private pending: string = ''
  private pendingSpace: boolean = false
  /** A `.`, `!` or `?` waiting for the next character to tell a sentence end from `a.ts`. */
  private held: string = ''
  private pieces: Map<number, number> = new Map<number, number>()
  /** Consecutive positions whose piece was seen before in this sentence. */
  private repeatRun: number = 0
  // The last maxBlock sentences since the last break, newest last, and for each period p the
  // number of consecutive sentences equal to the one p positions before them.
  private hashes: number[] = []
  private texts: string[] = []
  private runs: number[] = []

  constructor(rules: ContentRules) {
    this.rules = rules
    this.breakRuns()
  }

  /** Feeds a chunk; returns the worst repeat it completed, if any. */
  record(chunk: string): ContentRepeat | undefined {
    let worst: ContentRepeat | undefined = undefined
    this.dirty = this.dirty || chunk.length > 0
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk.charAt(i)
      if (ch === '\n') {
        worst = ContentLoopDetector.worse(worst, this.endLine())
      } else if (this.kind === LineKind.undecided) {
        this.head += ch
        worst = ContentLoopDetector.worse(worst, this.classify(false))
      } else if (this.kind === LineKind.prose) {
        worst = ContentLoopDetector.worse(worst, this.prose(ch))
      }
    }
    return worst
  }

  /** The end of a model message: its last line ends too. */
  endSegment(): ContentRepeat | undefined {
    return this.endLine()
  }

  reset(): void {
    if (!this.dirty) {
      // Called at every tool call: nothing seen since the last reset costs nothing.
      return
    }
    this.dirty = false
    this.kind = LineKind.undecided
    this.head = ''
    this.inFence = false
    this.clearSentence()
    this.breakRuns()
  }

  /** Sentences remembered (at most maxBlock). */
  windowSize(): number {
    return this.hashes.length
  }

  distinctSegments(): number {
    return new Set<number>(this.hashes).size
  }

  pendingChars(): number {
    return this.pending.length + this.head.length
  }

  private endLine(): ContentRepeat | undefined {
    let worst: ContentRepeat | undefined = undefined
    if (this.kind === LineKind.undecided) {
      worst = this.classify(true)
    }
    worst = ContentLoopDetector.worse(worst, this.endSentence())
    this.kind = LineKind.undecided
    this.head = ''
    return worst
  }

  /** Decides what the line is once its start is known; a prose line's buffered start is replayed. */
  private classify(lineEnded: boolean): ContentRepeat | undefined {
    const head = this.head
    const startsAt = ContentLoopDetector.firstNonSpace(head)
    // Four columns of indentation (a tab is four) before any text: an indented code block.
    let indent = 0
    const end = startsAt < 0 ? head.length : startsAt
    for (let i = 0; i < end; i++) {
      indent += head.charAt(i) === '\t' ? 4 : 1
    }
    if (startsAt < 0) {
      return indent >= 4 ? this.structureLine() : undefined
    }
    const rest = head.substring(startsAt)
    const first = rest.charAt(0)
    if (!lineEnded && rest.length < 3 && ('```'.startsWith(rest) || '~~~'.startsWith(rest))) {
      // Maybe a fence (also the one that closes a code block): wait for its third character.
      return undefined
    }
    if (rest.startsWith('```') || rest.startsWith('~~~')) {
      this.inFence = !this.inFence
      return this.structureLine()
    }
    if (this.inFence || indent >= 4) {
      return this.structureLine()
    }
    if (!lineEnded && rest.length < HEAD_CHARS && ContentLoopDetector.mayStartMarker(first)) {
      // `-`, `1`, `` ` ``, ... : a few more characters tell a marker from prose.
      return undefined
    }
    if (ContentLoopDetector.isStructure(rest)) {
      return this.structureLine()
    }
    this.kind = LineKind.prose
    this.head = ''
    let worst: ContentRepeat | undefined = undefined
    for (let i = 0; i < head.length; i++) {
      worst = ContentLoopDetector.worse(worst, this.prose(head.charAt(i)))
    }
    return worst
  }

  /** Skips the rest of the line; something between two sentences means they are not back to back. */
  private structureLine(): ContentRepeat | undefined {
    this.kind = LineKind.structure
    this.breakRuns()
    return undefined
  }

  private breakRuns(): void {
    this.hashes = []
    this.texts = []
    this.runs = []
    for (let p = 0; p <= this.rules.maxBlock; p++) {
      this.runs.push(0)
    }
  }

  private prose(ch: string): ContentRepeat | undefined {
    let worst: ContentRepeat | undefined = undefined
    const held = this.held
    if (held.length > 0) {
      this.held = ''
      if (ContentLoopDetector.isSpace(ch)) {
        return this.endSentence()
      }
      worst = this.append(held)
    }
    if (ch === '.' || ch === '!' || ch === '?') {
      this.held = ch
      return worst
    }
    if (ch === '。' || ch === '！' || ch === '？' || ch === '；') {
      return ContentLoopDetector.worse(worst, this.endSentence())
    }
    if (ContentLoopDetector.isSpace(ch)) {
      this.pendingSpace = this.pending.length > 0
      return worst
    }
    return ContentLoopDetector.worse(worst, this.append(ch))
  }

  /** Adds a visible character to the sentence; checks the piece ending here. */
  private append(ch: string): ContentRepeat | undefined {
    this.pending += this.pendingSpace ? ' ' + ch.toLowerCase() : ch.toLowerCase()
    this.pendingSpace = false
    const rules = this.rules
    let found: ContentRepeat | undefined = undefined
    const n = this.pending.length
    if (n >= rules.pieceChars) {
      const piece = this.pending.substring(n - rules.pieceChars)
      const h = hash53(piece)
      const count = (this.pieces.get(h) ?? 0) + 1
      this.pieces.set(h, count)
      // Repetition without punctuation makes every position a repeat, without a break; a sentence
      // that only shares a long stretch between varying words (`…for module a, …for module b`) breaks
      // the run at each varying word.
      this.repeatRun = count >= 2 ? this.repeatRun + 1 : 0
      if (count >= rules.pieceRepeats && this.repeatRun >= 3 * rules.pieceChars && ContentLoopDetector.wordy(piece) &&
        ContentLoopDetector.varied(piece)) {
        found = new ContentRepeat(piece, count)
      }
    }
    if (n >= rules.maxChars) {
      return ContentLoopDetector.worse(found, this.endSentence())
    }
    return found
  }

  private endSentence(): ContentRepeat | undefined {
    const text = this.pending
    this.clearSentence()
    if (text.length === 0) {
      return undefined
    }
    // Every segment takes part in the matching (`**src/a.ts**` between two equal sentences means
    // they are not back to back); only segments with words can make a verdict.
    const wordy = ContentLoopDetector.wordy(text)
    const rules = this.rules
    const h = hash53(text)
    const n = this.hashes.length
    for (let p = 1; p <= rules.maxBlock; p++) {
      this.runs[p] = p <= n && this.hashes[n - p] === h ? this.runs[p] + 1 : 0
    }
    this.hashes.push(h)
    this.texts.push(wordy ? text : '')
    if (this.hashes.length > rules.maxBlock) {
      this.hashes.shift()
      this.texts.shift()
    }
    if (wordy && this.runs[1] + 1 >= rules.threshold) {
      return new ContentRepeat(text, this.runs[1] + 1)
    }
    for (let p = 2; p <= rules.maxBlock; p++) {
      if (this.runs[p] >= p * (rules.blockRepeats - 1) && this.primitive(p)) {
        const block = this.texts.slice(this.texts.length - p).filter((t: string): boolean => t.length > 0)
        if (block.length > 0) {
          return new ContentRepeat(block.join(' | '), Math.floor(this.runs[p] / p) + 1)
        }
      }
    }
    return undefined
  }

  /** The last p sentences are not themselves periodic with a shorter period dividing p. */
  private primitive(p: number): boolean {
    for (let d = 1; d < p; d++) {
      if (p % d === 0 && this.runs[d] >= p - d) {
        return false
      }
    }
    return true
  }

  private clearSentence(): void {
    this.pending = ''
    this.pendingSpace = false
    this.held = ''
    this.pieces.clear()
    this.repeatRun = 0
  }

  /** Letters and digits: a CJK character (Han, kana, Hangul) 2, others 1; punctuation and spaces 0. */
  static weight(text: string): number {
    let w = 0
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if ((c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90)) {
        w += 1
      } else if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) ||
        (c >= 0xf900 && c <= 0xfaff)) {
        w += 2
      } else if (c >= 0xc0 && c < 0x2000) {
        w += 1
      }
    }
    return w
  }

  /** Mostly words: rules, table borders and code braces are not prose. */
  private static wordy(text: string): boolean {
    let wordChars = 0
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if ((c >= 48 && c <= 57) || (c >= 97 && c <= 122) || c >= 0x80 || c === 32) {
        wordChars++
      }
    }
    return wordChars * 4 >= text.length * 3 && ContentLoopDetector.weight(text) >= 2
  }

  /**
   * At least three different letters or digits: `aaaa…`, `0b0000…`, `la la la` are not prose that
   * could chant (they are data, or sounds).
   */
  private static varied(text: string): boolean {
    let a = ''
    let b = ''
    for (let i = 0; i < text.length; i++) {
      const ch = text.charAt(i)
      if (ch === ' ' || ContentLoopDetector.weight(ch) === 0 || ch === a || ch === b) {
        continue
      }
      if (a.length === 0) {
        a = ch
      } else if (b.length === 0) {
        b = ch
      } else {
        return true
      }
    }
    return false
  }

  private static firstNonSpace(text: string): number {
    for (let i = 0; i < text.length; i++) {
      const ch = text.charAt(i)
      if (ch !== ' ' && ch !== '\t' && ch !== '\r') {
        return i
      }
    }
    return -1
  }

  private static mayStartMarker(ch: string): boolean {
    return ch === '`' || ch === '~' || ch === '-' || ch === '*' || ch === '+' || ch === '_' || ch === '|' || ch === '#' ||
      ch === '>' || ch === '(' || ch === '（' || ContentLoopDetector.isDigit(ch) || ContentLoopDetector.isHanNumeral(ch)
  }

  /**
   * A list item, heading, table row, quote or rule (the line's start, leading spaces removed).
   * Lists: `-`, `*`, `+`, `•`-like bullets, `1.`, `1)`, `(1)`, and the Chinese `1、`, `一、`, `（一）`.
   */
  private static isStructure(rest: string): boolean {
    const first = rest.charAt(0)
    if (first === '|' || first === '#' || first === '>' || BULLETS.indexOf(first) >= 0) {
      return true
    }
    if (first === '-' || first === '*' || first === '+' || first === '_') {
      const next = rest.charAt(1)
      if (next === ' ' || next === '\t' || next === '') {
        return first !== '_'
      }
      // A rule (`---`, `***`, `___`) is made of its marker only; `**bold**` is prose.
      for (let i = 0; i < rest.length; i++) {
        const c = rest.charAt(i)
        if (c !== first && c !== ' ' && c !== '\t' && c !== '\r') {
          return false
        }
      }
      return rest.length >= 3 || next === first
    }
    let i = first === '(' || first === '（' ? 1 : 0
    const open = i
    while (i < rest.length && (ContentLoopDetector.isDigit(rest.charAt(i)) || ContentLoopDetector.isHanNumeral(rest.charAt(i)))) {
      i++
    }
    if (i === open || i >= rest.length) {
      return false
    }
    const mark = rest.charAt(i)
    if (open === 1) {
      return mark === ')' || mark === '）'
    }
    if (mark === '、') {
      return true
    }
    if (mark === '.' || mark === ')') {
      const after = rest.charAt(i + 1)
      return after === ' ' || after === '\t' || after === ''
    }
    return false
  }

  private static isDigit(ch: string): boolean {
    return ch >= '0' && ch <= '9'
  }

  private static isHanNumeral(ch: string): boolean {
    return HAN_NUMERALS.indexOf(ch) >= 0
  }

  private static isSpace(ch: string): boolean {
    return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\u00a0' || ch === '\u3000'
  }

  private static worse(a: ContentRepeat | undefined, b: ContentRepeat | undefined): ContentRepeat | undefined {
    if (a === undefined) {
      return b
    }
    return b !== undefined && b.count > a.count ? b : a
  }
}
