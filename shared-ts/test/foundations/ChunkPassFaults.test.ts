// The chunk chain's edges: faults raised by the pass's own collaborators (a context whose copy
// throws, a watchdog that throws) settle the pass with that raw error instead of leaving it pending;
// an unchanged, unread context is handed on as is; the pass-through answer is one shared object.
import { describe, expect, it } from 'vitest'
import { AgentHook } from '../../src/core/hook/AgentHook'
import { AgentHookPipeline } from '../../src/core/hook/AgentHookPipeline'
import { ModelChunkHookContext, StateView } from '../../src/core/hook/HookContexts'
import { HookWatchdog } from '../../src/core/hook/HookWatchdog'
import { ModelChunkHookAction, ModelChunkHookResult } from '../../src/core/hook/HookResults'
import { AgentState } from '../../src/core/state/AgentState'

type Loose = Record<string, unknown>

function hook(slots: Loose, name: string = 'T'): AgentHook {
  const h = new AgentHook()
  Object.assign(h as unknown as Loose, slots)
  Object.defineProperty(h, 'hookName', { get: () => name })
  return h
}

const view = (): StateView => StateView.of(new AgentState('s'))

/** How the pass settled within `ms` real milliseconds: 'resolved', the rejection, or 'pending'. */
async function outcome(p: Promise<unknown>, ms: number = 200): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const pending = new Promise<string>((resolve) => { timer = setTimeout(() => resolve('pending'), ms) })
  try {
    return await Promise.race([p.then(() => 'resolved', (e: unknown) => e), pending])
  } finally {
    clearTimeout(timer)
  }
}

/** A chunk context whose copy throws from its second call on (a hostile subclass). */
class BrittleContext extends ModelChunkHookContext {
  copies: number = 0
  readonly fault: Error

  constructor(fault: Error) {
    super('s', 'r', view(), 'hi', false, 0, 1)
    this.fault = fault
  }

  copyWith(text?: string): ModelChunkHookContext {
    this.copies++
    if (this.copies > 1) {
      throw this.fault
    }
    return super.copyWith(text)
  }
}

/** A watchdog whose end() throws once (a hostile subclass passed to onModelChunkThen). */
class FlakyWatchdog extends HookWatchdog {
  private faults: number = 1
  readonly fault: Error

  constructor(fault: Error) {
    super(0)
    this.fault = fault
  }

  end(): void {
    super.end()
    if (this.faults > 0) {
      this.faults--
      throw this.fault
    }
  }
}

describe('a fault inside the chunk pass itself settles the pass', () => {
  it('a context whose copy throws between two hooks rejects the pass with that raw error', async () => {
    const fault = new Error('copy failed')
    const ctx = new BrittleContext(fault)
    const seen: string[] = []
    const p = new AgentHookPipeline([
      hook({ onModelChunk: async (c: ModelChunkHookContext) => ModelChunkHookResult.proceed(c.text + '!') }),
      hook({ onModelChunk: async (c: ModelChunkHookContext) => { seen.push(c.text); return ModelChunkHookResult.proceed() } })
    ])
    expect(await outcome(p.onModelChunk(ctx))).toBe(fault)
    expect(ctx.copies).toBe(2)
    expect(seen).toEqual([])
  })

  it('a watchdog that throws while a failed hook is being judged rejects the pass with that raw error', async () => {
    const fault = new Error('watchdog broke')
    const seen: string[] = []
    const p = new AgentHookPipeline([
      hook({ onModelChunk: async () => { throw new Error('hook broke') } }),
      hook({ onModelChunk: async (c: ModelChunkHookContext) => { seen.push(c.text); return ModelChunkHookResult.proceed() } })
    ])
    const after: string[] = []
    const run = p.onModelChunkThen(new ModelChunkHookContext('s', 'r', view(), 'hi', false, 0, 1),
      { afterChunkHooks: (r: ModelChunkHookResult) => { after.push(r.action) } }, new FlakyWatchdog(fault))
    expect(await outcome(run)).toBe(fault)
    expect(seen).toEqual([])
    expect(after).toEqual([])
  })
})

describe('the chunk chain hands an untouched context on', () => {
  it('the next hook gets the very same context when the previous one neither rewrote the text nor read the state', async () => {
    const seen: ModelChunkHookContext[] = []
    const keep = hook({ onModelChunk: async (c: ModelChunkHookContext) => { seen.push(c); return ModelChunkHookResult.proceed() } })
    const original = new ModelChunkHookContext('s', 'r', view(), 'hi', false, 0, 1)
    const r = await new AgentHookPipeline([keep, keep, keep]).onModelChunk(original)
    expect([r.action, r.text]).toEqual([ModelChunkHookAction.proceed, undefined])
    expect(seen.length).toBe(3)
    expect(seen[0]).not.toBe(original)
    expect(seen[1]).toBe(seen[0])
    expect(seen[2]).toBe(seen[0])
  })
})

describe('the pass-through chunk answer', () => {
  it('is one shared object: proceed() without text never allocates', async () => {
    const a = ModelChunkHookResult.proceed()
    expect(ModelChunkHookResult.proceed()).toBe(a)
    expect([a.action, a.text]).toEqual([ModelChunkHookAction.proceed, undefined])
    const none = await new AgentHookPipeline([hook({ onModelChunk: async () => ModelChunkHookResult.proceed() })])
      .onModelChunk(new ModelChunkHookContext('s', 'r', view(), 'hi', false, 0, 1))
    expect(none).toBe(a)
    expect(ModelChunkHookResult.proceed('x')).not.toBe(a)
  })
})
