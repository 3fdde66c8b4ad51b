import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect } from 'vitest'
import {
  AgentHook,
  AgentHookPipeline,
  AgentMessage,
  AgentRuntime,
  AgentRuntimeConfig,
  AgentState,
  ArkAgentError,
  BusEvent,
  CallbackObserver,
  ControllerEventTypes,
  createAgent,
  FileStateStorage,
  FunctionTool,
  LoadedState,
  MessageRole,
  ModelProvider,
  PersistEvent,
  SaveReport,
  ScriptedProvider,
  ScriptedTurn,
  StateStorage,
  ToolDefinition,
  ToolExecutionContext,
  ToolRegistry,
  ToolRiskLevel
} from '../../src/index'

/** Real timer sleep, only to create interleavings (never asserted on). */
export function sleep(ms: number): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, ms))
}

/** A fresh temp directory; removed by `cleanupTempDirs`. */
const dirs: string[] = []
export function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'arkagent-rt-'))
  dirs.push(dir)
  return dir
}

export function cleanupTempDirs(): void {
  while (dirs.length > 0) {
    rmSync(dirs.pop() as string, { recursive: true, force: true })
  }
}

/** Awaits a rejection and returns the error (fails the test if the promise resolves). */
export async function rejectionOf(p: Promise<unknown>): Promise<ArkAgentError> {
  try {
    await p
  } catch (e) {
    return e as ArkAgentError
  }
  throw new Error('expected a rejection, but the promise resolved')
}

/** Collects every event an observer (or the bus) receives, in order. */
export class Recorder {
  readonly events: BusEvent[] = []
  readonly observer = new CallbackObserver((e) => this.events.push(e))

  types(): string[] {
    return this.events.map((e) => e.eventType())
  }

  ofType<T extends BusEvent>(type: string): T[] {
    return this.events.filter((e) => e.eventType() === type) as T[]
  }

  indexOf(type: string, from: number = 0): number {
    const t = this.types()
    return t.indexOf(type, from)
  }

  persists(): PersistEvent[] {
    return this.ofType<PersistEvent>(ControllerEventTypes.persist)
  }

  chunkText(reasoning: boolean = false): string {
    return this.ofType<BusEvent & { text: string, reasoning: boolean }>(ControllerEventTypes.llmChunk)
      .filter((e) => e.reasoning === reasoning).map((e) => e.text).join('')
  }

  terminals(): BusEvent[] {
    return this.events.filter((e) => ControllerEventTypes.isTerminal(e.eventType()))
  }
}

/** Asserts exactly one terminal event and that it is the last event seen. */
export function expectSingleTerminalLast(rec: Recorder, type?: string): BusEvent {
  const terminals = rec.terminals()
  expect(terminals.length).toBe(1)
  const last = rec.events[rec.events.length - 1]
  expect(ControllerEventTypes.isTerminal(last.eventType())).toBe(true)
  if (type !== undefined) {
    expect(last.eventType()).toBe(type)
  }
  return last
}

/**
 * History invariant: every assistant tool call id has exactly one tool message answering it,
 * placed after the call (and before the next assistant message), and no tool message answers
 * a call that was never made.
 */
export function expectPaired(history: AgentMessage[]): void {
  const open = new Map<string, number>()
  const answered = new Set<string>()
  for (let i = 0; i < history.length; i++) {
    const m = history[i]
    if (m.role === MessageRole.assistant) {
      expect([...open.keys()], `assistant message #${i} arrived while calls were unanswered`).toEqual([])
      for (const c of m.toolCalls) {
        expect(answered.has(c.id) || open.has(c.id), `duplicate tool call id ${c.id}`).toBe(false)
        open.set(c.id, i)
      }
    } else if (m.role === MessageRole.tool) {
      const id = m.toolCallId as string
      expect(open.has(id), `tool message #${i} answers '${id}', which is not an open call`).toBe(true)
      open.delete(id)
      answered.add(id)
    } else {
      // user/system messages may follow a batch's results (injections) but not split a batch.
      expect([...open.keys()], `${m.role} message #${i} splits an unanswered batch`).toEqual([])
    }
  }
  expect([...open.keys()], 'unpaired tool calls at the end of history').toEqual([])
}

/** The tool message answering `callId`. */
export function toolMessage(history: AgentMessage[], callId: string): AgentMessage {
  const found = history.filter((m) => m.role === MessageRole.tool && m.toolCallId === callId)
  expect(found.length).toBe(1)
  return found[0]
}

export function emptySchema(): Record<string, Object> {
  return { type: 'object', properties: {} }
}

/** A tool counting its executions. */
export class CountingTool {
  count = 0
  readonly tool: FunctionTool

  constructor(name: string, risk: ToolRiskLevel = ToolRiskLevel.safe,
    body: (args: Record<string, Object>, ctx: ToolExecutionContext) => Promise<string> = async () => 'ok',
    schema: Record<string, Object> = emptySchema()) {
    this.tool = new FunctionTool(new ToolDefinition(name, `${name} tool`, schema, risk), async (args, ctx) => {
      this.count++
      return body(args, ctx)
    })
  }
}

export interface MakeOptions {
  sessionId?: string
  tools?: FunctionTool[]
  hooks?: AgentHook[]
  storage?: StateStorage
  configure?: (cfg: AgentRuntimeConfig) => void
}

let sessionSeq = 0
export function newSessionId(): string {
  sessionSeq++
  return `s-${process.pid}-${sessionSeq}`
}

/** Builds a runtime from scripted turns (or a provider) and options. */
export function makeRuntime(provider: ModelProvider | ScriptedTurn[], opts: MakeOptions = {}): AgentRuntime {
  const p = provider instanceof Array ? new ScriptedProvider(provider) : provider
  const cfg = new AgentRuntimeConfig(opts.sessionId ?? newSessionId(), p)
  cfg.tools = new ToolRegistry(opts.tools ?? [])
  cfg.hooks = new AgentHookPipeline(opts.hooks ?? [])
  if (opts.storage !== undefined) {
    cfg.storage = opts.storage
  }
  if (opts.configure !== undefined) {
    opts.configure(cfg)
  }
  return new AgentRuntime(cfg)
}

/** Reads what is on disk for a session through a fresh storage instance (as a new process would). */
export async function loadFromDisk(dir: string, sessionId: string): Promise<LoadedState | undefined> {
  return new FileStateStorage(dir, undefined, { lock: false }).load(sessionId)
}

export type SavePredicate = (state: AgentState) => boolean

/**
 * Wraps a storage: `failWhen` makes matching saves reject (the write never reaches the inner
 * storage); `dieAfter` makes every later save and mark fail once a matching save succeeded (a
 * process that died right after that write). Records the statuses of attempted saves.
 */
export class FaultyStorage implements StateStorage {
  readonly inner: StateStorage
  failWhen?: SavePredicate
  dieAfter?: SavePredicate
  failMarks = false
  dead = false
  readonly attempts: AgentState[] = []
  readonly marks: string[] = []

  constructor(inner: StateStorage) {
    this.inner = inner
  }

  load(sessionId: string): Promise<LoadedState | undefined> {
    return this.inner.load(sessionId)
  }

  async save(state: AgentState): Promise<SaveReport> {
    this.attempts.push(state)
    if (this.dead) {
      throw new Error('disk gone (process died)')
    }
    if (this.failWhen !== undefined && this.failWhen(state)) {
      throw new Error(`injected save failure (status ${state.status})`)
    }
    const report = await this.inner.save(state)
    if (this.dieAfter !== undefined && this.dieAfter(state)) {
      this.dead = true
    }
    return report
  }

  async markNotResumable(sessionId: string, reason: string): Promise<void> {
    this.marks.push(reason)
    if (this.dead || this.failMarks) {
      throw new Error('cannot mark')
    }
    return this.inner.markNotResumable(sessionId, reason)
  }

  delete(sessionId: string): Promise<void> {
    return this.inner.delete(sessionId)
  }
}

/** A dangerous tool under ApprovalPolicyHook defers; handy shorthand. */
export function call(id: string, name: string, args: string = '{}'): ScriptedTurn {
  return new ScriptedTurn().call(id, name, args)
}

/** Stored history of a session on disk. */
export async function storedHistory(dir: string, sessionId: string): Promise<AgentMessage[]> {
  const loaded = await loadFromDisk(dir, sessionId)
  expect(loaded).toBeDefined()
  return (loaded as LoadedState).state.history
}

/**
 * An agent whose run calls one tool that waits until `release()`: `started` resolves once the tool
 * is running (the run is in progress, holding its session).
 */
export function heldRun(storage: StateStorage, sessionId: string) {
  let release = (): void => {}
  const gate = new Promise<void>((r) => { release = r })
  let begin = (): void => {}
  const started = new Promise<void>((r) => { begin = r })
  const slow = new FunctionTool(new ToolDefinition('slow', 'slow', { type: 'object' }, ToolRiskLevel.safe), async () => {
    begin()
    await gate
    return 'slow done'
  })
  const agent = createAgent({ sessionId, storage, tools: [slow], model: ScriptedProvider.fromFunction((r) =>
    r.messages[r.messages.length - 1].role === 'tool' ? ScriptedTurn.text('done') : ScriptedTurn.text('').call('c1', 'slow', '{}')) })
  return { agent, started, release }
}
