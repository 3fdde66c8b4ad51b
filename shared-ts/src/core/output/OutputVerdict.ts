/** Why an answer failed its output schema. */
export enum OutputFault {
  /** Nothing to check: the answer is empty (or only blanks). */
  empty = 'empty',
  /** The answer is not one JSON value (prose around it, a syntax error, a truncated value). */
  notJson = 'not_json',
  /** JSON, but not valid against the schema. */
  schema = 'schema'
}

/** The check of one final answer against the output schema: the parsed value, or what failed. */
export class OutputVerdict {
  readonly ok: boolean
  /** The parsed (and, for a zod schema, transformed) value; undefined when not ok. */
  readonly value?: Object | null
  /** '' when ok, else an OutputFault value. */
  readonly fault: string
  /** What failed, one line each (`$.items[0].qty: expected integer`); empty when ok. */
  readonly problems: string[]

  private constructor(ok: boolean, value: Object | null | undefined, fault: string, problems: string[]) {
    this.ok = ok
    this.value = value
    this.fault = fault
    this.problems = problems
  }

  static valid(value: Object | null): OutputVerdict {
    return new OutputVerdict(true, value, '', [])
  }

  static invalid(fault: OutputFault, problems: string[]): OutputVerdict {
    return new OutputVerdict(false, undefined, fault, problems.slice())
  }

  /** One line for errors and messages: the fault and its first problems. */
  describe(max: number = 5): string {
    if (this.ok) {
      return 'valid'
    }
    const shown = this.problems.slice(0, max)
    const more = this.problems.length > max ? ` (and ${this.problems.length - max} more)` : ''
    return shown.join('; ') + more
  }
}
