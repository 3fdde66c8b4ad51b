// A beforePersistState hook that throws or hangs on a mandatory write is never more permissive than
// one that answers abort: on every mandatory write (the tool_started mark, awaiting_approval, resume,
// the approval decision, terminal, restore), the three run the same tools (none that the write was
// to protect) and a crash ends with hook_failed, a hang with hook_timeout.
import { describe, expect, it } from 'vitest'
import {
  AgentHook, AgentState, ApprovalDecision, ErrorCodes, MemoryStateStorage, PersistReason, RunOutcome, ScriptedTurn,
  SessionStatus, StatePersistenceHookContext, StatePersistenceHookResult, ToolBatchEntry, ToolBatchProgress, ToolCall,
  AgentMessage, ToolRiskLevel,
} from '../../src/index'
import { CountingTool, makeRuntime, newSessionId } from '../runtime/helpers'

type Mode = 'throw' | 'hang' | 'abort'

/** Fails (in `mode`) the first write whose reason is `reason`, proceeds on every other. */
class FailingGate extends AgentHook {
  constructor(private readonly reason: string, private readonly mode: Mode) { super() }
  get hookName(): string { return 'Gate' }
  async beforePersistState(ctx: StatePersistenceHookContext): Promise<StatePersistenceHookResult> {
    if (ctx.reason !== this.reason) return StatePersistenceHookResult.proceed()
    if (this.mode === 'throw') throw new Error(`gate broke on ${ctx.reason}`)
    if (this.mode === 'hang') return new Promise<StatePersistenceHookResult>(() => {})
    return StatePersistenceHookResult.abort(`no ${ctx.reason}`)
  }
}

interface Seen { ran: number, codes: string[], persisted: boolean[] }

const danger = (): CountingTool => new CountingTool('wipe', ToolRiskLevel.dangerous)

/** Each scenario drives one mandatory write into the failing gate and reports what ran and how it ended. */
const scenarios: Record<string, (gate: AgentHook) => Promise<Seen>> = {
  async [PersistReason.toolStarted](gate) {
    const tool = new CountingTool('read', ToolRiskLevel.safe)
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'read', '{}'), ScriptedTurn.text('done')],
      { tools: [tool.tool], hooks: [gate], storage: new MemoryStateStorage(), configure: (c) => { c.hookTimeoutMs = 30 } })
    const o = await rt.run('go')
    return { ran: tool.count, codes: [code(o)], persisted: [o.persisted] }
  },
  async [PersistReason.awaitingApproval](gate) {
    const tool = danger()
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'wipe', '{}'), ScriptedTurn.text('done')],
      { tools: [tool.tool], hooks: [gate], storage: new MemoryStateStorage(), configure: (c) => { c.hookTimeoutMs = 30 } })
    const o = await rt.run('go')
    // Nothing was frozen, so nothing can be approved into running.
    expect(rt.controller.listPendingApprovals()).toEqual([])
    return { ran: tool.count, codes: [code(o)], persisted: [o.persisted] }
  },
  async [PersistReason.resume](gate) {
    const tool = danger()
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'wipe', '{}'), ScriptedTurn.text('done')],
      { tools: [tool.tool], hooks: [gate], storage: new MemoryStateStorage(),
        configure: (c) => { c.hookTimeoutMs = 30; c.autoResume = false } })
    await rt.run('go')
    expect((await rt.controller.approve(rt.controller.listPendingApprovals()[0].approvalId)).ok).toBe(true)
    const o = await rt.runStream([])
    return { ran: tool.count, codes: [code(o)], persisted: [o.persisted] }
  },
  async [PersistReason.approvalDecision](gate) {
    const tool = danger()
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'wipe', '{}'), ScriptedTurn.text('done')],
      { tools: [tool.tool], hooks: [gate], storage: new MemoryStateStorage(), configure: (c) => { c.hookTimeoutMs = 30 } })
    await rt.run('go')
    const decision = await rt.controller.approve(rt.controller.listPendingApprovals()[0].approvalId)
    await rt.whenIdle()
    // Not recorded, so not decided: the call is still waiting.
    expect(decision.ok).toBe(false)
    expect(rt.controller.listPendingApprovals().map((p) => p.decision)).toEqual([ApprovalDecision.pending])
    return { ran: tool.count, codes: [String(decision.error?.code)], persisted: [] }
  },
  async [PersistReason.terminal](gate) {
    const storage = new MemoryStateStorage()
    const rt = makeRuntime([ScriptedTurn.text('fine')], { hooks: [gate], storage, configure: (c) => { c.hookTimeoutMs = 30 } })
    const o = await rt.run('go')
    const loaded = await storage.load(rt.sessionId)
    // The terminal record was not written: the session is marked not resumable instead.
    expect(loaded?.resumable).toBe(false)
    return { ran: 0, codes: [o.status], persisted: [o.persisted] }
  },
  async [PersistReason.restore](gate) {
    // A stored run that died inside a tool: restore answers the started call and must write that.
    const storage = new MemoryStateStorage()
    const sessionId = newSessionId()
    const state = new AgentState(sessionId)
    const started = new ToolCall('c1', 'read', '{}', 0)
    const next = new ToolCall('c2', 'read', '{}', 1)
    state.status = SessionStatus.running
    state.activeRunId = 'run_old'
    state.history.push(AgentMessage.user('go'))
    state.toolBatch = new ToolBatchProgress('b1', 'run_old', AgentMessage.assistant('', [started, next]),
      [new ToolBatchEntry(started, true), new ToolBatchEntry(next, false)])
    await storage.save(state)
    const tool = new CountingTool('read', ToolRiskLevel.safe)
    const rt = makeRuntime([ScriptedTurn.text('done')], { sessionId, tools: [tool.tool], hooks: [gate], storage,
      configure: (c) => { c.hookTimeoutMs = 30 } })
    let failure = 'none'
    try {
      await rt.restore()
    } catch (e) {
      failure = 'restore failed'
    }
    let o: RunOutcome | undefined
    try {
      o = await rt.runStream([])
    } catch (e) {
      // the restore could not complete: nothing runs
    }
    return { ran: tool.count, codes: [failure, o === undefined ? 'no run' : code(o)], persisted: [] }
  },
}

function code(o: RunOutcome): string {
  return o.error === undefined ? o.status : o.error.code
}

describe('a crashing or hanging gate on a mandatory write is never more permissive than an abort', () => {
  for (const reason of Object.keys(scenarios)) {
    it(`${reason}: throw and hang run exactly what abort runs, ending with hook_failed / hook_timeout`, async () => {
      const abort = await scenarios[reason](new FailingGate(reason, 'abort'))
      const thrown = await scenarios[reason](new FailingGate(reason, 'throw'))
      const hung = await scenarios[reason](new FailingGate(reason, 'hang'))
      expect(thrown.ran).toBe(abort.ran)
      expect(hung.ran).toBe(abort.ran)
      expect(thrown.persisted).toEqual(abort.persisted)
      expect(hung.persisted).toEqual(abort.persisted)
      const expected = (mode: 'throw' | 'hang'): string[] => abort.codes.map((c) =>
        c === ErrorCodes.hookAbort ? (mode === 'throw' ? ErrorCodes.hookFailed : ErrorCodes.hookTimeout) : c)
      expect(thrown.codes).toEqual(expected('throw'))
      expect(hung.codes).toEqual(expected('hang'))
      // What the write protects never ran.
      expect(abort.ran).toBe(0)
    })
  }
})
