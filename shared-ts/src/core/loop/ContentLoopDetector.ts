import { hash53 } from './StringHash'
import { ContentRepeat, ContentRules } from './ContentRules'
import { CodeFence } from './CodeFence'
import { SentenceSequence } from './SentenceSequence'
import { CODE_MARK, dataLike, firstNonSpace, HEAD_CHARS, isSpace, LineKind, lineType, MAX_SPAN_CHARS, mayStartMarker, QUOTE_MARK, quoteCloser, varied, wordy, worse } from './ContentText'
import { UserRequest } from './UserRequest'

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
  /** Fenced code blocks, per CommonMark. */
  private readonly fence: CodeFence = new CodeFence()
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
  /** The sentences (and token lines) since the last break, and the rules over them. */
  private readonly sequence: SentenceSequence

  constructor(rules: ContentRules) {
    this.rules = rules
    this.sequence = new SentenceSequence(rules)
  }

  /** The user's request: quotes of it are not chanting; asked-for repetition raises the thresholds. */
  setRequest(request: UserRequest): void {
    this.request = request
    this.sequence.setRequest(request)
  }

  /** Feeds a chunk; returns the worst repeat it completed, if any. */
  record(chunk: string): ContentRepeat | undefined {
    let worst: ContentRepeat | undefined = undefined
    this.dirty = this.dirty || chunk.length > 0
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk.charAt(i)
      if (ch === '\n') {
        worst = worse(worst, this.endLine())
      } else if (this.kind === LineKind.prose) {
        worst = worse(worst, this.prose(ch))
      } else if (this.kind === LineKind.undecided) {
        if (this.fence.inside()) {
          this.kind = LineKind.fenceBody
          this.fence.bodyChar(ch)
        } else {
          this.head += ch
          worst = worse(worst, this.classify(false))
        }
      } else if (this.kind === LineKind.fenceBody) {
        this.fence.bodyChar(ch)
      } else if (this.kind === LineKind.token) {
        this.tokenChar(ch)
      } else if (this.kind === LineKind.fenceOpen) {
        this.fence.openingChar(ch)
      }
    }
    return worst
  }

  /** The end of a model message: its last line ends, and so does an unclosed code block. */
  endSegment(): ContentRepeat | undefined {
    const worst = this.endLine()
    this.fence.close()
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
    this.fence.reset()
    this.clearSentence()
    this.clearInline()
    this.sequence.breakRuns()
  }

  /** Sentences remembered since the last break (at most the ring's size). */
  windowSize(): number {
    return this.sequence.windowSize()
  }

  distinctSegments(): number {
    return this.sequence.distinctSegments()
  }

  pendingChars(): number {
    return this.pending.length + this.head.length + this.tokenText.length
  }

  private endLine(): ContentRepeat | undefined {
    let worst: ContentRepeat | undefined = undefined
    if (this.kind === LineKind.undecided && !this.fence.inside()) {
      worst = this.classify(true)
    }
    if (this.kind === LineKind.fenceBody || (this.kind === LineKind.undecided && this.fence.inside())) {
      this.fence.endBodyLine()
    } else if (this.kind === LineKind.fenceOpen) {
      this.fence.endOpeningLine()
    } else if (this.kind === LineKind.token) {
      worst = worse(worst, this.sequence.push(hash53(this.tokenText, 1), '', false))
      this.tokenText = ''
    }
    worst = worse(worst, this.flushTicks())
    this.clearInline()
    worst = worse(worst, this.endSentence())
    this.kind = LineKind.undecided
    this.head = ''
    return worst
  }

  /** Decides what the line is once its start is known; a prose line's buffered start is replayed. */
  private classify(lineEnded: boolean): ContentRepeat | undefined {
    const head = this.head
    const startsAt = firstNonSpace(head)
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
        this.fence.beginOpening(first, run, rest)
        this.head = ''
        this.sequence.breakRuns()
        return undefined
      }
    }
    if (indent >= 4) {
      return this.structureLine()
    }
    if (!lineEnded && rest.length < HEAD_CHARS && mayStartMarker(first)) {
      // `-`, `1`, `#`, ... : a few more characters tell a marker from prose.
      return undefined
    }
    const type = lineType(rest)
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
      worst = worse(worst, this.prose(head.charAt(i)))
    }
    return worst
  }

  /** Skips the rest of the line; something between two sentences means they are not back to back. */
  private structureLine(): ContentRepeat | undefined {
    this.kind = LineKind.structure
    this.head = ''
    this.sequence.breakRuns()
    return undefined
  }

  private tokenChar(ch: string): void {
    if (this.tokenText.length >= this.rules.maxChars) {
      return
    }
    if (isSpace(ch)) {
      if (this.tokenText.length > 0 && !this.tokenText.endsWith(' ')) {
        this.tokenText += ' '
      }
      return
    }
    this.tokenText += ch.toLowerCase()
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
    const closer = quoteCloser(ch, this.lastRaw)
    this.lastRaw = ch
    if (closer.length > 0) {
      this.quoteClose = closer
      this.spanChars = 0
      return worse(worst, this.visible(QUOTE_MARK))
    }
    return worse(worst, this.visible(ch))
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
      if (isSpace(ch)) {
        return this.endSentence()
      }
      worst = this.append(held)
    }
    if (ch === '.' || ch === '!' || ch === '?') {
      this.held = ch
      return worst
    }
    if (ch === '。' || ch === '！' || ch === '？' || ch === '；') {
      return worse(worst, this.endSentence())
    }
    if (isSpace(ch)) {
      this.pendingSpace = this.pending.length > 0
      return worst
    }
    return worse(worst, this.append(ch))
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
        wordy(piece) && varied(piece) && !dataLike(piece) &&
        !this.request.quotes(piece, false)) {
        found = new ContentRepeat(piece, count)
      }
    }
    if (n >= rules.maxChars) {
      return worse(found, this.endSentence())
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
    const candidate = wordy(text) && !dataLike(text)
    return this.sequence.push(hash53(text), candidate ? text : '', candidate)
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
}
