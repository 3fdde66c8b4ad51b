import { Assertions } from './Assertions'
import { Evaluated } from './Evaluated'
import { InstancePath, Issue, Issues } from './InstancePath'
import { JsonEquality, JsonKind } from './JsonEquality'
import { SchemaNode } from './SchemaNode'
import { StructureKeywords, SubschemaApplier } from './StructureKeywords'

/**
 * Applies compiled schemas to a value. One evaluator per validation: it counts the steps taken and
 * the depth reached, and once a guard trips (too deep, too many steps) every further application
 * fails and the value is invalid — a guard can never turn into a pass through `not`.
 *
 * `out`, when given, collects what the schema evaluated of the value (for an `unevaluated*`
 * keyword around it); a schema that has such a keyword itself collects into its own record.
 */
export class SchemaEvaluator implements SubschemaApplier {
  private readonly maxDepth: number
  private readonly maxSteps: number
  private steps: number = 0
  private stopped?: Issue
  private readonly structure: StructureKeywords

  constructor(maxDepth: number, maxSteps: number) {
    this.maxDepth = maxDepth
    this.maxSteps = maxSteps
    this.structure = new StructureKeywords(this)
  }

  /** Up to `max` problems of `value` against `root` (none: valid). */
  run(root: SchemaNode, value: Object | null | undefined, max: number): string[] {
    const issues = new Issues(max)
    const valid = this.evaluate(root, value, InstancePath.root, 0, issues, null)
    const out: string[] = []
    const stopped = this.stopped
    if (stopped !== undefined) {
      out.push(stopped.toString())
      return out
    }
    if (valid) {
      return out
    }
    for (let i = 0; i < issues.list.length; i++) {
      out.push(issues.list[i].toString())
    }
    if (out.length === 0) {
      out.push('$: is not valid')
    }
    return out
  }

  evaluate(node: SchemaNode, value: Object | null | undefined, path: InstancePath, depth: number, issues: Issues,
    out: Evaluated | null): boolean {
    if (this.stopped !== undefined) {
      return false
    }
    this.steps++
    if (this.steps > this.maxSteps) {
      this.stopped = new Issue(path, `validation took more than ${this.maxSteps} steps; the value is refused`)
      return false
    }
    if (depth > this.maxDepth) {
      this.stopped = new Issue(path, 'nested too deeply')
      return false
    }
    if (node.isBoolean) {
      if (!node.booleanValue) {
        issues.add(path, 'is not allowed')
      }
      return node.booleanValue
    }
    const kind = JsonEquality.kindOf(value)
    if (kind === JsonKind.other) {
      issues.add(path, 'is not a JSON value')
      return false
    }
    const v = value as Object | null
    const own = node.unevaluatedItems !== undefined || node.unevaluatedProperties !== undefined
    const evaluated: Evaluated | null = own ? new Evaluated() : out
    let valid = Assertions.check(node, v, kind, path, issues)
    if (!valid && issues.full) {
      return false
    }
    valid = this.inPlace(node, v, path, depth + 1, issues, evaluated) && valid
    if (!valid && issues.full) {
      return false
    }
    if (kind === JsonKind.array && node.arrayKeywords) {
      valid = this.structure.array(node, v as Object[], path, depth + 1, issues, evaluated) && valid
    } else if (kind === JsonKind.object && node.objectKeywords) {
      valid = this.structure.object(node, v as Record<string, Object>, path, depth + 1, issues, evaluated) && valid
    }
    if (valid && own && out !== null && evaluated !== null) {
      out.merge(evaluated)
    }
    return valid
  }

  /** $ref, allOf, anyOf, oneOf, not, if/then/else: the subschemas applied to the value itself. */
  private inPlace(node: SchemaNode, v: Object | null, path: InstancePath, depth: number, issues: Issues,
    evaluated: Evaluated | null): boolean {
    let valid = true
    const ref = node.ref
    if (ref !== undefined && !this.evaluate(ref, v, path, depth, issues, evaluated)) {
      valid = false
      if (issues.full) {
        return false
      }
    }
    for (let i = 0; i < node.allOf.length; i++) {
      if (!this.evaluate(node.allOf[i], v, path, depth, issues, evaluated)) {
        valid = false
        if (issues.full) {
          return false
        }
      }
    }
    if (node.anyOf.length > 0 && !this.anyOf(node, v, path, depth, issues, evaluated)) {
      valid = false
      if (issues.full) {
        return false
      }
    }
    if (node.oneOf.length > 0 && !this.oneOf(node, v, path, depth, issues, evaluated)) {
      valid = false
      if (issues.full) {
        return false
      }
    }
    const not = node.not
    if (not !== undefined && this.evaluate(not, v, path, depth, new Issues(1), null)) {
      issues.add(path, 'must not match the schema in "not"')
      valid = false
      if (issues.full) {
        return false
      }
    }
    const ifSchema = node.ifSchema
    if (ifSchema !== undefined) {
      const ifEvaluated: Evaluated | null = evaluated !== null ? new Evaluated() : null
      let branch: SchemaNode | undefined
      if (this.evaluate(ifSchema, v, path, depth, new Issues(1), ifEvaluated)) {
        if (evaluated !== null && ifEvaluated !== null) {
          evaluated.merge(ifEvaluated)
        }
        branch = node.thenSchema
      } else {
        branch = node.elseSchema
      }
      if (branch !== undefined && !this.evaluate(branch, v, path, depth, issues, evaluated)) {
        valid = false
      }
    }
    return valid
  }

  private anyOf(node: SchemaNode, v: Object | null, path: InstancePath, depth: number, issues: Issues,
    evaluated: Evaluated | null): boolean {
    let matched = false
    let first = ''
    for (let i = 0; i < node.anyOf.length; i++) {
      const branch: Evaluated | null = evaluated !== null ? new Evaluated() : null
      const quiet = new Issues(1)
      if (this.evaluate(node.anyOf[i], v, path, depth, quiet, branch)) {
        matched = true
        if (evaluated === null || branch === null) {
          break
        }
        // Every passing branch's annotations count: no short cut while they are collected.
        evaluated.merge(branch)
      } else if (first.length === 0) {
        first = quiet.first()
      }
    }
    if (!matched) {
      issues.add(path, `must match at least one schema in anyOf (the first fails: ${first})`)
    }
    return matched
  }

  private oneOf(node: SchemaNode, v: Object | null, path: InstancePath, depth: number, issues: Issues,
    evaluated: Evaluated | null): boolean {
    const passed: number[] = []
    let kept: Evaluated | null = null
    let first = ''
    for (let i = 0; i < node.oneOf.length && passed.length < 2; i++) {
      const branch: Evaluated | null = evaluated !== null ? new Evaluated() : null
      const quiet = new Issues(1)
      if (this.evaluate(node.oneOf[i], v, path, depth, quiet, branch)) {
        passed.push(i)
        kept = branch
      } else if (first.length === 0) {
        first = quiet.first()
      }
    }
    if (passed.length === 1) {
      if (evaluated !== null && kept !== null) {
        evaluated.merge(kept)
      }
      return true
    }
    issues.add(path, passed.length === 0 ? `must match exactly one schema in oneOf; it matches none (the first fails: ${first})`
      : `must match exactly one schema in oneOf; it matches oneOf[${passed[0]}] and oneOf[${passed[1]}]`)
    return false
  }
}
