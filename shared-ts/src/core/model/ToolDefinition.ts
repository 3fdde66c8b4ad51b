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
 * Whether calls of a tool may run at the same time as other calls of the same batch (docs/tools.md):
 * `serial` (the default) runs alone, in model order; `concurrent` may overlap with other concurrent
 * calls, within the runtime's and the tool's group limits. Only execution overlaps: gating, hooks,
 * results and history stay in model order.
 */
export enum ToolConcurrency {
  serial = 'serial',
  concurrent = 'concurrent'
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
  private readonly concurrencyMode: ToolConcurrency
  private readonly group: string
  private readonly limitOfGroup: number

  /**
   * `concurrency`: whether its calls may overlap with others (default serial); `concurrencyGroup`: the
   * group whose limit its concurrent calls count against, such as one MCP server's tools ('' : none);
   * `groupLimit`: that limit as the tool states it (0: none; ToolRegistry.setConcurrencyLimit overrides it).
   */
  constructor(name: string, description: string, parameters: Record<string, Object> | JsonSchema,
    riskLevel: ToolRiskLevel = ToolRiskLevel.safe, concurrency: ToolConcurrency = ToolConcurrency.serial,
    concurrencyGroup: string = '', groupLimit: number = 0) {
    // A risk level that is not one of the three (a typo from plain JavaScript, a value from a server)
    // would gate nothing: refused here, where it is made.
    if (riskLevel !== ToolRiskLevel.safe && riskLevel !== ToolRiskLevel.sensitive && riskLevel !== ToolRiskLevel.dangerous) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, `Tool '${name}' has risk level ${
        JSON.stringify(riskLevel as Object ?? null)}; expected 'safe', 'sensitive' or 'dangerous'`, ErrorRetryability.never)
    }
    if (concurrency !== ToolConcurrency.serial && concurrency !== ToolConcurrency.concurrent) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, `Tool '${name}' has concurrency ${
        JSON.stringify(concurrency as Object ?? null)}; expected 'serial' or 'concurrent'`, ErrorRetryability.never)
    }
    if (typeof concurrencyGroup !== 'string') {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, `Tool '${name}' has a concurrency group that is ` +
        'not a string', ErrorRetryability.never)
    }
    if (typeof groupLimit !== 'number' || !Number.isInteger(groupLimit) || groupLimit < 0) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, `Tool '${name}' has a group limit that is not ` +
        'a whole number of calls (0: none)', ErrorRetryability.never)
    }
    this.concurrencyMode = concurrency
    this.group = concurrencyGroup
    this.limitOfGroup = groupLimit
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

  /** Whether its calls may run at the same time as other concurrent calls of a batch (default serial). */
  get concurrency(): ToolConcurrency {
    return this.concurrencyMode
  }

  /** The group whose limit its concurrent calls count against ('' : only the runtime's limit). */
  get concurrencyGroup(): string {
    return this.group
  }

  /** Its group's limit as the tool states it (0: none). */
  get groupLimit(): number {
    return this.limitOfGroup
  }
}
