export enum ToolRiskLevel {
  safe = 'safe',
  sensitive = 'sensitive',
  dangerous = 'dangerous'
}

/** What the model sees of a tool: name, description and JSON-Schema parameters, plus its risk level. */
export class ToolDefinition {
  readonly name: string
  readonly description: string
  /** JSON Schema (object) describing the arguments. */
  readonly parameters: Record<string, Object>
  readonly riskLevel: ToolRiskLevel

  constructor(name: string, description: string, parameters: Record<string, Object>,
    riskLevel: ToolRiskLevel = ToolRiskLevel.safe) {
    this.name = name
    this.description = description
    this.parameters = parameters
    this.riskLevel = riskLevel
  }
}
