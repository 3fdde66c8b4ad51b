import { DecimalMultiple } from './DecimalMultiple'
import { InstancePath, Issues } from './InstancePath'
import { JsonEquality, JsonKind } from './JsonEquality'
import { INTEGER_BIT } from './KeywordValues'
import { SchemaNode } from './SchemaNode'

/** Longest JSON shown of an enum or const in a message. */
const MAX_SHOWN: number = 200

/**
 * The validation vocabulary's assertions on one value that look at no subschema: type, enum,
 * const, the numeric and the string keywords. Each returns whether the value passed, adding a
 * problem to `issues` when not.
 */
export class Assertions {
  /** type, enum, const, and the keywords of the value's own kind (number or string). */
  static check(node: SchemaNode, value: Object | null, kind: JsonKind, path: InstancePath, issues: Issues): boolean {
    let valid = true
    if (node.typeMask !== 0 && !Assertions.typeMatches(node.typeMask, value, kind)) {
      issues.add(path, node.typeNames.length === 1 ? `expected ${node.typeNames[0]}` : `expected one of ${node.typeNames.join(', ')}`)
      valid = false
      if (issues.full) {
        return false
      }
    }
    const enumKeys = node.enumKeys
    if (node.hasConst || enumKeys !== undefined) {
      const key = JsonEquality.key(value)
      if (node.hasConst && key !== node.constKey) {
        issues.add(path, `must be equal to ${Assertions.shown(node.constValue)}`)
        valid = false
        if (issues.full) {
          return false
        }
      }
      if (enumKeys !== undefined && !enumKeys.has(key)) {
        issues.add(path, `must be one of ${Assertions.shown(node.enumValues)}`)
        valid = false
        if (issues.full) {
          return false
        }
      }
    }
    if (kind === JsonKind.number) {
      return Assertions.checkNumber(node, value as number, path, issues) && valid
    }
    if (kind === JsonKind.string) {
      return Assertions.checkString(node, value as string, path, issues) && valid
    }
    return valid
  }

  static typeMatches(mask: number, value: Object | null, kind: JsonKind): boolean {
    if ((mask & kind) !== 0) {
      return true
    }
    return kind === JsonKind.number && (mask & INTEGER_BIT) !== 0 && Number.isInteger(value as number)
  }

  /** Length in Unicode code points (a surrogate pair is one character; a lone surrogate one too). */
  static codePoints(s: string): number {
    let n = 0
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i)
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const next = s.charCodeAt(i + 1)
        if (next >= 0xdc00 && next <= 0xdfff) {
          i++
        }
      }
      n++
    }
    return n
  }

  private static checkNumber(node: SchemaNode, n: number, path: InstancePath, issues: Issues): boolean {
    let valid = true
    const minimum = node.minimum
    if (minimum !== undefined && n < minimum) {
      issues.add(path, `must be >= ${minimum}`)
      valid = false
    }
    const exclusiveMinimum = node.exclusiveMinimum
    if (exclusiveMinimum !== undefined && n <= exclusiveMinimum && !(valid === false && issues.full)) {
      issues.add(path, `must be > ${exclusiveMinimum}`)
      valid = false
    }
    const maximum = node.maximum
    if (maximum !== undefined && n > maximum && !(valid === false && issues.full)) {
      issues.add(path, `must be <= ${maximum}`)
      valid = false
    }
    const exclusiveMaximum = node.exclusiveMaximum
    if (exclusiveMaximum !== undefined && n >= exclusiveMaximum && !(valid === false && issues.full)) {
      issues.add(path, `must be < ${exclusiveMaximum}`)
      valid = false
    }
    const multipleOf = node.multipleOf
    if (multipleOf !== undefined && !(valid === false && issues.full) && !DecimalMultiple.test(n, multipleOf)) {
      issues.add(path, `must be a multiple of ${multipleOf}`)
      valid = false
    }
    return valid
  }

  private static checkString(node: SchemaNode, s: string, path: InstancePath, issues: Issues): boolean {
    let valid = true
    const minLength = node.minLength
    const maxLength = node.maxLength
    if (minLength !== undefined || maxLength !== undefined) {
      const length = Assertions.codePoints(s)
      if (minLength !== undefined && length < minLength) {
        issues.add(path, `must have at least ${minLength} characters`)
        valid = false
      }
      if (maxLength !== undefined && length > maxLength && !(valid === false && issues.full)) {
        issues.add(path, `must have at most ${maxLength} characters`)
        valid = false
      }
    }
    const pattern = node.pattern
    if (pattern !== undefined && !(valid === false && issues.full) && !pattern.test(s)) {
      issues.add(path, `must match the pattern ${JSON.stringify(pattern.source)}`)
      valid = false
    }
    return valid
  }

  private static shown(value: Object | null): string {
    const text = JSON.stringify(value)
    return text.length <= MAX_SHOWN ? text : `${text.substring(0, MAX_SHOWN)}...`
  }
}
