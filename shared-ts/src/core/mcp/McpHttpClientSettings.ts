import { SecretVault } from '../secrets/SecretVault'
import { ConfigCheck } from '../util/ConfigCheck'
import { McpClientFeatures } from './McpClientFeatures'
import { McpHeaders } from './McpHeaders'
import { McpHeaderProvider, McpHttpClientOptions } from './McpHttpClientOptions'
import { McpServerRequests } from './McpServerRequests'
import { McpToolRules } from './McpToolRules'

/**
 * McpHttpClient's options, checked where they are given (invalid_config naming the option, never a
 * value), never replaced by a default: headers (registered as secrets), timeouts, caps, tool rules, and
 * what the server may ask of the client.
 */
export class McpHttpClientSettings {
  readonly headers: Map<string, string>
  readonly headerProvider?: McpHeaderProvider
  readonly initializeTimeoutMs: number
  readonly requestTimeoutMs: number
  readonly maxAnswerChars: number
  /** -1: until invalidated. */
  readonly listCacheMs: number
  readonly rules: McpToolRules
  readonly requests: McpServerRequests

  constructor(url: string, headers: Map<string, string>, options?: McpHttpClientOptions) {
    if (!(headers instanceof Map) || (options !== undefined && options.headers !== undefined && !(options.headers instanceof Map))) {
      throw ConfigCheck.invalid('McpHttpClient headers must be a Map of header names to values')
    }
    this.headers = options !== undefined && options.headers !== undefined ? options.headers : headers
    McpHeaders.check(this.headers)
    // A header may carry the server's credential: no piece of it leaves in a result, an error or a log.
    this.headers.forEach((value: string, name: string): void => {
      SecretVault.registerHeader(name, value)
    })
    const provider = options !== undefined ? options.headerProvider : undefined
    if (provider !== undefined && typeof provider !== 'function') {
      throw ConfigCheck.invalid('McpHttpClient headerProvider must be a function resolving to a Map of headers')
    }
    this.headerProvider = provider
    const timeout = options !== undefined ? options.initializeTimeoutMs : undefined
    this.initializeTimeoutMs = timeout !== undefined ? ConfigCheck.delayMs(timeout, 1, 'McpHttpClient initializeTimeoutMs') : 30000
    const perRequest = options !== undefined ? options.requestTimeoutMs : undefined
    this.requestTimeoutMs = perRequest !== undefined ? ConfigCheck.timeoutMs(perRequest, 'McpHttpClient requestTimeoutMs') : 60000
    const maxChars = options !== undefined ? options.maxAnswerChars : undefined
    this.maxAnswerChars = maxChars !== undefined ? ConfigCheck.count(maxChars, 1, 'McpHttpClient maxAnswerChars', 1073741824) :
      16 * 1024 * 1024
    const cacheMs = options !== undefined ? options.listCacheMs : undefined
    this.listCacheMs = cacheMs !== undefined ? ConfigCheck.number(cacheMs, 0, Number.MAX_SAFE_INTEGER, 'McpHttpClient listCacheMs (ms)') : -1
    this.rules = new McpToolRules('McpHttpClient', options !== undefined ? options.risk : undefined,
      options !== undefined ? options.filter : undefined, options !== undefined ? options.concurrency : undefined)
    const name = options !== undefined && options.name !== undefined ? ConfigCheck.text(options.name, 'McpHttpClient name', 1, 64) :
      McpHttpClientSettings.hostOf(url)
    this.requests = new McpServerRequests(name, options === undefined ? McpClientFeatures.none() :
      McpClientFeatures.of('McpHttpClient', options.elicitation, options.sampling, options.roots))
  }

  /** The host of a URL (what a server's requests are shown as when no name was given). */
  private static hostOf(url: string): string {
    const rest = url.substring(url.indexOf('//') + 2)
    const end = rest.search(/[/?#]/)
    return end >= 0 ? rest.substring(0, end) : rest
  }
}
