import { OutputMode } from '../provider/WireProfile'
import { OutputSchema } from './OutputSchema'
import { OutputVerdict } from './OutputVerdict'

/** The texts the model gets about the output schema: in the system prompt, and in a repair turn. */
export class OutputInstruction {
  /**
   * The system prompt with the obligation added. The schema itself is written out unless the vendor
   * receives it as `response_format` json_schema (and then only a line that names it): with JSON mode
   * (`json_object`) or no mode at all, the prompt is the only place the model learns the shape (and
   * JSON modes need the word "JSON" in the prompt).
   */
  static systemPrompt(base: string, schema: OutputSchema, mode: string): string {
    const sent = mode === OutputMode.jsonSchema && schema.format().rootIsObject
    const lines: string[] = []
    if (base.length > 0) {
      lines.push(base, '')
    }
    lines.push(`Your final answer (the message you end with, after any tool calls) must be a single JSON value ` +
      `valid against the JSON Schema "${schema.name}"` + (sent ? ' given with this request.' : ' below.') +
      ' Reply with the JSON alone: no prose and no code fence around it.')
    if (!sent) {
      lines.push(`JSON Schema "${schema.name}":`, schema.compiled.json)
    }
    return lines.join('\n')
  }

  /** The user message of a repair turn: what failed, and what to send instead. */
  static repair(schema: OutputSchema, verdict: OutputVerdict, attempt: number, max: number): string {
    return `Your last answer is not a valid final answer (repair ${attempt} of ${max}): ${verdict.describe(8)}. ` +
      `Reply again with only the corrected JSON value, valid against the JSON Schema "${schema.name}" ` +
      '— no prose, no code fence, nothing else.'
  }
}
