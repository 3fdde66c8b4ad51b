/**
 * A small JSON-Schema subset validator for tool arguments: type, properties, required, enum,
 * minimum/maximum, minLength/maxLength, minItems/maxItems, items, additionalProperties.
 * Returns the first problem as "path: what", or '' when the value is valid.
 */
export class SchemaValidator {
  static readonly maxDepth: number = 64

  static validate(schema: Record<string, Object>, value: Object | null | undefined): string {
    return SchemaValidator.check(schema, value, '$', 0)
  }

  private static check(schema: Record<string, Object>, value: Object | null | undefined, path: string,
    depth: number): string {
    if (depth > SchemaValidator.maxDepth) {
      return `${path}: nested too deeply`
    }
    const type = schema['type']
    if (typeof type === 'string') {
      const err = SchemaValidator.checkType(type as string, value, path)
      if (err.length > 0) {
        return err
      }
    } else if (type instanceof Array) {
      let ok = false
      const types = type as Object[]
      for (let i = 0; i < types.length && !ok; i++) {
        ok = typeof types[i] === 'string' && SchemaValidator.checkType(types[i] as string, value, path).length === 0
      }
      if (!ok) {
        return `${path}: expected one of ${types.join(', ')}`
      }
    }
    const enumValues = schema['enum']
    if (enumValues instanceof Array) {
      let found = false
      const list = enumValues as Object[]
      for (let i = 0; i < list.length && !found; i++) {
        found = list[i] === value
      }
      if (!found) {
        return `${path}: must be one of ${JSON.stringify(list)}`
      }
    }
    if (typeof value === 'number') {
      const min = schema['minimum']
      const max = schema['maximum']
      if (typeof min === 'number' && (value as number) < (min as number)) {
        return `${path}: must be >= ${min}`
      }
      if (typeof max === 'number' && (value as number) > (max as number)) {
        return `${path}: must be <= ${max}`
      }
    }
    if (typeof value === 'string') {
      const minL = schema['minLength']
      const maxL = schema['maxLength']
      if (typeof minL === 'number' && (value as string).length < (minL as number)) {
        return `${path}: must have at least ${minL} characters`
      }
      if (typeof maxL === 'number' && (value as string).length > (maxL as number)) {
        return `${path}: must have at most ${maxL} characters`
      }
    }
    if (value instanceof Array) {
      return SchemaValidator.checkArray(schema, value as Object[], path, depth)
    }
    if (value !== null && value !== undefined && typeof value === 'object') {
      return SchemaValidator.checkObject(schema, value as Record<string, Object>, path, depth)
    }
    return ''
  }

  private static checkType(type: string, value: Object | null | undefined, path: string): string {
    let ok = false
    if (type === 'object') {
      ok = value !== null && value !== undefined && typeof value === 'object' && !(value instanceof Array)
    } else if (type === 'array') {
      ok = value instanceof Array
    } else if (type === 'string') {
      ok = typeof value === 'string'
    } else if (type === 'number') {
      ok = typeof value === 'number' && Number.isFinite(value as number)
    } else if (type === 'integer') {
      ok = typeof value === 'number' && Number.isInteger(value as number)
    } else if (type === 'boolean') {
      ok = typeof value === 'boolean'
    } else if (type === 'null') {
      ok = value === null
    } else {
      ok = true
    }
    return ok ? '' : `${path}: expected ${type}`
  }

  private static checkArray(schema: Record<string, Object>, items: Object[], path: string, depth: number): string {
    const minI = schema['minItems']
    const maxI = schema['maxItems']
    if (typeof minI === 'number' && items.length < (minI as number)) {
      return `${path}: must have at least ${minI} items`
    }
    if (typeof maxI === 'number' && items.length > (maxI as number)) {
      return `${path}: must have at most ${maxI} items`
    }
    const itemSchema = schema['items']
    if (itemSchema !== undefined && itemSchema !== null && typeof itemSchema === 'object' &&
      !(itemSchema instanceof Array)) {
      for (let i = 0; i < items.length; i++) {
        const err = SchemaValidator.check(itemSchema as Record<string, Object>, items[i], `${path}[${i}]`, depth + 1)
        if (err.length > 0) {
          return err
        }
      }
    }
    return ''
  }

  private static checkObject(schema: Record<string, Object>, obj: Record<string, Object>, path: string,
    depth: number): string {
    // Own keys only: inherited names such as 'constructor' must not count as present.
    const keys = Object.keys(obj)
    const present = new Set<string>(keys)
    const required = schema['required']
    if (required instanceof Array) {
      const names = required as Object[]
      for (let i = 0; i < names.length; i++) {
        const name = String(names[i])
        if (!present.has(name) || obj[name] === undefined) {
          return `${path}.${name}: is required`
        }
      }
    }
    const props = schema['properties']
    const properties: Record<string, Object> | undefined =
      props !== undefined && props !== null && typeof props === 'object' ? props as Record<string, Object> : undefined
    const declared = new Set<string>(properties !== undefined ? Object.keys(properties) : [])
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]
      const sub = properties !== undefined && declared.has(key) ? properties[key] : undefined
      if (sub !== undefined && sub !== null && typeof sub === 'object') {
        const err = SchemaValidator.check(sub as Record<string, Object>, obj[key], `${path}.${key}`, depth + 1)
        if (err.length > 0) {
          return err
        }
      } else if (schema['additionalProperties'] === false) {
        return `${path}.${key}: is not an allowed property`
      }
    }
    return ''
  }
}
