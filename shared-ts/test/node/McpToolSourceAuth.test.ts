// McpToolSource with credentials (Streamable HTTP on 127.0.0.1): `headers` and `authProvider` reach
// the server, and no piece of a header value or token — as given, JSON-escaped, URL-encoded or
// base64 — comes back out in an error, a tool result or a tool definition, even when the server
// echoes the request's headers in a 401 body, a JSON-RPC error or a result.
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { inspect } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { ArkAgentError, CancellationToken, ErrorCodes, ErrorLayer, ErrorRetryability, ToolCall,
  ToolExecutionContext, ToolRegistry, ToolResult } from '../../src/index'
import { McpToolSource } from '../../src/mcp'
import type { McpServerSpec } from '../../src/mcp'
// @ts-ignore the example server is plain JavaScript
import { notesServer } from '../../../examples/mcp/notes-server.mjs'

const sources: McpToolSource[] = []
const servers: http.Server[] = []
afterEach(async () => {
  for (const s of sources.splice(0)) await s.close().catch(() => {})
  for (const s of servers.splice(0)) { s.closeAllConnections(); await new Promise((r) => s.close(r)) }
})

/** A long random secret with characters that JSON-escaping and URL-encoding change. */
const secret = (): string => randomBytes(30).toString('base64') + '"/+\\' + randomBytes(9).toString('hex')

function source(spec: McpServerSpec): McpToolSource {
  const s = new McpToolSource(spec)
  sources.push(s)
  return s
}

// ---- the scan ---------------------------------------------------------------------------------

/** The forms a secret can leave in: as given, JSON-escaped, URL-encoded, base64 and base64url at each alignment. */
function forms(s: string): string[] {
  const out = [s, JSON.stringify(s).slice(1, -1), encodeURIComponent(s)]
  for (const pad of ['', 'a', 'ab']) {
    const b64 = Buffer.from(pad + s).toString('base64')
    // Only groups made of the secret's bytes alone: the first (with the pad) and the last are mixed.
    const inner = b64.slice(pad.length > 0 ? 4 : 0, b64.length - 4)
    out.push(inner, inner.replace(/\+/g, '-').replace(/\//g, '_'))
  }
  return out
}

/** Where `text` holds an 8-character run of a secret in any form ('' when nowhere); the run itself is not shown. */
function leak(text: string, secrets: string[]): string {
  for (const [n, s] of secrets.entries()) {
    for (const [k, form] of forms(s).entries()) {
      for (let i = 0; i + 8 <= form.length; i++) {
        if (text.includes(form.slice(i, i + 8))) return `secret ${n}, form ${k}, characters ${i}-${i + 8}`
      }
    }
  }
  return ''
}

/** Everything of an error a caller or a logger can see: String(), inspect(), and down the cause chain its message, code, stack and fields. */
function everything(e: unknown): string {
  const out = [String(e), inspect(e, { depth: 20, showHidden: true })]
  let at = e as { message?: unknown, code?: unknown, stack?: unknown, cause?: unknown } | undefined
  for (let i = 0; i < 10 && at !== undefined && at !== null; i++) {
    out.push(String(at.message), String(at.code), String(at.stack))
    try { out.push(JSON.stringify(at) ?? '') } catch { out.push('') }
    at = at.cause as typeof at
  }
  return out.join('\n')
}

async function thrown(work: Promise<unknown>): Promise<ArkAgentError> {
  const e = await work.then(() => undefined, (x: unknown) => x)
  expect(e).toBeInstanceOf(ArkAgentError)
  return e as ArkAgentError
}

// ---- servers ----------------------------------------------------------------------------------

async function listen(handler: (req: http.IncomingMessage, res: http.ServerResponse, origin: string) => Promise<void> | void): Promise<string> {
  let origin = ''
  const server = http.createServer((req, res) => { void handler(req, res, origin) })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  servers.push(server)
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return origin
}

function body(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => { let b = ''; req.on('data', (c) => { b += c }); req.on('end', () => resolve(b)) })
}

function json(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value))
}

/** The official SDK's notes server, answering 401 to any request whose Authorization is not `expected`. */
async function bearerNotes(expected: string): Promise<string> {
  const origin = await listen(async (req, res) => {
    if (req.headers.authorization !== expected) { json(res, 401, { error: 'unauthorized' }); return }
    const mcp = notesServer({ faults: false })
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
    res.on('close', () => { void transport.close(); void mcp.close() })
    await mcp.connect(transport)
    await transport.handleRequest(req, res)
  })
  return `${origin}/mcp`
}

/** The request's Authorization and x-api-key as given, JSON-escaped, URL-encoded and base64 — what a careless server echoes. */
function echo(req: http.IncomingMessage): string {
  const auth = String(req.headers.authorization ?? '')
  const key = String(req.headers['x-api-key'] ?? '')
  return `auth=${auth} key=${key} json=${JSON.stringify({ auth, key })} url=${encodeURIComponent(auth)}&${encodeURIComponent(key)} ` +
    `b64=${Buffer.from(auth).toString('base64')} ${Buffer.from('x' + key).toString('base64url')}`
}

/**
 * A hand-written MCP server (JSON answers, no session) that echoes the request's credentials
 * everywhere: a 401 body (to every request without `require`d Authorization), a tool description,
 * a result's text, resource, image bytes and structured content, a JSON-RPC error's message and
 * data, a 401 to one call. With `metadata`, it is an OAuth protected resource pointing there; with
 * `issues`, it is its own authorization server too, and its token endpoint issues that access token.
 */
async function echoServer(opts: { require?: string, metadata?: (origin: string) => object, issues?: string } = {}) {
  const seen: http.IncomingHttpHeaders[] = []
  const origin = await listen(async (req, res, origin) => {
    seen.push(req.headers)
    const path = new URL(req.url ?? '/', origin).pathname
    if (req.method === 'GET' && path === '/.well-known/oauth-protected-resource' && opts.metadata !== undefined) {
      json(res, 200, opts.metadata(origin))
      return
    }
    if (req.method === 'GET' && path === '/.well-known/oauth-authorization-server' && opts.issues !== undefined) {
      json(res, 200, { issuer: `${origin}/`, authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/token`,
        response_types_supported: ['code'], code_challenge_methods_supported: ['S256'] })
      return
    }
    if (req.method === 'POST' && path === '/token' && opts.issues !== undefined) {
      const form = new URLSearchParams(await body(req))
      if (form.get('code') === 'the-code' && (form.get('code_verifier') ?? '').length > 0) json(res, 200, { access_token: opts.issues, token_type: 'Bearer' })
      else json(res, 400, { error: 'invalid_grant' })
      return
    }
    if (req.method !== 'POST') { res.writeHead(req.method === 'DELETE' ? 200 : 405).end(); return }
    const msg = JSON.parse(await body(req)) as { id?: number, method: string, params?: Record<string, unknown> }
    if (opts.require !== undefined && req.headers.authorization !== opts.require) {
      const challenge = opts.metadata !== undefined ? { 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource"` } : {}
      res.writeHead(401, { 'content-type': 'text/plain', ...challenge }).end(`denied: ${echo(req)}`)
      return
    }
    if (msg.id === undefined) { res.writeHead(202).end(); return }
    const answer = (result: unknown) => json(res, 200, { jsonrpc: '2.0', id: msg.id, result })
    const auth = String(req.headers.authorization ?? '')
    const key = String(req.headers['x-api-key'] ?? '')
    if (msg.method === 'initialize') {
      answer({ protocolVersion: msg.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'echo', version: '1' } })
    } else if (msg.method === 'tools/list') {
      const obj = { type: 'object' }
      answer({ tools: [{ name: 'echo', description: `Echoes ${echo(req)}`, inputSchema: obj }, { name: 'is_error', inputSchema: obj },
        { name: 'rpc_error', inputSchema: obj }, { name: 'rpc_data', inputSchema: obj }, { name: 'http_401', inputSchema: obj },
        { name: 'leaky', inputSchema: { type: 'object', properties: { [`k${key}`]: { type: 'string' } } } }] })
    } else if (msg.method === 'tools/call') {
      const tool = (msg.params as { name: string }).name
      if (tool === 'echo') {
        answer({ content: [{ type: 'text', text: echo(req) },
          { type: 'resource', resource: { uri: `echo://${encodeURIComponent(auth)}`, mimeType: 'text/plain', text: echo(req) } },
          { type: 'image', mimeType: 'image/png', data: Buffer.from(echo(req)).toString('base64') }],
        structuredContent: { auth, key } })
      } else if (tool === 'is_error') {
        answer({ content: [{ type: 'text', text: `failed for ${echo(req)}` }], isError: true })
      } else if (tool === 'rpc_error') {
        json(res, 200, { jsonrpc: '2.0', id: msg.id, error: { code: -32603, message: `refused ${echo(req)}`, data: { auth, key, echo: echo(req) } } })
      } else if (tool === 'rpc_data') {
        // A clean message; only the error's data (which the SDK keeps on its McpError) echoes the credentials.
        json(res, 200, { jsonrpc: '2.0', id: msg.id, error: { code: -32602, message: 'bad params', data: { auth, key, echo: echo(req) } } })
      } else {
        res.writeHead(401, { 'content-type': 'text/plain' }).end(`session expired for ${echo(req)}`)
      }
    } else {
      json(res, 200, { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'no such method' } })
    }
  })
  return { url: `${origin}/mcp`, origin, seen }
}

const ctx = (id = 'c1') => new ToolExecutionContext('s', 'r', new ToolCall(id, 'x', '{}', 0), CancellationToken.none)
const run = (registry: ToolRegistry, tool: string, args = '{}', id = 'c1'): Promise<ToolResult> =>
  registry.execute(new ToolCall(id, tool, args, 0), 'session', 'run')

// ---- tests ------------------------------------------------------------------------------------

describe('McpToolSource headers', () => {
  it('an Authorization header reaches the server: listing and calling work through a ToolRegistry', async () => {
    const token = secret()
    const url = await bearerNotes(`Bearer ${token}`)
    const tools = await source({ name: 'notes', url, headers: { authorization: `Bearer ${token}` } }).tools()
    expect(tools.map((t) => t.definition.name)).toContain('notes__read_note')
    const result = await run(new ToolRegistry(tools), 'notes__read_note', '{"name":"welcome"}')
    expect([result.isError, result.modelText()]).toEqual([false, 'Hello from the notes server.'])
  })

  it('without the header the server\'s 401 is a typed error naming the server, to retry after a change', async () => {
    const url = await bearerNotes(`Bearer ${secret()}`)
    const e = await thrown(source({ name: 'notes', url }).tools())
    expect([e.layer, e.code, e.retryability]).toEqual([ErrorLayer.tool, ErrorCodes.toolExecutionFailed, ErrorRetryability.afterAction])
    expect(e.message).toMatch(/^MCP server 'notes': connecting failed \(HTTP 401\)/)
  })

  it('a 401 body echoing the Authorization and x-api-key headers leaves no piece of them in the error (message, code, causes, stack, String, inspect)', async () => {
    const token = secret()
    const key = secret()
    const server = await echoServer({ require: 'nothing the client sends' })
    const e = await thrown(source({ name: 'echo', url: server.url, headers: { Authorization: `Bearer ${token}`, 'x-api-key': key } }).tools())
    // The server did get both (and echoed them); the error says it was refused, and what the body said, redacted.
    expect(server.seen[0].authorization).toBe(`Bearer ${token}`)
    expect(server.seen[0]['x-api-key']).toBe(key)
    expect(e.message).toMatch(/^MCP server 'echo': connecting failed \(HTTP 401\): .*denied: auth=/)
    expect(e.message).toContain('[redacted]')
    expect(leak(everything(e), [token, key])).toBe('')
  })

  it('tool results, a JSON-RPC error and a 401 to a call that echo the credentials leave no piece of them in what the registry returns or the source throws', async () => {
    const token = secret()
    const key = secret()
    const server = await echoServer()
    const mcp = source({ name: 'echo', url: server.url, headers: { authorization: `Bearer ${token}`, 'X-Api-Key': key } })
    const tools = await mcp.tools()
    // What a model is offered: a description echoing the headers is redacted; a schema holding one is left out.
    expect(tools.map((t) => t.definition.name)).toEqual(['echo__echo', 'echo__is_error', 'echo__rpc_error', 'echo__rpc_data', 'echo__http_401'])
    expect(mcp.skippedTools.map((s) => [s.name, s.reason])).toEqual([['leaky', 'its name or input schema carries a secret']])
    expect(leak(JSON.stringify(tools.map((t) => [t.definition.name, t.definition.description, t.definition.parametersJson])), [token, key])).toBe('')

    const registry = new ToolRegistry(tools)
    const results = [await run(registry, 'echo__echo'), await run(registry, 'echo__is_error', '{}', 'c2'),
      await run(registry, 'echo__rpc_error', '{}', 'c3'), await run(registry, 'echo__http_401', '{}', 'c4'),
      await run(registry, 'echo__rpc_data', '{}', 'c5')]
    expect(results.map((r) => [r.isError, r.errorCode ?? ''])).toEqual([[false, ''], [true, ErrorCodes.toolExecutionFailed],
      [true, ErrorCodes.toolExecutionFailed], [true, ErrorCodes.toolExecutionFailed], [true, ErrorCodes.toolExecutionFailed]])
    expect(results[0].content.map((p) => p.type)).toEqual(['text', 'resource', 'text', 'json'])   // the image's bytes held the secret: withheld
    expect(results[0].modelText()).toContain('auth=[redacted] key=[redacted]')
    expect(results[2].modelText()).toMatch(/^Tool 'echo__rpc_error' failed: MCP server 'echo': calling 'rpc_error' failed: MCP error -32603: refused auth=/)
    expect(results[3].modelText()).toMatch(/calling 'http_401' failed \(HTTP 401\)/)
    for (const r of results) expect(leak(JSON.stringify(r) + r.modelText() + r.content.map((p) => p.text + p.data + p.uri).join(''), [token, key])).toBe('')

    // The same calls straight on the source: the thrown errors are ArkAgentErrors, clean all the way down.
    const rpc = await thrown(mcp.call('rpc_error', {}, ctx()))
    expect(rpc.retryability).toBe(ErrorRetryability.never)
    const expired = await thrown(mcp.call('http_401', {}, ctx()))
    expect(expired.retryability).toBe(ErrorRetryability.afterAction)
    const data = await thrown(mcp.call('rpc_data', {}, ctx()))
    expect(data.message).toBe("MCP server 'echo': calling 'rpc_data' failed: MCP error -32602: bad params")
    for (const e of [rpc, expired, data]) expect(leak(everything(e), [token, key])).toBe('')
    expect(leak(JSON.stringify(await mcp.call('echo', {}, ctx())), [token, key])).toBe('')
  })

  it('header values are registered as secrets when the source is made: any error that quotes them is redacted, and the source shows none', () => {
    const key = secret()
    const token = secret()
    const provider = new StaticTokens(token)
    const mcp = source({ name: 'quiet', url: 'http://127.0.0.1:1/mcp', headers: { 'x-api-key': key }, authProvider: provider })
    const e = new ArkAgentError(ErrorLayer.runtime, 'x', `the key was ${key}`)
    expect(leak(everything(e), [key])).toBe('')
    // What a log of the source prints: header names, not values; not the provider's fields.
    expect(mcp.spec.headers).toEqual({ 'x-api-key': '[redacted]' })
    expect(leak(inspect(mcp, { depth: 10 }) + JSON.stringify(mcp.spec), [key, token])).toBe('')
  })
})

/** An OAuth provider holding pre-obtained tokens (a class with private fields: the wrapper must call it as itself). */
class StaticTokens implements OAuthClientProvider {
  readonly #tokens: OAuthTokens
  constructor(accessToken: string) { this.#tokens = { access_token: accessToken, token_type: 'Bearer' } }
  get redirectUrl(): undefined { return undefined }
  get clientMetadata(): OAuthClientMetadata { return { redirect_uris: [], client_name: 'arkagent-test' } }
  clientInformation(): undefined { return undefined }
  tokens(): OAuthTokens { return this.#tokens }
  saveTokens(): void {}
  redirectToAuthorization(): void { throw new Error('no user here') }
  saveCodeVerifier(): void {}
  codeVerifier(): string { return '' }
}

/** The authorization code flow: the user is sent to `redirectedTo`; the app hands the code to the SDK's auth(). */
class UserFlow implements OAuthClientProvider {
  saved?: OAuthTokens
  verifier = ''
  redirectedTo?: URL
  get redirectUrl(): string { return 'http://127.0.0.1/callback' }
  get clientMetadata(): OAuthClientMetadata { return { redirect_uris: ['http://127.0.0.1/callback'], client_name: 'arkagent-test' } }
  clientInformation(): OAuthClientInformationMixed { return { client_id: 'arkagent' } }
  tokens(): OAuthTokens | undefined { return this.saved }
  saveTokens(tokens: OAuthTokens): void { this.saved = tokens }
  redirectToAuthorization(url: URL): void { this.redirectedTo = url }
  saveCodeVerifier(v: string): void { this.verifier = v }
  codeVerifier(): string { return this.verifier }
}

/** Client credentials (no user): the token comes from the authorization server; the provider keeps what it is given. */
class ClientCredentials implements OAuthClientProvider {
  saved?: OAuthTokens
  readonly calls: string[] = []
  constructor(private readonly clientSecret: string) {}
  get redirectUrl(): undefined { return undefined }
  get clientMetadata(): OAuthClientMetadata {
    return { redirect_uris: [], client_name: 'arkagent-test', grant_types: ['client_credentials'], token_endpoint_auth_method: 'client_secret_post' }
  }
  clientInformation(): OAuthClientInformationMixed { this.calls.push('clientInformation'); return { client_id: 'arkagent', client_secret: this.clientSecret } }
  saveClientInformation(): void { this.calls.push('saveClientInformation') }
  async tokens(): Promise<OAuthTokens | undefined> { this.calls.push('tokens'); return this.saved }
  saveTokens(tokens: OAuthTokens): void { this.calls.push('saveTokens'); this.saved = tokens }
  prepareTokenRequest(): URLSearchParams { this.calls.push('prepareTokenRequest'); return new URLSearchParams({ grant_type: 'client_credentials' }) }
  redirectToAuthorization(): void { throw new Error('no user here') }
  saveCodeVerifier(): void {}
  codeVerifier(): string { return '' }
}

describe('McpToolSource authProvider', () => {
  it('the access token tokens() returns is sent by the SDK and registered: an error echoing it is redacted', async () => {
    const token = secret()
    const server = await echoServer({ require: `Bearer ${token}` })
    const mcp = source({ name: 'oauth', url: server.url, authProvider: new StaticTokens(token) })
    expect((await mcp.tools()).map((t) => t.definition.name)).toContain('oauth__rpc_error')
    expect(server.seen.filter((h) => h['content-type'] === 'application/json').every((h) => h.authorization === `Bearer ${token}`)).toBe(true)
    const e = await thrown(mcp.call('rpc_error', {}, ctx()))
    expect(e.message).toContain('refused auth=Bearer [redacted]')
    expect(leak(everything(e), [token])).toBe('')
    expect(leak(new ArkAgentError(ErrorLayer.runtime, 'x', `token ${token}`).message, [token])).toBe('')
  })

  it('client credentials: the issued token and the client secret are registered and used; custom headers go to the MCP server\'s origin only', async () => {
    const access = secret()
    const refresh = secret()
    const clientSecret = secret()
    const key = secret()
    const authSeen: Array<{ path: string, headers: http.IncomingHttpHeaders, body: string }> = []
    const authOrigin = await listen(async (req, res, origin) => {
      const path = new URL(req.url ?? '/', origin).pathname
      authSeen.push({ path, headers: req.headers, body: await body(req) })
      if (path === '/.well-known/oauth-authorization-server') {
        json(res, 200, { issuer: `${origin}/`, authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}/token`,
          response_types_supported: ['code'], grant_types_supported: ['client_credentials'], token_endpoint_auth_methods_supported: ['client_secret_post'] })
      } else if (path === '/token') {
        json(res, 200, { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh })
      } else {
        json(res, 404, { error: 'not_found' })
      }
    })
    const server = await echoServer({ require: `Bearer ${access}`,
      metadata: (origin) => ({ resource: `${origin}/mcp`, authorization_servers: [`${authOrigin}/`] }) })
    const provider = new ClientCredentials(clientSecret)
    const mcp = source({ name: 'cc', url: server.url, headers: { 'x-api-key': key }, authProvider: provider })
    expect((await mcp.tools()).map((t) => t.definition.name)).toContain('cc__rpc_error')

    // The SDK went through the flow with the provider's own methods, and then used the token it was issued.
    expect(provider.calls).toEqual(expect.arrayContaining(['clientInformation', 'prepareTokenRequest', 'saveTokens', 'tokens']))
    expect(authSeen.find((r) => r.path === '/token')?.body).toContain('grant_type=client_credentials')
    expect(server.seen.at(-1)?.authorization).toBe(`Bearer ${access}`)
    // The MCP server's API key went to the MCP server's origin, every time, and never to the authorization server.
    expect(server.seen.every((h) => h['x-api-key'] === key)).toBe(true)
    expect(authSeen.length).toBeGreaterThan(0)
    expect(leak(JSON.stringify(authSeen.map((r) => r.headers)), [key])).toBe('')

    // Nobody registered the issued tokens or the client secret but the source's wrapper.
    expect(leak(new ArkAgentError(ErrorLayer.runtime, 'x', `${access} ${refresh} ${clientSecret}`).message, [access, refresh, clientSecret])).toBe('')
    const e = await thrown(mcp.call('rpc_error', {}, ctx()))
    expect(leak(everything(e), [access, key])).toBe('')
  })

  it('a server that needs the user\'s authorization: the provider is sent there, the source fails typed (after_action), and after the app finishes the flow with the SDK\'s auth() the next listing works', async () => {
    const issued = secret()
    const server = await echoServer({ require: `Bearer ${issued}`, issues: issued })
    const provider = new UserFlow()
    const mcp = source({ name: 'needs-user', url: server.url, authProvider: provider })
    const e = await thrown(mcp.tools())
    expect([e.layer, e.code, e.retryability]).toEqual([ErrorLayer.tool, ErrorCodes.toolExecutionFailed, ErrorRetryability.afterAction])
    expect(e.message).toMatch(/^MCP server 'needs-user': connecting failed: Unauthorized/)
    expect(provider.redirectedTo?.origin).toBe(server.origin)
    // The app's redirect handler got ?code=the-code: the SDK's auth() exchanges it and saves the tokens.
    expect(await auth(provider, { serverUrl: server.url, authorizationCode: 'the-code' })).toBe('AUTHORIZED')
    expect((await mcp.tools()).map((t) => t.definition.name)).toContain('needs-user__rpc_error')
    expect(server.seen.at(-1)?.authorization).toBe(`Bearer ${issued}`)
    expect(leak(everything(await thrown(mcp.call('rpc_error', {}, ctx()))), [issued])).toBe('')
  })

  it('a provider that cannot run the flow the server asks for fails typed and final (never), naming the server', async () => {
    const server = await echoServer({ require: `Bearer ${secret()}` })
    const e = await thrown(source({ name: 'no-flow', url: server.url, authProvider: new StaticTokens(secret()) }).tools())
    expect([e.layer, e.code, e.retryability]).toEqual([ErrorLayer.tool, ErrorCodes.toolExecutionFailed, ErrorRetryability.never])
    expect(e.message).toMatch(/^MCP server 'no-flow': connecting failed: OAuth client information must be saveable/)
  })
})

describe('McpToolSource credential options are checked when the source is made', () => {
  const url = 'http://127.0.0.1:1/mcp'
  const refused = (spec: McpServerSpec): ArkAgentError => {
    try {
      new McpToolSource(spec)
    } catch (e) {
      expect(e).toBeInstanceOf(ArkAgentError)
      expect((e as ArkAgentError).code).toBe(ErrorCodes.invalidConfig)
      return e as ArkAgentError
    }
    throw new Error('not refused')
  }

  it('a command server with headers or an authProvider is refused', () => {
    const base = { name: 'local', command: process.execPath, args: ['x.mjs'] }
    expect(refused({ ...base, headers: { 'x-api-key': secret() } }).message).toMatch(/headers and authProvider are for a url/)
    expect(refused({ ...base, authProvider: new StaticTokens(secret()) }).message).toMatch(/headers and authProvider are for a url/)
  })

  it('a header value with CR, LF, NUL or a character past U+00FF is refused without being echoed', () => {
    for (const bad of ['\r\nx-injected: 1', '\n', '\u0000', '\u2028']) {
      const value = secret()
      const e = refused({ name: 'remote', url, headers: { 'x-api-key': `${value}${bad}${value}` } })
      expect(e.message).toMatch(/header 'x-api-key' needs a string value without CR, LF, NUL/)
      expect(leak(everything(e), [value])).toBe('')
    }
    expect(refused({ name: 'remote', url, headers: { 'x-api-key': 42 as unknown as string } }).message).toMatch(/the value is not shown/)
  })

  it('a header name that is not a token, one the transport sets, one given twice, a bad headers map, a provider without tokens(), or an authorization header beside a provider is refused', () => {
    const value = secret()
    const e = refused({ name: 'remote', url, headers: { [`Bearer ${value}`]: 'x' } })
    expect(e.message).toMatch(/not an RFC 9110 token/)
    expect(leak(everything(e), [value])).toBe('')
    expect(refused({ name: 'remote', url, headers: { 'Mcp-Session-Id': 'abc' } }).message).toMatch(/set by the MCP transport itself/)
    expect(refused({ name: 'remote', url, headers: { 'X-Key': 'a', 'x-key': 'b' } }).message).toMatch(/given twice/)
    expect(refused({ name: 'remote', url, headers: ['x'] as unknown as Record<string, string> }).message).toMatch(/headers must map/)
    expect(refused({ name: 'remote', url, authProvider: {} as OAuthClientProvider }).message).toMatch(/authProvider must be an object with tokens/)
    expect(refused({ name: 'remote', url, headers: { Authorization: `Bearer ${value}` }, authProvider: new StaticTokens(value) }).message)
      .toMatch(/an authorization header or an authProvider, not both/)
  })
})
