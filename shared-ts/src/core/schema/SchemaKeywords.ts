/** How the compiler treats a keyword. */
export enum KeywordKind {
  /** Not a keyword of the dialect (nor declared): refused. */
  unknown = 0,
  /** Part of the dialect and supported. */
  supported = 1,
  /** Annotation-only (meta-data, `x-`, declared by the application): accepted, asserts nothing. */
  annotation = 2,
  /** A keyword of JSON Schema this validator does not implement: refused, saying so. */
  outOfScope = 3,
  /** A keyword of the other dialect: refused, naming the dialect that has it. */
  otherDialect = 4
}

/** The keyword sets of the two dialects. */
export class SchemaKeywords {
  private static readonly shared: string[] = [
    '$schema', '$id', '$ref', '$comment', '$defs', 'definitions',
    'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else',
    'properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'contains', 'items',
    'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
    'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties',
    'required'
  ]
  private static readonly only202012: string[] = [
    '$anchor', 'prefixItems', 'dependentSchemas', 'dependentRequired', 'maxContains', 'minContains',
    'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'
  ]
  private static readonly only07: string[] = ['additionalItems', 'dependencies']
  private static readonly metaData: string[] = [
    'title', 'description', 'default', 'examples', 'readOnly', 'writeOnly', 'deprecated', 'format',
    'contentEncoding', 'contentMediaType'
  ]
  private static readonly notImplemented: string[] = [
    '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor', '$vocabulary'
  ]

  private static readonly sharedSet: Set<string> = new Set<string>(SchemaKeywords.shared)
  private static readonly set202012: Set<string> = new Set<string>(SchemaKeywords.only202012)
  private static readonly set07: Set<string> = new Set<string>(SchemaKeywords.only07)
  private static readonly metaSet: Set<string> = new Set<string>(SchemaKeywords.metaData)
  private static readonly outSet: Set<string> = new Set<string>(SchemaKeywords.notImplemented)

  /** How `keyword` is treated in `dialect07` (else 2020-12), with `declared` extra annotation keywords. */
  static kind(keyword: string, dialect07: boolean, declared: Set<string>): KeywordKind {
    if (SchemaKeywords.sharedSet.has(keyword)) {
      return KeywordKind.supported
    }
    if (SchemaKeywords.metaSet.has(keyword) || keyword.startsWith('x-') || declared.has(keyword)) {
      return KeywordKind.annotation
    }
    if (SchemaKeywords.set202012.has(keyword)) {
      return dialect07 ? KeywordKind.otherDialect : KeywordKind.supported
    }
    if (SchemaKeywords.set07.has(keyword)) {
      return dialect07 ? KeywordKind.supported : KeywordKind.otherDialect
    }
    if (SchemaKeywords.outSet.has(keyword)) {
      return KeywordKind.outOfScope
    }
    return KeywordKind.unknown
  }

  /** Whether `keyword` has a meaning in either dialect or is out of scope (it cannot be declared an annotation). */
  static isReserved(keyword: string): boolean {
    return SchemaKeywords.sharedSet.has(keyword) || SchemaKeywords.set202012.has(keyword) ||
      SchemaKeywords.set07.has(keyword) || SchemaKeywords.metaSet.has(keyword) || SchemaKeywords.outSet.has(keyword)
  }
}
