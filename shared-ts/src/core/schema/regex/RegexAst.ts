// AST of the linear-time regex engine, and code point helpers shared by its parser and VM.
import { CharSet } from './CharSet'

export class NodeKind {
  static readonly empty: number = 0
  static readonly char: number = 1
  static readonly set: number = 2
  static readonly assertion: number = 3
  static readonly concat: number = 4
  static readonly alternation: number = 5
  static readonly repeat: number = 6
}

export class AssertionKind {
  static readonly start: number = 0
  static readonly end: number = 1
  static readonly wordBoundary: number = 2
  static readonly notWordBoundary: number = 3
}

/** One node of a parsed pattern. Groups need no node: captures are never reported. */
export class RegexNode {
  readonly kind: number
  children: RegexNode[] = []
  /** The code point of a `char` node, or the AssertionKind of an `assertion` node. */
  value: number = 0
  set: CharSet | null = null
  min: number = 0
  /** -1 means unbounded. */
  max: number = -1

  constructor(kind: number) {
    this.kind = kind
  }

  static leaf(kind: number, value: number): RegexNode {
    const node = new RegexNode(kind)
    node.value = value
    return node
  }

  static ofSet(set: CharSet): RegexNode {
    const node = new RegexNode(NodeKind.set)
    node.set = set
    return node
  }

  static list(kind: number, children: RegexNode[]): RegexNode {
    if (children.length === 0) {
      return new RegexNode(NodeKind.empty)
    }
    if (children.length === 1) {
      return children[0]
    }
    const node = new RegexNode(kind)
    node.children = children
    return node
  }
}

export function isDigit(cp: number): boolean {
  return cp >= 0x30 && cp <= 0x39
}

export function hexValue(cp: number): number {
  if (cp >= 0x30 && cp <= 0x39) {
    return cp - 0x30
  }
  const lower = cp | 0x20
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1
}

export function isAsciiLetter(cp: number): boolean {
  const lower = cp | 0x20
  return lower >= 0x61 && lower <= 0x7a
}

export function isLead(cp: number): boolean {
  return cp >= 0xd800 && cp <= 0xdbff
}

export function isTrail(cp: number): boolean {
  return cp >= 0xdc00 && cp <= 0xdfff
}

/** Decodes a string into code points (a lone surrogate is one code point). */
export function codePointsOf(text: string): number[] {
  const out: number[] = []
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (isLead(c) && i + 1 < text.length && isTrail(text.charCodeAt(i + 1))) {
      out.push((c - 0xd800) * 0x400 + (text.charCodeAt(i + 1) - 0xdc00) + 0x10000)
      i++
    } else {
      out.push(c)
    }
  }
  return out
}
