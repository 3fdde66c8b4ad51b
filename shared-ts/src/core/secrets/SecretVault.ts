import { FragmentIndex } from './FragmentIndex'
import { SecretForms } from './SecretForms'

/**
 * Every secret the process holds — provider API keys, MCP header values and tokens, credentials an
 * app hands to a client — registered where it is given, and the one rule applied to everything that
 * leaves: no run of `fragmentLength` (8) or more consecutive characters of a secret, in any of its
 * forms (as given, JSON-escaped, URL-encoded, base64 at any alignment), and no whole secret shorter
 * than that, appears in what the runtime, its providers and its clients let out. Secrets shorter than
 * 4 characters are too likely to occur by chance and are not registered.
 *
 * Process-wide on purpose: a secret given to one provider must not leak through another, through a
 * tool, a hook's error or a log line. The secrets themselves are never handed out.
 */
export class SecretVault {
  static readonly fragmentLength: number = 8
  static readonly minimumLength: number = 4
  private static readonly known: Set<string> = new Set<string>()
  private static readonly index: FragmentIndex = new FragmentIndex(SecretVault.fragmentLength)
  private static readonly MASK: string = '[redacted]'
  private static mask: string = SecretVault.MASK
  /**
   * Long texts a scan found free of every registered secret, newest last. A long text passes several
   * redactions on its way (a tool result: its own, the history's, each request's); one that was
   * scanned clean and no secret was registered since is clean still, and equal strings compare far
   * faster than a scan. Emptied by `register`.
   */
  private static readonly scannedClean: string[] = []
  private static readonly MEMO_MIN_LENGTH: number = 16384
  private static readonly MEMO_SIZE: number = 4
  /** Texts at least this long are scanned in slices by `redactAsync` and `leaksAsync`. */
  static readonly ASYNC_MIN_LENGTH: number = 65536
  /** Bumped by every registration: an asynchronous scan that saw it change starts again. */
  private static generation: number = 0

  /** Registers a secret (idempotent). Text shorter than `minimumLength` is ignored. */
  static register(secret: string): void {
    if (typeof secret !== 'string' || secret.length < SecretVault.minimumLength || SecretVault.known.has(secret)) {
      return
    }
    SecretVault.known.add(secret)
    SecretVault.scannedClean.length = 0
    SecretVault.generation++
    const forms = SecretForms.of(secret)
    for (let i = 0; i < forms.length; i++) {
      SecretVault.index.add(forms[i])
    }
    // The mask itself must never spell part of a secret.
    if (SecretVault.index.ranges(SecretVault.MASK).length > 0) {
      SecretVault.mask = '*'
    }
  }

  /** Headers known to carry no credential; any other header's value may (api-key, cookie, a tenant token). */
  static readonly nonSecretHeaders: string[] = ['accept', 'accept-language', 'accept-encoding', 'content-type',
    'user-agent', 'cache-control', 'x-request-id', 'openai-beta', 'mcp-protocol-version']

  /**
   * Registers an HTTP header's value as a secret, unless the header is one of `nonSecretHeaders`:
   * the value, and for `Bearer x` / `Basic x` also `x` and (Basic) the decoded `user:password` and
   * its password.
   */
  static registerHeader(name: string, value: string): void {
    if (typeof value !== 'string' || typeof name !== 'string' ||
      SecretVault.nonSecretHeaders.indexOf(name.toLowerCase()) >= 0) {
      return
    }
    SecretVault.register(value)
    const m = /^\s*(bearer|basic|token)\s+(\S+)\s*$/i.exec(value)
    if (m !== null) {
      SecretVault.register(m[2])
      if (m[1].toLowerCase() === 'basic') {
        const decoded = SecretForms.decodeBase64(m[2])
        SecretVault.register(decoded)
        const colon = decoded.indexOf(':')
        if (colon >= 0) {
          SecretVault.register(decoded.substring(colon + 1))
        }
      }
    }
  }

  /** Whether any secret is registered (nothing to do otherwise). */
  static get active(): boolean {
    return !SecretVault.index.isEmpty
  }

  /** `text` with every stretch that belongs to a secret replaced by the mask. */
  static redact(text: string): string {
    if (SecretVault.index.isEmpty || typeof text !== 'string' || text.length === 0) {
      return text
    }
    const long = text.length >= SecretVault.MEMO_MIN_LENGTH
    if (long && SecretVault.knownClean(text)) {
      return text
    }
    const ranges = SecretVault.index.ranges(text)
    if (ranges.length === 0) {
      if (long) {
        SecretVault.remember(text)
      }
      return text
    }
    return SecretVault.apply(text, ranges)
  }

  private static remember(text: string): void {
    SecretVault.scannedClean.push(text)
    if (SecretVault.scannedClean.length > SecretVault.MEMO_SIZE) {
      SecretVault.scannedClean.shift()
    }
  }

  /**
   * What `redact(text)` returns, for a long text scanned in slices with the (UI) thread given back
   * between them (HostYield); a text shorter than ASYNC_MIN_LENGTH is redacted at once. The result,
   * checked clean the same way, is remembered as clean (the history and every request redact it again).
   */
  static async redactAsync(text: string, slice: number = 0): Promise<string> {
    if (SecretVault.index.isEmpty || typeof text !== 'string' || text.length < SecretVault.ASYNC_MIN_LENGTH) {
      return SecretVault.redact(text)
    }
    if (SecretVault.knownClean(text)) {
      return text
    }
    const ranges = await SecretVault.rangesAsync(text, slice)
    if (ranges.length === 0) {
      return text
    }
    const out = SecretVault.apply(text, ranges)
    if (out.length >= SecretVault.MEMO_MIN_LENGTH) {
      // Only the check: `redact` would not redact twice either.
      await SecretVault.rangesAsync(out, slice)
    }
    return out
  }

  /** What `leaks(text)` returns, scanned in slices as `redactAsync` scans. */
  static async leaksAsync(text: string, slice: number = 0): Promise<boolean> {
    if (SecretVault.index.isEmpty || text.length < SecretVault.ASYNC_MIN_LENGTH) {
      return SecretVault.leaks(text)
    }
    if (SecretVault.knownClean(text)) {
      return false
    }
    return (await SecretVault.rangesAsync(text, slice)).length > 0
  }

  /**
   * `index.ranges(text)` in slices, against the secrets registered when it returns (a registration
   * during the scan starts it again); a clean long text is remembered as clean.
   */
  private static async rangesAsync(text: string, slice: number): Promise<number[]> {
    for (;;) {
      const generation = SecretVault.generation
      const ranges = await SecretVault.index.rangesAsync(text, slice > 0 ? slice : FragmentIndex.SLICE)
      if (generation !== SecretVault.generation) {
        continue
      }
      if (ranges.length === 0 && text.length >= SecretVault.MEMO_MIN_LENGTH) {
        SecretVault.remember(text)
      }
      return ranges
    }
  }

  private static knownClean(text: string): boolean {
    const memo = SecretVault.scannedClean
    for (let i = memo.length - 1; i >= 0; i--) {
      if (memo[i].length === text.length && memo[i] === text) {
        return true
      }
    }
    return false
  }

  /** Whether `text` holds a piece of a secret (what `redact` would change). */
  static leaks(text: string): boolean {
    return !SecretVault.index.isEmpty && SecretVault.index.ranges(text).length > 0
  }

  /** Stretches of `text` that belong to a secret, judging only windows inside `[0, limit)`. */
  static rangesIn(text: string, limit: number): number[] {
    return SecretVault.index.ranges(text, limit)
  }

  /** Replaces each [start, end) of `ranges` (sorted, merged) in `text` with the mask. */
  static apply(text: string, ranges: number[]): string {
    let out = ''
    let at = 0
    for (let i = 0; i < ranges.length; i += 2) {
      out += text.substring(at, ranges[i]) + SecretVault.mask
      at = ranges[i + 1]
    }
    return out + text.substring(at)
  }
}
