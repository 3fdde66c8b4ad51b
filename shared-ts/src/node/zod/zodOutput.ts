import { z } from 'zod'
import { JsonSchemaOptions } from '../../core/schema/JsonSchemaOptions'
import { OutputSchema } from '../../core/output/OutputSchema'
import { OutputFault, OutputVerdict } from '../../core/output/OutputVerdict'
import type { RunOutcome } from '../../core/runtime/RunOutcome'
import { zodJsonSchema } from './zodJsonSchema'
import { formatZodIssue } from './zodTool'

/** A RunOutcome whose `output` has the zod schema's parsed type. */
export type TypedRunOutcome<T> = Omit<RunOutcome, 'output'> & { readonly output?: T }

/** What `zodOutput` takes besides the schema: the schema's name, OpenAI's `strict`, and annotation keywords to declare. */
export interface ZodOutputOptions {
  /** The schema's name and stable id (default `final_answer`; see OutputSchema). */
  name?: string
  /** `response_format.json_schema.strict` (OpenAI); default false. */
  strict?: boolean
  /** Keywords a `.meta({...})` adds that assert nothing, declared so the JSON Schema compiles (as for zodTool). */
  annotations?: string[]
}

/**
 * An output schema from a zod 4 schema: the vendor gets its JSON Schema (the *input* side: what the
 * model must send; defaulted fields are optional), the answer is checked with `schema.safeParse`, so `RunOutcome.output` is the
 * parsed value (defaults applied, transforms run) and `typed(outcome)` gives it its type.
 */
export class ZodOutputSchema<S extends z.ZodType> extends OutputSchema {
  readonly zod: S

  constructor(schema: S, options: ZodOutputOptions = {}) {
    const jsonOptions = new JsonSchemaOptions()
    jsonOptions.annotations = options.annotations ?? []
    super(zodJsonSchema(schema, `outputSchema '${options.name ?? 'final_answer'}'`), options.name ?? 'final_answer', options.strict ?? false,
      jsonOptions)
    this.zod = schema
  }

  check(value: Object | null): OutputVerdict {
    const result = this.zod.safeParse(value)
    if (!result.success) {
      return OutputVerdict.invalid(OutputFault.schema, result.error.issues.slice(0, 10).map((i) => formatZodIssue(i)))
    }
    return OutputVerdict.valid(result.data as Object | null)
  }

  /** The same outcome, its `output` typed as the schema's parsed value. */
  typed(outcome: RunOutcome): TypedRunOutcome<z.output<S>> {
    return outcome as unknown as TypedRunOutcome<z.output<S>>
  }
}

/** An output schema from a zod schema (see ZodOutputSchema). */
export function zodOutput<S extends z.ZodType>(schema: S, options: ZodOutputOptions = {}): ZodOutputSchema<S> {
  return new ZodOutputSchema<S>(schema, options)
}
