// Section 10: how long the runtime holds the thread it runs on, for a 10,000-message session. On
// HarmonyOS the agent runs on the app's UI thread unless the app moves it, and the UI draws only
// between tasks of that thread: a synchronous stretch longer than a frame (16 ms at 60 Hz) is a
// dropped frame. Every operation runs the HAR's own code (the .ets sources, bundled with the Node
// fakes of the system kits); a ticker re-arms itself with setImmediate and records the longest gap
// between two of its turns while the operation runs — microtasks included, since a chain of resolved
// promises keeps the thread as surely as a loop does.
//
// Two storages: memory (the core's segmented storage alone: the runtime's own work) and the HAR's
// PreferencesStateStorage on the Node fake, where the CPU column leaves out what the fake does
// synchronously for what a device does on native threads (parsing and writing the preferences file).
// The thread column and the process-CPU column leave out what the fakes do for the device (bench/stretch.ts).
// Developer knobs: UI_BENCH_ONLY=<words,...> runs the operations whose name contains one of them,
// UI_BENCH_MEMORY_ONLY=1 skips the preferences rows, UI_BENCH_PROFILE=<dir> writes a CPU profile per
// measurement (with the busiest stretch's bounds, as `busiest`).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  AgentMessage, AgentRuntime, AgentRuntimeConfig, AgentState, CompactionOptions, ContentPart, FunctionTool,
  HttpRequest, HttpResponseHead, HttpStreamHandler, HttpTransport, MemoryStateStorage, ModelRequest,
  OpenAICompatibleProvider, ScriptedProvider, ScriptedTurn, SecretVault, StateStorage, ToolCall, ToolDefinition,
  ToolRegistry, ToolRiskLevel, CancellationToken,
} from '../agent_core/src/main/ets/core/index.ets'
import { PreferencesStateStorage, PreferencesStorageOptions } from '../agent_core/src/main/ets/storage/PreferencesStateStorage.ets'
import { check, gc, rng, stats, Stats } from './lib'
import { measureStretch as measure, offThread, Stretch } from './stretch'

export { Stretch } from './stretch'

export const FRAME_MS = 16

function measureStretch(op: () => Promise<unknown>): Promise<Stretch> {
  return measure(op, gc)
}

const SENTENCES = ['Let me look at the build configuration first.', 'The test suite fails in the storage module.',
  '我们先看一下日志，然后再决定下一步。', 'Reading src/app/main.ts to find the entry point.',
  'The function returns early when the cache is empty, which explains the bug.', 'Done: the fix is in place.']

/** A realistic history: user, assistant with a tool call, its result, assistant answer — repeated. */
export function history(n: number): AgentMessage[] {
  const rand = rng(n)
  const pick = (): string => SENTENCES[Math.floor(rand() * SENTENCES.length)]
  const out: AgentMessage[] = []
  for (let i = 0; i < n; i++) {
    const kind = i % 4
    if (kind === 0) out.push(AgentMessage.user(`${pick()} ${pick()} (#${i})`))
    else if (kind === 1) {
      out.push(AgentMessage.assistant(`${pick()} ${pick()}`,
        [new ToolCall(`call_${i}`, 'read_file', JSON.stringify({ path: `src/module${i % 97}/index.ts`, maxLines: 200 }))]))
    } else if (kind === 2) out.push(AgentMessage.tool(`call_${i - 1}`, [ContentPart.text(`${pick()}\n${pick()}\nexport const v${i} = ${i}\n`)]))
    else out.push(AgentMessage.assistant(`${pick()} ${pick()} ${pick()}`))
  }
  return out
}

/** An SSE body of `bytes` bytes: DeepSeek-shaped content deltas, then finish and [DONE]. */
function sseBody(bytes: number): string {
  const parts: string[] = []
  let size = 0
  let i = 0
  while (size < bytes) {
    const delta = `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"word ${i++} 词 "},"finish_reason":null}]}\n\n`
    parts.push(delta)
    size += delta.length
  }
  parts.push('data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}\n\n')
  parts.push('data: [DONE]\n\n')
  return parts.join('')
}

/** Answers every request with one status, one head and the whole SSE body in a single onData (one network read). */
class OneChunkTransport implements HttpTransport {
  constructor(public body: string) {}
  send(request: HttpRequest, handler: HttpStreamHandler, token: CancellationToken): void {
    setImmediate(() => {
      handler.onHead(new HttpResponseHead(200, new Map([['content-type', 'text/event-stream']])))
      handler.onData(this.body)
      handler.onEnd(200)
    })
  }
}

export interface UiThreadRow { operation: string, storage: string, longest: Stats, longestThread: Stats, longestCpu: Stats, total: Stats }

interface Setup {
  storage: () => StateStorage
  forget: () => Promise<void>
  close: () => void
}

function config(id: string, provider: OpenAICompatibleProvider | ScriptedProvider, storage: StateStorage): AgentRuntimeConfig {
  const cfg = new AgentRuntimeConfig(id, provider)
  cfg.storage = storage
  cfg.systemPrompt = 'You are a helpful assistant for a software project.'
  return cfg
}

/** Deletes a measured session, so the heap holds one 10,000-message session at a time, as an app would. */
async function dropSession(setup: Setup, id: string): Promise<void> {
  await setup.storage().delete(id)
  await setup.forget()
}

async function seeded(id: string, n: number, storage: StateStorage): Promise<void> {
  const state = new AgentState(id)
  state.history = history(n)
  await storage.save(state)
}

async function rounds(n: number, what: () => Promise<Stretch>): Promise<{ longest: number[], thread: number[], cpu: number[], total: number[] }> {
  const longest: number[] = []
  const thread: number[] = []
  const cpu: number[] = []
  const total: number[] = []
  await what() // warm-up
  for (let r = 0; r < n; r++) {
    gc()
    const s = await what()
    longest.push(s.longestMs)
    thread.push(s.longestThreadMs)
    cpu.push(s.longestCpuMs)
    total.push(s.totalMs)
  }
  return { longest, thread, cpu, total }
}

async function operations(name: string, setup: Setup, n: number, reps: number): Promise<UiThreadRow[]> {
  const rows: UiThreadRow[] = []
  // UI_BENCH_ONLY=<words>: only the operations whose name contains one of them (profiling).
  const only = process.env.UI_BENCH_ONLY?.split(',')
  const run = async (operation: string, what: () => Promise<Stretch>): Promise<void> => {
    if (only !== undefined && !only.some((w) => operation.includes(w))) return
    const r = await rounds(reps, what)
    rows.push({ operation, storage: name, longest: stats(r.longest), longestThread: stats(r.thread), longestCpu: stats(r.cpu), total: stats(r.total) })
  }
  let seq = 0
  const sid = (what: string): string => `ui-${name.split(' ')[0]}-${what}-${seq++}`
  const answer = ScriptedProvider.fromFunction((): ScriptedTurn => ScriptedTurn.text(`Answer: ${'a sentence of a typical answer; '.repeat(6)}`))

  // Restore: a new runtime (a relaunched process) loads the session.
  await run('restore', async () => {
    const id = sid('restore')
    await seeded(id, n, setup.storage())
    await setup.forget()
    const runtime = new AgentRuntime(config(id, answer, setup.storage()))
    const s = await measureStretch(async () => {
      const report = await runtime.restore()
      check(report.historyLength === n, `restore: ${report.historyLength} messages`)
    })
    runtime.dispose()
    await dropSession(setup, id)
    return s
  })

  // A turn on the restored session: request building, the answer, the autosaves and the terminal write.
  await run('one turn + autosave', async () => {
    const id = sid('turn')
    await seeded(id, n, setup.storage())
    const runtime = new AgentRuntime(config(id, answer, setup.storage()))
    await runtime.restore()
    const s = await measureStretch(async () => {
      const outcome = await runtime.run('one more question about the code')
      check(outcome.stopReason === 'complete', `turn: ${outcome.stopReason}`)
    })
    runtime.dispose()
    await dropSession(setup, id)
    return s
  })

  // Compaction: the first turn on a 10,000-message session over a 16k-token window summarises and cuts.
  await run('turn with compaction (summary + checkpoint)', async () => {
    const id = sid('compact')
    await seeded(id, n, setup.storage())
    const provider = ScriptedProvider.fromFunction((request: ModelRequest): ScriptedTurn =>
      request.messages[0]?.text().startsWith('You compact a conversation')
        ? ScriptedTurn.text('The user asked about the build; each question was answered in full.')
        : ScriptedTurn.text('Answer.'))
    const cfg = config(id, provider, setup.storage())
    const o = new CompactionOptions()
    o.contextWindow = 16_000
    o.outputReserve = 2000
    cfg.compaction = o
    const runtime = new AgentRuntime(cfg)
    await runtime.restore()
    let compacted = 0
    runtime.controller.subscribe('context.compacted', () => { compacted++ })
    const s = await measureStretch(async () => {
      await runtime.run('one more question about the code')
    })
    check(compacted > 0, 'compaction did not fire')
    runtime.dispose()
    await dropSession(setup, id)
    return s
  })

  // SSE: a 1 MiB network read (one dataReceive) of DeepSeek-shaped deltas through the provider and
  // runtime, on a session compacted by the turn before (what a long session with a real model needs:
  // 10,000 messages do not fit any context window), so the request is the summary and the recent tail.
  const body = sseBody(1 << 20)
  const small = sseBody(200)
  await run('SSE: one 1 MiB network read', async () => {
    const id = sid('sse')
    await seeded(id, n, setup.storage())
    const transport = new OneChunkTransport(small)
    const provider = new OpenAICompatibleProvider({ transport, baseUrl: 'https://api.example.com/v1', apiKey: secret, model: 'm' })
    const cfg = config(id, provider, setup.storage())
    const o = new CompactionOptions()
    o.contextWindow = 16_000
    o.outputReserve = 2000
    cfg.compaction = o
    const runtime = new AgentRuntime(cfg)
    await runtime.restore()
    await runtime.run('first question after the restore (compacts)')
    check(runtime.snapshot().compaction !== undefined, 'sse: the session was not compacted')
    transport.body = body
    const s = await measureStretch(async () => {
      const outcome = await runtime.run('stream a long answer')
      check(outcome.stopReason === 'complete', `sse: ${outcome.stopReason}`)
    })
    runtime.dispose()
    await dropSession(setup, id)
    return s
  })

  // The secret redactor on a 1 MiB tool result (a registered key occurs in it).
  const big = Array.from({ length: 16_384 }, (_, i) => `line ${i}: value=${(i * 7919) % 100003} ${i % 1000 === 0 ? secret : 'ok'}\n`).join('').padEnd(1 << 20, '.')
  await run('tool result of 1 MiB through the secret redactor', async () => {
    const id = sid('redact')
    await seeded(id, n, setup.storage())
    const tool = new FunctionTool(new ToolDefinition('dump_log', 'Returns the log', { type: 'object' }, ToolRiskLevel.safe),
      async (): Promise<string> => big)
    const provider = ScriptedProvider.fromFunction((request: ModelRequest): ScriptedTurn =>
      request.messages[request.messages.length - 1].role === 'user'
        ? ScriptedTurn.text('Reading the log.').call('c1', 'dump_log', '{}')
        : ScriptedTurn.text('The log is fine.'))
    const cfg = config(id, provider, setup.storage())
    cfg.tools = new ToolRegistry([tool])
    const runtime = new AgentRuntime(cfg)
    await runtime.restore()
    const s = await measureStretch(async () => {
      const outcome = await runtime.run('check the log')
      check(outcome.stopReason === 'complete', `redact: ${outcome.stopReason}`)
    })
    const stored = runtime.snapshot().history
    check(stored[stored.length - 2].text().indexOf(secret) < 0, 'the secret reached the history')
    runtime.dispose()
    await dropSession(setup, id)
    return s
  })
  return rows
}

/** An app always holds its API key, so every operation runs with the SecretVault active, as on a device. */
const secret = 'sk-live-5c1b0f6e9d2a47b8a3e1'

export async function uiThreadBench(n: number, reps: number): Promise<UiThreadRow[]> {
  SecretVault.register(secret)
  const memory: Setup = { storage: () => new MemoryStateStorageShared(), forget: async () => {}, close: () => {} }
  const rows = await operations('memory', memory, n, reps)
  if (process.env.UI_BENCH_MEMORY_ONLY !== undefined) return rows
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-ui-bench-'))
  const context = { preferencesDir: path.join(dir, 'preferences'), databaseDir: path.join(dir, 'database') }
  const { preferences } = await import('../scripts/hypium-node/fakes/ArkData.ts')
  // A device parses and writes the preferences file on native threads: what the fake does for that
  // synchronously is not the JS thread's time (flush() and the load's first, synchronous step).
  const getPreferences = preferences.getPreferences
  preferences.getPreferences = async (...args: Parameters<typeof getPreferences>) => {
    const p = await getPreferences(...args)
    const proto = Object.getPrototypeOf(p) as Record<string, unknown>
    offThread(proto, 'flush')
    offThread(proto, 'loadFromDisk')
    return p
  }
  const opened: PreferencesStateStorage[] = []
  try {
    const prefs: Setup = {
      storage: () => {
        // One owner per session: the previous instance lets go first (a relaunched process).
        for (const s of opened.splice(0)) s.close()
        const s = new PreferencesStateStorage(context as never, new PreferencesStorageOptions())
        opened.push(s)
        return s
      },
      forget: async () => {
        for (const s of opened.splice(0)) s.close()
        for (const f of fs.existsSync(context.preferencesDir) ? fs.readdirSync(context.preferencesDir) : []) {
          await preferences.removePreferencesFromCache(context, { name: f })
        }
      },
      close: () => { for (const s of opened.splice(0)) s.close() },
    }
    rows.push(...await operations('preferences (Node fake)', prefs, n, reps))
    prefs.close()
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
  return rows
}

/** Memory storages sharing one backend, so a "relaunched" runtime finds what the previous one saved. */
const sharedMemory = new MemoryStateStorage()
class MemoryStateStorageShared implements StateStorage {
  load(id: string) { return sharedMemory.load(id) }
  save(state: AgentState) { return sharedMemory.save(state) }
  markNotResumable(id: string, reason: string) { return sharedMemory.markNotResumable(id, reason) }
  delete(id: string) { return sharedMemory.delete(id) }
}
