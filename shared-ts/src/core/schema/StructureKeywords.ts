import { Evaluated } from './Evaluated'
import { InstancePath, Issues } from './InstancePath'
import { JsonEquality } from './JsonEquality'
import { SchemaNode } from './SchemaNode'

/** What the array and object keywords need of the evaluator: applying a subschema. */
export interface SubschemaApplier {
  evaluate(node: SchemaNode, value: Object | null | undefined, path: InstancePath, depth: number, issues: Issues,
    out: Evaluated | null): boolean
}

/**
 * The keywords of arrays (prefixItems, items, contains, minItems, maxItems, uniqueItems,
 * unevaluatedItems) and objects (properties, patternProperties, additionalProperties,
 * propertyNames, required, dependentRequired, dependentSchemas, minProperties, maxProperties,
 * unevaluatedProperties). `evaluated` is the record of the schema's in-place evaluation; the
 * unevaluated keywords run last, once it is complete.
 */
export class StructureKeywords {
  private readonly applier: SubschemaApplier

  constructor(applier: SubschemaApplier) {
    this.applier = applier
  }

  array(node: SchemaNode, list: Object[], path: InstancePath, depth: number, issues: Issues, evaluated: Evaluated | null): boolean {
    let valid = true
    const n = list.length
    const minItems = node.minItems
    if (minItems !== undefined && n < minItems) {
      issues.add(path, `must have at least ${minItems} items`)
      valid = false
    }
    const maxItems = node.maxItems
    if (maxItems !== undefined && n > maxItems) {
      issues.add(path, `must have at most ${maxItems} items`)
      valid = false
    }
    if (node.uniqueItems && n > 1 && !(valid === false && issues.full)) {
      const seen = new Map<string, number>()
      for (let i = 0; i < n; i++) {
        const key = JsonEquality.key(list[i])
        const earlier = seen.get(key)
        if (earlier !== undefined) {
          issues.add(path, `must not contain duplicates; items ${earlier} and ${i} are equal`)
          valid = false
          break
        }
        seen.set(key, i)
      }
    }
    if (!valid && issues.full) {
      return false
    }
    const prefix = Math.min(n, node.prefixItems.length)
    for (let i = 0; i < prefix; i++) {
      if (!this.applier.evaluate(node.prefixItems[i], list[i], path.item(i), depth, issues, null)) {
        valid = false
        if (issues.full) {
          return false
        }
      }
    }
    if (evaluated !== null) {
      evaluated.itemsBefore = Math.max(evaluated.itemsBefore, prefix)
    }
    const items = node.items
    if (items !== undefined && n > prefix) {
      if (!this.rest(items, list, prefix, path, depth, issues, 'is not allowed: the array may have at most ' +
        `${node.prefixItems.length} items`)) {
        valid = false
        if (issues.full) {
          return false
        }
      }
      if (evaluated !== null) {
        evaluated.allItems = true
      }
    }
    if (node.contains !== undefined && !this.contains(node, list, path, depth, issues, evaluated)) {
      valid = false
      if (issues.full) {
        return false
      }
    }
    const unevaluated = node.unevaluatedItems
    if (unevaluated !== undefined && evaluated !== null) {
      for (let i = 0; i < n; i++) {
        if (!evaluated.hasItem(i) && !this.one(unevaluated, list[i], path.item(i), depth, issues,
          'is not allowed: no keyword evaluated this item (unevaluatedItems)')) {
          valid = false
          if (issues.full) {
            return false
          }
        }
      }
      evaluated.allItems = true
    }
    return valid
  }

  object(node: SchemaNode, obj: Record<string, Object>, path: InstancePath, depth: number, issues: Issues,
    evaluated: Evaluated | null): boolean {
    const keys = JsonEquality.keysOf(obj)
    let valid = this.counts(node, obj, keys, path, depth, issues, evaluated)
    if (!valid && issues.full) {
      return false
    }
    const properties = node.properties
    const additional = node.additionalProperties
    if (properties !== undefined || node.patternProperties.length > 0 || additional !== undefined) {
      for (let k = 0; k < keys.length; k++) {
        const key = keys[k]
        let matched = false
        const sub = properties !== undefined ? properties.get(key) : undefined
        if (sub !== undefined) {
          matched = true
          valid = this.applier.evaluate(sub, obj[key], path.property(key), depth, issues, null) && valid
        }
        for (let p = 0; p < node.patternProperties.length && !(valid === false && issues.full); p++) {
          const pattern = node.patternProperties[p]
          if (pattern.regex.test(key)) {
            matched = true
            valid = this.applier.evaluate(pattern.schema, obj[key], path.property(key), depth, issues, null) && valid
          }
        }
        if (!matched && additional !== undefined && !(valid === false && issues.full)) {
          matched = true
          valid = this.one(additional, obj[key], path.property(key), depth, issues, 'is not an allowed property') && valid
        }
        if (matched && evaluated !== null) {
          evaluated.properties.add(key)
        }
        if (!valid && issues.full) {
          return false
        }
      }
    }
    const names = node.propertyNames
    if (names !== undefined) {
      for (let k = 0; k < keys.length; k++) {
        const quiet = new Issues(1)
        if (!this.applier.evaluate(names, keys[k], path, depth, quiet, null)) {
          const why = quiet.list.length > 0 ? quiet.list[0].message : 'is not allowed'
          issues.add(path, `property name ${JSON.stringify(keys[k])} is not allowed by propertyNames: it ${why}`)
          valid = false
          if (issues.full) {
            return false
          }
        }
      }
    }
    const unevaluated = node.unevaluatedProperties
    if (unevaluated !== undefined && evaluated !== null) {
      for (let k = 0; k < keys.length; k++) {
        const key = keys[k]
        if (!evaluated.hasProperty(key) && !this.one(unevaluated, obj[key], path.property(key), depth, issues,
          'is not an allowed property')) {
          valid = false
          if (issues.full) {
            return false
          }
        }
      }
      evaluated.allProperties = true
    }
    return valid
  }

  /** required, dependentRequired, dependentSchemas, minProperties, maxProperties. */
  private counts(node: SchemaNode, obj: Record<string, Object>, keys: string[], path: InstancePath, depth: number,
    issues: Issues, evaluated: Evaluated | null): boolean {
    let valid = true
    const minProperties = node.minProperties
    if (minProperties !== undefined && keys.length < minProperties) {
      issues.add(path, `must have at least ${minProperties} properties`)
      valid = false
    }
    const maxProperties = node.maxProperties
    if (maxProperties !== undefined && keys.length > maxProperties) {
      issues.add(path, `must have at most ${maxProperties} properties`)
      valid = false
    }
    if (node.required.length === 0 && node.dependents.length === 0) {
      return valid
    }
    const present = new Set<string>(keys)
    for (let i = 0; i < node.required.length && !(valid === false && issues.full); i++) {
      if (!present.has(node.required[i])) {
        issues.add(path.property(node.required[i]), 'is required')
        valid = false
      }
    }
    for (let i = 0; i < node.dependents.length && !(valid === false && issues.full); i++) {
      const dependent = node.dependents[i]
      if (!present.has(dependent.property)) {
        continue
      }
      for (let r = 0; r < dependent.required.length; r++) {
        if (!present.has(dependent.required[r])) {
          issues.add(path.property(dependent.required[r]), `is required when ${JSON.stringify(dependent.property)} is present`)
          valid = false
          break
        }
      }
      const schema = dependent.schema
      if (schema !== undefined && !(valid === false && issues.full)) {
        valid = this.applier.evaluate(schema, obj, path, depth, issues, evaluated) && valid
      }
    }
    return valid
  }

  /** Items from `start` on against `schema` (`items` after `prefixItems`). */
  private rest(schema: SchemaNode, list: Object[], start: number, path: InstancePath, depth: number, issues: Issues,
    refusal: string): boolean {
    let valid = true
    for (let i = start; i < list.length; i++) {
      if (!this.one(schema, list[i], path.item(i), depth, issues, refusal)) {
        valid = false
        if (issues.full || (schema.isBoolean && !schema.booleanValue)) {
          return false
        }
      }
    }
    return valid
  }

  /** One value against `schema`; `false` is reported as `refusal` rather than a bare "is not allowed". */
  private one(schema: SchemaNode, value: Object | null, path: InstancePath, depth: number, issues: Issues, refusal: string): boolean {
    if (schema.isBoolean && !schema.booleanValue) {
      issues.add(path, refusal)
      return false
    }
    return this.applier.evaluate(schema, value, path, depth, issues, null)
  }

  private contains(node: SchemaNode, list: Object[], path: InstancePath, depth: number, issues: Issues,
    evaluated: Evaluated | null): boolean {
    const contains = node.contains as SchemaNode
    const min = node.minContains !== undefined ? node.minContains : 1
    const max = node.maxContains
    let count = 0
    for (let i = 0; i < list.length; i++) {
      if (this.applier.evaluate(contains, list[i], path.item(i), depth, new Issues(1), null)) {
        count++
        if (evaluated !== null) {
          evaluated.items.add(i)
        } else if (max === undefined && count >= min) {
          break
        }
      }
    }
    if (count < min) {
      issues.add(path, min === 1 ? 'must contain an item matching "contains"' : `must contain at least ${min} items matching "contains"`)
      return false
    }
    if (max !== undefined && count > max) {
      issues.add(path, `must contain at most ${max} items matching "contains"`)
      return false
    }
    return true
  }
}
