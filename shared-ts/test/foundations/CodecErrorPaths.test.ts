// A corrupt state names exactly what is wrong: every node of a stored document (and of a
// version-1 document) is replaced by a value of the wrong type, and the decode must fail with
// state_corrupt saying "Invalid state at <that node's path>: ..." — never a TypeError, never
// another path, never success. Enum-valued strings replaced by an unknown word fail the same way;
// free-text strings accept anything.
import { describe, expect, it } from 'vitest'
import { ArkAgentError, ErrorCodes } from '../../src/core/errors/ArkAgentError'
import { StateCodec } from '../../src/core/state/StateCodec'
import { richState } from './fixtures'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

interface Node { path: string, get: (root: Json) => Json, set: (root: Json, value: Json) => void }

/** Every node below the root with its JSONPath-like path (`$.a.b[2].c`), as the codec names them. */
function nodes(root: Json, path = '$', get: (r: Json) => Json = (r) => r, out: Node[] = []): Node[] {
  const here = get(root)
  if (Array.isArray(here)) {
    here.forEach((_, i) => {
      const child = (r: Json): Json => (get(r) as Json[])[i]
      out.push({ path: `${path}[${i}]`, get: child, set: (r, v) => { (get(r) as Json[])[i] = v } })
      nodes(root, `${path}[${i}]`, child, out)
    })
  } else if (here !== null && typeof here === 'object') {
    for (const key of Object.keys(here)) {
      const child = (r: Json): Json => (get(r) as Record<string, Json>)[key]
      out.push({ path: `${path}.${key}`, get: child, set: (r, v) => { (get(r) as Record<string, Json>)[key] = v } })
      nodes(root, `${path}.${key}`, child, out)
    }
  }
  return out
}

function wrongType(value: Json): Json {
  if (Array.isArray(value)) return { not: 'an array' }
  if (value !== null && typeof value === 'object') return 'not an object'
  if (typeof value === 'string') return 5
  return 'not a number or boolean'
}

function decodeError(text: string): ArkAgentError | undefined {
  try {
    StateCodec.decode(text)
    return undefined
  } catch (e) {
    expect(e, `threw ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`).toBeInstanceOf(ArkAgentError)
    return e as ArkAgentError
  }
}

/** Fields whose string value is one of a fixed set. */
const ENUM_FIELDS = new Set(['role', 'status', 'decision', 'riskLevel', 'type'])

function sweep(doc: Json, label: string): number {
  let checked = 0
  for (const node of nodes(doc)) {
    const field = node.path.replace(/.*\./, '').replace(/\[\d+\]$/, '')
    if (node.path === '$.schemaVersion') continue
    const copy = JSON.parse(JSON.stringify(doc)) as Json
    node.set(copy, wrongType(node.get(copy)))
    const e = decodeError(JSON.stringify(copy))
    expect(e, `${label}: ${node.path} of the wrong type decoded`).toBeDefined()
    expect(e!.code).toBe(ErrorCodes.stateCorrupt)
    expect(e!.message.startsWith(`Invalid state at ${node.path}: `), `${label}: ${node.path} → ${e!.message}`).toBe(true)
    checked++
    const original = node.get(doc)
    if (typeof original === 'string' && ENUM_FIELDS.has(field)) {
      const unknown = JSON.parse(JSON.stringify(doc)) as Json
      node.set(unknown, 'zz-not-a-known-value')
      const u = decodeError(JSON.stringify(unknown))
      expect(u, `${label}: unknown ${node.path} decoded`).toBeDefined()
      expect(u!.message).toBe(`Invalid state at ${node.path}: ${field === 'type' ? 'unknown content part type' :
        "unexpected value 'zz-not-a-known-value'"}`)
      checked++
    }
  }
  return checked
}

describe('a corrupt state names the node that is wrong', () => {
  it('every node of a full version-2 document', () => {
    const doc = JSON.parse(StateCodec.encode(richState())) as Json
    expect(sweep(doc, 'v2')).toBeGreaterThan(150)
  })

  it('every node of a version-1 document', () => {
    const v1: Json = { schemaVersion: 1, sessionId: 'old', isRunning: true, updatedAtMs: 5,
      messages: JSON.parse(StateCodec.encode(richState())).history,
      pendingApproval: JSON.parse(StateCodec.encode(richState())).pendingApproval }
    expect(sweep(v1, 'v1')).toBeGreaterThan(60)
  })

  it('what a corrupt node says, exactly', () => {
    const doc = JSON.parse(StateCodec.encode(richState())) as Record<string, any>
    const say = (mutate: (d: Record<string, any>) => void): string => {
      const d = JSON.parse(JSON.stringify(doc))
      mutate(d)
      return decodeError(JSON.stringify(d))!.message
    }
    expect(say((d) => { d.status = 3 })).toBe('Invalid state at $.status: expected a string')
    expect(say((d) => { d.runCount = 1.5 })).toBe('Invalid state at $.runCount: expected a non-negative integer')
    expect(say((d) => { d.updatedAtMs = 'x' })).toBe('Invalid state at $.updatedAtMs: expected a finite number')
    expect(say((d) => { d.loopWarned = 1 })).toBe('Invalid state at $.loopWarned: expected a boolean')
    expect(say((d) => { d.history = {} })).toBe('Invalid state at $.history: expected an array')
    expect(say((d) => { d.lastError = [] })).toBe('Invalid state at $.lastError: expected an object')
    expect(say((d) => { delete d.history[3].toolCallId })).toBe('Invalid state at $.history[3]: tool message without toolCallId')
    expect(say((d) => { d.history[1].content[0].type = 'video' }))
      .toBe('Invalid state at $.history[1].content[0].type: unknown content part type')
    expect(say((d) => { d.history[1].content[0].type = 'image' }))
      .toBe('Invalid state at $.history[1].content[0]: an image part needs a MIME type')
    expect(say((d) => { d.schemaVersion = 'two' })).toBe('State has no valid schemaVersion')
    expect(say((d) => { d.schemaVersion = 7 })).toBe('State schema version 7 is not supported (this build reads 1 to 3)')
    expect(decodeError('{"schemaVersion":2')!.message).toBe('Invalid state at $: not valid JSON')
    expect(decodeError('[1]')!.message).toBe('Invalid state at $: expected an object')
  })

  it('a version-2 header decoded as a header must say version 2', () => {
    expect(() => StateCodec.decodeHeader({ schemaVersion: 1, sessionId: 's' } as Record<string, Object>))
      .toThrow('Header has schema version 1, expected 2')
  })
})
