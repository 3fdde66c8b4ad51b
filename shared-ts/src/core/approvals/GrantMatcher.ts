/**
 * An argument predicate the app defines for remembered decisions (docs/approvals.md), registered by
 * name in `AgentRuntimeConfig.grantMatchers`; a grant stores the name and a parameter, never code.
 * `matches` gets the call's arguments (a parsed JSON object) and the grant's parameter, and must
 * return `true` for the grant to apply. For an "always allow" grant anything else — false, a throw,
 * a matcher that is no longer registered — means the grant does not apply (the call is asked about);
 * for an "always deny" grant, only `false` lets the call through (a throw or a missing matcher denies).
 */
export interface GrantMatcher {
  readonly name: string
  matches(args: Record<string, Object>, param: string): boolean
}

/**
 * A ready-made matcher: a string argument (`field`) that is the grant's parameter, a path, or lies
 * under it, compared by whole segments after both are normalised (empty and '.' segments dropped):
 * '/tmp/a' covers '/tmp/a/b' and '/tmp//a/./b', not '/tmp/ab'. For an "always allow" a path with a
 * '..' segment or a '\\', or a relative path against an absolute prefix, never matches; for an "always
 * deny" '\\' counts as '/', '..' is resolved (so '/tmp/../etc/x' is under '/etc'), and a relative path
 * against an absolute prefix always matches.
 */
export class PathPrefixMatcher implements GrantMatcher {
  readonly name: string
  private readonly field: string

  constructor(name: string, field: string) {
    this.name = name
    this.field = field
  }

  matches(args: Record<string, Object>, param: string): boolean {
    return this.under(args, param, false)
  }

  /** The deny side's reading (ApprovalGrants asks it for "always deny" grants): '..' resolved, not refused. */
  matchesForDeny(args: Record<string, Object>, param: string): boolean {
    return this.under(args, param, true)
  }

  private under(args: Record<string, Object>, param: string, resolveUp: boolean): boolean {
    const value = args[this.field]
    if (typeof value !== 'string' || param.length === 0) {
      return false
    }
    const text = value as string
    const relative = !text.startsWith('/') && !text.startsWith('\\')
    if (!resolveUp && (text.indexOf('\\') >= 0 || relative !== !param.startsWith('/'))) {
      // An allow vouches only for what it can read plainly: a '\\' (a separator on Windows, a name
      // character on POSIX) or a relative path against an absolute prefix (it depends on the tool's
      // working directory) does not match.
      return false
    }
    if (resolveUp && relative && param.startsWith('/')) {
      // A deny cannot tell where a relative path leads: it counts as under the prefix.
      return true
    }
    const path = PathPrefixMatcher.segments(text, resolveUp)
    const prefix = PathPrefixMatcher.segments(param, true)
    if (path === undefined || prefix === undefined || path.length < prefix.length) {
      return false
    }
    for (let i = 0; i < prefix.length; i++) {
      if (path[i] !== prefix[i]) {
        return false
      }
    }
    return true
  }

  /** Normalised segments; undefined for any '..' when not resolving ('..' at the root stays at the root, as in POSIX). */
  private static segments(path: string, resolveUp: boolean): string[] | undefined {
    const out: string[] = []
    const parts = path.split('\\').join('/').split('/')
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]
      if (part.length === 0 || part === '.') {
        continue
      }
      if (part === '..') {
        if (!resolveUp) {
          return undefined
        }
        out.pop()
        continue
      }
      out.push(part)
    }
    return out
  }
}
