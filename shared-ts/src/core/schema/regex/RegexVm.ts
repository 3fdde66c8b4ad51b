// Pike VM: simulates a RegexProgram over all threads at once, so a test() costs
// O(input length × program size) however ambiguous the pattern is (no backtracking).
import { CharClasses } from './CharSet'
import { AssertionKind, codePointsOf } from './RegexAst'
import { OpCode, RegexProgram } from './RegexProgram'

export class RegexVm {
  private readonly program: RegexProgram
  /** For each instruction, the last position whose thread list it was added to (-1: none). */
  private readonly marks: number[] = []
  private readonly stack: number[] = []
  private current: number[] = []
  private next: number[] = []
  private found: boolean = false
  /** Whether the program matches the empty string inside a surrogate pair (-1: not yet known). */
  private insidePair: number = -1
  /**
   * Work done by the last run(): one unit per closure stack pop and per thread stepped over
   * a code point. At most (input code points + 1) × (4 × program size + 2).
   */
  steps: number = 0

  constructor(program: RegexProgram) {
    this.program = program
    for (let i = 0; i < program.size; i++) {
      this.marks.push(-1)
    }
  }

  /** Whether the program matches anywhere in `input` (positions are code point boundaries). */
  run(input: string): boolean {
    const cps = codePointsOf(input)
    const program = this.program
    for (let i = 0; i < this.marks.length; i++) {
      this.marks[i] = -1
    }
    this.steps = 0
    this.found = false
    if (cps.length < input.length && this.matchesInsidePair()) {
      return true
    }
    let count = 0
    for (let pos = 0; pos <= cps.length; pos++) {
      // Unanchored search: a new thread starts at every position.
      count = this.addThread(0, pos, cps, this.current, count)
      if (this.found) {
        return true
      }
      if (pos === cps.length || (count === 0 && this.anchoredAtStart())) {
        return false
      }
      const cp = cps[pos]
      let nextCount = 0
      for (let k = 0; k < count; k++) {
        const pc = this.current[k]
        this.steps++
        const op = program.ops[pc]
        const ok = op === OpCode.char ? program.xs[pc] === cp : program.sets[program.xs[pc]].has(cp)
        if (ok) {
          nextCount = this.addThread(pc + 1, pos + 1, cps, this.next, nextCount)
          if (this.found) {
            return true
          }
        }
      }
      const swap = this.current
      this.current = this.next
      this.next = swap
      count = nextCount
    }
    return false
  }

  /**
   * V8 (Node's RegExp, hence ajv) also tries a `u`-flag match starting between the two halves of
   * a surrogate pair; no character can be consumed there, but an empty match succeeds if the
   * assertions on its path hold between two non-word code units: `\B` does, `^ $ \b` do not.
   * (ECMA-262 itself only starts at code point boundaries.) The answer does not depend on the
   * input, so it is computed once: true means any input with a surrogate pair matches.
   */
  private matchesInsidePair(): boolean {
    if (this.insidePair < 0) {
      const program = this.program
      const seen: boolean[] = []
      for (let i = 0; i < program.size; i++) {
        seen.push(false)
      }
      const stack: number[] = [0]
      let result = false
      while (stack.length > 0 && !result) {
        const pc = stack.pop() as number
        if (seen[pc]) {
          continue
        }
        seen[pc] = true
        const op = program.ops[pc]
        if (op === OpCode.match) {
          result = true
        } else if (op === OpCode.jump) {
          stack.push(program.xs[pc])
        } else if (op === OpCode.split) {
          stack.push(program.xs[pc])
          stack.push(program.ys[pc])
        } else if (op === OpCode.assert && program.xs[pc] === AssertionKind.notWordBoundary) {
          stack.push(pc + 1)
        }
      }
      this.insidePair = result ? 1 : 0
    }
    return this.insidePair === 1
  }

  /** Whether every thread begins with `^` (so none can start after position 0). */
  private anchoredAtStart(): boolean {
    const program = this.program
    return program.ops[0] === OpCode.assert && program.xs[0] === AssertionKind.start
  }

  /**
   * Adds the epsilon closure of `start` at position `pos` to `list[count…]`: follows jumps,
   * splits and assertions (each instruction at most once per position, which also ends empty
   * loops such as `(a*)*`), keeps the consuming instructions, and notes reaching `match`.
   */
  private addThread(start: number, pos: number, cps: number[], list: number[], count: number): number {
    const program = this.program
    const stack = this.stack
    let top = 0
    let n = count
    stack[top++] = start
    while (top > 0) {
      const pc = stack[--top]
      this.steps++
      if (this.marks[pc] === pos) {
        continue
      }
      this.marks[pc] = pos
      const op = program.ops[pc]
      if (op === OpCode.jump) {
        stack[top++] = program.xs[pc]
      } else if (op === OpCode.split) {
        stack[top++] = program.ys[pc]
        stack[top++] = program.xs[pc]
      } else if (op === OpCode.assert) {
        if (RegexVm.holds(program.xs[pc], pos, cps)) {
          stack[top++] = pc + 1
        }
      } else if (op === OpCode.match) {
        this.found = true
        return n
      } else {
        list[n++] = pc
      }
    }
    return n
  }

  private static holds(kind: number, pos: number, cps: number[]): boolean {
    if (kind === AssertionKind.start) {
      return pos === 0
    }
    if (kind === AssertionKind.end) {
      return pos === cps.length
    }
    const before = pos > 0 && CharClasses.isWord(cps[pos - 1])
    const after = pos < cps.length && CharClasses.isWord(cps[pos])
    return (before !== after) === (kind === AssertionKind.wordBoundary)
  }
}
