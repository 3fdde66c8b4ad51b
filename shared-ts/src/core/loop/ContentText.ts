// What a line and a sentence of streamed text are, for the content loop rules: line kinds, weights,
// data-like tokens, quotation marks and list markers.
import { ContentRepeat } from './ContentRules'

/** What the start of a line says about it. */
export enum LineKind {
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
export const BULLETS: string = '•·◦▪▫●○■□–—'
/** Chinese numerals used to number list items (`一、`, `（二）`). */
export const HAN_NUMERALS: string = '一二三四五六七八九十百'

/** Buffered line start needed to tell a list item (`12. `) or a fence (```) from prose. */
export const HEAD_CHARS: number = 6
/** An inline code span or quotation longer than this is taken for a stray mark: the text is prose again. */
export const MAX_SPAN_CHARS: number = 1000
/** Placeholders that stand for a quotation and a code span in a sentence. */
export const QUOTE_MARK: string = '"'
export const CODE_MARK: string = '`'

/** Letters and digits: a CJK character (Han, kana, Hangul) 2, others 1; punctuation and spaces 0. */
export function weight(text: string): number {
  let w = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if ((c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90)) {
      w += 1
    } else if (isCjk(c)) {
      w += 2
    } else if (c >= 0xc0 && c < 0x2000) {
      w += 1
    }
  }
  return w
}

export function isCjk(c: number): boolean {
  return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) ||
    (c >= 0xf900 && c <= 0xfaff)
}

/** Mostly words: rules, table borders and code braces are not prose. */
export function wordy(text: string): boolean {
  let wordChars = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if ((c >= 48 && c <= 57) || (c >= 97 && c <= 122) || c >= 0x80 || c === 32) {
      wordChars++
    }
  }
  return wordChars * 4 >= text.length * 3 && weight(text) >= 2
}

/**
 * At least three different letters or digits: `aaaa…`, `0b0000…`, `la la la` are not prose that
 * could chant (they are data, or sounds).
 */
export function varied(text: string): boolean {
  let a = ''
  let b = ''
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i)
    if (ch === ' ' || weight(ch) === 0 || ch === a || ch === b) {
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
export function dataLike(text: string): boolean {
  let data = 0
  let total = 0
  let start = 0
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length || text.charCodeAt(i) === 32) {
      if (i > start) {
        const w = dataWeight(text, start, i)
        total += w < 0 ? -w : w
        if (w > 0) {
          data += w
        }
      }
      start = i + 1
    }
  }
  return total > 0 && (data * 2 >= total || hexDump(text))
}

/** Only hex digits and spaces, with a digit: a hex dump (`de ad be ef 00 11`). */
export function hexDump(text: string): boolean {
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
export function dataWeight(text: string, from: number, to: number): number {
  let dna = true
  let hex = true
  let dot = false
  let digits = 0
  let cjk = 0
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i)
    if (isCjk(c)) {
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
export function quoteCloser(ch: string, before: string): string {
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
  if (ch === '"' && (before.length === 0 || isSpace(before) || '([{:：，,—–-'.indexOf(before) >= 0)) {
    return '"'
  }
  return ''
}

export function firstNonSpace(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i)
    if (ch !== ' ' && ch !== '\t' && ch !== '\r') {
      return i
    }
  }
  return -1
}

export function mayStartMarker(ch: string): boolean {
  return ch === '`' || ch === '~' || ch === '-' || ch === '*' || ch === '+' || ch === '_' || ch === '|' || ch === '#' ||
    ch === '>' || ch === '(' || ch === '（' || isDigit(ch) || isHanNumeral(ch)
}

/**
 * What a line is from its start (leading spaces removed): `structure` for a list item, table row
 * or quote; `token` for a heading or a rule; `prose` otherwise.
 * Lists: `-`, `*`, `+`, `•`-like bullets, `1.`, `1)`, `(1)`, and the Chinese `1、`, `一、`, `（一）`.
 */
export function lineType(rest: string): LineKind {
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
  while (i < rest.length && (isDigit(rest.charAt(i)) || isHanNumeral(rest.charAt(i)))) {
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

export function isDigit(ch: string): boolean {
  return ch >= '0' && ch <= '9'
}

export function isHanNumeral(ch: string): boolean {
  return HAN_NUMERALS.indexOf(ch) >= 0
}

export function isSpace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\u00a0' || ch === '\u3000'
}

export function worse(a: ContentRepeat | undefined, b: ContentRepeat | undefined): ContentRepeat | undefined {
  if (a === undefined) {
    return b
  }
  return b !== undefined && b.count > a.count ? b : a
}
