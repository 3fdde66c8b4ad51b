// Faults against the MCP reference servers, for both clients alike: the everything server (npm
// @modelcontextprotocol/server-everything) in its Streamable HTTP mode, killed mid-call and restarted
// on the same port (it answers an unknown session with HTTP 400, not the spec's 404).
import { afterEach, describe, expect, it } from 'vitest'
import { ErrorCodes, FetchTransport, McpHttpClient, McpHttpTool, ToolCall, ToolRegistry } from '../../src/index'
import { McpToolSource } from '../../src/mcp'
import { EverythingHttp } from './fixtures/reference-servers'

const running: EverythingHttp[] = []
const sources: McpToolSource[] = []
afterEach(async () => {
  for (const s of sources.splice(0)) await s.close().catch(() => {})
  for (const s of running.splice(0)) await s.kill()
})

async function everything(): Promise<EverythingHttp> {
  const server = await EverythingHttp.start()
  running.push(server)
  return server
}

/**
 * The everything server's tools in a registry, by either client. The tool timeout is far longer than any
 * test waits, so a call that hangs ends as `tool_timeout` (and the test's own hang detector), never as the
 * `tool_execution_failed` these tests expect: "fails at once" is told by the code, not by a clock.
 */
async function registryFor(client: 'core' | 'node', url: string): Promise<ToolRegistry> {
  if (client === 'core') return new ToolRegistry(await McpHttpTool.all(new McpHttpClient(url, new FetchTransport()), 'everything'), 240000)
  const source = new McpToolSource({ name: 'everything', url })
  sources.push(source)
  return new ToolRegistry(await source.tools(), 240000)
}

let seq = 0
const call = (registry: ToolRegistry, tool: string, args: object) =>
  registry.execute(new ToolCall(`c${++seq}`, `everything__${tool}`, JSON.stringify(args)), 's', 'r')
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

for (const client of ['core', 'node'] as const) {
  describe(`${client === 'core' ? 'McpHttpClient' : 'McpToolSource'} against the everything server over Streamable HTTP`, () => {
    it('killed mid-call: that call fails at once (tool_execution_failed); restarted on the same port, the next call works', async () => {
      const server = await everything()
      const registry = await registryFor(client, server.url)
      expect((await call(registry, 'echo', { message: 'before' })).modelText()).toBe('Echo: before')
      const pending = call(registry, 'trigger-long-running-operation', { duration: 120, steps: 120 })
      await sleep(500)
      await server.kill()
      const failed = await pending
      expect([failed.isError, failed.errorCode]).toEqual([true, ErrorCodes.toolExecutionFailed])
      await server.start()
      const next = await call(registry, 'echo', { message: 'after' })
      expect([next.isError, next.modelText()]).toEqual([false, 'Echo: after'])
    })

    it('restarted between calls (its sessions gone, answered HTTP 400): the next call initializes again and works', async () => {
      const server = await everything()
      const registry = await registryFor(client, server.url)
      expect((await call(registry, 'echo', { message: 'one' })).modelText()).toBe('Echo: one')
      await server.restart()
      for (const message of ['two', 'three']) {
        const r = await call(registry, 'echo', { message })
        expect([r.isError, r.modelText()]).toEqual([false, `Echo: ${message}`])
      }
    })
  })
}
