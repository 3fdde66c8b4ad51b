// The event surface apps program against: the type strings they subscribe with, what each event
// carries, how the bus counts and delivers, what it says when it cannot, and what the controller
// answers when nothing is bound or nothing is pending.
import { describe, expect, it } from 'vitest'
import { AgentController } from '../../src/core/controller/AgentController'
import { ApprovalHost } from '../../src/core/controller/ApprovalHost'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import {
  AgentCancelledEvent,
  AgentFailedEvent,
  AgentResumedEvent,
  AgentStartedEvent,
  AgentSuccessEvent,
  AgentSuspendedEvent,
  HookDiagnosticEvent,
  LlmAfterEvent,
  LlmBeforeEvent,
  LlmChunkEvent,
  LoopAction,
  LoopDetectedEvent,
  PersistEvent,
  PlanReviewRequiredEvent,
  PlanReviewResolvedEvent,
  SessionRestoredEvent,
  ToolAfterEvent,
  ToolBeforeEvent
} from '../../src/core/events/AgentEvents'
import { ApprovalDecidedEvent, ApprovalRequiredEvent, ApprovalResolvedEvent } from '../../src/core/events/ApprovalEvents'
import {
  CompactionWarningEvent
} from '../../src/core/events/CompactionEvents'
import { BusEvent, CustomEvent } from '../../src/core/events/BusEvent'
import { OutputPartialEvent } from '../../src/core/events/OutputPartialEvent'
import {
  ElicitationRequiredEvent, ElicitationResolvedEvent, SamplingCompletedEvent, SamplingOutcome
} from '../../src/core/events/ElicitationEvents'
import { ElicitationKind, PendingElicitation } from '../../src/core/state/PendingElicitation'

const elicitation = (): PendingElicitation => new PendingElicitation('eli-1', 'r', ElicitationKind.input, 'notes', 'Your name?',
  '{"type":"object","properties":{"name":{"type":"string"}}}', 'c1', 1)
import { ControllerEventTypes } from '../../src/core/events/ControllerEventTypes'
import { EventBus } from '../../src/core/events/EventBus'
import { LoopKind, LoopVerdict } from '../../src/core/loop/LoopDetectorPort'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ModelRequest } from '../../src/core/model/ModelRequest'
import { ModelResponse } from '../../src/core/model/ModelResponse'
import { ToolCall } from '../../src/core/model/ToolCall'
import { ToolResult } from '../../src/core/model/ToolResult'
import { ApprovalDecision, ApprovalDecisionResult, PendingApprovalBatch, PendingApprovalItem } from '../../src/core/state/PendingApproval'
import { ApprovalGrant } from '../../src/core/state/ApprovalGrant'
import { GrantRevokeResult } from '../../src/core/controller/ApprovalHost'
import { PendingPlanReview, PlanReviewDecision, PlanReviewDecisionResult } from '../../src/core/state/PendingPlanReview'
import { rejectionOf, richBatch } from './fixtures'

const err = new ArkAgentError(ErrorLayer.cancelled, ErrorCodes.cancelled, 'stopped by user')
const call = new ToolCall('c1', 'read', '{}')
const review = (): PendingPlanReview => new PendingPlanReview('review_1', 'run_1', 'plan', call, AgentMessage.assistant('', [call]), 5)

describe('event type strings', () => {
  it('are the documented keys, stable across releases', () => {
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
      outputPartial: ControllerEventTypes.outputPartial
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
      outputPartial: 'output.partial'
    })
  })

  it('exactly success, suspended, cancelled and failed are terminal', () => {
    expect(ControllerEventTypes.terminalTypes).toEqual(['agent.success', 'agent.suspended', 'agent.cancelled', 'agent.failed'])
    const terminal = ['agent.success', 'agent.suspended', 'agent.cancelled', 'agent.failed']
    const other = ['*', 'agent.started', 'agent.resumed', 'llm.before', 'llm.after', 'llm.chunk', 'tool.before', 'tool.after',
      'approval.required', 'approval.decided', 'approval.resolved', 'plan_review.required', 'plan_review.resolved',
      'loop.detected', 'state.persist', 'hook.diagnostic', 'context.compacted', 'context.compaction_warning', 'session.restored', 'output.partial',
      'elicitation.required', 'elicitation.resolved', 'sampling.completed', '', 'agent']
    expect(terminal.map((t) => ControllerEventTypes.isTerminal(t))).toEqual([true, true, true, true])
    expect(other.filter((t) => ControllerEventTypes.isTerminal(t))).toEqual([])
  })
})

describe('what each event carries', () => {
  it('every built-in event reports its own type key and the session and run it belongs to', () => {
    const batch = richBatch()
    const verdict = new LoopVerdict(LoopKind.repeat, 'read:{}', 3)
    const events: Array<[BusEvent, string]> = [
      [new AgentStartedEvent('s', 'r', [AgentMessage.user('hi')]), 'agent.started'],
      [new AgentResumedEvent('s', 'r', 'approval_decided'), 'agent.resumed'],
      [new AgentSuccessEvent('s', 'r', 'complete'), 'agent.success'],
      [new AgentSuspendedEvent('s', 'r', 'awaiting_approval'), 'agent.suspended'],
      [new AgentCancelledEvent('s', 'r', err), 'agent.cancelled'],
      [new AgentFailedEvent('s', 'r', err, false), 'agent.failed'],
      [new LlmBeforeEvent('s', 'r', 1, new ModelRequest([AgentMessage.user('q')])), 'llm.before'],
      [new LlmAfterEvent('s', 'r', 1, new ModelResponse(AgentMessage.assistant('a'))), 'llm.after'],
      [new LlmChunkEvent('s', 'r', 'tok', true), 'llm.chunk'],
      [new ToolBeforeEvent('s', 'r', call), 'tool.before'],
      [new ToolAfterEvent('s', 'r', call, ToolResult.text('c1', 'ok')), 'tool.after'],
      [new ApprovalRequiredEvent('s', 'r', batch), 'approval.required'],
      [new ApprovalDecidedEvent('s', 'r', batch.items[0]), 'approval.decided'],
      [new ApprovalResolvedEvent('s', 'r', batch), 'approval.resolved'],
      [new PlanReviewRequiredEvent('s', 'r', review()), 'plan_review.required'],
      [new PlanReviewResolvedEvent('s', 'r', review()), 'plan_review.resolved'],
      [new LoopDetectedEvent('s', 'r', verdict, LoopAction.stopped), 'loop.detected'],
      [new PersistEvent('s', 'r', 'terminal', true, false, true, 10), 'state.persist'],
      [new HookDiagnosticEvent('s', 'r', 'afterRun', 'boom'), 'hook.diagnostic'],
      [new CompactionWarningEvent('s', 'r', 0, 4, 4, 'summary_timeout', 'summary timed out'), 'context.compaction_warning'],
      [new SessionRestoredEvent('s', 'r', 'awaiting_approval', 'awaiting_approval', 2, batch.items, false, 0, '', batch),
        'session.restored'],
      [new OutputPartialEvent('s', 'r', 1, { title: 'Prin' }, 14), 'output.partial'],
      [new ElicitationRequiredEvent('s', 'r', elicitation()), 'elicitation.required'],
      [new ElicitationResolvedEvent('s', 'r', elicitation()), 'elicitation.resolved'],
      [new SamplingCompletedEvent('s', 'r', 'notes', 'c1', SamplingOutcome.answered), 'sampling.completed']
    ]
    for (const [event, type] of events) {
      expect([event.eventType(), event.sessionId, event.runId]).toEqual([type, 's', 'r'])
    }
    const bus = new EventBus()
    const heard: string[] = []
    for (const [, type] of events) {
      bus.subscribe(type, (e: BusEvent) => { heard.push(e.eventType()) })
    }
    for (const [event] of events) {
      bus.publish(event)
    }
    expect(heard).toEqual(events.map((e) => e[1]))
  })

  it('success and cancellation count as persisted unless said otherwise; failure always says', () => {
    expect(new AgentSuccessEvent('s', 'r', 'complete').persisted).toBe(true)
    expect(new AgentSuccessEvent('s', 'r', 'complete', undefined, false).persisted).toBe(false)
    expect(new AgentCancelledEvent('s', 'r', err).persisted).toBe(true)
    expect(new AgentCancelledEvent('s', 'r', err, false).persisted).toBe(false)
    expect(new AgentFailedEvent('s', 'r', err, true).persisted).toBe(true)
    expect(new AgentFailedEvent('s', 'r', err, false).persisted).toBe(false)
  })

  it('the payload fields are the values given', () => {
    const final = AgentMessage.assistant('done')
    const s = new AgentSuccessEvent('s', 'r', 'complete', final)
    expect([s.stopReason, s.finalMessage]).toEqual(['complete', final])
    const c = new AgentCancelledEvent('s', 'r', err)
    expect(c.error).toBe(err)
    const chunk = new LlmChunkEvent('s', 'r', 'tok', true)
    expect([chunk.text, chunk.reasoning]).toEqual(['tok', true])
    const p = new PersistEvent('s', 'r', 'autosave', false, true, false, 0, err)
    expect([p.reason, p.mandatory, p.skipped, p.ok, p.bytesWritten, p.error]).toEqual(['autosave', false, true, false, 0, err])
    const d = new HookDiagnosticEvent('s', 'r', 'afterRun', 'boom')
    expect([d.slot, d.message]).toEqual(['afterRun', 'boom'])
    const l = new LoopDetectedEvent('s', 'r', new LoopVerdict(LoopKind.repeat, 'sig', 2), LoopAction.warned)
    expect([l.verdict.signature, l.action]).toEqual(['sig', 'warned'])
    expect(new AgentResumedEvent('s', 'r', 'interrupted').reason).toBe('interrupted')
    expect(new AgentSuspendedEvent('s', 'r', 'awaiting_plan_review').stopReason).toBe('awaiting_plan_review')
    const batch = richBatch()
    const restored = new SessionRestoredEvent('s', 'r', 'awaiting_approval', 'awaiting_approval', 4, batch.items, true, 1,
      'why', batch, review())
    expect([restored.kind, restored.lastStatus, restored.historyLength, restored.pendingApprovals, restored.allDecided,
      restored.interruptedCalls, restored.reason, restored.batch, restored.planReview?.plan])
      .toEqual(['awaiting_approval', 'awaiting_approval', 4, batch.items, true, 1, 'why', batch, 'plan'])
  })

  it('a custom event has the caller\'s type and payload; session and run default to empty', () => {
    const bare = new CustomEvent('my.app')
    expect([bare.eventType(), bare.type, bare.payload, bare.sessionId, bare.runId]).toEqual(['my.app', 'my.app', {}, '', ''])
    const full = new CustomEvent('my.app', { 'k': 1 }, 'sess', 'run')
    expect([full.payload, full.sessionId, full.runId]).toEqual([{ 'k': 1 }, 'sess', 'run'])
  })

  it('an app\'s own event class that names no session or run belongs to none', () => {
    class Ping extends BusEvent {
      eventType(): string { return 'app.ping' }
    }
    const e = new Ping()
    expect([e.eventType(), e.sessionId, e.runId]).toEqual(['app.ping', '', ''])
    const bus = new EventBus()
    const got: BusEvent[] = []
    bus.subscribe('app.ping', (x: BusEvent) => { got.push(x) })
    bus.publish(e)
    expect(got).toEqual([e])
  })

  it('event ids are "evt_"-prefixed and distinct; timestamps are wall-clock milliseconds', () => {
    const before = Date.now()
    const ids = [new CustomEvent('a'), new CustomEvent('a'), new LlmChunkEvent('s', 'r', 'x', false)].map((e) => e.eventId)
    expect(ids.every((id) => /^evt_[0-9a-z]+_\d+$/.test(id))).toBe(true)
    expect(new Set(ids).size).toBe(3)
    const e = new CustomEvent('a')
    expect(e.timestampMs).toBeGreaterThanOrEqual(before)
  })
})

describe('the bus counts, delivers and explains', () => {
  it('listenerCount counts all listeners or only those of one type (\'*\' is its own type)', () => {
    const bus = new EventBus()
    bus.subscribe('*', () => {})
    bus.subscribe('llm.chunk', () => {})
    bus.subscribe('llm.chunk', () => {})
    bus.subscribe('tool.before', () => {})
    expect([bus.listenerCount(), bus.listenerCount('llm.chunk'), bus.listenerCount('tool.before'),
      bus.listenerCount('*'), bus.listenerCount('agent.failed')]).toEqual([4, 2, 1, 1, 0])
  })

  it('a listener subscribed after close is never registered', () => {
    const bus = new EventBus()
    bus.close()
    let n = 0
    bus.subscribe('llm.chunk', () => { n++ })
    bus.subscribe('*', () => { n++ })
    expect(bus.listenerCount()).toBe(0)
    bus.publish(new LlmChunkEvent('s', 'r', 'x', false))
    expect(n).toBe(0)
  })

  it('unsubscribing removes exactly that subscription, whichever order they are removed in', () => {
    const bus = new EventBus()
    const got: string[] = []
    const offs = ['a', 'b', 'c', 'd'].map((name) => bus.subscribe('llm.chunk', () => { got.push(name) }))
    offs[2]()
    offs[0]()
    bus.publish(new LlmChunkEvent('s', 'r', 'x', false))
    expect(got).toEqual(['b', 'd'])
    expect(bus.listenerCount('llm.chunk')).toBe(2)
  })

  it('a listener for one type never hears another type', () => {
    const bus = new EventBus()
    const got: string[] = []
    bus.subscribe('tool.before', (e: BusEvent) => { got.push(e.eventType()) })
    bus.publish(new LlmChunkEvent('s', 'r', 'x', false))
    bus.publish(new CustomEvent('tool.before.extra'))
    bus.publish(new ToolBeforeEvent('s', 'r', call))
    expect(got).toEqual(['tool.before'])
  })

  it('names the missing handler and the closed bus in its errors', async () => {
    const bus = new EventBus()
    const missing = await rejectionOf(bus.request(new CustomEvent('state.query')))
    expect([missing.layer, missing.code, missing.message]).toEqual([ErrorLayer.config, ErrorCodes.requestHandlerMissing,
      "No request handler registered for 'state.query'"])
    bus.registerRequestHandler('state.query', async () => 1)
    let dup: ArkAgentError | undefined
    try {
      bus.registerRequestHandler('state.query', async () => 2)
    } catch (e) {
      dup = e as ArkAgentError
    }
    expect(dup!.message).toBe("A request handler for 'state.query' is already registered")
    bus.close()
    const closed = await rejectionOf(bus.request(new CustomEvent('state.query')))
    expect([closed.layer, closed.code, closed.message]).toEqual([ErrorLayer.config, ErrorCodes.eventBusClosed,
      'The event bus is closed'])
    expect(closed.isRetryable()).toBe(false)
  })
})

/** A host that is bound but has nothing pending. */
class IdleHost implements ApprovalHost {
  getPendingApprovalBatch(): PendingApprovalBatch | undefined { return undefined }
  async applyApprovalDecision(approvalId: string, decision: ApprovalDecision): Promise<ApprovalDecisionResult> {
    return ApprovalDecisionResult.success(approvalId, decision, true)
  }
  listDecisions(): PendingApprovalItem[] { return [] }
  async listGrants(): Promise<ApprovalGrant[]> { return [] }
  async revokeGrant(grantId: string): Promise<GrantRevokeResult> { return new GrantRevokeResult(false, grantId) }
  async expireApprovals(): Promise<number> { return 0 }
  getPendingPlanReview(): PendingPlanReview | undefined { return undefined }
  async applyPlanReviewDecision(decision: PlanReviewDecision): Promise<PlanReviewDecisionResult> {
    return PlanReviewDecisionResult.success('review_x', decision)
  }
}

describe('the controller without a host or without anything pending', () => {
  it('a bound host with no plan review pending shows none', () => {
    const c = new AgentController()
    c.bindApprovalHost(new IdleHost())
    expect(c.pendingPlanReview()).toBeUndefined()
    expect(c.pendingBatch()).toBeUndefined()
    expect(c.listPendingApprovals()).toEqual([])
  })

  it('plan decisions without a host fail with an empty review id and a message saying why', async () => {
    const c = new AgentController()
    for (const r of [await c.approvePlan(), await c.rejectPlan('bad')]) {
      expect([r.ok, r.reviewId, r.decision]).toEqual([false, '', 'error'])
      expect([r.error!.code, r.error!.message]).toEqual([ErrorCodes.approvalHostMissing,
        'No runtime is bound to this controller for approval decisions'])
    }
    const a = await c.approve('appr_1')
    expect(a.error!.message).toBe('No runtime is bound to this controller for approval decisions')
  })
})
