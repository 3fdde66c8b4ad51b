// Parallel tool execution under the control plane (docs/tools.md): concurrent tools overlap within
// the runtime's and their group's limits, a serial tool runs alone, and everything the model, the
// hooks and history see stays in model order. Ordered by handshakes (a tool says it started; the test
// releases it), never by time.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentRuntime,
  AgentRuntimeConfig,
  AgentHookPipeline,
  CancellationSource,
  ControllerEventTypes,
  ErrorCodes,
  FunctionTool,
  MemorySegmentBackend,
  MemoryStateStorage,
  MessageRole,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  SegmentedStorageOptions,
  ToolAfterEvent,
  ToolBeforeEvent,
  ToolConcurrency,
  ToolDefinition,
  ToolRegistry,
  ToolResultHookContext,
  ToolResultHookResult
} from '../../src/index'
import type { BusEvent } from '../../src/index'
import { cleanupTempDirs, expectPaired, FaultyStorage } from './helpers'

afterEach(() => cleanupTempDirs())

class Gate<T = void> {
  resolve!: (v: T) => void
  readonly promise = new Promise<T>((r) => { this.resolve = r })
}

/** Tools whose bodies announce their start and wait for the test to release them. */
class Lab {
  readonly started = new Map<string, Gate>()
  readonly release = new Map<string, Gate<string>>()
  readonly runs: string[] = []
  inFlight = 0
  maxInFlight = 0
  readonly overlaps: string[][] = []
  private readonly live = new Set<string>()

  gate(id: string): Gate<string> {
    if (!this.release.has(id)) this.release.set(id, new Gate<string>())
    return this.release.get(id)!
  }

  startedGate(id: string): Gate {
    if (!this.started.has(id)) this.started.set(id, new Gate())
    return this.started.get(id)!
  }

  tool(name: string, concurrency: ToolConcurrency, group = ''): FunctionTool {
    return new FunctionTool(new ToolDefinition(name, name, { type: 'object' }, undefined, concurrency, group), async (_a, ctx) => {
      const id = ctx.call.id
      this.runs.push(id)
      this.live.add(id)
      this.overlaps.push([...this.live].sort())
      this.inFlight++
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
      this.startedGate(id).resolve()
      try {
        const out = await Promise.race([this.gate(id).promise, new Promise<string>((r) => ctx.token.onCancel(() => r('cancelled')))])
        if (out === 'throw') throw new Error(`${id} failed`)
        return `${id}:${out}`
      } finally {
        this.inFlight--
        this.live.delete(id)
      }
    })
  }
}

class AfterOrder extends AgentHook {
  readonly seen: string[] = []
  stopAt?: string
  get hookName(): string { return 'AfterOrder' }
  async afterToolCall(ctx: ToolResultHookContext): Promise<ToolResultHookResult> {
    this.seen.push(ctx.call.id)
    return ctx.call.id === this.stopAt ? ToolResultHookResult.stop(undefined, [], 'enough') : ToolResultHookResult.proceed()
  }
}

function runtime(lab: Lab, calls: [string, string][], configure?: (cfg: AgentRuntimeConfig) => void, tools?: FunctionTool[],
  hooks: AgentHook[] = []): { rt: AgentRuntime, events: BusEvent[], storage: FaultyStorage, backend: MemorySegmentBackend } {
  let turn = ScriptedTurn.text('')
  for (const [id, name] of calls) turn = turn.call(id, name, '{}')
  const cfg = new AgentRuntimeConfig('par', new ScriptedProvider([turn, ScriptedTurn.text('done')]))
  cfg.tools = new ToolRegistry(tools ?? [lab.tool('c', ToolConcurrency.concurrent), lab.tool('s', ToolConcurrency.serial)])
  cfg.hooks = new AgentHookPipeline(hooks)
  const backend = new MemorySegmentBackend()
  const storage = new FaultyStorage(new MemoryStateStorage(new SegmentedStorageOptions(), backend))
  cfg.storage = storage
  cfg.toolTimeoutMs = 0
  configure?.(cfg)
  const rt = new AgentRuntime(cfg)
  const events: BusEvent[] = []
  rt.controller.subscribe(ControllerEventTypes.all, (e) => events.push(e))
  return { rt, events, storage, backend }
}

function toolTexts(rt: AgentRuntime): string[] {
  return rt.snapshot().history.filter((m) => m.role === MessageRole.tool).map((m) => `${m.toolCallId}=${m.text()}`)
}

describe('parallel tool execution', () => {
  it('concurrent calls overlap; results, tool.after events and afterToolCall hooks stay in model order', async () => {
    const lab = new Lab()
    const order = new AfterOrder()
    const { rt, events } = runtime(lab, [['a', 'c'], ['b', 'c'], ['d', 'c']], undefined, undefined, [order])
    const done = rt.run('go')
    await Promise.all(['a', 'b', 'd'].map((id) => lab.startedGate(id).promise))
    expect(lab.maxInFlight).toBe(3)
    for (const id of ['d', 'b', 'a']) lab.gate(id).resolve('ok')
    expect((await done).status).toBe(RunStatus.completed)
    expect(toolTexts(rt)).toEqual(['a=a:ok', 'b=b:ok', 'd=d:ok'])
    expect(order.seen).toEqual(['a', 'b', 'd'])
    expect(events.filter((e) => e instanceof ToolAfterEvent).map((e) => (e as ToolAfterEvent).call.id)).toEqual(['a', 'b', 'd'])
    const before = events.filter((e) => e instanceof ToolBeforeEvent) as ToolBeforeEvent[]
    expect(before.map((e) => [e.call.id, e.concurrent])).toEqual([['a', true], ['b', true], ['d', true]])
    expectPaired(rt.snapshot().history)
  })

  it('never runs more than maxConcurrentTools at once, nor more than a group\'s limit', async () => {
    const lab = new Lab()
    const calls: [string, string][] = [['a', 'c'], ['b', 'c'], ['d', 'c'], ['e', 'c']]
    const { rt } = runtime(lab, calls, (cfg) => { cfg.maxConcurrentTools = 2 })
    const done = rt.run('go')
    await Promise.all(['a', 'b'].map((id) => lab.startedGate(id).promise))
    expect(lab.runs).toEqual(['a', 'b'])
    lab.gate('a').resolve('ok')
    await lab.startedGate('d').promise
    for (const id of ['b', 'd', 'e']) lab.gate(id).resolve('ok')
    await done
    expect(lab.maxInFlight).toBe(2)

    const lab2 = new Lab()
    const tools = [lab2.tool('m1', ToolConcurrency.concurrent, 'srv'), lab2.tool('m2', ToolConcurrency.concurrent, 'srv'),
      lab2.tool('c', ToolConcurrency.concurrent)]
    const { rt: rt2 } = runtime(lab2, [['x', 'm1'], ['y', 'm2'], ['z', 'c']], (cfg) => { cfg.tools.setConcurrencyLimit('srv', 1) }, tools)
    const done2 = rt2.run('go')
    await lab2.startedGate('x').promise
    expect(lab2.runs).toEqual(['x'])
    lab2.gate('x').resolve('ok')
    await Promise.all(['y', 'z'].map((id) => lab2.startedGate(id).promise))
    for (const id of ['y', 'z']) lab2.gate(id).resolve('ok')
    await done2
    expect(lab2.overlaps.every((o) => !(o.includes('x') && o.includes('y')))).toBe(true)
    expect(toolTexts(rt2)).toEqual(['x=x:ok', 'y=y:ok', 'z=z:ok'])
  })

  it('a serial tool runs alone: it waits for the calls before it, and the calls after it wait for it', async () => {
    const lab = new Lab()
    const { rt } = runtime(lab, [['a', 'c'], ['b', 'c'], ['s1', 's'], ['d', 'c'], ['e', 'c']])
    const done = rt.run('go')
    await Promise.all(['a', 'b'].map((id) => lab.startedGate(id).promise))
    lab.gate('b').resolve('ok')
    lab.gate('a').resolve('ok')
    await lab.startedGate('s1').promise
    expect(lab.runs).toEqual(['a', 'b', 's1'])
    lab.gate('s1').resolve('ok')
    await Promise.all(['d', 'e'].map((id) => lab.startedGate(id).promise))
    for (const id of ['e', 'd']) lab.gate(id).resolve('ok')
    await done
    expect(lab.overlaps.filter((o) => o.includes('s1'))).toEqual([['s1']])
    expect(toolTexts(rt)).toEqual(['a=a:ok', 'b=b:ok', 's1=s1:ok', 'd=d:ok', 'e=e:ok'])
  })

  it('each call\'s started mark is stored before it starts', async () => {
    const lab = new Lab()
    const { rt, backend } = runtime(lab, [['a', 'c'], ['b', 'c']])
    const done = rt.run('go')
    await Promise.all(['a', 'b'].map((id) => lab.startedGate(id).promise))
    const stored = await new MemoryStateStorage(new SegmentedStorageOptions(), backend).load('par')
    expect(stored!.state.toolBatch!.entries.map((e) => [e.call.id, e.started])).toEqual([['a', true], ['b', true]])
    lab.gate('a').resolve('ok')
    lab.gate('b').resolve('ok')
    await done
  })

  it('a failing call is its own result: its siblings run and are recorded', async () => {
    const lab = new Lab()
    const { rt } = runtime(lab, [['a', 'c'], ['b', 'c'], ['d', 'c']])
    const done = rt.run('go')
    await Promise.all(['a', 'b', 'd'].map((id) => lab.startedGate(id).promise))
    lab.gate('b').resolve('throw')
    lab.gate('a').resolve('ok')
    lab.gate('d').resolve('ok')
    expect((await done).status).toBe(RunStatus.completed)
    const tools = rt.snapshot().history.filter((m) => m.role === MessageRole.tool)
    expect(tools.map((m) => [m.toolCallId, m.isError])).toEqual([['a', false], ['b', true], ['d', false]])
  })

  it('a stop from an earlier call\'s afterToolCall: what already ran is recorded, nothing new starts', async () => {
    const lab = new Lab()
    const order = new AfterOrder()
    order.stopAt = 'a'
    const { rt } = runtime(lab, [['a', 'c'], ['b', 'c'], ['d', 'c']], (cfg) => { cfg.maxConcurrentTools = 2 }, undefined, [order])
    const done = rt.run('go')
    await Promise.all(['a', 'b'].map((id) => lab.startedGate(id).promise))
    lab.gate('b').resolve('ok')
    lab.gate('a').resolve('ok')
    const outcome = await done
    expect(outcome.status).toBe(RunStatus.completed)
    expect(lab.runs).toEqual(['a', 'b'])
    expect(toolTexts(rt)).toEqual(['a=a:ok', 'b=b:ok', 'd=Not executed: a hook stopped the run'])
    expect(order.seen).toEqual(['a', 'b'])
  })

  it('cancelling the run cancels every running call and waits for them to settle', async () => {
    const lab = new Lab()
    const { rt } = runtime(lab, [['a', 'c'], ['b', 'c'], ['d', 'c']])
    const source = new CancellationSource()
    const done = rt.runStream([(await import('../../src/index')).AgentMessage.user('go')], undefined, source.token)
    await Promise.all(['a', 'b', 'd'].map((id) => lab.startedGate(id).promise))
    source.cancel('user pressed stop')
    const outcome = await done
    expect(outcome.status).toBe(RunStatus.cancelled)
    expect(lab.inFlight).toBe(0)
    expectPaired(rt.snapshot().history)
  })

  it('a process that dies while several run: each started call is tool_interrupted after restore, never run again', async () => {
    const lab = new Lab()
    const { rt, backend, storage } = runtime(lab, [['a', 'c'], ['b', 'c'], ['d', 'c'], ['e', 'c']], (cfg) => { cfg.maxConcurrentTools = 2 })
    const first = rt.run('go')
    await Promise.all(['a', 'b'].map((id) => lab.startedGate(id).promise))
    storage.dead = true
    lab.gate('a').resolve('ok')
    lab.gate('b').resolve('ok')
    await first.catch(() => undefined)
    const cfg = new AgentRuntimeConfig('par', new ScriptedProvider([ScriptedTurn.text('done')]))
    cfg.tools = new ToolRegistry([lab.tool('c', ToolConcurrency.concurrent)])
    cfg.storage = new MemoryStateStorage(new SegmentedStorageOptions(), backend)
    const second = new AgentRuntime(cfg)
    const report = await second.restore()
    expect(report.interruptedCalls).toBe(2)
    for (const id of ['d', 'e']) lab.gate(id).resolve('ok')
    await second.runStream([])
    expect(lab.runs.filter((id) => id === 'a' || id === 'b')).toEqual(['a', 'b'])
    const texts = second.snapshot().history.filter((m) => m.role === MessageRole.tool).map((m) => [m.toolCallId, m.errorCode])
    expect(texts).toEqual([['a', ErrorCodes.toolInterrupted], ['b', ErrorCodes.toolInterrupted], ['d', undefined], ['e', undefined]])
  })

  it('a failing afterToolCall hook while others run: they are cancelled and waited for before the run ends with the hook\'s error', async () => {
    const lab = new Lab()
    const failing = new class extends AgentHook {
      get hookName(): string { return 'Fails' }
      async afterToolCall(ctx: ToolResultHookContext): Promise<ToolResultHookResult> {
        if (ctx.call.id === 'a') throw new Error('hook bug')
        return ToolResultHookResult.proceed()
      }
    }()
    const { rt } = runtime(lab, [['a', 'c'], ['b', 'c'], ['d', 'c']], undefined, undefined, [failing])
    const done = rt.run('go')
    await Promise.all(['a', 'b', 'd'].map((id) => lab.startedGate(id).promise))
    lab.gate('a').resolve('ok')
    const outcome = await done
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.hookFailed)
    // Nothing outlives the batch: b and d were cancelled and had settled when the run ended.
    expect(lab.inFlight).toBe(0)
    expectPaired(rt.snapshot().history)
    // a's result never passed its hooks: it stays out of history, as with one call at a time.
    expect(rt.snapshot().history.filter((m) => m.role === MessageRole.tool).map((m) => [m.toolCallId, m.errorCode])).toEqual([
      ['a', ErrorCodes.toolInterrupted], ['b', ErrorCodes.toolInterrupted], ['d', ErrorCodes.toolInterrupted]])
  })

  it('a tool that stopped being concurrent between scheduling and its start is not run alongside others', async () => {
    const lab = new Lab()
    const flip = lab.tool('c', ToolConcurrency.concurrent)
    const { rt, storage } = runtime(lab, [['a', 'c'], ['b', 'c']], undefined, [flip])
    // Re-register the tool as serial during the write of the started marks.
    const save = storage.save.bind(storage)
    let flipped = false
    storage.save = async (state) => {
      if (!flipped && state.toolBatch?.entries.some((e) => e.started)) {
        flipped = true
        const reg = (rt as unknown as { s: { config: { tools: ToolRegistry } } }).s.config.tools
        reg.unregister('c')
        reg.register(lab.tool('c', ToolConcurrency.serial))
      }
      return save(state)
    }
    const done = rt.run('go')
    await done
    expect(lab.overlaps.every((o) => o.length === 1)).toBe(true)
    expectPaired(rt.snapshot().history)
  })
})
