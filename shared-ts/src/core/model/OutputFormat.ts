/**
 * What a request asks of the answer's shape: the JSON Schema the final answer must satisfy. A
 * provider turns it into its vendor's `response_format` when the vendor has one (WireProfile.output);
 * the runtime checks the answer itself either way.
 */
export class OutputFormat {
  /** The schema's name (`response_format.json_schema.name`): letters, digits, `_` and `-`, at most 64. */
  readonly name: string
  /** The JSON Schema as plain data (a copy of what was compiled). */
  readonly schema: Record<string, Object>
  /** `response_format.json_schema.strict` (OpenAI): decoding constrained to the schema; the schema must then fit OpenAI's subset. */
  readonly strict: boolean

  constructor(name: string, schema: Record<string, Object>, strict: boolean = false) {
    this.name = name
    this.schema = schema
    this.strict = strict
  }

  /**
   * Whether the schema's root is an object (`"type": "object"`): vendors' JSON modes produce objects
   * only, and OpenAI's structured outputs need an object root — any other root is only instructed.
   */
  get rootIsObject(): boolean {
    return this.schema['type'] === 'object'
  }
}
