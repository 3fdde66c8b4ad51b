/** The JSON Schema dialects the validator speaks, by their `$schema` URI. */
export class JsonSchemaDialect {
  static readonly draft202012: string = 'https://json-schema.org/draft/2020-12/schema'
  static readonly draft07: string = 'http://json-schema.org/draft-07/schema#'

  /** The dialect a `$schema` value names, or '' when it is not one of the two supported. */
  static of(uri: string): string {
    const bare = uri.endsWith('#') ? uri.substring(0, uri.length - 1) : uri
    if (bare === 'https://json-schema.org/draft/2020-12/schema') {
      return JsonSchemaDialect.draft202012
    }
    if (bare === 'http://json-schema.org/draft-07/schema' || bare === 'https://json-schema.org/draft-07/schema') {
      return JsonSchemaDialect.draft07
    }
    return ''
  }
}

/** How a schema is compiled and checked. */
export class JsonSchemaOptions {
  /**
   * Extra keywords the application declares annotation-only: accepted anywhere, with any value,
   * and never asserting anything. (Keywords starting with `x-` always are.) A keyword the validator
   * knows cannot be declared here.
   */
  annotations: string[] = []
  /** The dialect of a schema without `$schema` (JsonSchemaDialect.draft202012 or .draft07). */
  dialect: string = JsonSchemaDialect.draft202012
  /**
   * Deepest nesting followed, counted in schemas entered: at compile time the schema's own nesting,
   * at validation each subschema applied (a property, an item, a `$ref`, an `allOf` branch...).
   * Past it a schema is refused, a value invalid — the stack never overflows.
   */
  maxDepth: number = 256
  /** Most subschema applications one validation may take; past it the value is invalid. */
  maxSteps: number = 1000000
}
