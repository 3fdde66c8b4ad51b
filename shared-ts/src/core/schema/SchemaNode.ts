import { LinearRegex } from './regex/LinearRegex'

/** A `patternProperties` entry: names matching `regex` are checked against `schema`. */
export class PatternSchema {
  readonly regex: LinearRegex
  readonly schema: SchemaNode

  constructor(regex: LinearRegex, schema: SchemaNode) {
    this.regex = regex
    this.schema = schema
  }
}

/** A `dependentSchemas` / `dependentRequired` entry: applies when `property` is present. */
export class Dependent {
  readonly property: string
  readonly schema: SchemaNode | undefined
  readonly required: string[]

  constructor(property: string, schema: SchemaNode | undefined, required: string[]) {
    this.property = property
    this.schema = schema
    this.required = required
  }
}

/**
 * One compiled schema: its keywords read, checked and typed once, so validation never looks at the
 * raw JSON again. Fields left undefined (or empty) are keywords the schema does not use.
 */
export class SchemaNode {
  /** JSON pointer of this schema in the document. */
  readonly pointer: string
  /** The base URI `$ref`s inside it resolve against. */
  base: string = ''
  /** A boolean schema: `true` accepts everything, `false` nothing. */
  isBoolean: boolean = false
  booleanValue: boolean = true

  // validation vocabulary
  /** Bits of JsonKind the value may have (0: no `type`); `integer` is its own bit, integerBit. */
  typeMask: number = 0
  typeNames: string[] = []
  enumKeys?: Set<string>
  enumValues: (Object | null)[] = []
  hasConst: boolean = false
  constKey: string = ''
  constValue: Object | null = null
  multipleOf?: number
  maximum?: number
  exclusiveMaximum?: number
  minimum?: number
  exclusiveMinimum?: number
  maxLength?: number
  minLength?: number
  pattern?: LinearRegex
  maxItems?: number
  minItems?: number
  uniqueItems: boolean = false
  maxContains?: number
  minContains?: number
  maxProperties?: number
  minProperties?: number
  required: string[] = []

  // applicators
  ref?: SchemaNode
  /** The `$ref` as written and resolved (absolute URI), until it is linked. */
  refText: string = ''
  refUri: string = ''
  allOf: SchemaNode[] = []
  anyOf: SchemaNode[] = []
  oneOf: SchemaNode[] = []
  not?: SchemaNode
  ifSchema?: SchemaNode
  thenSchema?: SchemaNode
  elseSchema?: SchemaNode
  dependents: Dependent[] = []
  prefixItems: SchemaNode[] = []
  items?: SchemaNode
  contains?: SchemaNode
  properties?: Map<string, SchemaNode>
  patternProperties: PatternSchema[] = []
  additionalProperties?: SchemaNode
  propertyNames?: SchemaNode
  unevaluatedItems?: SchemaNode
  unevaluatedProperties?: SchemaNode

  /** Whether any keyword looks at arrays / objects (so other values skip those checks at once). */
  arrayKeywords: boolean = false
  objectKeywords: boolean = false

  constructor(pointer: string) {
    this.pointer = pointer
  }

  /** The subschemas applied to the same value (where a `$ref` cycle would never make progress). */
  inPlace(): SchemaNode[] {
    const out: SchemaNode[] = []
    const ref = this.ref
    if (ref !== undefined) {
      out.push(ref)
    }
    SchemaNode.pushAll(out, this.allOf)
    SchemaNode.pushAll(out, this.anyOf)
    SchemaNode.pushAll(out, this.oneOf)
    SchemaNode.pushDefined(out, this.not)
    SchemaNode.pushDefined(out, this.ifSchema)
    SchemaNode.pushDefined(out, this.thenSchema)
    SchemaNode.pushDefined(out, this.elseSchema)
    for (let i = 0; i < this.dependents.length; i++) {
      SchemaNode.pushDefined(out, this.dependents[i].schema)
    }
    return out
  }

  private static pushAll(out: SchemaNode[], nodes: SchemaNode[]): void {
    for (let i = 0; i < nodes.length; i++) {
      out.push(nodes[i])
    }
  }

  private static pushDefined(out: SchemaNode[], node: SchemaNode | undefined): void {
    if (node !== undefined) {
      out.push(node)
    }
  }
}
