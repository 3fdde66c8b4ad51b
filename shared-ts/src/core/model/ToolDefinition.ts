import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { JsonSchema } from '../schema/JsonSchema'
import { JsonSchemaError } from '../schema/JsonSchemaError'

/** How much a tool can do: `safe` runs at once, `sensitive` asks when the approval policy says so, `dangerous` always waits for approval. */
export enum ToolRiskLevel {
  safe = 'safe',
  sensitive = 'sensitive',
  dangerous = 'dangerous'
}

/**
 * What the model sees of a tool: name, description and JSON-Schema parameters, plus its risk level.
 * Immutable: a definition reaches hook contexts and requests, and nothing given one may change how
 * the tool is gated (`riskLevel`) or validated (`parameters`). The schema is kept as JSON text and
 * `parameters` returns a fresh copy on every read (ArkTS has no Object.freeze).
 *
 * The parameters schema is compiled when the definition is made (`validate` checks the model's
 * arguments with it): a schema the validator does not fully support — an unknown keyword, a
 * malformed value, a remote `$ref`, a pattern the linear-time regex engine refuses — throws a
 * JsonSchemaError (invalid_config) naming the tool and the keyword, instead of being checked weaker
 * than it says. Pass a JsonSchema compiled with your own JsonSchemaOptions to declare extra
 * annotation keywords.
 */
export class ToolDefinition {
  private readonly toolName: string
  private readonly toolDescription: string
  private readonly schemaText: string
  private readonly compiled: JsonSchema
  private readonly risk: ToolRiskLevel

  constructor(name: string, description: string, parameters: Record<string, Object> | JsonSchema,
    riskLevel: ToolRiskLevel = ToolRiskLevel.safe) {
    // A risk level that is not one of the three (a typo from plain JavaScript, a value from a server)
    // would gate nothing: refused here, where it is made.
    if (riskLevel !== ToolRiskLevel.safe && riskLevel !== ToolRiskLevel.sensitive && riskLevel !== ToolRiskLevel.dangerous) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, `Tool '${name}' has risk level ${
        JSON.stringify(riskLevel as Object ?? null)}; expected 'safe', 'sensitive' or 'dangerous'`, ErrorRetryability.never)
    }
    this.toolName = name
    this.toolDescription = description
    this.compiled = ToolDefinition.compileParameters(name, parameters)
    this.schemaText = this.compiled.json
    this.risk = riskLevel
  }

  private static compileParameters(name: string, parameters: Record<string, Object> | JsonSchema): JsonSchema {
    let compiled: JsonSchema
    if (parameters instanceof JsonSchema) {
      compiled = parameters as JsonSchema
    } else {
      try {
        compiled = JsonSchema.compile(parameters as Record<string, Object>)
      } catch (e) {
        if (e instanceof JsonSchemaError) {
          throw (e as JsonSchemaError).about(`Tool '${name}' parameters`)
        }
        throw ArkAgentError.from(e as Object, ErrorLayer.config, ErrorCodes.invalidConfig, `Tool '${name}' parameters`)
      }
    }
    if (!compiled.isObject) {
      throw new JsonSchemaError('', '', 'must be a JSON Schema object (not true or false)', `Tool '${name}' parameters`)
    }
    return compiled
  }

  get name(): string {
    return this.toolName
  }

  get description(): string {
    return this.toolDescription
  }

  /** JSON Schema (object) describing the arguments; a copy. */
  get parameters(): Record<string, Object> {
    return JSON.parse(this.schemaText) as Record<string, Object>
  }

  /** The schema as JSON text (no copy), for encoders. */
  get parametersJson(): string {
    return this.schemaText
  }

  /**
   * `args` checked against the compiled parameters schema: '' when valid, else the first problem
   * ("$.path: expected string"). The compiled schema itself is not handed out: a definition reaches
   * hooks, and nothing given one may change how the tool is validated.
   */
  validate(args: Object | null | undefined): string {
    return this.compiled.validate(args)
  }

  get riskLevel(): ToolRiskLevel {
    return this.risk
  }
}
