// Several runtimes of one process on one storage object (a server building a runtime per request):
// a runtime whose copy of a session another runtime has written past may not write it. Two requests
// approving the same item give one decision and one execution, whatever the interleaving.
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import {
  ApprovalDecisionResult, createAgent, ErrorCodes, FileStateStorage, FunctionTool, MemoryStateStorage, ModelRequest,
  ScriptedProvider, ScriptedTurn, StateStorage, ToolDefinition, ToolRiskLevel,
} from '../../src/index'
import { cleanupTempDirs, heldRun, sleep, tempDir } from './helpers'

afterAll(cleanupTempDirs)

/** `continued` counts the model calls that continue after the tool result (one per continuation). */
const model = (continued = { n: 0 }): ScriptedProvider => ScriptedProvider.fromFunction((request: ModelRequest) => {
  if (request.messages[request.messages.length - 1].role !== 'tool') return ScriptedTurn.text('wiping').call('c1', 'wipe', '{}')
  continued.n++
  return ScriptedTurn.text('done')
})

function agent(storage: StateStorage, sessionId: string, runs: string[], continued = { n: 0 }) {
  const wipe = new FunctionTool(new ToolDefinition('wipe', 'wipe', { type: 'object' }, ToolRiskLevel.dangerous),
    async () => { runs.push('wipe'); return 'wiped' })
  return createAgent({ sessionId, model: model(continued), tools: [wipe], storage })
}

async function suspended(storage: StateStorage, sessionId: string): Promise<string> {
  const first = agent(storage, sessionId, [])
  expect((await first.runtime.run('wipe it')).stopReason).toBe('awaiting_approval')
  const approvalId = first.controller.listPendingApprovals()[0].approvalId
  first.runtime.dispose()
  return approvalId
}

const storages: [string, () => StateStorage][] = [
  ['memory', () => new MemoryStateStorage()],
  ['files', () => new FileStateStorage(tempDir())],
]

describe.each(storages)('runtimes sharing one %s storage', (_name, makeStorage) => {
  it('two requests approving the same item at once: one decision, the tool runs once, the other is session_locked', async () => {
    const storage = makeStorage()
    const approvalId = await suspended(storage, 's')
    const runs: string[] = []
    const a = agent(storage, 's', runs)
    const b = agent(storage, 's', runs)
    await Promise.all([a.runtime.restore(), b.runtime.restore()])
    const results = await Promise.all([a.controller.approve(approvalId), b.controller.approve(approvalId)])
    await Promise.all([a.runtime.whenIdle(), b.runtime.whenIdle()])
    expect(results.map((r) => r.ok)).toEqual([true, false])
    expect(results[1].error?.code).toBe(ErrorCodes.sessionLocked)
    expect(runs).toEqual(['wipe'])
    expect((await storage.load('s'))?.state.status).toBe('completed')
  })

  it('a runtime that read the session before another one wrote it may write nothing and run nothing', async () => {
    const storage = makeStorage()
    const approvalId = await suspended(storage, 's')
    const runs: string[] = []
    const worker = agent(storage, 's', runs)
    const reader = agent(storage, 's', runs)
    await Promise.all([worker.runtime.restore(), reader.runtime.restore()])
    expect((await worker.controller.approve(approvalId)).ok).toBe(true)
    await worker.runtime.whenIdle()
    expect([worker.runtime.snapshot().status, runs]).toEqual(['completed', ['wipe']])
    // The reader's copy is stale: its writes are refused, the stored session stays the worker's.
    expect(await reader.runtime.suspend()).toBe(false)
    // Nothing runs on a stale copy, not even a model call.
    await expect(reader.runtime.run('again')).rejects.toMatchObject({ code: ErrorCodes.sessionLocked })
    expect((await storage.load('s'))?.state.history.map((m) => m.text())).toEqual(['wipe it', 'wiping', 'wiped', 'done'])
  })

  it('a status request while another runtime runs the session is told session_locked and disturbs nothing; after the run it restores', async () => {
    const storage = makeStorage()
    const held = heldRun(storage, 'busy')
    const running = held.agent.runtime.run('go')
    await held.started
    const reader = agent(storage, 'busy', [])
    await expect(reader.runtime.restore()).rejects.toMatchObject({ code: ErrorCodes.sessionLocked })
    await expect(reader.runtime.run('me too')).rejects.toMatchObject({ code: ErrorCodes.sessionLocked })
    held.release()
    const outcome = await running
    expect([outcome.status, outcome.persisted]).toEqual(['completed', true])
    expect((await reader.runtime.restore()).kind).toBe('idle')
    expect((await storage.load('busy'))?.state.history.filter((m) => m.role === 'tool').map((m) => m.text())).toEqual(['slow done'])
  })

  for (const decision of ['approve', 'deny'] as const) {
    it(`a status request restoring while the ${decision} decision is being written: one continuation, not two`, async () => {
      const storage = makeStorage()
      const approvalId = await suspended(storage, 's')
      const runs: string[] = []
      const continued = { n: 0 }
      const worker = agent(storage, 's', runs, continued)
      await worker.runtime.restore()
      const decided = decision === 'approve' ? worker.controller.approve(approvalId) : worker.controller.deny(approvalId)
      await new Promise((r) => setImmediate(r))
      const reader = agent(storage, 's', runs, continued)
      // Depending on how far the decision got, the reader loads the session or is told that another
      // runtime of this process is running it (session_locked): either way nothing runs twice.
      const read = await reader.runtime.restore().then(() => 'restored', (e: { code?: string }) => e.code)
      expect(['restored', 'session_locked']).toContain(read)
      expect((await decided).ok).toBe(true)
      await Promise.all([worker.runtime.whenIdle(), reader.runtime.whenIdle()])
      await Promise.all([worker.runtime.runStream([]).catch(() => undefined), reader.runtime.runStream([]).catch(() => undefined)])
      expect(continued.n).toBe(1)
      expect(runs).toEqual(decision === 'approve' ? ['wipe'] : [])
      expect((await storage.load('s'))?.state.status).toBe('completed')
    })
  }

  it('a stale runtime never marks the session another runtime wrote not resumable', async () => {
    const storage = makeStorage()
    await suspended(storage, 's')
    const stale = agent(storage, 's', [])
    await stale.runtime.restore()
    const fresh = agent(storage, 's', [])
    await fresh.runtime.restore()
    expect(await fresh.runtime.suspend()).toBe(true)
    // The stale runtime's terminal write fails (session_locked) and would mark the session: it must not.
    await stale.controller.deny(stale.controller.listPendingApprovals()[0].approvalId)
    await stale.runtime.whenIdle()
    const loaded = await storage.load('s')
    expect([loaded?.resumable, loaded?.state.status]).toEqual([true, 'awaiting_approval'])
  })

  it('a runtime restored after the others wrote continues normally', async () => {
    const storage = makeStorage()
    const approvalId = await suspended(storage, 's')
    const runs: string[] = []
    const a = agent(storage, 's', runs)
    await a.runtime.restore()
    await a.controller.approve(approvalId)
    await a.runtime.whenIdle()
    const later = agent(storage, 's', runs)
    expect((await later.runtime.restore()).kind).toBe('idle')
    expect((await later.runtime.run('and again')).stopReason).toBe('awaiting_approval')
  })
})

describe('a runtime that loses the session mid-run', () => {
  it('stops at its next write with session_locked when the storage gave the session up: no further model call, nothing of it stored', async () => {
    class HandedOver extends MemoryStateStorage {
      handOverNow(sessionId: string): void { this.forget(sessionId) }
    }
    const storage = new HandedOver()
    let calls = 0
    const model = ScriptedProvider.fromFunction(() => {
      calls++
      return calls < 6 ? ScriptedTurn.text('').call(`c${calls}`, 'peek', '{}') : ScriptedTurn.text('done')
    })
    const peek = new FunctionTool(new ToolDefinition('peek', 'peek', { type: 'object' }, ToolRiskLevel.safe), async () => {
      // Ownership of the session changes hands in the middle of this run (a lock or lease lost).
      if (calls === 2) storage.handOverNow('mid')
      return 'seen'
    })
    const { runtime } = createAgent({ sessionId: 'mid', model, tools: [peek], storage })
    const outcome = await runtime.run('look around')
    expect([outcome.status, outcome.error?.code, outcome.persisted]).toEqual(['failed', ErrorCodes.sessionLocked, false])
    expect(calls).toBe(2)
    const stored = await storage.load('mid')
    expect([stored?.resumable, stored?.state.status]).toEqual([true, 'running'])
  })
})

describe('any interleaving of runtimes deciding one item (property)', () => {
  it('exactly one decision is stored, every answer that succeeds agrees with it, the tool runs at most once, one continuation', async () => {
    await fc.assert(fc.asyncProperty(
      fc.boolean(),
      fc.array(fc.record({ act: fc.constantFrom('approve', 'deny', 'read'), before: fc.nat(3), between: fc.nat(3) }), { minLength: 2, maxLength: 5 })
        .filter((ds) => ds.some((d) => d.act !== 'read')),
      async (files, deciders) => {
        const storage: StateStorage = files ? new FileStateStorage(tempDir()) : new MemoryStateStorage()
        const approvalId = await suspended(storage, 'p')
        const runs: string[] = []
        const continued = { n: 0 }
        const agents = deciders.map(() => agent(storage, 'p', runs, continued))
        const all = await Promise.all(deciders.map(async (d, i): Promise<ApprovalDecisionResult | undefined> => {
          await sleep(d.before)
          // A restore while another runtime runs the session is told session_locked (as a decision then is).
          await agents[i].runtime.restore().catch((e) => { if (e.code !== ErrorCodes.sessionLocked) throw e })
          await sleep(d.between)
          if (d.act === 'read') return undefined
          return d.act === 'approve' ? agents[i].controller.approve(approvalId) : agents[i].controller.deny(approvalId)
        }))
        const results = all.filter((r): r is ApprovalDecisionResult => r !== undefined)
        await Promise.all(agents.map((a) => a.runtime.whenIdle()))
        const stored = (await storage.load('p'))?.state
        const toolResults = stored?.history.filter((m) => m.role === 'tool') ?? []
        expect(toolResults.length).toBe(1)
        const approved = toolResults[0].text() === 'wiped'
        expect(runs.length).toBe(approved ? 1 : 0)
        for (const r of results) {
          if (r.ok) {
            expect(r.decision).toBe(approved ? 'approved' : 'denied')
          } else {
            expect([ErrorCodes.sessionLocked, ErrorCodes.approvalConsumed]).toContain(r.error?.code)
          }
        }
        expect(results.some((r) => r.ok)).toBe(true)
        expect(stored?.status).toBe('completed')
        // One continuation, whoever restored when (a runtime that only read never starts a second one).
        expect(continued.n).toBe(1)
      }), { numRuns: 60, seed: 20261201 })
  })
})

describe('file storages giving a session up', () => {
  it('a runtime whose storage gave the session up (close) cannot write its old copy over another owner\'s turn', async () => {
    const dir = tempDir()
    const x = new FileStateStorage(dir)
    const y = new FileStateStorage(dir)
    const say = (tag: string) => ScriptedProvider.fromFunction(() => ScriptedTurn.text(`ok ${tag}`))
    const xAgent = createAgent({ sessionId: 'f', model: say('X'), storage: x })
    await xAgent.runtime.run('x1')
    // A release would give nothing up while xAgent still uses the session; close() gives every lock up.
    await x.release('f')
    await expect(new FileStateStorage(dir).load('f')).rejects.toMatchObject({ code: ErrorCodes.sessionLocked })
    await x.close()
    const yAgent = createAgent({ sessionId: 'f', model: say('Y'), storage: y })
    expect((await yAgent.runtime.run('y1')).status).toBe('completed')
    await y.release('f')
    const second = await xAgent.runtime.run('x2').then((o) => o.error?.code, (e) => e.code)
    expect(second).toBe(ErrorCodes.sessionLocked)
    const texts = (await new FileStateStorage(dir, undefined, { lock: false }).load('f'))?.state.history.map((m) => m.text())
    expect(texts).toEqual(['x1', 'ok X', 'y1', 'ok Y'])
    await x.close()
  })
})

describe('runs in progress and releases', () => {
  it('a run started from the previous run\'s terminal event is registered: another runtime cannot restore during it', async () => {
    const storage = new MemoryStateStorage()
    let calls = 0
    let open = (): void => {}
    const gate = new Promise<void>((r) => { open = r })
    let started = (): void => {}
    const secondInTool = new Promise<void>((r) => { started = r })
    const slow = new FunctionTool(new ToolDefinition('slow', 'slow', { type: 'object' }, ToolRiskLevel.safe), async () => {
      calls++
      if (calls === 2) {
        started()
        await gate
      }
      return 'slow done'
    })
    const a = createAgent({ sessionId: 'chain', storage, tools: [slow], model: ScriptedProvider.fromFunction((r: ModelRequest) =>
      r.messages[r.messages.length - 1].role === 'tool' ? ScriptedTurn.text('done') : ScriptedTurn.text('').call(`c${calls}`, 'slow', '{}')) })
    let second: Promise<unknown> | undefined
    a.controller.subscribe('agent.success', () => { second ??= a.runtime.run('again') })
    expect((await a.runtime.run('first')).status).toBe('completed')
    await secondInTool
    const b = agent(storage, 'chain', [])
    await expect(b.runtime.restore()).rejects.toMatchObject({ code: ErrorCodes.sessionLocked })
    open()
    await second
    expect((await b.runtime.restore()).kind).toBe('idle')
  })

  it('a decision through a second runtime while the first runs resolves as a failed decision (never a rejection)', async () => {
    const storage = new MemoryStateStorage()
    const approvalId = await suspended(storage, 'decide')
    const worker = agent(storage, 'decide', [])
    await worker.runtime.restore()
    expect((await worker.controller.approve(approvalId)).ok).toBe(true)
    const other = agent(storage, 'decide', [])
    const result = await other.controller.deny(approvalId)
    expect([result.ok, result.error?.code]).toEqual([false, ErrorCodes.sessionLocked])
    await worker.runtime.whenIdle()
  })

  for (const [name, make] of storages) {
    it(`a status request that restores, disposes and releases leaves an idle runtime of the session able to decide (${name})`, async () => {
      const storage = make()
      const approvalId = await suspended(storage, 'poll')
      const runs: string[] = []
      const worker = agent(storage, 'poll', runs)
      await worker.runtime.restore()
      const status = agent(storage, 'poll', [])
      try {
        expect((await status.runtime.restore()).kind).toBe('awaiting_approval')
      } finally {
        status.runtime.dispose()
        await (storage as FileStateStorage).release?.('poll')
      }
      expect((await worker.controller.approve(approvalId)).ok).toBe(true)
      await worker.runtime.whenIdle()
      expect(runs).toEqual(['wipe'])
    })
  }
})

describe('a release asked for while the session is still in use', () => {
  it('is carried out once the last runtime using it is done (a continuation that restore() started included)', async () => {
    const dir = tempDir()
    const storage = new FileStateStorage(dir)
    const approvalId = await suspended(storage, 'later')
    // The decision is stored but the run has not continued (a process that stopped right after deciding).
    const { AgentRuntime, AgentRuntimeConfig, AgentHookPipeline, ApprovalPolicyHook, ToolRegistry } = await import('../../src/index')
    const runs: string[] = []
    const cfg = new AgentRuntimeConfig('later', model())
    cfg.storage = storage
    cfg.autoResume = false
    cfg.hooks = new AgentHookPipeline([new ApprovalPolicyHook()])
    cfg.tools = new ToolRegistry([new FunctionTool(new ToolDefinition('wipe', 'wipe', { type: 'object' }, ToolRiskLevel.dangerous), async () => { runs.push('wipe'); return 'wiped' })])
    const decider = new AgentRuntime(cfg)
    await decider.restore()
    expect((await cfg.controller.approve(approvalId)).ok).toBe(true)
    decider.dispose()
    // A request that only restores: the continuation starts by itself; the request disposes and releases at once.
    const request = agent(storage, 'later', runs)
    await request.runtime.restore()
    request.runtime.dispose()
    await storage.release('later')
    await request.runtime.whenIdle()
    expect(runs).toEqual(['wipe'])
    await new Promise((r) => setTimeout(r, 50))
    // The lock was given up when the continuation ended: another owner opens the session.
    const other = new FileStateStorage(dir)
    expect((await other.load('later'))?.state.status).toBe('completed')
    await other.close()
  })
})
