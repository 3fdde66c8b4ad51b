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
 * under it, compared by whole segments after both are normalised ('\\' read as '/', empty and '.'
 * segments dropped, '..' resolved): '/tmp/a' covers '/tmp/a/b' and '/tmp//a/./b', not '/tmp/ab'. For an
 * "always allow" a path with a '..' segment never matches (what it reaches depends on links the
 * matcher cannot see); for an "always deny" the normalised path decides, so '/tmp/../etc/x' is under '/etc'.
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
    const path = PathPrefixMatcher.segments(value as string, resolveUp)
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
