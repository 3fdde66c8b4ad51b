import { JsonSchemaError } from './JsonSchemaError'
import { JsonSchemaOptions } from './JsonSchemaOptions'
import { SchemaCompiler } from './SchemaCompiler'
import { SchemaEvaluator } from './SchemaEvaluator'
import { SchemaLinker } from './SchemaLinker'
import { SchemaNode } from './SchemaNode'

/**
 * A compiled JSON Schema (draft 2020-12, or draft-07 when `$schema` says so): checked once when
 * compiled — an unknown keyword, a malformed value, a `$ref` that does not resolve inside the
 * document or a refused `pattern` throws a JsonSchemaError (invalid_config) naming the keyword and
 * its location — then applied to values as often as needed. Patterns run on a linear-time engine.
 */
export class JsonSchema {
  /** The schema as JSON text (what was compiled). */
  readonly json: string
  /** The dialect it was read as (JsonSchemaDialect.draft202012 or .draft07). */
  readonly dialect: string
  private readonly root: SchemaNode
  private readonly maxDepth: number
  private readonly maxSteps: number

  private constructor(json: string, dialect: string, root: SchemaNode, options: JsonSchemaOptions) {
    this.json = json
    this.dialect = dialect
    this.root = root
    this.maxDepth = options.maxDepth
    this.maxSteps = options.maxSteps
  }

  /** Compiles a schema (an object, or `true` / `false`). Works on a copy: later changes to `schema` change nothing. */
  static compile(schema: Record<string, Object> | boolean, options: JsonSchemaOptions = new JsonSchemaOptions()): JsonSchema {
    let json: string | undefined
    try {
      json = JSON.stringify(schema)
    } catch (e) {
      throw new JsonSchemaError('', '', `the schema cannot be written as JSON: ${e instanceof Error ? (e as Error).message : 'it cannot'}`)
    }
    if (json === undefined) {
      throw new JsonSchemaError('', '', 'a schema must be an object or a boolean')
    }
    return JsonSchema.compileJson(json, options)
  }

  /** Compiles a schema given as JSON text. */
  static compileJson(json: string, options: JsonSchemaOptions = new JsonSchemaOptions()): JsonSchema {
    let document: Object
    try {
      document = JSON.parse(json) as Object
    } catch (e) {
      throw new JsonSchemaError('', '', 'the schema is not JSON text')
    }
    JsonSchema.checkOptions(options)
    const compiler = new SchemaCompiler(document, options)
    const root = compiler.compileRoot()
    SchemaLinker.link(compiler)
    return new JsonSchema(json, compiler.dialect, root, options)
  }

  /** Whether the schema is a JSON object (not `true` / `false`). */
  get isObject(): boolean {
    return !this.root.isBoolean
  }

  /** '' when `value` is valid, else its first problem as "<path>: <what>" (`$.list[0].name: expected string`). */
  validate(value: Object | null | undefined): string {
    const problems = new SchemaEvaluator(this.maxDepth, this.maxSteps).run(this.root, value, 1)
    return problems.length > 0 ? problems[0] : ''
  }

  /** Up to `max` problems of `value` (empty: valid). */
  errors(value: Object | null | undefined, max: number = 20): string[] {
    return new SchemaEvaluator(this.maxDepth, this.maxSteps).run(this.root, value, Math.max(1, Math.floor(max)))
  }

  isValid(value: Object | null | undefined): boolean {
    return this.validate(value).length === 0
  }

  private static checkOptions(options: JsonSchemaOptions): void {
    if (!Number.isInteger(options.maxDepth) || options.maxDepth < 1 || options.maxDepth > 10000) {
      throw new JsonSchemaError('', '', `JsonSchemaOptions.maxDepth must be an integer from 1 to 10000; got ${options.maxDepth}`)
    }
    if (!Number.isInteger(options.maxSteps) || options.maxSteps < 1) {
      throw new JsonSchemaError('', '', `JsonSchemaOptions.maxSteps must be a positive integer; got ${options.maxSteps}`)
    }
  }
}
