import { z } from 'zod'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../../core/errors/ArkAgentError'
import { ToolDefinition, ToolConcurrency, ToolRiskLevel } from '../../core/model/ToolDefinition'
import { JsonSchema } from '../../core/schema/JsonSchema'
import { JsonSchemaError } from '../../core/schema/JsonSchemaError'
import { JsonSchemaOptions } from '../../core/schema/JsonSchemaOptions'
import { ToolResult } from '../../core/model/ToolResult'
import { AgentTool, ToolExecutionContext } from '../../core/tools/AgentTool'
import { zodJsonSchema } from './zodJsonSchema'

/** What `zodTool` needs: the schema describes the arguments; `execute` gets them parsed. */
export interface ZodToolOptions<S extends z.ZodType> {
  name: string
  description: string
  /** A zod 4 object schema (refinements, defaults and transforms are fine; it must parse synchronously). */
  schema: S
  riskLevel?: ToolRiskLevel
  /** `concurrent` lets its calls overlap with other concurrent calls of a batch (default `serial`; docs/tools.md). */
  concurrency?: ToolConcurrency
  /**
   * Keywords your `.meta({...})` adds to the JSON Schema that assert nothing (say `label`): declared
   * annotation-only so the schema compiles. Unknown keywords are refused otherwise; `x-` ones always pass.
   */
  annotations?: string[]
  /** Receives the parsed value: typed, defaults applied, transforms run. Return the text for the model (or a ToolResult with typed parts). */
  execute: (args: z.output<S>, context: ToolExecutionContext) => Promise<string | ToolResult> | string | ToolResult
}

/**
 * An `AgentTool` whose parameters come from a zod schema. `definition.parameters` is the JSON
 * Schema of the schema's *input* side (what the model must send: defaulted fields are optional),
 * without `$schema`, compiled by the core's validator like any ToolDefinition (zod's own output
 * compiles; keywords a `.meta()` adds must be `x-` or declared in `annotations`);
 * `validateArguments` is `schema.safeParse`, reporting the first issue as `$.path.to.field: message`.
 */
export class ZodTool<S extends z.ZodType> extends AgentTool {
  readonly schema: S
  private readonly def: ToolDefinition
  private readonly handler: (args: z.output<S>, context: ToolExecutionContext) => Promise<string | ToolResult> | string | ToolResult
  /** Values parsed by validateArguments, handed to the execute call for the same arguments object. */
  private readonly parsed = new WeakMap<object, z.output<S>>()

  constructor(options: ZodToolOptions<S>) {
    super()
    this.schema = options.schema
    this.handler = options.execute
    this.def = new ToolDefinition(options.name, options.description,
      compileParameters(options.name, zodParameters(options.name, options.schema), options.annotations ?? []),
      options.riskLevel ?? ToolRiskLevel.safe, options.concurrency ?? ToolConcurrency.serial)
  }

  get definition(): ToolDefinition {
    return this.def
  }

  validateArguments(args: Record<string, Object>): string {
    const result = this.schema.safeParse(args)
    if (!result.success) {
      return formatZodIssue(result.error.issues[0])
    }
    this.parsed.set(args, result.data)
    return ''
  }

  async execute(args: Record<string, Object>, context: ToolExecutionContext): Promise<string | ToolResult> {
    let value: z.output<S>
    if (this.parsed.has(args)) {
      value = this.parsed.get(args) as z.output<S>
      this.parsed.delete(args)
    } else {
      // Called directly (not through ToolRegistry): validate here.
      const result = this.schema.safeParse(args)
      if (!result.success) {
        throw new ArkAgentError(ErrorLayer.tool, ErrorCodes.toolInvalidArguments,
          `Invalid arguments for '${this.def.name}': ${formatZodIssue(result.error.issues[0])}`, ErrorRetryability.never)
      }
      value = result.data
    }
    return await this.handler(value, context)
  }
}

/** Builds an AgentTool from a zod schema. */
export function zodTool<S extends z.ZodType>(options: ZodToolOptions<S>): ZodTool<S> {
  return new ZodTool<S>(options)
}

/** The schema as a plain JSON-Schema object for OpenAI function parameters. */
function zodParameters(name: string, schema: z.ZodType): Record<string, Object> {
  const plain = zodJsonSchema(schema, `Tool '${name}'`)
  if (plain['type'] !== 'object') {
    throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig,
      `Tool '${name}': parameters must be a zod object schema (JSON Schema type 'object')`, ErrorRetryability.never)
  }
  if (plain['properties'] === undefined) {
    plain['properties'] = {}
  }
  return plain
}

/** The parameters compiled by the core's validator (a refused keyword names the tool, like ToolDefinition does). */
function compileParameters(name: string, parameters: Record<string, Object>, annotations: string[]): JsonSchema {
  const options = new JsonSchemaOptions()
  options.annotations = annotations
  try {
    return JsonSchema.compile(parameters, options)
  } catch (e) {
    throw e instanceof JsonSchemaError ? e.about(`Tool '${name}' parameters`) : e
  }
}

/** `$.path.to.field: expected string, received number` (zod's own message, without its generic prefix). */
export function formatZodIssue(issue: z.core.$ZodIssue | undefined): string {
  if (issue === undefined) {
    return '$: invalid arguments'
  }
  let path = '$'
  for (const key of issue.path) {
    if (typeof key === 'number') {
      path += `[${key}]`
    } else if (typeof key === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) {
      path += `.${key}`
    } else {
      path += `[${JSON.stringify(typeof key === 'symbol' ? key.toString() : key)}]`
    }
  }
  const message = issue.message.replace(/^Invalid input: /, '')
  return `${path}: ${message}`
}
