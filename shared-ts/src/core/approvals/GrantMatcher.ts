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

/** A ready-made matcher: a string argument (`field`) that starts with the grant's parameter. */
export class PathPrefixMatcher implements GrantMatcher {
  readonly name: string
  private readonly field: string

  constructor(name: string, field: string) {
    this.name = name
    this.field = field
  }

  matches(args: Record<string, Object>, param: string): boolean {
    const value = args[this.field]
    if (typeof value !== 'string' || param.length === 0) {
      return false
    }
    const text = value as string
    // A prefix of whole path segments: '/tmp/a' covers '/tmp/a/b', not '/tmp/ab' or '/tmp/a/../etc'.
    if (text.split('/').indexOf('..') >= 0) {
      return false
    }
    if (text === param) {
      return true
    }
    const prefix = param.endsWith('/') ? param : param + '/'
    return text.startsWith(prefix)
  }
}
