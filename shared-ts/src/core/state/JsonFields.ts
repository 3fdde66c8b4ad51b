import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'

/**
 * Typed reads of untrusted parsed JSON. Every failure is an ArkAgentError naming the field path,
 * so corrupt input never surfaces as a raw TypeError.
 */
export class JsonFields {
  readonly code: string
  readonly layer: ErrorLayer

  constructor(layer: ErrorLayer = ErrorLayer.storage, code: string = ErrorCodes.stateCorrupt) {
    this.layer = layer
    this.code = code
  }

  fail(path: string, what: string): ArkAgentError {
    return new ArkAgentError(this.layer, this.code, `Invalid state at ${path}: ${what}`, ErrorRetryability.never)
  }

  parse(text: string, path: string): Record<string, Object> {
    let value: Object | null
    try {
      value = JSON.parse(text) as Object | null
    } catch (e) {
      throw this.fail(path, 'not valid JSON')
    }
    return this.asObject(value, path)
  }

  asObject(value: Object | null | undefined, path: string): Record<string, Object> {
    if (value === null || value === undefined || typeof value !== 'object' || value instanceof Array) {
      throw this.fail(path, 'expected an object')
    }
    return value as Record<string, Object>
  }

  obj(o: Record<string, Object>, key: string, path: string): Record<string, Object> {
    return this.asObject(o[key], `${path}.${key}`)
  }

  optObj(o: Record<string, Object>, key: string, path: string): Record<string, Object> | undefined {
    const v = o[key]
    if (v === undefined || v === null) {
      return undefined
    }
    return this.asObject(v, `${path}.${key}`)
  }

  str(o: Record<string, Object>, key: string, path: string): string {
    const v = o[key]
    if (typeof v !== 'string') {
      throw this.fail(`${path}.${key}`, 'expected a string')
    }
    return v as string
  }

  optStr(o: Record<string, Object>, key: string, path: string): string | undefined {
    const v = o[key]
    if (v === undefined || v === null) {
      return undefined
    }
    if (typeof v !== 'string') {
      throw this.fail(`${path}.${key}`, 'expected a string')
    }
    return v as string
  }

  num(o: Record<string, Object>, key: string, path: string): number {
    const v = o[key]
    // Number.isFinite does not coerce: anything but a finite number fails.
    if (!Number.isFinite(v as number)) {
      throw this.fail(`${path}.${key}`, 'expected a finite number')
    }
    return v as number
  }

  int(o: Record<string, Object>, key: string, path: string): number {
    const n = this.num(o, key, path)
    if (!Number.isInteger(n) || n < 0) {
      throw this.fail(`${path}.${key}`, 'expected a non-negative integer')
    }
    return n
  }

  optNum(o: Record<string, Object>, key: string, path: string): number | undefined {
    const v = o[key]
    if (v === undefined || v === null) {
      return undefined
    }
    return this.num(o, key, path)
  }

  bool(o: Record<string, Object>, key: string, path: string): boolean {
    const v = o[key]
    if (typeof v !== 'boolean') {
      throw this.fail(`${path}.${key}`, 'expected a boolean')
    }
    return v as boolean
  }

  optBool(o: Record<string, Object>, key: string, path: string, fallback: boolean): boolean {
    const v = o[key]
    if (v === undefined || v === null) {
      return fallback
    }
    return this.bool(o, key, path)
  }

  arr(o: Record<string, Object>, key: string, path: string): Object[] {
    const v = o[key]
    if (!(v instanceof Array)) {
      throw this.fail(`${path}.${key}`, 'expected an array')
    }
    return v as Object[]
  }

  optArr(o: Record<string, Object>, key: string, path: string): Object[] {
    const v = o[key]
    if (v === undefined || v === null) {
      return []
    }
    return this.arr(o, key, path)
  }

  strArr(o: Record<string, Object>, key: string, path: string): string[] {
    const items = this.optArr(o, key, path)
    const out: string[] = []
    for (let i = 0; i < items.length; i++) {
      if (typeof items[i] !== 'string') {
        throw this.fail(`${path}.${key}[${i}]`, 'expected a string')
      }
      out.push(items[i] as string)
    }
    return out
  }

  oneOf(value: string, allowed: string[], path: string): string {
    if (allowed.indexOf(value) < 0) {
      throw this.fail(path, `unexpected value '${value.slice(0, 40)}'`)
    }
    return value
  }
}
