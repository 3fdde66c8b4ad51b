import { JsonEquality, JsonKind } from './JsonEquality'
import { JsonPointer } from './JsonPointer'
import { JsonSchemaError } from './JsonSchemaError'
import { SchemaNode } from './SchemaNode'

/** The `type` bit of `integer` (the other types use their JsonKind bit). */
export const INTEGER_BIT: number = 64

/**
 * Reads the validation-vocabulary keywords of one schema object into its node, refusing a value the
 * meta-schema would reject (`minLength: -1`, `required: "x"`, `type: "foo"`). `pattern` is left to
 * the compiler (it needs the regex engine).
 */
export class KeywordValues {
  static readAssertions(schema: Record<string, Object>, node: SchemaNode): void {
    const at = node.pointer
    const type: Object | undefined = schema['type']
    if (type !== undefined) {
      KeywordValues.readType(type, node, JsonPointer.append(at, 'type'))
    }
    const values: Object | undefined = schema['enum']
    if (values !== undefined) {
      if (!(values instanceof Array)) {
        throw new JsonSchemaError('enum', JsonPointer.append(at, 'enum'), 'must be an array')
      }
      const list = values as (Object | null)[]
      const keys = new Set<string>()
      for (let i = 0; i < list.length; i++) {
        keys.add(JsonEquality.key(list[i]))
      }
      node.enumKeys = keys
      node.enumValues = list
    }
    if (KeywordValues.has(schema, 'const')) {
      const value = schema['const'] as Object | null
      node.hasConst = true
      node.constValue = value
      node.constKey = JsonEquality.key(value)
    }
    node.multipleOf = KeywordValues.number(schema, 'multipleOf', at, true)
    node.maximum = KeywordValues.number(schema, 'maximum', at, false)
    node.exclusiveMaximum = KeywordValues.number(schema, 'exclusiveMaximum', at, false)
    node.minimum = KeywordValues.number(schema, 'minimum', at, false)
    node.exclusiveMinimum = KeywordValues.number(schema, 'exclusiveMinimum', at, false)
    node.maxLength = KeywordValues.count(schema, 'maxLength', at)
    node.minLength = KeywordValues.count(schema, 'minLength', at)
    node.maxItems = KeywordValues.count(schema, 'maxItems', at)
    node.minItems = KeywordValues.count(schema, 'minItems', at)
    node.maxContains = KeywordValues.count(schema, 'maxContains', at)
    node.minContains = KeywordValues.count(schema, 'minContains', at)
    node.maxProperties = KeywordValues.count(schema, 'maxProperties', at)
    node.minProperties = KeywordValues.count(schema, 'minProperties', at)
    node.uniqueItems = KeywordValues.flag(schema, 'uniqueItems', at)
    const required: Object | undefined = schema['required']
    if (required !== undefined) {
      node.required = KeywordValues.names(required, 'required', JsonPointer.append(at, 'required'))
    }
  }

  /** Checks the annotation keywords' values (title is a string, readOnly a boolean...). */
  static checkAnnotations(schema: Record<string, Object>, at: string): void {
    const strings = ['title', 'description', '$comment', 'format', 'contentEncoding', 'contentMediaType']
    for (let i = 0; i < strings.length; i++) {
      const v: Object | undefined = schema[strings[i]]
      if (v !== undefined && typeof v !== 'string') {
        throw new JsonSchemaError(strings[i], JsonPointer.append(at, strings[i]), 'must be a string')
      }
    }
    const flags = ['readOnly', 'writeOnly', 'deprecated']
    for (let i = 0; i < flags.length; i++) {
      KeywordValues.flag(schema, flags[i], at)
    }
    const examples: Object | undefined = schema['examples']
    if (examples !== undefined && !(examples instanceof Array)) {
      throw new JsonSchemaError('examples', JsonPointer.append(at, 'examples'), 'must be an array')
    }
  }

  /** An array of unique strings (`required`, a `dependentRequired` entry). */
  static names(value: Object, keyword: string, location: string): string[] {
    if (!(value instanceof Array)) {
      throw new JsonSchemaError(keyword, location, 'must be an array of strings')
    }
    const list = value as Object[]
    const seen = new Set<string>()
    for (let i = 0; i < list.length; i++) {
      if (typeof list[i] !== 'string') {
        throw new JsonSchemaError(keyword, location, `must be an array of strings; item ${i} is ${JSON.stringify(list[i])}`)
      }
      if (seen.has(list[i] as string)) {
        throw new JsonSchemaError(keyword, location, `must not repeat a name; ${JSON.stringify(list[i])} is there twice`)
      }
      seen.add(list[i] as string)
    }
    return list as string[]
  }

  /** Whether `schema` has `keyword` as an own key (its value may be null). */
  static has(schema: Record<string, Object>, keyword: string): boolean {
    const v: Object | null | undefined = schema[keyword]
    return v !== undefined
  }

  /** A boolean keyword (false when absent). */
  static flag(schema: Record<string, Object>, keyword: string, at: string): boolean {
    const v: Object | undefined = schema[keyword]
    if (v === undefined) {
      return false
    }
    if (typeof v !== 'boolean') {
      throw new JsonSchemaError(keyword, JsonPointer.append(at, keyword), 'must be true or false')
    }
    return v as boolean
  }

  private static readType(type: Object, node: SchemaNode, location: string): void {
    const names: string[] = []
    if (typeof type === 'string') {
      names.push(type as string)
    } else if (type instanceof Array && (type as Object[]).length > 0) {
      const list = type as Object[]
      for (let i = 0; i < list.length; i++) {
        if (typeof list[i] !== 'string') {
          throw new JsonSchemaError('type', location, `must be a type name or an array of them; item ${i} is ${JSON.stringify(list[i])}`)
        }
        if (names.indexOf(list[i] as string) >= 0) {
          throw new JsonSchemaError('type', location, `must not repeat a type; '${list[i] as string}' is there twice`)
        }
        names.push(list[i] as string)
      }
    } else {
      throw new JsonSchemaError('type', location, 'must be a type name or a non-empty array of them')
    }
    let mask = 0
    for (let i = 0; i < names.length; i++) {
      const bit = KeywordValues.typeBit(names[i])
      if (bit === 0) {
        throw new JsonSchemaError('type', location, `'${names[i]}' is not a JSON Schema type (null, boolean, object, array, number, string, integer)`)
      }
      mask = mask | bit
    }
    node.typeMask = mask
    node.typeNames = names
  }

  private static typeBit(name: string): number {
    if (name === 'null') {
      return JsonKind.null
    }
    if (name === 'boolean') {
      return JsonKind.boolean
    }
    if (name === 'object') {
      return JsonKind.object
    }
    if (name === 'array') {
      return JsonKind.array
    }
    if (name === 'number') {
      return JsonKind.number
    }
    if (name === 'string') {
      return JsonKind.string
    }
    if (name === 'integer') {
      return INTEGER_BIT
    }
    return 0
  }

  /** A finite number (> 0 when `positive`), or undefined when absent. */
  private static number(schema: Record<string, Object>, keyword: string, at: string, positive: boolean): number | undefined {
    const v: Object | undefined = schema[keyword]
    if (v === undefined) {
      return undefined
    }
    if (typeof v !== 'number' || !Number.isFinite(v as number)) {
      throw new JsonSchemaError(keyword, JsonPointer.append(at, keyword), `must be a number; got ${JSON.stringify(v)}`)
    }
    if (positive && (v as number) <= 0) {
      throw new JsonSchemaError(keyword, JsonPointer.append(at, keyword), `must be greater than 0; got ${v as number}`)
    }
    return v as number
  }

  /** A non-negative integer (1.0 counts), or undefined when absent. */
  private static count(schema: Record<string, Object>, keyword: string, at: string): number | undefined {
    const v: Object | undefined = schema[keyword]
    if (v === undefined) {
      return undefined
    }
    if (typeof v !== 'number' || !Number.isInteger(v as number) || (v as number) < 0) {
      throw new JsonSchemaError(keyword, JsonPointer.append(at, keyword), `must be an integer of at least 0; got ${JSON.stringify(v)}`)
    }
    return v as number
  }
}
