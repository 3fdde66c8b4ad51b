// Compiles a parsed pattern into a Thompson-NFA program for the Pike VM (RegexVm).
import { CharSet } from './CharSet'
import { NodeKind, RegexNode } from './RegexAst'
import { RegexParser } from './RegexParser'
import { RegexSyntaxError } from './RegexSyntaxError'

export class OpCode {
  /** Consume the code point `x`. */
  static readonly char: number = 0
  /** Consume a code point in `sets[x]`. */
  static readonly set: number = 1
  /** Continue at both `x` and `y` (no thread priority: only test() is answered). */
  static readonly split: number = 2
  static readonly jump: number = 3
  /** Continue if the AssertionKind `x` holds at the current position. */
  static readonly assert: number = 4
  static readonly match: number = 5
}

/** The instructions of a compiled pattern, as parallel arrays. */
export class RegexProgram {
  readonly ops: number[] = []
  readonly xs: number[] = []
  readonly ys: number[] = []
  readonly sets: CharSet[] = []

  get size(): number {
    return this.ops.length
  }

  emit(op: number, x: number, y: number): number {
    this.ops.push(op)
    this.xs.push(x)
    this.ys.push(y)
    return this.ops.length - 1
  }
}

export class RegexCompiler {
  /**
   * The most instructions a pattern may compile to. Bounded repetition is expanded (`a{3}` is
   * `aaa`), so without a cap a short pattern like `(a{1000}){1000}` would need a million.
   * Matching costs O(input length × program size).
   */
  static readonly maxProgramSize: number = 30000

  /** Parses and compiles `source`; throws RegexSyntaxError when invalid, refused or too large. */
  static compile(source: string): RegexProgram {
    const root = RegexParser.parse(source)
    const size = RegexCompiler.sizeOf(root)
    if (size > RegexCompiler.maxProgramSize) {
      throw new RegexSyntaxError(`Unsupported regular expression /${source}/u: pattern too large ` +
        `(its bounded repetitions expand to more than ${RegexCompiler.maxProgramSize} instructions)`)
    }
    const program = new RegexProgram()
    RegexCompiler.emitNode(root, program)
    program.emit(OpCode.match, 0, 0)
    return program
  }

  /** Whether `node` can only ever match the empty string, with no assertion to check. */
  private static isTriviallyEmpty(node: RegexNode): boolean {
    if (node.kind === NodeKind.empty) {
      return true
    }
    if (node.kind === NodeKind.concat || node.kind === NodeKind.alternation || node.kind === NodeKind.repeat) {
      for (let i = 0; i < node.children.length; i++) {
        if (!RegexCompiler.isTriviallyEmpty(node.children[i])) {
          return false
        }
      }
      return true
    }
    return false
  }

  /** The number of instructions emitNode will emit, saturated just above the cap. */
  static sizeOf(node: RegexNode): number {
    const limit = RegexCompiler.maxProgramSize + 1
    const kind = node.kind
    if (kind === NodeKind.empty) {
      return 0
    }
    if (kind === NodeKind.char || kind === NodeKind.set || kind === NodeKind.assertion) {
      return 1
    }
    if (kind === NodeKind.concat || kind === NodeKind.alternation) {
      let total = kind === NodeKind.alternation ? 2 * (node.children.length - 1) : 0
      for (let i = 0; i < node.children.length && total < limit; i++) {
        total += RegexCompiler.sizeOf(node.children[i])
      }
      return Math.min(total, limit)
    }
    // repeat
    const child = node.children[0]
    if (node.max === 0 || RegexCompiler.isTriviallyEmpty(child)) {
      return 0
    }
    const s = RegexCompiler.sizeOf(child)
    let total: number
    if (node.max < 0) {
      total = node.min === 0 ? s + 2 : node.min * s + 1
    } else {
      total = node.min * s + (node.max - node.min) * (s + 1)
    }
    return Math.min(total, limit)
  }

  private static emitNode(node: RegexNode, program: RegexProgram): void {
    const kind = node.kind
    if (kind === NodeKind.char) {
      program.emit(OpCode.char, node.value, 0)
    } else if (kind === NodeKind.set) {
      const set = node.set
      if (set !== null) {
        program.sets.push(set)
        program.emit(OpCode.set, program.sets.length - 1, 0)
      }
    } else if (kind === NodeKind.assertion) {
      program.emit(OpCode.assert, node.value, 0)
    } else if (kind === NodeKind.concat) {
      for (let i = 0; i < node.children.length; i++) {
        RegexCompiler.emitNode(node.children[i], program)
      }
    } else if (kind === NodeKind.alternation) {
      RegexCompiler.emitAlternation(node, program)
    } else if (kind === NodeKind.repeat) {
      RegexCompiler.emitRepeat(node, program)
    }
  }

  private static emitAlternation(node: RegexNode, program: RegexProgram): void {
    const jumps: number[] = []
    const last = node.children.length - 1
    for (let i = 0; i < last; i++) {
      const split = program.emit(OpCode.split, program.size + 1, -1)
      RegexCompiler.emitNode(node.children[i], program)
      jumps.push(program.emit(OpCode.jump, -1, 0))
      program.ys[split] = program.size
    }
    RegexCompiler.emitNode(node.children[last], program)
    for (let i = 0; i < jumps.length; i++) {
      program.xs[jumps[i]] = program.size
    }
  }

  private static emitRepeat(node: RegexNode, program: RegexProgram): void {
    const child = node.children[0]
    if (node.max === 0 || RegexCompiler.isTriviallyEmpty(child)) {
      return
    }
    if (node.max < 0) {
      if (node.min === 0) {
        // L: split L+1, out; child; jump L; out:
        const loop = program.emit(OpCode.split, program.size + 1, -1)
        RegexCompiler.emitNode(child, program)
        program.emit(OpCode.jump, loop, 0)
        program.ys[loop] = program.size
        return
      }
      for (let i = 0; i < node.min - 1; i++) {
        RegexCompiler.emitNode(child, program)
      }
      // L: child; split L, out; out:
      const body = program.size
      RegexCompiler.emitNode(child, program)
      program.emit(OpCode.split, body, program.size + 1)
      return
    }
    for (let i = 0; i < node.min; i++) {
      RegexCompiler.emitNode(child, program)
    }
    const exits: number[] = []
    for (let i = node.min; i < node.max; i++) {
      exits.push(program.emit(OpCode.split, program.size + 1, -1))
      RegexCompiler.emitNode(child, program)
    }
    for (let i = 0; i < exits.length; i++) {
      program.ys[exits[i]] = program.size
    }
  }
}
