import { Thrown } from '../errors/Thrown'
import { ContentPart } from '../model/ContentPart'
import { ToolConcurrency, ToolRiskLevel } from '../model/ToolDefinition'
import { ToolResult } from '../model/ToolResult'
import { JsonSchema } from '../schema/JsonSchema'
import { JsonSchemaError } from '../schema/JsonSchemaError'
import { McpContent } from './McpContent'
import { McpSkippedTool } from './McpSkippedTool'

/** One tool a server lists. */
export class McpToolInfo {
  readonly name: string
  readonly description: string
  readonly inputSchema: Record<string, Object>
  readonly risk: ToolRiskLevel
  /** `inputSchema` compiled (what the tool's arguments are validated with). */
  readonly schema?: JsonSchema
  /** `concurrent` when the server says the tool only reads (readOnlyHint), else `serial`; an override replaces it. */
  readonly concurrency: ToolConcurrency

  constructor(name: string, description: string, inputSchema: Record<string, Object>, risk: ToolRiskLevel,
    schema?: JsonSchema, concurrency: ToolConcurrency = ToolConcurrency.serial) {
    this.name = name
    this.description = description
    this.inputSchema = inputSchema
    this.risk = risk
    this.schema = schema
    this.concurrency = concurrency
  }

  /**
   * A listed tool, or undefined for one that cannot be offered to a model (see `read`).
   */
  static from(raw: Object | null | undefined): McpToolInfo | undefined {
    const read = McpToolInfo.read(raw)
    return read instanceof McpToolInfo ? read as McpToolInfo : undefined
  }

  /**
   * A listed tool, or why it cannot be offered to a model: no name, an input schema that is not a
   * JSON-Schema object (a missing schema means "no arguments"), or one the validator refuses (an
   * unsupported keyword, a remote `$ref`, a pattern the regex engine refuses...): left out, never
   * offered with a schema checked weaker than it says.
   */
  static read(raw: Object | null | undefined): McpToolInfo | McpSkippedTool {
    if (raw === null || raw === undefined || typeof raw !== 'object' || raw instanceof Array) {
      return new McpSkippedTool('', 'the listing entry is not an object')
    }
    const t = raw as Record<string, Object>
    const name: Object | undefined = t['name']
    if (typeof name !== 'string' || (name as string).length === 0) {
      return new McpSkippedTool('', 'it has no name')
    }
    const schema: Object | undefined = t['inputSchema']
    let inputSchema: Record<string, Object>
    if (schema === undefined || schema === null) {
      inputSchema = McpToolInfo.emptySchema()
    } else if (typeof schema === 'object' && !(schema instanceof Array) &&
      ((schema as Record<string, Object>)['type'] === 'object' || (schema as Record<string, Object>)['type'] === undefined)) {
      inputSchema = schema as Record<string, Object>
      if (inputSchema['type'] === undefined) {
        inputSchema['type'] = 'object'
      }
    } else {
      return new McpSkippedTool(name as string, 'its inputSchema is not a JSON-Schema object (type "object")')
    }
    let compiled: JsonSchema
    try {
      compiled = JsonSchema.compile(inputSchema)
    } catch (e) {
      if (e instanceof JsonSchemaError) {
        const refused = e as JsonSchemaError
        return new McpSkippedTool(name as string, refused.about('its inputSchema').message, refused.keyword)
      }
      return new McpSkippedTool(name as string, `its inputSchema could not be compiled: ${Thrown.describe(e as Object)}`)
    }
    const description: Object | undefined = t['description']
    return new McpToolInfo(name as string, typeof description === 'string' ? description as string : name as string,
      inputSchema, McpToolInfo.riskOf(t['annotations']), compiled, McpToolInfo.concurrencyOf(t['annotations']))
  }

  /** readOnlyHint → safe; destructiveHint or no hint → dangerous; explicitly neither → sensitive. */
  static riskOf(annotations: Object | null | undefined): ToolRiskLevel {
    if (annotations === undefined || annotations === null || typeof annotations !== 'object') {
      return ToolRiskLevel.dangerous
    }
    const a = annotations as Record<string, Object>
    if (a['readOnlyHint'] === true) {
      return ToolRiskLevel.safe
    }
    if (a['destructiveHint'] === false) {
      return ToolRiskLevel.sensitive
    }
    return ToolRiskLevel.dangerous
  }

  /** readOnlyHint → concurrent (a read may overlap with other reads); anything else → serial. */
  static concurrencyOf(annotations: Object | null | undefined): ToolConcurrency {
    if (annotations === undefined || annotations === null || typeof annotations !== 'object') {
      return ToolConcurrency.serial
    }
    return (annotations as Record<string, Object>)['readOnlyHint'] === true ? ToolConcurrency.concurrent :
      ToolConcurrency.serial
  }

  private static emptySchema(): Record<string, Object> {
    const schema: Record<string, Object> = { 'type': 'object' }
    return schema
  }
}

/** A tool call's answer: its content as typed parts, and whether the server flagged it an error. */
export class McpCallResult {
  readonly parts: ContentPart[]
  readonly isError: boolean
  /** The raw `result` object ({} when the server's `result` was not an object: see `answer`). */
  readonly raw: Record<string, Object>
  /** The `result` exactly as the server sent it (a string or null from a server that broke the protocol). */
  readonly answer: Object | null

  constructor(parts: ContentPart[], isError: boolean, raw: Record<string, Object> = new Object() as Record<string, Object>,
    answer?: Object | null) {
    this.parts = parts
    this.isError = isError
    this.raw = raw
    this.answer = answer === undefined ? raw : answer
  }

  /**
   * A `tools/call` answer read the way both clients read it (McpContent.toResult): a result that is
   * not an object is an error-flagged result saying so, never an empty success.
   */
  static of(tool: string, answer: Object | null): McpCallResult {
    const result: ToolResult = McpContent.toResult('', tool, answer)
    const raw = answer !== null && typeof answer === 'object' && !(answer instanceof Array) ? answer as Record<string, Object> :
      new Object() as Record<string, Object>
    return new McpCallResult(result.content, result.isError, raw, answer)
  }

  /** What a text-only model is sent (images and resources described). */
  get text(): string {
    return ContentPart.modelTextOf(this.parts)
  }
}
