import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'

/**
 * A JSON Schema refused when it was compiled: a keyword outside the supported set, a keyword with a
 * malformed value, a `$ref` that does not resolve inside the document, a `pattern` the regex engine
 * refuses. An `invalid_config` error (config layer, never retryable) naming the keyword and where it
 * sits (a JSON pointer into the schema, '' for the root).
 */
export class JsonSchemaError extends ArkAgentError {
  /** The keyword refused ('' when the schema as a whole is refused). */
  readonly keyword: string
  /** JSON pointer of the refused keyword in the schema document ('' is the root). */
  readonly location: string
  /** What is wrong, without the subject and location. */
  readonly reason: string

  constructor(keyword: string, location: string, reason: string, subject: string = 'JSON Schema') {
    super(ErrorLayer.config, ErrorCodes.invalidConfig, JsonSchemaError.describe(subject, keyword, location, reason),
      ErrorRetryability.never)
    this.name = 'JsonSchemaError'
    this.keyword = keyword
    this.location = location
    this.reason = reason
  }

  /** The same refusal told about something else (a tool: "Tool 'x' parameters"). */
  about(subject: string): JsonSchemaError {
    return new JsonSchemaError(this.keyword, this.location, this.reason, subject)
  }

  private static describe(subject: string, keyword: string, location: string, reason: string): string {
    const what = keyword.length > 0 ? `keyword '${keyword}' at #${location}` : `schema at #${location}`
    return `${subject} refused: ${what}: ${reason}`
  }
}
