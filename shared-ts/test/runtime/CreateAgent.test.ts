// createAgent: the one-call setup with safe defaults (approval policy after your hooks, loop
// detection, your storage); the explicit classes stay for everything else.
import { describe, expect, it } from 'vitest'
import {
  AgentHook, ApprovalPolicy, createAgent, ErrorCodes, FunctionTool, MemoryStateStorage, ModelRequest, RunStatus, ScriptedProvider,
  ScriptedTurn, StopReason, ToolCall, ToolCallHookContext, ToolCallHookResult, ToolDefinition, ToolRiskLevel,
} from '../../src/index'

function tool(name: string, risk: ToolRiskLevel, runs: string[]): FunctionTool {
  return new FunctionTool(new ToolDefinition(name, name, { type: 'object' }, risk), async () => { runs.push(name); return `${name} done` })
}

const callThenDone = (name: string): ScriptedProvider => ScriptedProvider.fromFunction((request: ModelRequest) =>
  request.messages[request.messages.length - 1].role === 'tool' ? ScriptedTurn.text('done') : ScriptedTurn.text('ok').call('c1', name, '{}'))

describe('createAgent', () => {
  it('gates dangerous tools by default: the run suspends, nothing runs until approved', async () => {
    const runs: string[] = []
    const { runtime, controller } = createAgent({ sessionId: 's1', model: callThenDone('wipe'), tools: [tool('wipe', ToolRiskLevel.dangerous, runs)] })
    const outcome = await runtime.run('wipe it')
    expect([outcome.status, outcome.stopReason, runs.length]).toEqual([RunStatus.suspended, StopReason.awaitingApproval, 0])
    await controller.approve(controller.listPendingApprovals()[0].approvalId)
    await runtime.whenIdle()
    expect(runs).toEqual(['wipe'])
    expect(runtime.snapshot().status).toBe('completed')
  })

  it('the opt-out is named for what it does: runDangerousToolsWithoutApproval runs them unasked; safe tools never ask', async () => {
    const runs: string[] = []
    const off = createAgent({ sessionId: 's2', model: callThenDone('wipe'), tools: [tool('wipe', ToolRiskLevel.dangerous, runs)],
      approvalPolicy: ApprovalPolicy.runDangerousToolsWithoutApproval() })
    expect((await off.runtime.run('go')).status).toBe(RunStatus.completed)
    const safe = createAgent({ sessionId: 's3', model: callThenDone('read'), tools: [tool('read', ToolRiskLevel.safe, runs)] })
    expect((await safe.runtime.run('go')).status).toBe(RunStatus.completed)
    expect(runs).toEqual(['wipe', 'read'])
  })

  it('approval: false is refused where it is given (it no longer turns approvals off), as is any policy that is not an ApprovalPolicy', () => {
    const model = callThenDone('wipe')
    const bad: unknown[] = [{ approval: false }, { approval: 'no' }, { approval: 0 }, { approvalPolicy: {} },
      { approvalPolicy: null }, { approvalPolicy: 'off' }, { sensitive: 'yes' },
      { sensitive: true, approvalPolicy: ApprovalPolicy.runDangerousToolsWithoutApproval() }]
    for (const extra of bad) {
      let code = ''
      try {
        createAgent({ sessionId: 'sx', model, ...(extra as object) })
      } catch (e) {
        code = (e as { code: string }).code
      }
      expect([extra, code]).toEqual([extra, ErrorCodes.invalidConfig])
    }
    expect(() => createAgent({ sessionId: 'sy', model, approval: true })).not.toThrow()
  })

  it('sensitive: true gates sensitive tools too', async () => {
    const runs: string[] = []
    const { runtime } = createAgent({ sessionId: 's4', model: callThenDone('mail'), tools: [tool('mail', ToolRiskLevel.sensitive, runs)], sensitive: true })
    expect((await runtime.run('go')).status).toBe(RunStatus.suspended)
    expect(runs).toEqual([])
  })

  it('your hooks run before the approval policy, which judges the call as they rewrote it', async () => {
    const runs: string[] = []
    class RenameToSafe extends AgentHook {
      async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
        return ToolCallHookResult.proceed(new ToolCall(ctx.call.id, 'read', ctx.call.argumentsJson, ctx.call.index))
      }
    }
    const { runtime } = createAgent({ sessionId: 's5', model: callThenDone('wipe'), hooks: [new RenameToSafe()],
      tools: [tool('wipe', ToolRiskLevel.dangerous, runs), tool('read', ToolRiskLevel.safe, runs)] })
    expect((await runtime.run('go')).status).toBe(RunStatus.completed)
    expect(runs).toEqual(['read'])
  })

  it('loop detection is on by default (warn, then stop) and can be turned off', async () => {
    const looping = (): ScriptedProvider => ScriptedProvider.fromFunction((_r, i) => ScriptedTurn.text('again').call(`c${i}`, 'poll', '{}'))
    const runs: string[] = []
    const on = createAgent({ sessionId: 's6', model: looping(), tools: [tool('poll', ToolRiskLevel.safe, runs)] })
    const stopped = await on.runtime.run('go')
    expect([stopped.status, stopped.error?.code]).toEqual([RunStatus.failed, ErrorCodes.loopDetected])
    const off = createAgent({ sessionId: 's7', model: looping(), tools: [tool('poll', ToolRiskLevel.safe, runs)], loopDetection: false, maxTurns: 6 })
    const capped = await off.runtime.run('go')
    expect(capped.error?.code).toBe(ErrorCodes.maxTurns)
  })

  it('uses the storage and system prompt it is given', async () => {
    const storage = new MemoryStateStorage()
    let system = ''
    const model = ScriptedProvider.fromFunction((request: ModelRequest) => {
      system = request.messages[0].text()
      return ScriptedTurn.text('hi')
    })
    const { runtime } = createAgent({ sessionId: 's8', model, storage, systemPrompt: 'Be brief.' })
    await runtime.run('hello')
    expect(system).toBe('Be brief.')
    expect((await storage.load('s8'))?.state.history.map((m) => m.text())).toEqual(['hello', 'hi'])
  })
})
