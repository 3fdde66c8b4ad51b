import { JsonPointer } from './JsonPointer'
import { JsonSchemaError } from './JsonSchemaError'
import { JsonSchemaDialect, JsonSchemaOptions } from './JsonSchemaOptions'
import { KeywordValues } from './KeywordValues'
import { LinearRegex } from './regex/LinearRegex'
import { KeywordKind, SchemaKeywords } from './SchemaKeywords'
import { Dependent, PatternSchema, SchemaNode } from './SchemaNode'
import { SchemaUri } from './SchemaUri'

/**
 * Compiles a schema document into SchemaNodes: every keyword checked once (supported, well-formed),
 * every `pattern` compiled on the linear-time engine, `$id`s and `$anchor`s registered for the
 * linker (SchemaLinker) to resolve `$ref`s against. Each location is compiled once, however many
 * `$ref`s point at it.
 */
export class SchemaCompiler {
  readonly document: Object
  readonly dialect: string
  readonly dialect07: boolean
  private readonly declared: Set<string>
  private readonly maxDepth: number
  /** Compiled schemas by JSON pointer. */
  readonly nodes: Map<string, SchemaNode> = new Map<string, SchemaNode>()
  /** Schema resources: absolute URI (no fragment) → JSON pointer of their root. */
  readonly resources: Map<string, string> = new Map<string, string>()
  /** `$anchor`s (and draft-07 `$id: "#name"`): absolute URI with fragment → JSON pointer. */
  readonly anchors: Map<string, string> = new Map<string, string>()
  /** Schemas whose `$ref` is still to be linked. */
  readonly unlinked: SchemaNode[] = []

  constructor(document: Object, options: JsonSchemaOptions) {
    this.document = document
    this.declared = SchemaCompiler.declaredAnnotations(options)
    this.maxDepth = options.maxDepth
    this.dialect = SchemaCompiler.dialectOf(document, options)
    this.dialect07 = this.dialect === JsonSchemaDialect.draft07
    this.resources.set(SchemaUri.defaultBase, '')
  }

  compileRoot(): SchemaNode {
    return this.compileAt(this.document, '', SchemaUri.defaultBase, 0)
  }

  /** The schema at `pointer` (compiled once; `raw` is its JSON value), its `$ref`s resolving against `base`. */
  compileAt(raw: Object | null, pointer: string, base: string, depth: number): SchemaNode {
    const known = this.nodes.get(pointer)
    if (known !== undefined) {
      return known
    }
    if (depth > this.maxDepth) {
      throw new JsonSchemaError('', pointer, `schemas nested deeper than ${this.maxDepth}`)
    }
    const node = new SchemaNode(pointer)
    this.nodes.set(pointer, node)
    node.base = base
    if (typeof raw === 'boolean') {
      node.isBoolean = true
      node.booleanValue = raw as boolean
      return node
    }
    if (raw === null || typeof raw !== 'object' || raw instanceof Array) {
      throw new JsonSchemaError('', pointer, `a schema must be an object or a boolean; got ${JSON.stringify(raw)}`)
    }
    const schema = raw as Record<string, Object>
    const keys = Object.keys(schema)
    this.checkKeywords(keys, pointer)
    node.base = this.identify(schema, pointer, base)
    if (this.dialect07 && schema['$ref'] !== undefined) {
      this.checkRefSiblings(keys, pointer)
    }
    KeywordValues.checkAnnotations(schema, pointer)
    KeywordValues.readAssertions(schema, node)
    const pattern: Object | undefined = schema['pattern']
    if (pattern !== undefined) {
      node.pattern = SchemaCompiler.regex(pattern, 'pattern', JsonPointer.append(pointer, 'pattern'))
    }
    this.readApplicators(schema, node, depth + 1)
    node.arrayKeywords = node.prefixItems.length > 0 || node.items !== undefined || node.contains !== undefined ||
      node.maxItems !== undefined || node.minItems !== undefined || node.uniqueItems || node.unevaluatedItems !== undefined
    node.objectKeywords = node.properties !== undefined || node.patternProperties.length > 0 ||
      node.additionalProperties !== undefined || node.propertyNames !== undefined || node.required.length > 0 ||
      node.dependents.length > 0 || node.maxProperties !== undefined || node.minProperties !== undefined ||
      node.unevaluatedProperties !== undefined
    return node
  }

  /** A pattern compiled on the linear-time engine; an invalid or refused one refuses the schema. */
  static regex(source: Object, keyword: string, location: string): LinearRegex {
    if (typeof source !== 'string') {
      throw new JsonSchemaError(keyword, location, 'must be a string (a regular expression)')
    }
    try {
      return LinearRegex.compile(source as string)
    } catch (e) {
      const why = e instanceof Error ? (e as Error).message : 'it cannot be compiled'
      throw new JsonSchemaError(keyword, location, `the regular expression ${JSON.stringify(source)} is invalid or refused ` +
        `by the linear-time engine (no backreferences, no lookaround): ${why}`)
    }
  }

  private checkKeywords(keys: string[], pointer: string): void {
    for (let i = 0; i < keys.length; i++) {
      const keyword = keys[i]
      const kind = SchemaKeywords.kind(keyword, this.dialect07, this.declared)
      if (kind === KeywordKind.supported || kind === KeywordKind.annotation) {
        continue
      }
      const location = JsonPointer.append(pointer, keyword)
      if (kind === KeywordKind.outOfScope) {
        throw new JsonSchemaError(keyword, location, 'is not supported by this validator ($dynamicRef, $dynamicAnchor, ' +
          '$recursiveRef, $recursiveAnchor and $vocabulary are out of scope)')
      }
      if (kind === KeywordKind.otherDialect) {
        throw new JsonSchemaError(keyword, location, this.dialect07
          ? 'is not a draft-07 keyword (it belongs to 2019-09/2020-12): declare "$schema": "' + JsonSchemaDialect.draft202012 + '"'
          : 'is a draft-07 keyword, not a 2020-12 one: declare "$schema": "' + JsonSchemaDialect.draft07 + '" or use ' +
            (keyword === 'dependencies' ? 'dependentRequired / dependentSchemas' : 'prefixItems with items'))
      }
      throw new JsonSchemaError(keyword, location, 'is not a keyword this validator knows; an unknown keyword might be an ' +
        'assertion, so it is refused rather than ignored (prefix annotations with "x-", or declare them in ' +
        'JsonSchemaOptions.annotations)')
    }
  }

  /** Reads `$schema`, `$id` and `$anchor`; returns the base URI of the schema. */
  private identify(schema: Record<string, Object>, pointer: string, base: string): string {
    const dialect: Object | undefined = schema['$schema']
    const id: Object | undefined = schema['$id']
    if (dialect !== undefined && pointer.length > 0) {
      if (typeof dialect !== 'string' || JsonSchemaDialect.of(dialect as string) !== this.dialect || id === undefined) {
        throw new JsonSchemaError('$schema', JsonPointer.append(pointer, '$schema'),
          'below the root only an embedded resource (with $id) may name the same dialect as the root; mixing dialects is not supported')
      }
    }
    let current = base
    if (id !== undefined) {
      const location = JsonPointer.append(pointer, '$id')
      if (typeof id !== 'string') {
        throw new JsonSchemaError('$id', location, 'must be a string (a URI reference)')
      }
      const text = id as string
      if (this.dialect07 && text.startsWith('#')) {
        this.addAnchor(text.substring(1), '$id', location, current, pointer)
      } else {
        if (SchemaUri.fragment(text).length > 0) {
          throw new JsonSchemaError('$id', location, `must not have a fragment (use $anchor); got ${JSON.stringify(text)}`)
        }
        current = SchemaUri.withoutFragment(SchemaUri.resolve(base, text))
        const taken = this.resources.get(current)
        if (taken !== undefined && taken !== pointer) {
          throw new JsonSchemaError('$id', location, `${JSON.stringify(current)} already identifies #${taken}`)
        }
        this.resources.set(current, pointer)
      }
    }
    const anchor: Object | undefined = schema['$anchor']
    if (anchor !== undefined) {
      const location = JsonPointer.append(pointer, '$anchor')
      if (typeof anchor !== 'string') {
        throw new JsonSchemaError('$anchor', location, 'must be a string')
      }
      this.addAnchor(anchor as string, '$anchor', location, current, pointer)
    }
    return current
  }

  private addAnchor(name: string, keyword: string, location: string, base: string, pointer: string): void {
    if (!SchemaCompiler.isAnchorName(name)) {
      throw new JsonSchemaError(keyword, location, `${JSON.stringify(name)} is not an anchor name (a letter or '_', then letters, digits, '-', '_', '.')`)
    }
    const key = `${base}#${name}`
    const taken = this.anchors.get(key)
    if (taken !== undefined && taken !== pointer) {
      throw new JsonSchemaError(keyword, location, `anchor ${JSON.stringify(name)} is already defined at #${taken}`)
    }
    this.anchors.set(key, pointer)
  }

  private static isAnchorName(name: string): boolean {
    for (let i = 0; i < name.length; i++) {
      const c = name.charAt(i)
      const letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_'
      if (!letter && (i === 0 || !((c >= '0' && c <= '9') || c === '-' || c === '.'))) {
        return false
      }
    }
    return name.length > 0
  }

  /** draft-07 ignores every keyword beside `$ref`: one that would assert something is refused, not ignored. */
  private checkRefSiblings(keys: string[], pointer: string): void {
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]
      if (k === '$ref' || k === '$comment' || k === 'definitions' || k === '$defs' || (k === '$schema' && pointer.length === 0) ||
        SchemaKeywords.kind(k, true, this.declared) === KeywordKind.annotation) {
        continue
      }
      throw new JsonSchemaError(k, JsonPointer.append(pointer, k), 'draft-07 ignores keywords beside $ref, so this one ' +
        'would never be checked; move it and the $ref into an allOf')
    }
  }

  private readApplicators(schema: Record<string, Object>, node: SchemaNode, depth: number): void {
    const at = node.pointer
    this.schemaMap(schema, '$defs', node, depth)
    this.schemaMap(schema, 'definitions', node, depth)
    const ref: Object | undefined = schema['$ref']
    if (ref !== undefined) {
      if (typeof ref !== 'string') {
        throw new JsonSchemaError('$ref', JsonPointer.append(at, '$ref'), 'must be a string (a URI reference)')
      }
      node.refText = ref as string
      node.refUri = SchemaUri.resolve(node.base, ref as string)
      this.unlinked.push(node)
    }
    node.allOf = this.schemaList(schema, 'allOf', node, depth)
    node.anyOf = this.schemaList(schema, 'anyOf', node, depth)
    node.oneOf = this.schemaList(schema, 'oneOf', node, depth)
    node.not = this.single(schema, 'not', node, depth)
    node.ifSchema = this.single(schema, 'if', node, depth)
    const thenSchema = this.single(schema, 'then', node, depth)
    const elseSchema = this.single(schema, 'else', node, depth)
    // Without `if`, `then` and `else` do nothing (they are still checked: a $ref may point at them).
    if (node.ifSchema !== undefined) {
      node.thenSchema = thenSchema
      node.elseSchema = elseSchema
    }
    this.readDependents(schema, node, depth)
    this.readItems(schema, node, depth)
    node.contains = this.single(schema, 'contains', node, depth)
    const properties = this.schemaMap(schema, 'properties', node, depth)
    if (schema['properties'] !== undefined) {
      node.properties = properties
    }
    const patterns = this.schemaMap(schema, 'patternProperties', node, depth)
    patterns.forEach((sub: SchemaNode, source: string): void => {
      const location = JsonPointer.append(JsonPointer.append(at, 'patternProperties'), source)
      node.patternProperties.push(new PatternSchema(SchemaCompiler.regex(source, 'patternProperties', location), sub))
    })
    node.additionalProperties = this.single(schema, 'additionalProperties', node, depth)
    node.propertyNames = this.single(schema, 'propertyNames', node, depth)
    node.unevaluatedItems = this.single(schema, 'unevaluatedItems', node, depth)
    node.unevaluatedProperties = this.single(schema, 'unevaluatedProperties', node, depth)
    // An annotation: checked as a schema, never applied.
    this.single(schema, 'contentSchema', node, depth)
  }

  private readItems(schema: Record<string, Object>, node: SchemaNode, depth: number): void {
    const items: Object | undefined = schema['items']
    node.prefixItems = this.schemaList(schema, 'prefixItems', node, depth)
    if (items instanceof Array) {
      if (!this.dialect07) {
        throw new JsonSchemaError('items', JsonPointer.append(node.pointer, 'items'), 'must be one schema in 2020-12 ' +
          '(the array form is draft-07\'s: use prefixItems, or declare "$schema": "' + JsonSchemaDialect.draft07 + '")')
      }
      // draft-07: items as an array is 2020-12's prefixItems, additionalItems its items.
      node.prefixItems = this.schemaList(schema, 'items', node, depth)
      node.items = this.single(schema, 'additionalItems', node, depth)
      return
    }
    node.items = this.single(schema, 'items', node, depth)
    // draft-07: without an items array, additionalItems does nothing (still checked as a schema).
    this.single(schema, 'additionalItems', node, depth)
  }

  private readDependents(schema: Record<string, Object>, node: SchemaNode, depth: number): void {
    const schemas = this.schemaMap(schema, 'dependentSchemas', node, depth)
    schemas.forEach((sub: SchemaNode, property: string): void => {
      node.dependents.push(new Dependent(property, sub, []))
    })
    const required = SchemaCompiler.objectValue(schema, 'dependentRequired', node.pointer)
    if (required !== undefined) {
      const names = Object.keys(required)
      for (let i = 0; i < names.length; i++) {
        const location = JsonPointer.append(JsonPointer.append(node.pointer, 'dependentRequired'), names[i])
        node.dependents.push(new Dependent(names[i], undefined, KeywordValues.names(required[names[i]], 'dependentRequired', location)))
      }
    }
    const dependencies = SchemaCompiler.objectValue(schema, 'dependencies', node.pointer)
    if (dependencies !== undefined) {
      const names = Object.keys(dependencies)
      for (let i = 0; i < names.length; i++) {
        const value: Object = dependencies[names[i]]
        const location = JsonPointer.append(JsonPointer.append(node.pointer, 'dependencies'), names[i])
        if (value instanceof Array) {
          node.dependents.push(new Dependent(names[i], undefined, KeywordValues.names(value, 'dependencies', location)))
        } else {
          node.dependents.push(new Dependent(names[i], this.compileAt(value, location, node.base, depth), []))
        }
      }
    }
  }

  /** The subschema under `keyword`, or undefined when absent. */
  private single(schema: Record<string, Object>, keyword: string, node: SchemaNode, depth: number): SchemaNode | undefined {
    const value: Object | null | undefined = schema[keyword]
    if (value === undefined) {
      return undefined
    }
    return this.compileAt(value, JsonPointer.append(node.pointer, keyword), node.base, depth)
  }

  /** A non-empty array of subschemas (empty when the keyword is absent). */
  private schemaList(schema: Record<string, Object>, keyword: string, node: SchemaNode, depth: number): SchemaNode[] {
    const value: Object | undefined = schema[keyword]
    const out: SchemaNode[] = []
    if (value === undefined) {
      return out
    }
    const location = JsonPointer.append(node.pointer, keyword)
    if (!(value instanceof Array) || (value as Object[]).length === 0) {
      throw new JsonSchemaError(keyword, location, 'must be a non-empty array of schemas')
    }
    const list = value as Object[]
    for (let i = 0; i < list.length; i++) {
      out.push(this.compileAt(list[i], JsonPointer.append(location, String(i)), node.base, depth))
    }
    return out
  }

  /** An object of subschemas by name (empty when the keyword is absent). */
  private schemaMap(schema: Record<string, Object>, keyword: string, node: SchemaNode, depth: number): Map<string, SchemaNode> {
    const out = new Map<string, SchemaNode>()
    const value = SchemaCompiler.objectValue(schema, keyword, node.pointer)
    if (value === undefined) {
      return out
    }
    const location = JsonPointer.append(node.pointer, keyword)
    const names = Object.keys(value)
    for (let i = 0; i < names.length; i++) {
      out.set(names[i], this.compileAt(value[names[i]], JsonPointer.append(location, names[i]), node.base, depth))
    }
    return out
  }

  private static objectValue(schema: Record<string, Object>, keyword: string, at: string): Record<string, Object> | undefined {
    const value: Object | null | undefined = schema[keyword]
    if (value === undefined) {
      return undefined
    }
    if (value === null || typeof value !== 'object' || value instanceof Array) {
      throw new JsonSchemaError(keyword, JsonPointer.append(at, keyword), 'must be an object')
    }
    return value as Record<string, Object>
  }

  private static dialectOf(document: Object, options: JsonSchemaOptions): string {
    if (JsonSchemaDialect.of(options.dialect) !== options.dialect) {
      throw new JsonSchemaError('', '', `JsonSchemaOptions.dialect must be ${JsonSchemaDialect.draft202012} or ${JsonSchemaDialect.draft07}`)
    }
    if (document === null || typeof document !== 'object' || document instanceof Array) {
      return options.dialect
    }
    const declared: Object | undefined = (document as Record<string, Object>)['$schema']
    if (declared === undefined) {
      return options.dialect
    }
    const dialect = typeof declared === 'string' ? JsonSchemaDialect.of(declared as string) : ''
    if (dialect.length === 0) {
      throw new JsonSchemaError('$schema', '/$schema', `${JSON.stringify(declared)} is not supported: only ` +
        `${JsonSchemaDialect.draft202012} and ${JsonSchemaDialect.draft07}`)
    }
    return dialect
  }

  private static declaredAnnotations(options: JsonSchemaOptions): Set<string> {
    const out = new Set<string>()
    const list = options.annotations
    if (!(list instanceof Array)) {
      throw new JsonSchemaError('', '', 'JsonSchemaOptions.annotations must be an array of keyword names')
    }
    for (let i = 0; i < list.length; i++) {
      if (typeof list[i] !== 'string' || SchemaKeywords.isReserved(list[i])) {
        throw new JsonSchemaError('', '', `JsonSchemaOptions.annotations cannot declare ${JSON.stringify(list[i])}: ` +
          'only keywords JSON Schema does not define can be annotation-only')
      }
      out.add(list[i])
    }
    return out
  }
}
