import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { Thrown } from '../errors/Thrown'
import { SecretVault } from '../secrets/SecretVault'
import { CancellationToken } from '../util/Cancellation'
import { ConfigCheck } from '../util/ConfigCheck'
import { McpHeaderProvider } from './McpHttpClientOptions'

/**
 * The headers of an MCP connection: the URL checked for credentials (refused: they would leave in
 * every error a transport writes), header names and values checked, and a provider's headers
 * resolved for each connection — every value registered as a secret before it is used or refused.
 */
export class McpHeaders {
  /** A URL with user:password@ would carry a secret into every error a transport writes: refused. */
  static checkUrl(url: string): void {
    const m = new RegExp('^https?://([^/?#]*)', 'i').exec(url)
    if (m === null) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig, 'MCP server URL must be absolute (http:// or https://)',
        ErrorRetryability.never)
    }
    if (m[1].indexOf('@') >= 0) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig,
        'MCP server URL must not carry credentials (user:password@): give them as a header', ErrorRetryability.never)
    }
  }

  /** Header values with CR, LF or NUL are refused here, without echoing them (they are often keys). */
  static check(headers: Map<string, string>): void {
    headers.forEach((value: string, name: string): void => {
      if (typeof name !== 'string' || typeof value !== 'string' || new RegExp('[\r\n\u0000]').test(value) ||
        !new RegExp('^[!#$%&\'*+.^_`|~0-9A-Za-z-]+$').test(name)) {
        const shown = typeof name === 'string' ? name.replace(new RegExp('[^!#$%&\'*+.^_`|~0-9A-Za-z-]', 'g'), '?') : '?'
        throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig,
          `MCP header '${shown}' has an invalid name or value (a value may not contain CR, LF or NUL)`, ErrorRetryability.never)
      }
    })
  }

  /** The static headers, and the provider's for this connection (registered as secrets before any use). */
  static async resolve(extraHeaders: Map<string, string>, provider: McpHeaderProvider | undefined,
    token: CancellationToken): Promise<Map<string, string>> {
    const out = new Map<string, string>()
    extraHeaders.forEach((v: string, k: string): void => {
      out.set(k.toLowerCase(), v)
    })
    if (provider === undefined) {
      return out
    }
    let given: Map<string, string>
    try {
      given = await McpHeaders.until<Map<string, string>>(Promise.resolve<Map<string, string>>(provider()), token)
    } catch (e) {
      if (token.isCancelled) {
        throw e as Error
      }
      const known = ArkAgentError.asArkError(e as Object)
      throw known !== undefined ? known : new ArkAgentError(ErrorLayer.tool, ErrorCodes.toolExecutionFailed,
        `MCP header provider failed: ${Thrown.describe(e as Object)}`, ErrorRetryability.afterAction, Thrown.asError(e as Object))
    }
    if (!(given instanceof Map)) {
      throw ConfigCheck.invalid('McpHttpClient headerProvider must resolve to a Map of header names to values')
    }
    given.forEach((value: string, name: string): void => {
      SecretVault.registerHeader(name, value)
    })
    McpHeaders.check(given)
    given.forEach((v: string, k: string): void => {
      out.set(k.toLowerCase(), v)
    })
    return out
  }

  /** `work`, or a cancellation error as soon as `token` fires (the work itself goes on). */
  static until<T>(work: Promise<T>, token: CancellationToken): Promise<T> {
    if (token === CancellationToken.none) {
      return work
    }
    return new Promise<T>((resolve: (value: T) => void, reject: (e: Object) => void): void => {
      const off = token.onCancel((reason: string): void => reject(CancellationToken.cancelledError(reason)))
      work.then((value: T): void => {
        off()
        resolve(value)
      }, (e: Object): void => {
        off()
        reject(e)
      })
    })
  }
}
