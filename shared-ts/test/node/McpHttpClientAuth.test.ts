// The core's McpHttpClient with credentials from a key store: a `headerProvider` resolved per
// connection (the HAR reads its Asset Store there), against the official SDK's server behind a bearer
// check on 127.0.0.1 that echoes the Authorization header it got in its 401 body. A rotated token is
// picked up on the next connection (a 401 re-resolves once); no piece of any token leaves in an error.
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { inspect } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { sessionHandler } from '../support/mcpSessions'
import {
  ArkAgentError, ErrorCodes, ErrorRetryability, FetchTransport, McpHttpClient, McpHttpTool, ToolCall, ToolRegistry,
  type McpHeaderProvider,
} from '../../src/index'
// @ts-ignore the example server is plain JavaScript
import { notesServer } from '../../../examples/mcp/notes-server.mjs'

const servers: http.Server[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) { s.closeAllConnections(); await new Promise((r) => s.close(r)) }
})

/** The SDK's server with sessions, behind `Bearer <valid.token>`; a refusal echoes what it got. */
async function guarded(valid: { token: string }): Promise<{ url: string, seen: string[] }> {
  const sessions = sessionHandler(async (made) => { await notesServer().connect(made) })
  const seen: string[] = []
  const server = http.createServer(async (req, res) => {
    seen.push(String(req.headers.authorization))
    if (req.headers.authorization !== `Bearer ${valid.token}`) {
      res.writeHead(401, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: 'invalid_token', got: req.headers.authorization ?? null }))
      return
    }
    await sessions(req, res)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  servers.push(server)
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen }
}

const token = (): string => `tok-${randomBytes(24).toString('base64url')}`
/** A key store the app keeps its MCP token in (the HAR: AssetKeyStore), read by the provider at every connection. */
function keyStore(initial: string): { store: Map<string, string>, provider: McpHeaderProvider, reads: () => number } {
  const store = new Map([['notes-mcp', initial]])
  let reads = 0
  const provider = async (): Promise<Map<string, string>> => {
    reads++
    return new Map([['authorization', `Bearer ${store.get('notes-mcp') ?? ''}`]])
  }
  return { store, provider, reads: () => reads }
}

/** Whether `text` holds any 8-character run of `secret`. */
const holds = (text: string, secret: string): boolean => {
  for (let i = 0; i + 8 <= secret.length; i++) if (text.includes(secret.slice(i, i + 8))) return true
  return false
}

describe('McpHttpClient headerProvider', () => {
  it('is resolved per connection: once for a session, again when a rotated token makes the server answer 401', async () => {
    const valid = { token: token() }
    const { url, seen } = await guarded(valid)
    const keys = keyStore(valid.token)
    const client = new McpHttpClient(url, new FetchTransport(), undefined, { headerProvider: keys.provider })
    const registry = new ToolRegistry(await McpHttpTool.all(client, 'notes'))
    expect((await registry.execute(new ToolCall('c1', 'notes__list_notes', '{}'), 's', 'r')).modelText()).toBe('welcome')
    expect(keys.reads()).toBe(1)
    expect(seen.every((h) => h === `Bearer ${valid.token}`)).toBe(true)
    // The server now wants another token, and the app stored it: the next call picks it up.
    const old = valid.token
    valid.token = token()
    keys.store.set('notes-mcp', valid.token)
    const next = await registry.execute(new ToolCall('c2', 'notes__list_notes', '{}'), 's', 'r')
    expect([next.isError, next.modelText()]).toEqual([false, 'welcome'])
    expect(keys.reads()).toBe(2)
    expect(seen.filter((h) => h === `Bearer ${old}`).length).toBeGreaterThan(0)
    expect(seen[seen.length - 1]).toBe(`Bearer ${valid.token}`)
  })

  it('a refused token fails with after_action, and no piece of it is in the error, though the server echoed it', async () => {
    const valid = { token: token() }
    const { url } = await guarded(valid)
    const wrong = token()
    const keys = keyStore(wrong)
    const client = new McpHttpClient(url, new FetchTransport(), undefined, { headerProvider: keys.provider })
    const e = await client.listTools().then(() => undefined, (x: unknown) => x) as ArkAgentError
    expect(e).toBeInstanceOf(ArkAgentError)
    expect([e.code, e.retryability]).toEqual([ErrorCodes.toolExecutionFailed, ErrorRetryability.afterAction])
    expect(e.message).toMatch(/HTTP 401/)
    expect(holds(`${String(e)}\n${inspect(e, { depth: 10 })}`, wrong)).toBe(false)
    // The app fixes its key store: the next call connects with the new value.
    keys.store.set('notes-mcp', valid.token)
    expect((await client.callTool('list_notes', {})).text).toBe('welcome')
  })

  it('static headers and the provider\'s both go out (the provider\'s win on the same name)', async () => {
    const valid = { token: token() }
    const { url } = await guarded(valid)
    const client = new McpHttpClient(url, new FetchTransport(), undefined, {
      headers: new Map([['Authorization', 'Bearer stale-static-value'], ['x-tenant', 'acme']]),
      headerProvider: async () => new Map([['authorization', `Bearer ${valid.token}`]]),
    })
    expect((await client.callTool('list_notes', {})).text).toBe('welcome')
  })

  it('a provider that fails, or gives no Map or a bad value, fails the connection without echoing a value', async () => {
    const { url } = await guarded({ token: token() })
    const failing = new McpHttpClient(url, new FetchTransport(), undefined, { headerProvider: async () => { throw new Error('asset store locked') } })
    const e = await failing.listTools().then(() => undefined, (x: unknown) => x) as ArkAgentError
    expect([e.code, e.retryability, e.message]).toEqual([ErrorCodes.toolExecutionFailed, ErrorRetryability.afterAction,
      'MCP header provider failed: asset store locked'])
    const notMap = new McpHttpClient(url, new FetchTransport(), undefined,
      { headerProvider: async () => ({ authorization: 'x' }) as unknown as Map<string, string> })
    await expect(notMap.listTools()).rejects.toThrow(/must resolve to a Map/)
    const secret = token()
    const badValue = new McpHttpClient(url, new FetchTransport(), undefined,
      { headerProvider: async () => new Map([['authorization', `Bearer ${secret}\r\nx-injected: 1`]]) })
    const bad = await badValue.listTools().then(() => undefined, (x: unknown) => x) as ArkAgentError
    expect(bad.code).toBe(ErrorCodes.invalidConfig)
    expect(holds(String(bad), secret)).toBe(false)
    expect(() => new McpHttpClient(url, new FetchTransport(), undefined, { headerProvider: 'Bearer x' as unknown as McpHeaderProvider }))
      .toThrow(/headerProvider must be a function/)
  })
})
