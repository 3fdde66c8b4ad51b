import { ConfigCheck } from '../util/ConfigCheck'
import { OutputFormat } from '../model/OutputFormat'
import { JsonSchema } from '../schema/JsonSchema'
import { JsonSchemaError } from '../schema/JsonSchemaError'
import { JsonSchemaOptions } from '../schema/JsonSchemaOptions'
import { OutputText } from './OutputText'
import { OutputFault, OutputVerdict } from './OutputVerdict'

const NAME: RegExp = /^[A-Za-z0-9_-]{1,64}$/

/**
 * The shape the run's final answer must have: a JSON Schema compiled by the core's validator (an
 * unsupported keyword or a malformed schema is refused here, invalid_config) and a name. The name is
 * the schema's stable id: a run suspended with this obligation resumes only under a runtime whose
 * outputSchema has the same name (else `output_schema_mismatch`, and nothing runs) — rename it when
 * the answer's contract changes incompatibly. It is also `response_format.json_schema.name`.
 */
export class OutputSchema {
  readonly name: string
  /** The compiled schema the answer is checked against. */
  readonly compiled: JsonSchema
  /** `strict` for vendors with strict structured outputs (OpenAI); false by default. */
  readonly strict: boolean
  private readonly plain: Record<string, Object>

  protected constructor(schema: Record<string, Object>, name: string, strict: boolean, options: JsonSchemaOptions) {
    ConfigCheck.text(name, 'outputSchema name', 1, 64)
    if (!NAME.test(name)) {
      throw ConfigCheck.invalid(`outputSchema name must be 1 to 64 letters, digits, '_' or '-'; got ${JSON.stringify(name)}`)
    }
    ConfigCheck.bool(strict, 'outputSchema strict')
    if (schema === null || typeof schema !== 'object' || schema instanceof Array) {
      throw ConfigCheck.invalid(`outputSchema '${name}' must be a JSON Schema object; got ${ConfigCheck.show(schema)}`)
    }
    try {
      this.compiled = JsonSchema.compile(schema, options)
    } catch (e) {
      throw e instanceof JsonSchemaError ? (e as JsonSchemaError).about(`outputSchema '${name}'`) : e as Error
    }
    this.name = name
    this.strict = strict
    this.plain = JSON.parse(this.compiled.json) as Record<string, Object>
  }

  /** An output schema from a JSON Schema object (draft 2020-12, or draft-07 by `$schema`). */
  static fromJson(schema: Record<string, Object>, name: string = 'final_answer', strict: boolean = false,
    options: JsonSchemaOptions = new JsonSchemaOptions()): OutputSchema {
    return new OutputSchema(schema, name, strict, options)
  }

  /** The JSON Schema as plain data (a copy). */
  get schema(): Record<string, Object> {
    return JSON.parse(this.compiled.json) as Record<string, Object>
  }

  /** What a request carries (ModelRequest.output). */
  format(): OutputFormat {
    return new OutputFormat(this.name, this.plain, this.strict)
  }

  /** Checks a whole answer: JSON (a whole-answer ```json fence is unwrapped, see OutputText), then the schema. */
  verify(text: string): OutputVerdict {
    const parsed = OutputText.parse(text)
    return parsed.ok ? this.check(parsed.value !== undefined ? parsed.value : null) : parsed
  }

  /**
   * Checks a parsed value against the schema; the verdict's value is what `RunOutcome.output`
   * carries. A subclass may replace the check (the zod bridge parses, so defaults and transforms apply).
   */
  check(value: Object | null): OutputVerdict {
    const problems = this.compiled.errors(value, 10)
    return problems.length === 0 ? OutputVerdict.valid(value) : OutputVerdict.invalid(OutputFault.schema, problems)
  }
}
