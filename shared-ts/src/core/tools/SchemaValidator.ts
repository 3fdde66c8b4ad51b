import { JsonSchema } from '../schema/JsonSchema'

/**
 * The former tool-argument validator, kept for compatibility: it compiles `schema` with the core's
 * JSON Schema validator (core/schema: draft 2020-12, local `$ref`) and validates `value`. Prefer
 * compiling once — `JsonSchema.compile(schema)`, or a ToolDefinition's `schema` — and validating
 * many times.
 */
export class SchemaValidator {
  /**
   * '' when `value` is valid, else the first problem as "path: what" (`$.city: expected string`).
   * Throws a JsonSchemaError (invalid_config) when the schema itself is refused (an unknown keyword,
   * a malformed value, a remote `$ref`, a pattern the regex engine refuses).
   */
  static validate(schema: Record<string, Object>, value: Object | null | undefined): string {
    return JsonSchema.compile(schema).validate(value)
  }
}
