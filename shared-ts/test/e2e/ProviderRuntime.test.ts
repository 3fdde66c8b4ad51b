// End to end: OpenAICompatibleProvider over FetchTransport against a real local HTTP server,
// driving AgentRuntime through tool calls, reasoning streams, HTTP errors and cancellation.
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AgentHook, AgentRuntime, AgentRuntimeConfig, ArkAgentError, BusEvent, CallbackObserver,
  ControllerEventTypes, ErrorCodes, ErrorLayer, FileStateStorage, LlmChunkEvent, MessageRole,
  ModelChunkHookContext, ModelChunkHookResult, RunStatus, SessionStatus, StopReason,
  tokenFromAbortSignal, ToolAfterEvent } from '../../src/index'
import { zodTool } from '../../src/zod'
import { deepseekChunk, deepseekReasoner, deepseekUsage, DONE, pieces, toolDelta } from '../provider/support/fixtures'
import { API_KEY, makeProvider } from '../provider/support/harness'
import { type Exchange, respond, ScriptedServer, sse } from '../provider/support/ScriptedServer'
import { TestClock } from '../provider/support/TestClock'

let server: ScriptedServer
let clock: TestClock

beforeEach(async () => {
  server = await new ScriptedServer().start()
  clock = new TestClock()
})
afterEach(async () => {
  await server.close()
})

const weatherArgs = '{"city": "Hangzhou", "unit": "celsius"}'

/** Turn 1: reasoning, a sentence of text, then one tool call whose arguments arrive in 4-char pieces. */
function turnWithToolCall(): string {
  const out = [
    deepseekChunk('deepseek-chat', { role: 'assistant', content: null, reasoning_content: 'Need the weather tool.' }),
    deepseekChunk('deepseek-chat', { content: 'Let me check ' }),
    deepseekChunk('deepseek-chat', { content: 'the weather.' }),
    deepseekChunk('deepseek-chat', { content: null, tool_calls: [toolDelta(0, '', 'call_0_weather', 'get_weather')] })
  ]
  for (const piece of pieces(weatherArgs, 4)) {
    out.push(deepseekChunk('deepseek-chat', { tool_calls: [toolDelta(0, piece)] }))
  }
  out.push(deepseekChunk('deepseek-chat', { content: null }, 'tool_calls'))
  out.push(deepseekUsage('deepseek-chat', 120, 30))
  out.push(DONE)
  return out.join('')
}

function finalAnswer(): string {
  return [
    deepseekChunk('deepseek-chat', { role: 'assistant', content: '' }),
    deepseekChunk('deepseek-chat', { content: 'It is 21 °C ' }),
    deepseekChunk('deepseek-chat', { content: 'and sunny in Hangzhou.' }),
    deepseekChunk('deepseek-chat', { content: '' }, 'stop'),
    deepseekUsage('deepseek-chat', 160, 12),
    DONE
  ].join('')
}

interface WeatherCall {
  city: string
  unit: string
}

function weatherTool(calls: WeatherCall[]) {
  return zodTool({
    name: 'get_weather',
    description: 'Current weather for a city',
    schema: z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']).default('celsius') }),
    execute: async (args) => {
      calls.push(args)
      return JSON.stringify({ city: args.city, temperature: 21, unit: args.unit, sky: 'sunny' })
    }
  })
}

/** Records every event; `types()` collapses runs of llm.chunk into one entry. */
class EventLog {
  readonly events: BusEvent[] = []
  readonly observer = new CallbackObserver((e) => {
    this.events.push(e)
  })

  types(): string[] {
    const out: string[] = []
    for (const e of this.events) {
      const t = e.eventType()
      if (t === ControllerEventTypes.llmChunk && out[out.length - 1] === t) continue
      out.push(t)
    }
    return out
  }

  chunks(): LlmChunkEvent[] {
    return this.events.filter((e): e is LlmChunkEvent => e instanceof LlmChunkEvent)
  }

  /** Serialises events with errors expanded (an Error's message and stack are not enumerable). */
  serialized(): string {
    return JSON.stringify(this.events, (_key, value: unknown) => {
      if (value instanceof Error) {
        return { ...value, name: value.name, message: value.message, stack: value.stack, text: String(value) }
      }
      return value
    })
  }
}

function runtimeFor(config: AgentRuntimeConfig): AgentRuntime {
  return new AgentRuntime(config)
}

describe('OpenAICompatibleProvider + FetchTransport + AgentRuntime', () => {
  it('runs a tool call streamed in pieces, sends the tool result back and completes with the final answer', async () => {
    server.enqueue(sse(pieces(turnWithToolCall(), 97)), sse([finalAnswer()]))
    const calls: WeatherCall[] = []
    const config = new AgentRuntimeConfig('e2e-tools', makeProvider(server, clock))
    config.systemPrompt = 'You are a weather assistant.'
    config.tools.register(weatherTool(calls))
    const runtime = runtimeFor(config)
    const log = new EventLog()

    const outcome = await runtime.run('Weather in Hangzhou?', log.observer)

    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.stopReason).toBe(StopReason.complete)
    expect(outcome.error).toBeUndefined()
    expect(outcome.finalMessage?.text()).toBe('It is 21 °C and sunny in Hangzhou.')
    expect(calls).toEqual([{ city: 'Hangzhou', unit: 'celsius' }])

    // History: user, assistant (reasoning + text + tool call), tool result, final assistant.
    const history = runtime.snapshot().history
    expect(history.map((m) => m.role)).toEqual([MessageRole.user, MessageRole.assistant, MessageRole.tool,
      MessageRole.assistant])
    const assistant = history[1]
    expect(assistant.text()).toBe('Let me check the weather.')
    expect(assistant.reasoning()).toBe('Need the weather tool.')
    expect(assistant.toolCalls.map((c) => [c.id, c.name, c.argumentsJson])).toEqual([
      ['call_0_weather', 'get_weather', weatherArgs]
    ])
    expect(history[2].toolCallId).toBe('call_0_weather')
    expect(history[2].isError).toBe(false)
    expect(JSON.parse(history[2].text())).toEqual({ city: 'Hangzhou', temperature: 21, unit: 'celsius', sky: 'sunny' })
    expect(history[3].text()).toBe('It is 21 °C and sunny in Hangzhou.')
    expect(runtime.snapshot().status).toBe(SessionStatus.completed)

    // Turn 1 request: system prompt, user message, the zod tool as an OpenAI function.
    expect(server.requests).toHaveLength(2)
    expect(server.requests[0].headers.authorization).toBe(`Bearer ${API_KEY}`)
    const first = server.requestBody(0)
    expect(first).toMatchObject({ model: 'deepseek-chat', stream: true, messages: [
      { role: 'system', content: 'You are a weather assistant.' },
      { role: 'user', content: 'Weather in Hangzhou?' }
    ] })
    expect(first.tools).toEqual([{ type: 'function', function: { name: 'get_weather',
      description: 'Current weather for a city', parameters: { type: 'object',
        properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'],
          default: 'celsius' } }, required: ['city'] } } }])

    // Turn 2 request: the assistant tool call with its reasoning (a provider with DeepSeek's id carries
    // DeepSeek's wire profile: a tool-call turn's reasoning must go back, or DeepSeek answers 400) and
    // the paired tool message.
    const second = server.requestBody(1)
    const messages = second.messages as Array<Record<string, unknown>>
    expect(messages).toEqual([
      { role: 'system', content: 'You are a weather assistant.' },
      { role: 'user', content: 'Weather in Hangzhou?' },
      { role: 'assistant', content: 'Let me check the weather.', reasoning_content: 'Need the weather tool.', tool_calls: [
        { id: 'call_0_weather', type: 'function', function: { name: 'get_weather', arguments: weatherArgs } }
      ] },
      { role: 'tool', tool_call_id: 'call_0_weather', content: history[2].text() }
    ])

    // Events, in order, ending in exactly one terminal event.
    expect(log.types()).toEqual([
      ControllerEventTypes.agentStarted,
      ControllerEventTypes.beforeCallLlm, ControllerEventTypes.llmChunk, ControllerEventTypes.afterCallLlm,
      ControllerEventTypes.beforeToolCall, ControllerEventTypes.afterToolCall,
      ControllerEventTypes.beforeCallLlm, ControllerEventTypes.llmChunk, ControllerEventTypes.afterCallLlm,
      ControllerEventTypes.agentSuccess
    ])
    const chunks = log.chunks()
    expect(chunks.filter((c) => c.reasoning).map((c) => c.text).join('')).toBe('Need the weather tool.')
    expect(chunks.filter((c) => !c.reasoning).map((c) => c.text).join(''))
      .toBe('Let me check the weather.It is 21 °C and sunny in Hangzhou.')
    const toolAfter = log.events.find((e): e is ToolAfterEvent => e instanceof ToolAfterEvent)
    expect(toolAfter?.call.argumentsJson).toBe(weatherArgs)
    expect(toolAfter?.result.isError).toBe(false)
    const terminal = log.events.filter((e) => ControllerEventTypes.isTerminal(e.eventType()))
    expect(terminal).toHaveLength(1)
    expect(log.events.every((e) => e.runId === outcome.runId && e.sessionId === 'e2e-tools')).toBe(true)
  })

  it('streams a DeepSeek-reasoner answer (reasoning, then text) through a chunk hook that rewrites text', async () => {
    server.enqueue(sse([deepseekReasoner()]))
    const seen: Array<[boolean, string]> = []
    class Shout extends AgentHook {
      get hookName(): string {
        return 'Shout'
      }

      async onModelChunk(context: ModelChunkHookContext): Promise<ModelChunkHookResult> {
        seen.push([context.reasoning, context.text])
        return context.reasoning ? ModelChunkHookResult.proceed() : ModelChunkHookResult.proceed(context.text.toUpperCase())
      }
    }
    const config = new AgentRuntimeConfig('e2e-reasoner', makeProvider(server, clock))
    config.model = 'deepseek-reasoner'
    config.hooks.register(new Shout())
    const runtime = runtimeFor(config)
    const log = new EventLog()

    const outcome = await runtime.run('hi', log.observer)

    expect(outcome.status).toBe(RunStatus.completed)
    expect(server.requestBody(0).model).toBe('deepseek-reasoner')
    // The hook saw every chunk, reasoning first, in stream order (cut where the redactor held text back).
    const firstText = seen.findIndex(([reasoning]) => !reasoning)
    expect(seen.slice(firstText).every(([reasoning]) => !reasoning)).toBe(true)
    expect(seen.filter(([r]) => r).map(([, t]) => t).join('')).toBe('The user greets me; answer briefly.')
    expect(seen.filter(([r]) => !r).map(([, t]) => t).join('')).toBe('Hi there.')
    // Stored, final and shown text is the rewritten one; reasoning is kept as reasoning.
    expect(outcome.finalMessage?.text()).toBe('HI THERE.')
    expect(outcome.finalMessage?.reasoning()).toBe('The user greets me; answer briefly.')
    const stored = runtime.snapshot().history[1]
    expect(stored.role).toBe(MessageRole.assistant)
    expect(stored.text()).toBe('HI THERE.')
    expect(stored.reasoning()).toBe('The user greets me; answer briefly.')
    // What the user is shown is what the hook let through: the reasoning, then the rewritten text.
    expect(log.chunks().map((c) => [c.reasoning, c.text])).toEqual(seen.map(([r, t]) => [r, r ? t : t.toUpperCase()]))
    expect(log.types()).toEqual([ControllerEventTypes.agentStarted, ControllerEventTypes.beforeCallLlm,
      ControllerEventTypes.llmChunk, ControllerEventTypes.afterCallLlm, ControllerEventTypes.agentSuccess])
  })

  it('ends the run failed with the provider error on a 401, and the API key appears nowhere', async () => {
    // The server echoes the key back, as some gateways do.
    server.enqueue(respond(401, JSON.stringify({ error: { message: `Incorrect API key provided: ${API_KEY}`,
      type: 'authentication_error', code: 'invalid_api_key' } })))
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'arkagent-e2e-'))
    try {
      const storage = new FileStateStorage(dir, undefined, { lock: false })
      const config = new AgentRuntimeConfig('e2e-auth', makeProvider(server, clock))
      config.storage = storage
      const runtime = runtimeFor(config)
      const log = new EventLog()
      const busEvents: BusEvent[] = []
      config.controller.subscribeAll((e) => busEvents.push(e))

      const outcome = await runtime.run('hello', log.observer)

      expect(outcome.status).toBe(RunStatus.failed)
      expect(outcome.stopReason).toBe(StopReason.error)
      const error = outcome.error as ArkAgentError
      expect(error).toBeInstanceOf(ArkAgentError)
      expect(error.layer).toBe(ErrorLayer.provider)
      expect(error.code).toBe(ErrorCodes.providerAuth)
      expect(error.isRetryable()).toBe(false)
      expect(error.message).toContain('HTTP 401')
      expect(error.message).toContain('[redacted]')
      expect(server.requests).toHaveLength(1) // a 401 is final: no retry
      expect(clock.sleeps).toEqual([])

      // Not in the error...
      expect(error.message).not.toContain(API_KEY)
      expect(String(error)).not.toContain(API_KEY)
      expect(error.stack ?? '').not.toContain(API_KEY)
      expect(JSON.stringify(error)).not.toContain(API_KEY)
      // ...nor in any event (observer and bus)...
      const failed = log.events[log.events.length - 1]
      expect(failed.eventType()).toBe(ControllerEventTypes.agentFailed)
      expect(log.serialized()).toContain(ErrorCodes.providerAuth)
      expect(log.serialized()).not.toContain(API_KEY)
      expect(busEvents.length).toBe(log.events.length)
      for (const e of busEvents) expect(JSON.stringify(e)).not.toContain(API_KEY)
      // ...nor in the runtime's state, nor in any file on disk.
      expect(JSON.stringify(runtime.snapshot())).not.toContain(API_KEY)
      expect(JSON.stringify(config.provider)).not.toContain(API_KEY)
      expect(String(config.provider)).not.toContain(API_KEY)
      const files = await listFiles(dir)
      expect(files.length).toBeGreaterThan(0)
      for (const file of files) {
        expect(await fs.readFile(file, 'utf8')).not.toContain(API_KEY)
      }

      // The failure was persisted as terminal.
      const loaded = await new FileStateStorage(dir, undefined, { lock: false }).load('e2e-auth')
      expect(loaded?.state.status).toBe(SessionStatus.failed)
      expect(loaded?.state.lastError).toMatchObject({ layer: 'provider', code: ErrorCodes.providerAuth })
      expect(loaded?.state.lastError?.message).not.toContain(API_KEY)
      expect(loaded?.state.history.map((m) => m.text())).toEqual(['hello'])
    } finally {
      await fs.rm(dir, { recursive: true, force: true })
    }
  })

  it('cancels mid-stream via AbortController -> tokenFromAbortSignal: run ends cancelled, the request is aborted', async () => {
    let clientGone: () => void = () => {}
    const aborted = new Promise<void>((resolve) => {
      clientGone = resolve
    })
    // Streams two text chunks, then holds the connection open until the client goes away.
    const stalling: Exchange = (_req, res) => {
      res.on('close', () => clientGone())
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(deepseekChunk('deepseek-chat', { role: 'assistant', content: 'Counting: ' }))
      res.write(deepseekChunk('deepseek-chat', { content: 'one, ' }))
    }
    server.enqueue(stalling)
    const config = new AgentRuntimeConfig('e2e-cancel', makeProvider(server, clock))
    const runtime = runtimeFor(config)
    const controller = new AbortController()
    const shown: string[] = []
    const log = new EventLog()
    const observer = new CallbackObserver((e) => {
      log.observer.onEvent(e)
      if (e instanceof LlmChunkEvent && shown.push(e.text) > 0 && shown.join('').includes('nting')) {
        controller.abort(new Error('user pressed stop'))
      }
    })

    const outcome = await runtime.run('count slowly', observer, tokenFromAbortSignal(controller.signal))

    expect(outcome.status).toBe(RunStatus.cancelled)
    expect(outcome.stopReason).toBe(StopReason.cancelled)
    expect(outcome.error?.layer).toBe(ErrorLayer.cancelled)
    expect(outcome.error?.code).toBe(ErrorCodes.cancelled)
    expect(outcome.error?.message).toContain('user pressed stop')
    const types = log.types()
    expect(types[types.length - 1]).toBe(ControllerEventTypes.agentCancelled)
    expect(types.filter((t) => ControllerEventTypes.isTerminal(t))).toHaveLength(1)
    expect(types).not.toContain(ControllerEventTypes.afterCallLlm)
    expect(runtime.snapshot().status).toBe(SessionStatus.cancelled)
    expect(runtime.isRunning).toBe(false)
    // What the user saw before the stop is kept, marked cancelled.
    const history = runtime.snapshot().history
    expect(history.map((m) => m.role)).toEqual([MessageRole.user, MessageRole.assistant])
    expect(history[1].text()).toBe(log.chunks().filter((c) => !c.reasoning).map((c) => c.text).join(''))
    expect('Counting: one, '.startsWith(history[1].text())).toBe(true)
    expect(history[1].text()).toContain('Counting')
    expect(history[1].errorCode).toBe(ErrorCodes.cancelled)
    // The HTTP request itself was aborted (the server sees the client hang up).
    await aborted
    expect(server.requests).toHaveLength(1)
  })
})

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...await listFiles(full))
    else out.push(full)
  }
  return out
}
