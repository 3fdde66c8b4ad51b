import { hash53 } from './StringHash'
import { UserRequest } from './UserRequest'

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
  /** Longest block of sentences checked period by period (a paragraph said again and again). */
  maxBlock: number = 16
  /** A block of sentences repeated this often back to back is chanting. */
  blockRepeats: number = 4
  /** A sentence without an end is cut here; the unpunctuated-repeat check then starts over. */
  maxChars: number = 2000
  /** Width of the rolling pieces that catch repetition without punctuation. */
  pieceChars: number = 32
  /** The same piece this often inside one unbroken sentence is chanting. */
  pieceRepeats: number = 8
  /** This many sentences in a row drawn from at most `setSize` distinct ones are chanting, whatever the order. */
  setWindow: number = 12
  /** See setWindow; 0 turns the rule off. */
  setSize: number = 3
  /** Sentences remembered for blocks longer than maxBlock (their period is found, not tried). */
  echoMemory: number = 256
}

/** What the start of a line says about it. */
enum LineKind {
  /** Still reading the line's first characters. */
  undecided = 0,
  prose = 1,
  /** Indented code, a table row, a list item or a quote: never a candidate, and it breaks every run. */
  structure = 2,
  /** A heading or a rule: never a candidate itself, but it takes part in blocks (a heading plus its paragraph). */
  token = 3,
  /** A line opening a fenced code block. */
  fenceOpen = 4,
  /** A line inside a fenced code block (maybe the one closing it). */
  fenceBody = 5
}

/** Bullet characters that start a list item on their own. */
const BULLETS: string = '•·◦▪▫●○■□–—'
/** Chinese numerals used to number list items (`一、`, `（二）`). */
const HAN_NUMERALS: string = '一二三四五六七八九十百'

/** Buffered line start needed to tell a list item (`12. `) or a fence (```) from prose. */
const HEAD_CHARS: number = 6
/** An inline code span or quotation longer than this is taken for a stray mark: the text is prose again. */
const MAX_SPAN_CHARS: number = 1000
/** Placeholders that stand for a quotation and a code span in a sentence. */
const QUOTE_MARK: string = '"'
const CODE_MARK: string = '`'

/**
 * Detects chanting in streamed text, whatever the chunking.
 *
 * Markdown-aware (CommonMark where it matters): fenced code (a fence is 3+ backticks or 3+ tildes;
 * only a line of the same character, at least as long, closes it; the end of the message closes it
 * too), indented code, table rows, list items and quotes are never candidates and break every run;
 * headings and rules are never candidates but take part in blocks, so a heading with its paragraph
 * said again and again is a block. Inside a prose line, inline code spans and quotations ("…", “…”,
 * ‘…’, «…», 「…」, 『…』) are not prose: each stands as one placeholder. Script-aware: sentences end at
 * `。！？；` and at a line end, and at `.!?` only when followed by white space, so `src/a.ts` or
 * `v1.2` never cut a sentence. Sentences are normalised (lower case, white space collapsed).
 *
 * A sentence is a candidate when it has words (`weight` ≥ 2: a CJK character 2, other letters and
 * digits 1) and is not data (mostly digits, hex, DNA letters, long unbroken tokens — see dataLike).
 * Rules, counted since the last reset (the runtime resets at every tool call, so a sentence said
 * once per turn never adds up) and broken by structure lines:
 *  - the same sentence `threshold` times back to back;
 *  - a block of 2..maxBlock sentences repeated `blockRepeats` times back to back;
 *  - a block longer than maxBlock (up to echoMemory sentences) repeated `blockRepeats` times: its
 *    period is the distance to the previous occurrence of a sentence, followed while it holds;
 *  - `setWindow` sentences in a row drawn from at most `setSize` distinct ones ("Sorry." /
 *    "I apologize." / "My mistake." in any order);
 *  - inside one unbroken sentence, the same `pieceChars`-wide piece `pieceRepeats` times with every
 *    position a repeat (a phrase repeated without punctuation), unless the piece is data.
 * What the user asked for (see UserRequest) is not chanting: a repeated sentence, block or piece
 * that occurs in the user's request is a quote; a repetition count in the request raises every
 * threshold (and the set window) by that count, open-ended repetition multiplies them.
 * Work per character is O(1), per sentence O(maxBlock); memory is one pending sentence (≤ maxChars),
 * its pieces' hashes, and the last max(echoMemory, setWindow) sentence hashes.
 */
export class ContentLoopDetector {
  private readonly rules: ContentRules
  private request: UserRequest = UserRequest.none
  /** Something was recorded since the last reset. */
  private dirty: boolean = false
  // Current line.
  private kind: LineKind = LineKind.undecided
  private head: string = ''
  /** Normalised text of a token line (heading, rule). */
  private tokenText: string = ''
  // Fenced code: the fence character ('' outside a fence) and its length.
  private fenceChar: string = ''
  private fenceLen: number = 0
  // The line opening a fence: its run of fence characters, and whether it is a fence at all.
  private openChar: string = ''
  private openRun: number = 0
  private openInRun: boolean = false
  private openValid: boolean = false
  // A line inside a fence: 0 leading blanks, 1 in a run of the fence character, 2 blanks after it, 3 not a closing fence.
  private closeState: number = 0
  private closeRun: number = 0
  // Current sentence (normalised).
  private pending: string = ''
  private pendingSpace: boolean = false
  /** A `.`, `!` or `?` waiting for the next character to tell a sentence end from `a.ts`. */
  private held: string = ''
  private pieces: Map<number, number> = new Map<number, number>()
  /** Consecutive positions whose piece was seen before in this sentence. */
  private repeatRun: number = 0
  // Inline code spans and quotations in the current line.
  private tickRun: number = 0
  private spanTicks: number = 0
  private quoteClose: string = ''
  private spanChars: number = 0
  /** The previous character of the prose line, to tell an opening `"` from an inch mark. */
  private lastRaw: string = ''
  // Sentences (and token lines) since the last break: their hashes in a ring of `memory` slots,
  // the texts of the last `textSlots`, and for each period p ≤ maxBlock the number of consecutive
  // sentences equal to the one p positions before them.
  private readonly memory: number
  private readonly textSlots: number
  private ring: number[] = []
  private texts: string[] = []
  private units: number = 0
  private runs: number[] = []
  /** Long blocks: the period followed (0: none) and how many sentences matched at it in a row. */
  private echoLag: number = 0
  private echoRun: number = 0
  /** Index of the latest occurrence of each sentence hash still in the ring. */
  private lastIndex: Map<number, number> = new Map<number, number>()
  /** Occurrences of each sentence hash among the last setWindow sentences. */
  private setCounts: Map<number, number> = new Map<number, number>()
  private broken: boolean = false

  constructor(rules: ContentRules) {
    this.rules = rules
    this.memory = Math.max(rules.echoMemory, rules.setWindow + 1, rules.maxBlock + 1)
    this.textSlots = Math.max(rules.maxBlock, rules.setWindow, 1)
    for (let i = 0; i < this.memory; i++) {
      this.ring.push(0)
    }
    for (let i = 0; i < this.textSlots; i++) {
      this.texts.push('')
    }
    this.breakRuns()
  }

  /** The user's request: quotes of it are not chanting; asked-for repetition raises the thresholds. */
  setRequest(request: UserRequest): void {
    this.request = request
    // The set window depends on the request: count it afresh.
    this.broken = false
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
      } else if (this.kind === LineKind.prose) {
        worst = ContentLoopDetector.worse(worst, this.prose(ch))
      } else if (this.kind === LineKind.undecided) {
        if (this.fenceChar.length > 0) {
          this.kind = LineKind.fenceBody
          this.fenceBody(ch)
        } else {
          this.head += ch
          worst = ContentLoopDetector.worse(worst, this.classify(false))
        }
      } else if (this.kind === LineKind.fenceBody) {
        this.fenceBody(ch)
      } else if (this.kind === LineKind.token) {
        this.tokenChar(ch)
      } else if (this.kind === LineKind.fenceOpen) {
        this.fenceOpenChar(ch)
      }
    }
    return worst
  }

  /** The end of a model message: its last line ends, and so does an unclosed code block. */
  endSegment(): ContentRepeat | undefined {
    const worst = this.endLine()
    this.fenceChar = ''
    return worst
  }

  reset(): void {
    if (!this.dirty) {
      // Called at every tool call: nothing seen since the last reset costs nothing.
      return
    }
    this.dirty = false
    this.kind = LineKind.undecided
    this.head = ''
    this.tokenText = ''
    this.fenceChar = ''
    this.closeState = 0
    this.closeRun = 0
    this.clearSentence()
    this.clearInline()
    this.breakRuns()
  }

  /** Sentences remembered since the last break (at most the ring's size). */
  windowSize(): number {
    return Math.min(this.units, this.memory)
  }

  distinctSegments(): number {
    return this.lastIndex.size
  }

  pendingChars(): number {
    return this.pending.length + this.head.length + this.tokenText.length
  }

  private endLine(): ContentRepeat | undefined {
    let worst: ContentRepeat | undefined = undefined
    if (this.kind === LineKind.undecided && this.fenceChar.length === 0) {
      worst = this.classify(true)
    }
    if (this.kind === LineKind.fenceBody || (this.kind === LineKind.undecided && this.fenceChar.length > 0)) {
      if ((this.closeState === 1 || this.closeState === 2) && this.closeRun >= this.fenceLen) {
        this.fenceChar = ''
      }
      this.closeState = 0
      this.closeRun = 0
    } else if (this.kind === LineKind.fenceOpen) {
      if (this.openValid) {
        this.fenceChar = this.openChar
        this.fenceLen = this.openRun
      }
    } else if (this.kind === LineKind.token) {
      worst = ContentLoopDetector.worse(worst, this.pushUnit(hash53(this.tokenText, 1), '', false))
      this.tokenText = ''
    }
    worst = ContentLoopDetector.worse(worst, this.flushTicks())
    this.clearInline()
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
    if (first === '`' || first === '~') {
      let run = 0
      while (run < rest.length && rest.charAt(run) === first) {
        run++
      }
      if (run === rest.length && run < 3 && !lineEnded) {
        // Maybe a fence: wait for its third character.
        return undefined
      }
      if (run >= 3) {
        // A fence opening (at any indentation, as inside list items). A backtick fence's info
        // string holds no backtick; the run may still grow.
        this.kind = LineKind.fenceOpen
        this.openChar = first
        this.openRun = run
        this.openInRun = run === rest.length
        this.openValid = !(first === '`' && rest.substring(run).indexOf('`') >= 0)
        this.head = ''
        this.breakRuns()
        return undefined
      }
    }
    if (indent >= 4) {
      return this.structureLine()
    }
    if (!lineEnded && rest.length < HEAD_CHARS && ContentLoopDetector.mayStartMarker(first)) {
      // `-`, `1`, `#`, ... : a few more characters tell a marker from prose.
      return undefined
    }
    const type = ContentLoopDetector.lineType(rest)
    if (type === LineKind.structure) {
      return this.structureLine()
    }
    if (type === LineKind.token) {
      this.kind = LineKind.token
      this.tokenText = ''
      this.head = ''
      for (let i = 0; i < rest.length; i++) {
        this.tokenChar(rest.charAt(i))
      }
      return undefined
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
    this.head = ''
    this.breakRuns()
    return undefined
  }

  private tokenChar(ch: string): void {
    if (this.tokenText.length >= this.rules.maxChars) {
      return
    }
    if (ContentLoopDetector.isSpace(ch)) {
      if (this.tokenText.length > 0 && !this.tokenText.endsWith(' ')) {
        this.tokenText += ' '
      }
      return
    }
    this.tokenText += ch.toLowerCase()
  }

  private fenceOpenChar(ch: string): void {
    if (this.openInRun && ch === this.openChar) {
      this.openRun++
      return
    }
    this.openInRun = false
    if (this.openChar === '`' && ch === '`') {
      this.openValid = false
    }
  }

  /** Follows a line inside a fence: is it a closing fence (the fence character only, as long or longer)? */
  private fenceBody(ch: string): void {
    const blank = ch === ' ' || ch === '\t' || ch === '\r'
    if (this.closeState === 0) {
      this.closeState = blank ? 0 : (ch === this.fenceChar ? 1 : 3)
      this.closeRun = ch === this.fenceChar ? 1 : 0
    } else if (this.closeState === 1) {
      if (ch === this.fenceChar) {
        this.closeRun++
      } else {
        this.closeState = blank ? 2 : 3
      }
    } else if (this.closeState === 2 && !blank) {
      this.closeState = 3
    }
  }

  private breakRuns(): void {
    if (this.broken) {
      return
    }
    this.broken = true
    this.units = 0
    this.runs = []
    for (let p = 0; p <= this.rules.maxBlock; p++) {
      this.runs.push(0)
    }
    this.echoLag = 0
    this.echoRun = 0
    this.lastIndex.clear()
    this.setCounts.clear()
  }

  private prose(ch: string): ContentRepeat | undefined {
    let worst: ContentRepeat | undefined = undefined
    // Inside a quotation only its closing mark matters.
    if (this.quoteClose.length > 0) {
      if (ch === this.quoteClose) {
        this.quoteClose = ''
        this.lastRaw = ch
        return undefined
      }
      if (++this.spanChars <= MAX_SPAN_CHARS) {
        return undefined
      }
      this.quoteClose = ''
    }
    if (ch === '`') {
      this.tickRun++
      return undefined
    }
    if (this.tickRun > 0) {
      worst = this.flushTicks()
    }
    if (this.spanTicks > 0) {
      if (++this.spanChars <= MAX_SPAN_CHARS) {
        return worst
      }
      this.spanTicks = 0
    }
    const closer = ContentLoopDetector.quoteCloser(ch, this.lastRaw)
    this.lastRaw = ch
    if (closer.length > 0) {
      this.quoteClose = closer
      this.spanChars = 0
      return ContentLoopDetector.worse(worst, this.visible(QUOTE_MARK))
    }
    return ContentLoopDetector.worse(worst, this.visible(ch))
  }

  /** A run of backticks ended: it opens a code span, or closes the open one when it is as long. */
  private flushTicks(): ContentRepeat | undefined {
    const run = this.tickRun
    if (run === 0) {
      return undefined
    }
    this.tickRun = 0
    this.lastRaw = '`'
    if (this.spanTicks > 0) {
      if (run === this.spanTicks) {
        this.spanTicks = 0
      }
      return undefined
    }
    this.spanTicks = run
    this.spanChars = 0
    return this.visible(CODE_MARK)
  }

  /** A character of prose outside code spans and quotations. */
  private visible(ch: string): ContentRepeat | undefined {
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
      if (count >= this.request.allow(rules.pieceRepeats) && this.repeatRun >= 3 * rules.pieceChars &&
        ContentLoopDetector.wordy(piece) && ContentLoopDetector.varied(piece) && !ContentLoopDetector.dataLike(piece) &&
        !this.request.quotes(piece, false)) {
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
    // they are not back to back); only segments with words that are not data can make a verdict.
    const candidate = ContentLoopDetector.wordy(text) && !ContentLoopDetector.dataLike(text)
    return this.pushUnit(hash53(text), candidate ? text : '', candidate)
  }

  /** Adds a sentence or token line to the sequence and applies the rules. */
  private pushUnit(h: number, text: string, candidate: boolean): ContentRepeat | undefined {
    const rules = this.rules
    const memory = this.memory
    const i = this.units
    this.broken = false
    for (let p = 1; p <= rules.maxBlock; p++) {
      this.runs[p] = p <= i && this.ring[(i - p) % memory] === h ? this.runs[p] + 1 : 0
    }
    // Long blocks: follow the distance to the previous occurrence while it holds.
    const lag = this.echoLag
    if (lag > 0 && this.ring[(i - lag) % memory] === h) {
      this.echoRun++
    } else {
      const previous = this.lastIndex.get(h)
      this.echoLag = previous !== undefined ? i - previous : 0
      this.echoRun = previous !== undefined ? 1 : 0
    }
    if (i >= memory) {
      const old = this.ring[i % memory]
      if (this.lastIndex.get(old) === i - memory) {
        this.lastIndex.delete(old)
      }
    }
    this.ring[i % memory] = h
    this.lastIndex.set(h, i)
    this.texts[i % this.textSlots] = text
    this.units = i + 1
    const setWindow = Math.min(this.request.allow(rules.setWindow), memory - 1)
    if (rules.setWindow > 0) {
      this.setCounts.set(h, (this.setCounts.get(h) ?? 0) + 1)
      if (i >= setWindow) {
        const gone = this.ring[(i - setWindow) % memory]
        const left = (this.setCounts.get(gone) ?? 0) - 1
        if (left <= 0) {
          this.setCounts.delete(gone)
        } else {
          this.setCounts.set(gone, left)
        }
      }
    }
    const request = this.request
    if (candidate && this.runs[1] + 1 >= request.allow(rules.threshold) && !request.quotesAll([text])) {
      return new ContentRepeat(text, this.runs[1] + 1)
    }
    const blockRepeats = request.allow(rules.blockRepeats)
    for (let p = 2; p <= rules.maxBlock; p++) {
      if (this.runs[p] >= p * (blockRepeats - 1) && this.primitive(p)) {
        const block = this.block(p)
        if (block.length > 0) {
          return new ContentRepeat(block.join(' | '), Math.floor(this.runs[p] / p) + 1)
        }
      }
    }
    const echo = this.echoLag
    if (candidate && echo > rules.maxBlock && this.echoRun >= echo * (blockRepeats - 1) && !request.quotesAll([text])) {
      return new ContentRepeat(`${text} | …`, Math.floor(this.echoRun / echo) + 1)
    }
    if (candidate && rules.setSize > 0 && rules.setWindow > 0 && this.units >= setWindow &&
      this.setCounts.size <= rules.setSize) {
      const members = this.distinctTexts(setWindow)
      if (!request.quotesAll(members)) {
        return new ContentRepeat(members.join(' | '), setWindow)
      }
    }
    return undefined
  }

  /** The candidate texts of the last p sentences (empty when none, or when the user wrote them all). */
  private block(p: number): string[] {
    const out: string[] = []
    for (let k = p; k >= 1; k--) {
      const t = this.texts[(this.units - k) % this.textSlots]
      if (t.length > 0) {
        out.push(t)
      }
    }
    return out.length > 0 && this.request.quotesAll(out) ? [] : out
  }

  /** The distinct candidate texts among the last n sentences, oldest first. */
  private distinctTexts(n: number): string[] {
    const out: string[] = []
    for (let k = Math.min(n, this.textSlots); k >= 1; k--) {
      const t = this.texts[(this.units - k) % this.textSlots]
      if (t.length > 0 && out.indexOf(t) < 0) {
        out.push(t)
      }
    }
    return out
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

  private clearInline(): void {
    this.tickRun = 0
    this.spanTicks = 0
    this.quoteClose = ''
    this.spanChars = 0
    this.lastRaw = ''
  }

  /** Letters and digits: a CJK character (Han, kana, Hangul) 2, others 1; punctuation and spaces 0. */
  static weight(text: string): number {
    let w = 0
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if ((c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90)) {
        w += 1
      } else if (ContentLoopDetector.isCjk(c)) {
        w += 2
      } else if (c >= 0xc0 && c < 0x2000) {
        w += 1
      }
    }
    return w
  }

  private static isCjk(c: number): boolean {
    return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) ||
      (c >= 0xf900 && c <= 0xfaff)
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

  /**
   * Mostly data: data tokens make at least half of its weight (a CJK character weighs 2, and is never
   * data). A data token (white space separated) has a digit (numbers, ids such as `req-n86kbe`,
   * hashes, versions), is 16+ characters long without a dot (base64, a long sequence; a path or URL
   * has dots), or is 6+ DNA/RNA letters (`acgtun`) or 8+ hex letters; text of hex digits and spaces
   * only, with a digit, is a hex dump. A DNA sequence, a hex dump, a base64 blob or a list of ids
   * repeats by nature.
   */
  static dataLike(text: string): boolean {
    let data = 0
    let total = 0
    let start = 0
    for (let i = 0; i <= text.length; i++) {
      if (i === text.length || text.charCodeAt(i) === 32) {
        if (i > start) {
          const w = ContentLoopDetector.dataWeight(text, start, i)
          total += w < 0 ? -w : w
          if (w > 0) {
            data += w
          }
        }
        start = i + 1
      }
    }
    return total > 0 && (data * 2 >= total || ContentLoopDetector.hexDump(text))
  }

  /** Only hex digits and spaces, with a digit: a hex dump (`de ad be ef 00 11`). */
  private static hexDump(text: string): boolean {
    let digit = false
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (c >= 48 && c <= 57) {
        digit = true
      } else if (c !== 32 && !(c >= 97 && c <= 102)) {
        return false
      }
    }
    return digit
  }

  /** The token's weight (characters, CJK counted twice): positive for a data token, negative for a word. */
  private static dataWeight(text: string, from: number, to: number): number {
    let dna = true
    let hex = true
    let dot = false
    let digits = 0
    let cjk = 0
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i)
      if (ContentLoopDetector.isCjk(c)) {
        cjk++
      } else if (c >= 48 && c <= 57) {
        digits++
      } else if (c === 46) {
        dot = true
      }
      // a c g t u n
      if (c !== 97 && c !== 99 && c !== 103 && c !== 116 && c !== 117 && c !== 110) {
        dna = false
      }
      if (!(c >= 97 && c <= 102)) {
        hex = false
      }
    }
    const n = to - from
    const weight = n + cjk
    if (cjk > 0) {
      return -weight
    }
    const isData = digits > 0 || (n >= 16 && !dot) || (dna && n >= 6) || (hex && n >= 8)
    return isData ? weight : -weight
  }

  /** The closing mark when `ch` opens a quotation here, else ''. */
  private static quoteCloser(ch: string, before: string): string {
    if (ch === '“') {
      return '”'
    }
    if (ch === '「') {
      return '」'
    }
    if (ch === '『') {
      return '』'
    }
    if (ch === '‘') {
      return '’'
    }
    if (ch === '«') {
      return '»'
    }
    // A straight double quote opens only at a word's start (`5"` is an inch mark).
    if (ch === '"' && (before.length === 0 || ContentLoopDetector.isSpace(before) || '([{:：，,—–-'.indexOf(before) >= 0)) {
      return '"'
    }
    return ''
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
   * What a line is from its start (leading spaces removed): `structure` for a list item, table row
   * or quote; `token` for a heading or a rule; `prose` otherwise.
   * Lists: `-`, `*`, `+`, `•`-like bullets, `1.`, `1)`, `(1)`, and the Chinese `1、`, `一、`, `（一）`.
   */
  private static lineType(rest: string): LineKind {
    const first = rest.charAt(0)
    if (first === '#') {
      return LineKind.token
    }
    if (first === '|' || first === '>' || BULLETS.indexOf(first) >= 0) {
      return LineKind.structure
    }
    if (first === '-' || first === '*' || first === '+' || first === '_') {
      const next = rest.charAt(1)
      if (next === ' ' || next === '\t' || next === '') {
        return first === '_' ? LineKind.prose : LineKind.structure
      }
      // A rule (`---`, `***`, `___`) is made of its marker only; `**bold**` is prose.
      for (let i = 0; i < rest.length; i++) {
        const c = rest.charAt(i)
        if (c !== first && c !== ' ' && c !== '\t' && c !== '\r') {
          return LineKind.prose
        }
      }
      return rest.length >= 3 || next === first ? LineKind.token : LineKind.prose
    }
    let i = first === '(' || first === '（' ? 1 : 0
    const open = i
    while (i < rest.length && (ContentLoopDetector.isDigit(rest.charAt(i)) || ContentLoopDetector.isHanNumeral(rest.charAt(i)))) {
      i++
    }
    if (i === open || i >= rest.length) {
      return LineKind.prose
    }
    const mark = rest.charAt(i)
    if (open === 1) {
      return mark === ')' || mark === '）' ? LineKind.structure : LineKind.prose
    }
    if (mark === '、') {
      return LineKind.structure
    }
    if (mark === '.' || mark === ')') {
      const after = rest.charAt(i + 1)
      return after === ' ' || after === '\t' || after === '' ? LineKind.structure : LineKind.prose
    }
    return LineKind.prose
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
