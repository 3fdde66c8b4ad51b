import { CancellationToken } from '../util/Cancellation'
import { ConfigCheck } from '../util/ConfigCheck'
import { McpElicitationAnswer, McpElicitationRequest } from './McpElicitation'
import { McpSamplingAnswer, McpSamplingRequest } from './McpSampling'

/**
 * Where a server's `elicitation/create` goes: the runtime's controller (`controller.serverRequests`)
 * persists it and waits for the user. Resolve with the answer; reject to answer the server with an error.
 */
export interface McpElicitationHandler {
  elicit(request: McpElicitationRequest, token: CancellationToken): Promise<McpElicitationAnswer>
}

/**
 * Where a server's `sampling/createMessage` goes: the runtime's controller (`controller.serverRequests`)
 * runs it through the runtime's own provider and hooks, under its sampling policy.
 */
export interface McpSamplingHandler {
  createMessage(request: McpSamplingRequest, token: CancellationToken): Promise<McpSamplingAnswer>
}

/** One root a server may work in: a `file://` directory the app configured. */
export class McpRoot {
  readonly uri: string
  readonly name: string

  constructor(uri: string, name: string) {
    this.uri = uri
    this.name = name
  }
}

/** Most roots one client offers. */
const MAX_ROOTS: number = 64

/**
 * What a client offers a server beyond calling its tools — each only when the app configured it, and
 * only then declared as a capability at `initialize`: elicitation (a handler), sampling (a handler),
 * roots (a list of `file://` URIs; never the whole file system).
 */
export class McpClientFeatures {
  readonly elicitation?: McpElicitationHandler
  readonly sampling?: McpSamplingHandler
  readonly roots: McpRoot[]
  /** Whether roots were configured (an empty list is still offered: "no roots"). */
  readonly hasRoots: boolean

  private constructor(roots: McpRoot[], hasRoots: boolean, elicitation?: McpElicitationHandler,
    sampling?: McpSamplingHandler) {
    this.roots = roots
    this.hasRoots = hasRoots
    this.elicitation = elicitation
    this.sampling = sampling
  }

  static none(): McpClientFeatures {
    return new McpClientFeatures([], false)
  }

  /** Checks the options (invalid_config naming `owner` and the option); nothing is echoed but a root's position. */
  static of(owner: string, elicitation?: McpElicitationHandler, sampling?: McpSamplingHandler,
    roots?: string[]): McpClientFeatures {
    if (elicitation !== undefined && elicitation !== null) {
      ConfigCheck.implementing(elicitation as Object, ['elicit'],
        `${owner} elicitation (an McpElicitationHandler such as controller.serverRequests)`)
    }
    if (sampling !== undefined && sampling !== null) {
      ConfigCheck.implementing(sampling as Object, ['createMessage'],
        `${owner} sampling (an McpSamplingHandler such as controller.serverRequests)`)
    }
    const checked: McpRoot[] = []
    if (roots !== undefined && roots !== null) {
      if (!(roots instanceof Array) || roots.length > MAX_ROOTS) {
        throw ConfigCheck.invalid(`${owner} roots must be an array of at most ${MAX_ROOTS} file:// URIs`)
      }
      for (let i = 0; i < roots.length; i++) {
        checked.push(McpClientFeatures.root(owner, roots[i], i))
      }
    }
    return new McpClientFeatures(checked, roots !== undefined && roots !== null,
      elicitation !== null ? elicitation : undefined, sampling !== null ? sampling : undefined)
  }

  /** The `capabilities` of the initialize request: only what was configured. */
  capabilities(): Record<string, Object> {
    const out: Record<string, Object> = {}
    if (this.elicitation !== undefined) {
      out['elicitation'] = new Object()
    }
    if (this.sampling !== undefined) {
      out['sampling'] = new Object()
    }
    if (this.hasRoots) {
      const roots: Record<string, Object> = { 'listChanged': false }
      out['roots'] = roots
    }
    return out
  }

  /**
   * A root: `file:///` and an absolute path below the file system's root (no `.`/`..` segment, no query
   * or fragment, no control character, percent-escapes that decode); named after its last segment.
   */
  private static root(owner: string, uri: string, i: number): McpRoot {
    const what = `${owner} roots[${i}]`
    if (typeof uri !== 'string' || uri.length > 4096 || ConfigCheck.badCharAt(uri) >= 0 || /[\u0000-\u001f\u007f]/.test(uri) || !uri.startsWith('file:///') ||
      uri.indexOf('?') >= 0 || uri.indexOf('#') >= 0) {
      throw ConfigCheck.invalid(`${what} must be a file:/// URI of at most 4096 characters, without query, fragment or control characters`)
    }
    let path: string
    try {
      path = decodeURIComponent(uri.substring('file://'.length))
    } catch (e) {
      throw ConfigCheck.invalid(`${what} has a malformed percent-escape`)
    }
    const segments = path.split('/').filter((s: string): boolean => s.length > 0)
    for (let k = 0; k < segments.length; k++) {
      if (segments[k] === '.' || segments[k] === '..' || segments[k].indexOf('\\') >= 0) {
        throw ConfigCheck.invalid(`${what} must be a plain absolute path (no '.', '..' or backslash)`)
      }
    }
    // The whole file system (or a whole Windows drive) is never offered, not even on request.
    if (segments.length === 0 || (segments.length === 1 && /^[A-Za-z]:$/.test(segments[0]))) {
      throw ConfigCheck.invalid(`${what} names the root of the file system; give the directories the server may use`)
    }
    return new McpRoot(uri, segments[segments.length - 1])
  }
}
