// Property: for random batches of concurrent and serial tools (with group limits), random completion
// orders (fast-check's scheduler decides which running call finishes next), random failures, and a
// random process death followed by a restore: limits are never exceeded, a serial call never overlaps
// another, results and afterToolCall hooks come in model order, each call runs at most once, a call
// started in the dead process is tool_interrupted (never run again), and history stays paired.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentHookPipeline,
  AgentMessage,
  AgentRuntime,
  AgentRuntimeConfig,
  ErrorCodes,
  FunctionTool,
  MemorySegmentBackend,
  MemoryStateStorage,
  MessageRole,
  ScriptedProvider,
  ScriptedTurn,
  SegmentedStorageOptions,
  ToolConcurrency,
  ToolDefinition,
  ToolRegistry,
  ToolResultHookContext,
  ToolResultHookResult
} from '../../src/index'
import { expectPaired, FaultyStorage } from './helpers'

const TOOLS: [string, ToolConcurrency, string][] = [
  ['c1', ToolConcurrency.concurrent, ''], ['c2', ToolConcurrency.concurrent, ''],
  ['g1', ToolConcurrency.concurrent, 'srv'], ['g2', ToolConcurrency.concurrent, 'srv'], ['s1', ToolConcurrency.serial, '']]

class Watch extends AgentHook {
  readonly seen: string[] = []
  get hookName(): string { return 'Watch' }
  async afterToolCall(ctx: ToolResultHookContext): Promise<ToolResultHookResult> {
    this.seen.push(ctx.call.id)
    return ToolResultHookResult.proceed()
  }
}

describe('parallel tool execution (property)', () => {
  it('limits, serial isolation, model order, at most once and interruption hold for any batch, timing, failure and death', async () => {
    let overlapped = 0
    let interrupted = 0
    await fc.assert(fc.asyncProperty(
      fc.array(fc.record({ tool: fc.constantFrom(...TOOLS.map((t) => t[0])), fail: fc.boolean() }), { minLength: 1, maxLength: 8 }),
      fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 2 }), fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
      fc.scheduler(),
      async (calls, limit, groupLimit, dieAtSave, s) => {
        const runs = new Map<string, number>()
        const live = new Set<string>()
        const problems: string[] = []
        const make = () => new ToolRegistry(TOOLS.map(([name, conc, group]) =>
          new FunctionTool(new ToolDefinition(name, name, { type: 'object', properties: { fail: { type: 'boolean' } } }, undefined, conc, group),
            async (args, ctx) => {
              const id = ctx.call.id
              runs.set(id, (runs.get(id) ?? 0) + 1)
              live.add(id)
              const kinds = [...live].map((x) => calls[Number(x.slice(1))].tool)
              if (live.size > limit) problems.push(`more than ${limit} at once: ${[...live]}`)
              if (kinds.filter((k) => k.startsWith('g')).length > groupLimit) problems.push(`group limit passed: ${[...live]}`)
              if (live.size > 1 && kinds.includes('s1')) problems.push(`serial call overlapped: ${[...live]}`)
              if (live.size > 1) overlapped++
              try {
                await s.schedule(Promise.resolve(), id)
                if (args.fail === true) throw new Error(`${id} failed`)
                return `${id} ok`
              } finally {
                live.delete(id)
              }
            }))).setConcurrencyLimit('srv', groupLimit)
        let turn = ScriptedTurn.text('')
        calls.forEach((c, i) => { turn = turn.call(`k${i}`, c.tool, JSON.stringify({ fail: c.fail })) })
        const backend = new MemorySegmentBackend()
        const storage = new FaultyStorage(new MemoryStateStorage(new SegmentedStorageOptions(), backend))
        let saves = 0
        storage.dieAfter = () => dieAtSave !== undefined && ++saves >= dieAtSave
        const watch = new Watch()
        const cfg = new AgentRuntimeConfig('prop', new ScriptedProvider([turn, ScriptedTurn.text('done'), ScriptedTurn.text('done')]))
        cfg.tools = make()
        cfg.hooks = new AgentHookPipeline([watch])
        cfg.storage = storage
        cfg.toolTimeoutMs = 0
        cfg.maxConcurrentTools = limit
        const rt = new AgentRuntime(cfg)
        await s.waitFor(rt.runStream([AgentMessage.user('go')]).catch(() => undefined))
        await s.waitAll()
        expect(problems).toEqual([])
        // Hooks saw the results in model order (those that got that far).
        expect(watch.seen).toEqual([...watch.seen].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))))
        let final = rt.snapshot()
        if (storage.dead) {
          const cfg2 = new AgentRuntimeConfig('prop', new ScriptedProvider([ScriptedTurn.text('done')]))
          cfg2.tools = make()
          cfg2.storage = new MemoryStateStorage(new SegmentedStorageOptions(), backend)
          cfg2.maxConcurrentTools = limit
          const rt2 = new AgentRuntime(cfg2)
          const startedBefore = new Set([...runs.keys()])
          const report = await rt2.restore()
          interrupted += report.interruptedCalls
          if (report.kind !== 'fresh' && report.kind !== 'idle') {
            await s.waitFor(rt2.runStream([]).catch(() => undefined))
            await s.waitAll()
          }
          final = rt2.snapshot()
          // A call that ran in the dead process and has no stored result is reported, never run again.
          for (const m of final.history.filter((h) => h.role === MessageRole.tool && h.errorCode === ErrorCodes.toolInterrupted)) {
            expect(startedBefore.has(m.toolCallId!) || m.text().startsWith('Not executed')).toBe(true)
          }
        }
        for (const [id, n] of runs) expect(n, `${id} ran ${n} times`).toBe(1)
        expectPaired(final.history)
        const results = final.history.filter((h) => h.role === MessageRole.tool).map((h) => h.toolCallId)
        if (results.length > 0) expect(results).toEqual(calls.map((_, i) => `k${i}`))
      }), { numRuns: 200 })
    expect(overlapped).toBeGreaterThan(0)
    expect(interrupted).toBeGreaterThan(0)
  }, 600_000)
})
