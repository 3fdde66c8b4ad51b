import { describe, expect, it } from 'vitest'
import { AgentController } from '../../src/core/controller/AgentController'
import { ApprovalHost } from '../../src/core/controller/ApprovalHost'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../../src/core/errors/ArkAgentError'
import { BusEvent, CustomEvent } from '../../src/core/events/BusEvent'
import { ControllerEventTypes } from '../../src/core/events/ControllerEventTypes'
import { EventBus } from '../../src/core/events/EventBus'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ToolCall } from '../../src/core/model/ToolCall'
import {
  ApprovalDecision,
  ApprovalDecisionResult,
  PendingApprovalBatch,
  PendingApprovalItem
} from '../../src/core/state/PendingApproval'
import { PendingPlanReview, PlanReviewDecision, PlanReviewDecisionResult } from '../../src/core/state/PendingPlanReview'
import { ApprovalGrant } from '../../src/core/state/ApprovalGrant'
import { ApprovalDecisionOptions } from '../../src/core/state/ApprovalDecisionOptions'
import { GrantRevokeResult } from '../../src/core/controller/ApprovalHost'
import { richBatch } from './fixtures'

/** A minimal host: owns a batch and a plan review, applies decisions first-wins, records every call. */
class FakeHost implements ApprovalHost {
  batch?: PendingApprovalBatch
  review?: PendingPlanReview
  readonly calls: string[] = []

  getPendingApprovalBatch(): PendingApprovalBatch | undefined {
    return this.batch
  }

  async applyApprovalDecision(approvalId: string, decision: ApprovalDecision, details?: string | ApprovalDecisionOptions): Promise<ApprovalDecisionResult> {
    const denyReason = typeof details === 'string' ? details : undefined
    this.calls.push(`${approvalId}:${decision}:${denyReason ?? '-'}`)
    const item = this.batch?.find(approvalId)
    if (this.batch === undefined || item === undefined) {
      return ApprovalDecisionResult.failure(approvalId,
        new ArkAgentError(ErrorLayer.runtime, ErrorCodes.approvalUnknown, `unknown ${approvalId}`))
    }
    if (item.isPending()) {
      item.decision = decision
      item.denyReason = denyReason
      item.decidedAtMs = 1
    }
    return ApprovalDecisionResult.success(approvalId, item.decision, this.batch.allDecided())
  }

  listDecisions(): PendingApprovalItem[] { return [] }
  async listGrants(): Promise<ApprovalGrant[]> { return [] }
  async revokeGrant(grantId: string): Promise<GrantRevokeResult> { return new GrantRevokeResult(false, grantId) }
  async expireApprovals(): Promise<number> { return 0 }

  getPendingPlanReview(): PendingPlanReview | undefined {
    return this.review
  }

  async applyPlanReviewDecision(decision: PlanReviewDecision, reason?: string): Promise<PlanReviewDecisionResult> {
    this.calls.push(`plan:${decision}:${reason ?? '-'}`)
    if (this.review === undefined) {
      return PlanReviewDecisionResult.failure('', new ArkAgentError(ErrorLayer.runtime, ErrorCodes.planReviewMissing, 'none'))
    }
    this.review.decision = decision
    this.review.reason = reason
    return PlanReviewDecisionResult.success(this.review.reviewId, decision)
  }
}

function planReview(): PendingPlanReview {
  const call = new ToolCall('call_plan', 'submit_plan', '{"plan":"do it"}')
  return new PendingPlanReview('review_1', 'run_1', 'do it', call, AgentMessage.assistant('', [call]), 5)
}

function expectHostMissing(error: ArkAgentError | undefined): void {
  expect(error).toBeInstanceOf(ArkAgentError)
  expect(error!.code).toBe(ErrorCodes.approvalHostMissing)
  expect(error!.layer).toBe(ErrorLayer.runtime)
  expect(error!.retryability).toBe(ErrorRetryability.never)
  expect(error!.isRetryable()).toBe(false)
}

describe('AgentController', () => {
  it('holds no runtime state: it works against any ApprovalHost and reads through to it on every call', async () => {
    const c = new AgentController()
    expect(c.hasApprovalHost()).toBe(false)
    expect(c.listPendingApprovals()).toEqual([])
    const host = new FakeHost()
    c.bindApprovalHost(host)
    expect(c.hasApprovalHost()).toBe(true)
    expect(c.listPendingApprovals()).toEqual([])
    host.batch = richBatch()
    expect(c.listPendingApprovals().map((i) => i.approvalId)).toEqual(['appr_a'])
    host.batch = undefined
    expect(c.listPendingApprovals()).toEqual([])
    expect(c.pendingBatch()).toBeUndefined()
  })

  it('bindApprovalHost switches hosts; unbind only removes the host it is given', async () => {
    const c = new AgentController()
    const a = new FakeHost()
    const b = new FakeHost()
    a.batch = richBatch()
    c.bindApprovalHost(a)
    c.bindApprovalHost(b)
    expect(c.listPendingApprovals()).toEqual([])
    await c.approve('appr_a')
    expect(a.calls).toEqual([])
    expect(b.calls).toEqual(['appr_a:approved:-'])
    c.unbindApprovalHost(a)
    expect(c.hasApprovalHost()).toBe(true)
    c.unbindApprovalHost(b)
    expect(c.hasApprovalHost()).toBe(false)
  })

  it('listPendingApprovals returns only pending items, as clones whose mutation changes nothing in the host', () => {
    const c = new AgentController()
    const host = new FakeHost()
    host.batch = richBatch()
    c.bindApprovalHost(host)
    const listed = c.listPendingApprovals()
    expect(listed).toHaveLength(1)
    expect(listed[0].approvalId).toBe('appr_a')
    expect(listed[0].isPending()).toBe(true)
    expect(listed[0]).not.toBe(host.batch.items[0])
    listed[0].decision = ApprovalDecision.approved
    listed[0].denyReason = 'forged'
    listed.push(listed[0])
    expect(host.batch.items[0].decision).toBe(ApprovalDecision.pending)
    expect(host.batch.items[0].denyReason).toBeUndefined()
    expect(host.batch.items).toHaveLength(3)
    expect(c.listPendingApprovals()).toHaveLength(1)
  })

  it('pendingBatch returns the whole batch (decided items included) as a deep copy', () => {
    const c = new AgentController()
    const host = new FakeHost()
    host.batch = richBatch()
    c.bindApprovalHost(host)
    const copy = c.pendingBatch()!
    expect(copy).not.toBe(host.batch)
    expect(copy.items.map((i) => i.decision)).toEqual(['pending', 'approved', 'denied'])
    copy.items[0].decision = ApprovalDecision.denied
    copy.items.pop()
    expect(host.batch.items.map((i) => i.decision)).toEqual(['pending', 'approved', 'denied'])
  })

  it('routes approve and deny to the host with the right decision and deny reason', async () => {
    const c = new AgentController()
    const host = new FakeHost()
    host.batch = richBatch()
    c.bindApprovalHost(host)
    const r1 = await c.deny('appr_a', 'too risky')
    expect(host.calls).toEqual(['appr_a:denied:too risky'])
    expect(r1.ok).toBe(true)
    expect(r1.approvalId).toBe('appr_a')
    expect(r1.decision).toBe('denied')
    expect(r1.allDecided).toBe(true)
    expect(r1.error).toBeUndefined()
    expect(host.batch.items[0].denyReason).toBe('too risky')
    await c.approve('appr_b')
    await c.deny('appr_c')
    expect(host.calls).toEqual(['appr_a:denied:too risky', 'appr_b:approved:-', 'appr_c:denied:-'])
  })

  it('is idempotent through the host: a repeated decision returns the first one with ok', async () => {
    const c = new AgentController()
    const host = new FakeHost()
    host.batch = richBatch()
    host.batch.items[1].decision = ApprovalDecision.pending
    c.bindApprovalHost(host)
    const first = await c.approve('appr_a')
    expect(first.allDecided).toBe(false)
    const again = await c.deny('appr_a', 'changed my mind')
    expect(again.ok).toBe(true)
    expect(again.decision).toBe('approved')
    expect(again.allDecided).toBe(false)
    const last = await c.approve('appr_b')
    expect(last.allDecided).toBe(true)
  })

  it('passes the host\'s failures through unchanged (unknown approval id)', async () => {
    const c = new AgentController()
    const host = new FakeHost()
    host.batch = richBatch()
    c.bindApprovalHost(host)
    const r = await c.approve('nope')
    expect(r.ok).toBe(false)
    expect(r.decision).toBe('error')
    expect(r.allDecided).toBe(false)
    expect(r.error!.code).toBe(ErrorCodes.approvalUnknown)
  })

  it('returns approval_host_missing (runtime layer, never retryable) for every decision when no host is bound', async () => {
    const c = new AgentController()
    const a = await c.approve('appr_a')
    expect(a.ok).toBe(false)
    expect(a.approvalId).toBe('appr_a')
    expect(a.decision).toBe('error')
    expect(a.allDecided).toBe(false)
    expectHostMissing(a.error)
    const d = await c.deny('appr_b', 'x')
    expect(d.ok).toBe(false)
    expect(d.approvalId).toBe('appr_b')
    expectHostMissing(d.error)
    const ap = await c.approvePlan()
    expect(ap.ok).toBe(false)
    expectHostMissing(ap.error)
    const rp = await c.rejectPlan('bad plan')
    expect(rp.ok).toBe(false)
    expectHostMissing(rp.error)
    expect(c.pendingPlanReview()).toBeUndefined()
    expect(c.pendingBatch()).toBeUndefined()
  })

  it('routes plan review decisions and returns the pending review as a copy', async () => {
    const c = new AgentController()
    const host = new FakeHost()
    host.review = planReview()
    c.bindApprovalHost(host)
    const copy = c.pendingPlanReview()!
    expect(copy).not.toBe(host.review)
    copy.decision = PlanReviewDecision.approved
    expect(host.review.decision).toBe(PlanReviewDecision.pending)
    const r = await c.rejectPlan('needs tests')
    expect(r.ok).toBe(true)
    expect(r.reviewId).toBe('review_1')
    expect(r.decision).toBe('rejected')
    expect(host.calls).toEqual(['plan:rejected:needs tests'])
    await c.approvePlan()
    expect(host.calls[1]).toBe('plan:approved:-')
  })

  it('ApprovalDecisionResult factories fill ok/approvalId/decision/allDecided/error', () => {
    const s = ApprovalDecisionResult.success('x', 'approved', true)
    expect([s.ok, s.approvalId, s.decision, s.allDecided, s.error]).toEqual([true, 'x', 'approved', true, undefined])
    const err = new ArkAgentError(ErrorLayer.runtime, ErrorCodes.approvalConsumed, 'gone')
    const f = ApprovalDecisionResult.failure('y', err)
    expect([f.ok, f.approvalId, f.decision, f.allDecided, f.error]).toEqual([false, 'y', 'error', false, err])
  })

  it('PendingApprovalBatch.allDecided is false for an empty batch and true only when no item is pending', () => {
    const b = richBatch()
    expect(b.allDecided()).toBe(false)
    b.items[0].decision = ApprovalDecision.approved
    expect(b.allDecided()).toBe(true)
    const empty = new PendingApprovalBatch('b', 'r', [], AgentMessage.assistant('x'), 0)
    expect(empty.allDecided()).toBe(false)
  })

  it('proxies publish/subscribe/subscribeAll to its event bus (its own or the one given)', () => {
    const bus = new EventBus()
    const c = new AgentController(bus)
    expect(c.eventBus).toBe(bus)
    const typed: string[] = []
    const all: string[] = []
    const off1 = c.subscribe(ControllerEventTypes.approvalRequired, (e: BusEvent) => { typed.push(e.eventType()) })
    const off2 = c.subscribeAll((e: BusEvent) => { all.push(e.eventType()) })
    c.publish(new CustomEvent(ControllerEventTypes.approvalRequired))
    bus.publish(new CustomEvent('app.custom'))
    expect(typed).toEqual(['approval.required'])
    expect(all).toEqual(['approval.required', 'app.custom'])
    off1()
    off2()
    expect(bus.listenerCount()).toBe(0)
    expect(new AgentController().eventBus).toBeInstanceOf(EventBus)
  })
})
