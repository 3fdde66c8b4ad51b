// Event type names are public API: apps subscribe by string (`bus.subscribe('approval.required', …)`),
// logs and stored diagnostics carry them. They must never change silently. Each test loads a fresh
// copy of the core, so the class constants are evaluated inside the test itself.
import { describe, expect, it, vi } from 'vitest'

async function freshTypes(): Promise<typeof import('../../src/index').ControllerEventTypes> {
  vi.resetModules()
  return (await import('../../src/index')).ControllerEventTypes
}

describe('event type names', () => {
  it('every event type has its documented wire name', async () => {
    const ControllerEventTypes = await freshTypes()
    expect({
      all: ControllerEventTypes.all,
      agentStarted: ControllerEventTypes.agentStarted,
      agentResumed: ControllerEventTypes.agentResumed,
      agentSuccess: ControllerEventTypes.agentSuccess,
      agentSuspended: ControllerEventTypes.agentSuspended,
      agentCancelled: ControllerEventTypes.agentCancelled,
      agentFailed: ControllerEventTypes.agentFailed,
      beforeCallLlm: ControllerEventTypes.beforeCallLlm,
      afterCallLlm: ControllerEventTypes.afterCallLlm,
      llmChunk: ControllerEventTypes.llmChunk,
      beforeToolCall: ControllerEventTypes.beforeToolCall,
      afterToolCall: ControllerEventTypes.afterToolCall,
      approvalRequired: ControllerEventTypes.approvalRequired,
      approvalDecided: ControllerEventTypes.approvalDecided,
      approvalResolved: ControllerEventTypes.approvalResolved,
      approvalGrant: ControllerEventTypes.approvalGrant,
      planReviewRequired: ControllerEventTypes.planReviewRequired,
      planReviewResolved: ControllerEventTypes.planReviewResolved,
      loopDetected: ControllerEventTypes.loopDetected,
      persist: ControllerEventTypes.persist,
      hookDiagnostic: ControllerEventTypes.hookDiagnostic,
      contextCompacted: ControllerEventTypes.contextCompacted,
      compactionWarning: ControllerEventTypes.compactionWarning,
      sessionRestored: ControllerEventTypes.sessionRestored,
      elicitationRequired: ControllerEventTypes.elicitationRequired,
      elicitationResolved: ControllerEventTypes.elicitationResolved,
      samplingCompleted: ControllerEventTypes.samplingCompleted,
      outputPartial: ControllerEventTypes.outputPartial,
    }).toEqual({
      all: '*',
      agentStarted: 'agent.started',
      agentResumed: 'agent.resumed',
      agentSuccess: 'agent.success',
      agentSuspended: 'agent.suspended',
      agentCancelled: 'agent.cancelled',
      agentFailed: 'agent.failed',
      beforeCallLlm: 'llm.before',
      afterCallLlm: 'llm.after',
      llmChunk: 'llm.chunk',
      beforeToolCall: 'tool.before',
      afterToolCall: 'tool.after',
      approvalRequired: 'approval.required',
      approvalDecided: 'approval.decided',
      approvalResolved: 'approval.resolved',
      approvalGrant: 'approval.grant',
      planReviewRequired: 'plan_review.required',
      planReviewResolved: 'plan_review.resolved',
      loopDetected: 'loop.detected',
      persist: 'state.persist',
      hookDiagnostic: 'hook.diagnostic',
      contextCompacted: 'context.compacted',
      compactionWarning: 'context.compaction_warning',
      sessionRestored: 'session.restored',
      elicitationRequired: 'elicitation.required',
      elicitationResolved: 'elicitation.resolved',
      samplingCompleted: 'sampling.completed',
      outputPartial: 'output.partial',
    })
  })

  it('the terminal types are exactly the four run endings plus suspension', async () => {
    const ControllerEventTypes = await freshTypes()
    expect([...ControllerEventTypes.terminalTypes].sort()).toEqual(
      ['agent.cancelled', 'agent.failed', 'agent.success', 'agent.suspended'])
    for (const t of ControllerEventTypes.terminalTypes) expect(ControllerEventTypes.isTerminal(t)).toBe(true)
    expect(ControllerEventTypes.isTerminal('agent.started')).toBe(false)
  })
})
