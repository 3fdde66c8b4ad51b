// The names the runtime writes into events, stored state and outcomes are a wire format (apps
// and stored sessions compare against these exact strings). Each test loads a fresh copy of the
// core, so the module-level constants are evaluated inside the test itself.
import { describe, expect, it, vi } from 'vitest'

type Core = typeof import('../../src/index')

async function freshCore(): Promise<Core> {
  vi.resetModules()
  return await import('../../src/index')
}

describe('wire names', () => {
  it('persist reasons are the documented snake_case names', async () => {
    const core = await freshCore()
    expect([
      core.PersistReason.afterUserInput, core.PersistReason.afterModelText, core.PersistReason.afterToolBatch,
      core.PersistReason.toolStarted, core.PersistReason.awaitingApproval, core.PersistReason.approvalDecision,
      core.PersistReason.awaitingPlanReview, core.PersistReason.planReviewDecision, core.PersistReason.resume,
      core.PersistReason.restore, core.PersistReason.suspend, core.PersistReason.terminal,
      core.PersistReason.compaction
    ]).toEqual([
      'after_user_input', 'after_model_text', 'after_tool_batch', 'tool_started', 'awaiting_approval',
      'approval_decision', 'awaiting_plan_review', 'plan_review_decision', 'resume', 'restore', 'suspend', 'terminal',
      'compaction'
    ])
  })

  it('stop reasons are the documented snake_case names', async () => {
    const core = await freshCore()
    expect([
      core.StopReason.complete, core.StopReason.toolStop, core.StopReason.awaitingApproval,
      core.StopReason.awaitingPlanReview, core.StopReason.cancelled, core.StopReason.error,
      core.StopReason.aborted, core.StopReason.loopDetected, core.StopReason.maxTurns, core.StopReason.outputInvalid
    ]).toEqual([
      'complete', 'tool_stop', 'awaiting_approval', 'awaiting_plan_review', 'cancelled', 'error', 'aborted',
      'loop_detected', 'max_turns', 'output_invalid'
    ])
  })

  it('a plain run reports its writes and its stop under those names', async () => {
    const core = await freshCore()
    const storage = new core.MemoryStateStorage()
    const cfg = new core.AgentRuntimeConfig('wire-plain', new core.ScriptedProvider([
      new core.ScriptedTurn().call('c1', 'ls', '{}'), core.ScriptedTurn.text('done')]))
    cfg.tools = new core.ToolRegistry([new core.FunctionTool(new core.ToolDefinition('ls', 'ls tool',
      { type: 'object', properties: {} }, core.ToolRiskLevel.safe), async () => 'listing')])
    cfg.storage = storage
    const rt = new core.AgentRuntime(cfg)
    const reasons: string[] = []
    const outcome = await rt.run('hello', new core.CallbackObserver((e) => {
      if (e.eventType() === core.ControllerEventTypes.persist) reasons.push((e as InstanceType<Core['PersistEvent']>).reason)
    }))
    expect(outcome.stopReason).toBe('complete')
    expect(reasons).toEqual(['after_user_input', 'tool_started', 'after_tool_batch', 'after_model_text', 'terminal'])
  })

  it('the model is offered the plan tool as submit_plan in plan mode', async () => {
    const core = await freshCore()
    expect(core.SUBMIT_PLAN_TOOL).toBe('submit_plan')
    const provider = new core.ScriptedProvider([core.ScriptedTurn.text('no plan yet')])
    const cfg = new core.AgentRuntimeConfig('wire-plan', provider)
    cfg.planMode = true
    const rt = new core.AgentRuntime(cfg)
    await rt.run('plan it')
    expect(provider.requests[0].tools.map((t) => t.name)).toContain('submit_plan')
  })

  it('a run left active by a dead process resumes with the reason "interrupted run"', async () => {
    const core = await freshCore()
    const storage = new core.MemoryStateStorage()
    const s = new core.AgentState('wire-dead')
    s.history = [core.AgentMessage.user('question')]
    s.status = core.SessionStatus.running
    s.activeRunId = 'run_dead'
    s.runCount = 1
    await storage.save(s)
    const cfg = new core.AgentRuntimeConfig('wire-dead', new core.ScriptedProvider([core.ScriptedTurn.text('answer')]))
    cfg.storage = storage
    const rt = new core.AgentRuntime(cfg)
    const types: string[] = []
    const reasons: string[] = []
    const outcome = await rt.runStream([], new core.CallbackObserver((e) => {
      types.push(e.eventType())
      if (e instanceof core.AgentResumedEvent) reasons.push(e.reason)
    }))
    expect(types[0]).toBe(core.ControllerEventTypes.agentResumed)
    expect(reasons).toEqual(['interrupted run'])
    expect(outcome.finalMessage?.text()).toBe('answer')
  })
})
