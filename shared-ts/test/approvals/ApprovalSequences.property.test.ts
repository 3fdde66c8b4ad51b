// Property: for any sequence of approvals with edits, denials, "always" grants, revocations, expiries
// and process deaths (the storage stops taking writes after a random number of them; a new runtime
// restores from what was written), every call runs at most once, a denied or expired call never runs,
// and what runs is exactly the call of the decision that was accepted — the edit when there was one.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  AgentMessage,
  AgentRuntime,
  AgentRuntimeConfig,
  ApprovalDecision,
  DecisionChannel,
  FunctionTool,
  MemorySegmentBackend,
  MemoryStateStorage,
  MessageRole,
  ScriptedProvider,
  ScriptedTurn,
  SegmentedStorageOptions,
  SessionStatus,
  ToolDefinition,
  ToolRegistry,
  ToolRiskLevel
} from '../../src/index'
import { expectPaired, FaultyStorage } from '../runtime/helpers'
import { MovableClock } from './support'

type Op =
  | { kind: 'approve', item: number, edit?: number, remember: boolean }
  | { kind: 'deny', item: number, remember: boolean }
  | { kind: 'revoke' }
  | { kind: 'expire' }
  | { kind: 'die', afterSaves: number }
  | { kind: 'restart' }
  | { kind: 'turn' }

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('approve' as const), item: fc.nat(3), edit: fc.option(fc.nat(99), { nil: undefined }), remember: fc.boolean() }),
  fc.record({ kind: fc.constant('deny' as const), item: fc.nat(3), remember: fc.boolean() }),
  fc.constant({ kind: 'revoke' as const }),
  fc.constant({ kind: 'expire' as const }),
  fc.record({ kind: fc.constant('die' as const), afterSaves: fc.nat(4) }),
  fc.constant({ kind: 'restart' as const }),
  fc.constant({ kind: 'turn' as const }))

const SCHEMA = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false }

class Sequence {
  readonly backend = new MemorySegmentBackend()
  readonly clock = new MovableClock()
  readonly ran = new Map<string, string[]>()
  /** Accepted decisions (applied), by call id: the argument text that may run, or null for a denial. */
  readonly accepted = new Map<string, string | null>()
  /** Call ids whose accepted decision was an approval with an edit. */
  readonly edits = new Set<string>()
  faulty!: FaultyStorage
  rt!: AgentRuntime
  turns = 0

  start(): void {
    this.faulty = new FaultyStorage(new MemoryStateStorage(new SegmentedStorageOptions(), this.backend))
    const provider = ScriptedProvider.fromFunction((req) => {
      const users = req.messages.filter((m) => m.role === MessageRole.user).length
      const last = req.messages[req.messages.length - 1]
      if (last.role === MessageRole.tool) return ScriptedTurn.text(`turn ${users} done`)
      return ScriptedTurn.text('').call(`t${users}a`, 'wa', `{"n":${users}}`).call(`t${users}b`, 'wb', `{"n":${users + 100}}`)
    })
    const cfg = new AgentRuntimeConfig('prop', provider)
    const tool = (name: string) => new FunctionTool(new ToolDefinition(name, name, SCHEMA, ToolRiskLevel.dangerous),
      async (_args, ctx) => {
        this.ran.set(ctx.call.id, [...(this.ran.get(ctx.call.id) ?? []), ctx.call.argumentsJson])
        return 'ok'
      })
    cfg.tools = new ToolRegistry([tool('wa'), tool('wb')])
    cfg.storage = this.faulty
    cfg.clock = this.clock
    cfg.approvalDeadlineMs = 1000
    this.rt = new AgentRuntime(cfg)
  }

  async settle(): Promise<void> {
    await this.rt.whenIdle()
  }

  async apply(o: Op): Promise<void> {
    const c = this.rt.controller
    const pending = c.listPendingApprovals()
    const status = this.rt.snapshot().status
    switch (o.kind) {
      case 'approve':
      case 'deny': {
        if (pending.length === 0) return
        const item = pending[o.item % pending.length]
        const options = o.kind === 'approve' ?
          { ...(o.edit !== undefined ? { arguments: `{"n":${o.edit}}` } : {}), ...(o.remember ? { remember: 'session' } : {}) } :
          { reason: 'no', ...(o.remember ? { remember: 'session' } : {}) }
        const r = o.kind === 'approve' ? await c.approve(item.approvalId, options) : await c.deny(item.approvalId, options)
        if (r.ok && r.applied) {
          this.accepted.set(item.toolCall.id, o.kind === 'approve' ? (o.edit !== undefined ? `{"n":${o.edit}}` : item.toolCall.argumentsJson) : null)
          if (o.kind === 'approve' && o.edit !== undefined) this.edits.add(item.toolCall.id)
        }
        break
      }
      case 'revoke': {
        const grants = await c.listGrants().catch(() => [])
        if (grants.length > 0) await c.revokeGrant(grants[0].grantId)
        break
      }
      case 'expire':
        this.clock.advance(1000)
        await c.expireApprovals().catch(() => 0)
        break
      case 'die': {
        let left = o.afterSaves
        this.faulty.dieAfter = () => left-- <= 0
        if (o.afterSaves === 0) this.faulty.dead = true
        break
      }
      case 'restart':
        await this.settle()
        this.rt.dispose()
        this.start()
        await this.rt.restore().catch(() => undefined)
        break
      case 'turn':
        if (status === SessionStatus.awaitingApproval || this.rt.isRunning) return
        this.turns++
        await this.rt.runStream([AgentMessage.user(`go ${this.turns}`)]).catch(() => undefined)
        break
    }
    await this.settle()
  }

  /** A fresh process answers what is left (plain approvals) until the session is idle. */
  async drain(): Promise<void> {
    await this.apply({ kind: 'restart' })
    for (let step = 0; step < 20; step++) {
      const st = this.rt.snapshot()
      if (st.status !== SessionStatus.awaitingApproval) return
      for (const item of this.rt.controller.listPendingApprovals()) {
        const r = await this.rt.controller.approve(item.approvalId)
        if (r.ok && r.applied) this.accepted.set(item.toolCall.id, item.toolCall.argumentsJson)
      }
      await this.settle()
      if (this.rt.snapshot().pendingApproval?.allDecided() === true) await this.rt.runStream([]).catch(() => undefined)
    }
  }
}

describe('approval sequences (property)', () => {
  it('every call runs at most once, exactly as the accepted decision says, whatever the order of decisions, grants, expiries and deaths', async () => {
    let runs = 0
    let edited = 0
    let byGrant = 0
    let expired = 0
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
      const seq = new Sequence()
      seq.start()
      await seq.apply({ kind: 'turn' })
      for (const o of ops) await seq.apply(o)
      await seq.drain()
      const decisions = seq.rt.controller.listDecisions()
      for (const [callId, args] of seq.ran) {
        runs++
        expect(args.length, `${callId} ran ${args.length} times`).toBe(1)
        const accepted = seq.accepted.get(callId)
        if (accepted !== undefined) {
          expect(accepted, `${callId} ran although its accepted decision denied it`).not.toBeNull()
          expect(args[0], `${callId}: what ran is not the accepted call`).toBe(accepted)
          if (seq.edits.has(callId)) edited++
        }
        const record = decisions.find((d) => d.toolCall.id === callId)
        if (record !== undefined && record.executedCall !== undefined) {
          expect(record.executedCall.argumentsJson).toBe(record.callToRun().argumentsJson)
          expect(args[0]).toBe(record.executedCall.argumentsJson)
        }
      }
      for (const [callId, accepted] of seq.accepted) {
        if (accepted === null) expect(seq.ran.has(callId), `${callId} was denied but ran`).toBe(false)
      }
      for (const d of decisions) {
        if (d.decision !== ApprovalDecision.approved) expect(seq.ran.has(d.toolCall.id), `${d.toolCall.id} ${d.channel}`).toBe(false)
        if (d.channel === DecisionChannel.grant && seq.ran.has(d.toolCall.id)) byGrant++
        if (d.channel === DecisionChannel.expiry) expired++
      }
      expectPaired(seq.rt.snapshot().history)
      seq.rt.dispose()
    }), { numRuns: 150 })
    expect(runs).toBeGreaterThan(50)
    // The sequences reach every kind of decision.
    expect([edited, byGrant, expired].every((n) => n > 0), JSON.stringify({ runs, edited, byGrant, expired })).toBe(true)
  }, 600_000)
})
