import { JsonPointer } from './JsonPointer'
import { JsonSchemaError } from './JsonSchemaError'
import { SchemaCompiler } from './SchemaCompiler'
import { SchemaNode } from './SchemaNode'
import { SchemaUri } from './SchemaUri'

/** One schema on the depth-first walk of `checkCycles`, with the next of its in-place subschemas to visit. */
class Visit {
  readonly node: SchemaNode
  readonly next: SchemaNode[]
  index: number = 0

  constructor(node: SchemaNode) {
    this.node = node
    this.next = node.inPlace()
  }
}

/**
 * Resolves every `$ref` inside the document — `#`, JSON pointers (`~0`, `~1`, percent-decoding),
 * `#anchor`s, and URIs of embedded resources (`$id`) — and refuses the rest: a reference that leaves
 * the document (remote), or that points at nothing. Then refuses `$ref` cycles that never move into
 * the value (`{"$ref": "#"}`): they would recurse forever on any value.
 */
export class SchemaLinker {
  static link(compiler: SchemaCompiler): void {
    while (compiler.unlinked.length > 0) {
      const node = compiler.unlinked.pop() as SchemaNode
      node.ref = SchemaLinker.target(compiler, node)
    }
    SchemaLinker.checkCycles(compiler.nodes)
  }

  private static target(compiler: SchemaCompiler, node: SchemaNode): SchemaNode {
    const location = JsonPointer.append(node.pointer, '$ref')
    const uri = node.refUri
    const resource = compiler.resources.get(SchemaUri.withoutFragment(uri))
    if (resource === undefined) {
      throw new JsonSchemaError('$ref', location, `${JSON.stringify(node.refText)} leaves the document (it resolves to ` +
        `${JSON.stringify(uri)}); only references inside the schema are supported, remote ones are refused`)
    }
    const fragment = SchemaUri.fragment(uri)
    let pointer: string
    const tokens = JsonPointer.parseFragment(fragment)
    if (tokens === undefined && (fragment.startsWith('/') || fragment.startsWith('%2F') || fragment.startsWith('%2f'))) {
      throw new JsonSchemaError('$ref', location, `${JSON.stringify(node.refText)} is not a valid JSON pointer ` +
        '(~ must be followed by 0 or 1; percent-escapes must be valid)')
    }
    if (tokens !== undefined) {
      pointer = JsonPointer.join(resource, tokens)
    } else {
      const anchored = compiler.anchors.get(`${SchemaUri.withoutFragment(uri)}#${fragment}`)
      if (anchored === undefined) {
        throw new JsonSchemaError('$ref', location, `${JSON.stringify(node.refText)} names no $anchor of this document`)
      }
      pointer = anchored
    }
    const known = compiler.nodes.get(pointer)
    if (known !== undefined) {
      return known
    }
    // A location not compiled as a schema (inside an x- annotation, say): compiled now, with the base
    // of the nearest schema around it.
    const raw = JsonPointer.valueAt(compiler.document, JsonPointer.tokens(pointer))
    if (raw === undefined) {
      throw new JsonSchemaError('$ref', location, `${JSON.stringify(node.refText)} points at nothing (#${pointer})`)
    }
    return compiler.compileAt(raw, pointer, SchemaLinker.enclosingBase(compiler, pointer), 0)
  }

  private static enclosingBase(compiler: SchemaCompiler, pointer: string): string {
    let at = pointer
    while (at.length > 0) {
      at = at.substring(0, at.lastIndexOf('/'))
      const node = compiler.nodes.get(at)
      if (node !== undefined) {
        return node.base
      }
    }
    return SchemaUri.defaultBase
  }

  /** Refuses a cycle of in-place subschemas (through `$ref`): depth-first, without recursion. */
  private static checkCycles(nodes: Map<string, SchemaNode>): void {
    // 1: on the current path; 2: done.
    const state = new Map<SchemaNode, number>()
    nodes.forEach((start: SchemaNode): void => {
      if (state.has(start)) {
        return
      }
      const path: Visit[] = [new Visit(start)]
      state.set(start, 1)
      while (path.length > 0) {
        const top = path[path.length - 1]
        if (top.index >= top.next.length) {
          state.set(top.node, 2)
          path.pop()
          continue
        }
        const next = top.next[top.index]
        top.index++
        const seen = state.get(next)
        if (seen === 1) {
          SchemaLinker.refuseCycle(path, next)
        }
        if (seen === undefined) {
          state.set(next, 1)
          path.push(new Visit(next))
        }
      }
    })
  }

  private static refuseCycle(path: Visit[], back: SchemaNode): void {
    let from = 0
    while (path[from].node !== back) {
      from++
    }
    const names: string[] = []
    let culprit: SchemaNode | undefined = undefined
    for (let i = from; i < path.length; i++) {
      const node = path[i].node
      names.push(`#${node.pointer}`)
      const next = i + 1 < path.length ? path[i + 1].node : back
      if (culprit === undefined && node.ref === next) {
        culprit = node
      }
    }
    names.push(`#${back.pointer}`)
    const at = culprit !== undefined ? culprit : back
    throw new JsonSchemaError('$ref', JsonPointer.append(at.pointer, '$ref'), `a $ref cycle that never moves into the ` +
      `value would recurse forever: ${names.join(' -> ')}`)
  }
}
