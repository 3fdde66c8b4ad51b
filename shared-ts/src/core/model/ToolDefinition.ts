import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'

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
 */
export class ToolDefinition {
  private readonly toolName: string
  private readonly toolDescription: string
  private readonly schemaText: string
  private readonly risk: ToolRiskLevel

  constructor(name: string, description: string, parameters: Record<string, Object>,
    riskLevel: ToolRiskLevel = ToolRiskLevel.safe) {
    // A risk level that is not one of the three (a typo from plain JavaScript, a value from a server)
    // would gate nothing: refused here, where it is made.
    if (riskLevel !== ToolRiskLevel.safe && riskLevel !== ToolRiskLevel.sensitive && riskLevel !== ToolRiskLevel.dangerous) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, `Tool '${name}' has risk level ${
        JSON.stringify(riskLevel as Object ?? null)}; expected 'safe', 'sensitive' or 'dangerous'`, ErrorRetryability.never)
    }
    this.toolName = name
    this.toolDescription = description
    this.schemaText = JSON.stringify(parameters)
    this.risk = riskLevel
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

  get riskLevel(): ToolRiskLevel {
    return this.risk
  }
}
