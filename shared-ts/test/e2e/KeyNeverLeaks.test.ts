// The API key never leaks, on any path: a server that echoes the key in every place a response can
// carry text (error bodies, a JSON body instead of a stream, `event: error`, an error inside a 200
// stream, malformed lines, chunks of the wrong shape, answer text and reasoning split across
// chunks, tool-call arguments, a truncated stream, retried 5xx bodies) drives a real runtime over
// FetchTransport with file storage. Everything serialisable is then scanned for the key: the
// outcome and its error (message, stack, every cause), every event on the bus and the observer,
// the runtime state, every file the storage wrote, everything written to the console.
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  AgentRuntime,
  AgentRuntimeConfig,
  BusEvent,
  CallbackObserver,
  FileStateStorage,
  FunctionTool,
  RetryPolicy,
  ToolDefinition,
  ToolRegistry
} from '../../src/index'
import { makeProvider } from '../provider/support/harness'
import { deepseekChunk, DONE } from '../provider/support/fixtures'
import { Exchange, respond, ScriptedServer, sse } from '../provider/support/ScriptedServer'
import { TestClock } from '../provider/support/TestClock'
import { dump, filesUnder } from '../support/leaks'

const KEY = 'sk-leak-canary-9f8e7d6c5b4a3f2e1d0c'
const M = 'deepseek-chat'

let server: ScriptedServer
beforeAll(async () => { server = await new ScriptedServer().start() })
afterAll(async () => server.close())


const chunk = (delta: Record<string, unknown>, finish: string | null = null): string => deepseekChunk(M, delta, finish)
const half = Math.floor(KEY.length / 2)

const paths: Array<{ name: string, exchanges: () => Exchange[], expectCode?: string }> = [
  { name: 'HTTP 401 body echoing the key', expectCode: 'provider_auth',
    exchanges: () => [respond(401, JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}`, code: 'invalid_api_key' } }))] },
  { name: 'HTTP 500 plain-text body echoing the key, retried until given up', expectCode: 'provider_server_error',
    exchanges: () => [0, 1, 2].map(() => respond(500, `upstream rejected Authorization: Bearer ${KEY}`, { 'content-type': 'text/plain' })) },
  { name: 'a JSON body instead of an event stream', expectCode: 'provider_malformed_response',
    exchanges: () => [respond(200, JSON.stringify({ echo: `Bearer ${KEY}` }))] },
  { name: 'an `event: error` echoing the key', expectCode: 'provider_error',
    exchanges: () => [sse([`event: error\ndata: {"message":"bad key ${KEY}"}\n\n`])] },
  { name: 'an error object inside the 200 stream', expectCode: 'provider_error',
    exchanges: () => [sse([`data: ${JSON.stringify({ error: { message: `Authorization: Bearer ${KEY} rejected` } })}\n\n`])] },
  { name: 'a malformed data line holding the key', expectCode: 'provider_malformed_response',
    exchanges: () => [sse([`data: {not json ${KEY}\n\n`])] },
  { name: 'a chunk of the wrong shape holding the key', expectCode: 'provider_malformed_response',
    exchanges: () => [sse([`data: ${JSON.stringify({ choices: KEY })}\n\n`])] },
  { name: 'answer text echoing the key, split across two chunks',
    exchanges: () => [sse([chunk({ role: 'assistant', content: `your key is ${KEY.slice(0, half)}` }),
      chunk({ content: `${KEY.slice(half)} — keep it safe` }), chunk({}, 'stop'), DONE])] },
  { name: 'reasoning echoing the key, split across chunks',
    exchanges: () => [sse([chunk({ role: 'assistant', reasoning_content: `the key ${KEY.slice(0, 5)}` }),
      chunk({ reasoning_content: KEY.slice(5) }), chunk({ content: 'done' }), chunk({}, 'stop'), DONE])] },
  { name: 'tool-call arguments holding the key',
    exchanges: () => [sse([chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'echo', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: JSON.stringify({ token: KEY }) } }] }), chunk({}, 'tool_calls'), DONE]),
    sse([chunk({ role: 'assistant', content: 'ok' }), chunk({}, 'stop'), DONE])] },
  { name: 'a stream cut off after text holding the key', expectCode: 'provider_stream_truncated',
    exchanges: () => [sse([chunk({ role: 'assistant', content: `echo ${KEY}` })]), sse([chunk({ content: `echo ${KEY}` })]),
      sse([chunk({ content: `echo ${KEY}` })])] }
]

describe('the API key never leaks', () => {
  for (const p of paths) {
    it(`${p.name}: not in the outcome, events, state, files or console`, async () => {
      for (const e of p.exchanges()) server.enqueue(e)
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'arkagent-leak-'))
      const printed: string[] = []
      const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
        vi.spyOn(console, m).mockImplementation((...args: unknown[]) => { printed.push(args.map((a) => dump(a)).join(' ')) }))
      try {
        const provider = makeProvider(server, new TestClock(), { apiKey: KEY, retry: new RetryPolicy(2, 1, 2, 60000, () => 0.5) })
        const config = new AgentRuntimeConfig('leak', provider)
        config.storage = new FileStateStorage(dir, undefined, { lock: false })
        const seenArgs: string[] = []
        config.tools = new ToolRegistry([new FunctionTool(new ToolDefinition('echo', 'echo', { type: 'object' }),
          async (args) => { seenArgs.push(JSON.stringify(args)); return 'echoed' })])
        const events: BusEvent[] = []
        config.controller.subscribeAll((e) => events.push(e))
        const observed: BusEvent[] = []
        const runtime = new AgentRuntime(config)
        const outcome = await runtime.run('hello', new CallbackObserver((e) => observed.push(e)))
        if (p.expectCode !== undefined) expect(outcome.error?.code).toBe(p.expectCode)
        const everything = [dump(outcome), dump(outcome.error), dump(events), dump(observed), dump(runtime.snapshot()),
          await filesUnder(dir), printed.join('\n'), dump(provider), seenArgs.join('\n')].join('\n')
        expect(everything.length).toBeGreaterThan(1000)
        expect(everything).not.toContain(KEY)
        expect(everything).not.toContain(KEY.slice(half))
      } finally {
        for (const s of spies) s.mockRestore()
        await fs.rm(dir, { recursive: true, force: true })
      }
    })
  }
})
