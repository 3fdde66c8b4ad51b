// The approval decision holds for what executes. Tools change risk level under a running agent at
// random points — while the batch is gated, at a tool's started mark, inside an earlier call of the
// batch, while the batch is frozen, after the decisions, and across a restart into a build whose
// tools are riskier — under every policy. Invariant, checked at each execution on the definition
// that ran: a call whose risk level the policy would ask about ran only after the user approved
// that very call at a risk level at least as high. And nothing is over-denied: a call whose tool
// never changed, and that was approved or needed no approval, ran exactly once.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  AgentHook, AgentMessage, AgentState, ApprovalPolicy, ApprovalRequiredEvent, ControllerEventTypes, ErrorCodes,
  FunctionTool, MemoryStateStorage, ScriptedProvider, ScriptedTurn, SessionStatus, StatePersistenceHookContext,
  StatePersistenceHookResult, ToolBatchEntry, ToolBatchProgress, ToolCall, ToolCallHookContext, ToolCallHookResult,
  ToolDefinition, ToolRegistry, ToolRiskLevel, type ModelRequest,
} from '../../src/index'
import { expectPaired, makeRuntime, newSessionId, toolMessage } from '../runtime/helpers'
import { cases } from '../support/scale'

const RISKS = [ToolRiskLevel.safe, ToolRiskLevel.sensitive, ToolRiskLevel.dangerous]
const RANK: Record<string, number> = { safe: 0, sensitive: 1, dangerous: 2 }
const POLICIES: Record<string, () => ApprovalPolicy> = {
  standard: () => ApprovalPolicy.standard(),
  askForSensitiveToo: () => ApprovalPolicy.askForSensitiveToo(),
  runDangerousToolsWithoutApproval: () => ApprovalPolicy.runDangerousToolsWithoutApproval(),
}
type Point = 'gate' | 'mark' | 'exec' | 'frozen' | 'decided' | 'restart'
interface Change { point: Point, at: number, tool: number, risk: ToolRiskLevel }

/** Tools t0..t2 in one registry; a change re-lists a tool with another risk (as a tool source does). */
class World {
  readonly registry = new ToolRegistry()
  readonly ran: Array<{ id: string, risk: ToolRiskLevel }> = []
  readonly changed = new Set<string>()

  constructor(readonly risks: ToolRiskLevel[]) {
    risks.forEach((r, i) => this.registry.register(this.tool(`t${i}`, r)))
  }

  tool(name: string, risk: ToolRiskLevel): FunctionTool {
    return new FunctionTool(new ToolDefinition(name, name, { type: 'object' }, risk), async (_a, ctx) => {
      // The definition the runtime let run, read when it runs.
      this.ran.push({ id: ctx.call.id, risk: ApprovalPolicy.riskOf(this.registry.definition(name)) })
      this.apply('exec', Number(ctx.call.id.slice(1)))
      return `${name} ran`
    })
  }

  pending: Change[] = []

  apply(point: Point, at: number): void {
    for (const c of this.pending.filter((p) => p.point === point && p.at === at)) {
      this.pending.splice(this.pending.indexOf(c), 1)
      const name = `t${c.tool}`
      this.registry.unregister(name)
      this.registry.register(this.tool(name, c.risk))
      this.changed.add(name)
    }
  }
}

const changeArb: fc.Arbitrary<Change> = fc.record({
  point: fc.constantFrom<Point>('gate', 'mark', 'exec', 'frozen', 'decided', 'restart'),
  at: fc.integer({ min: 0, max: 2 }), tool: fc.integer({ min: 0, max: 2 }), risk: fc.constantFrom(...RISKS),
})

describe('an approval holds for what executes (property)', () => {
  it('no call runs at a risk the policy asks about without an approval of that call at that risk or higher', async () => {
    let drawn = 0
    await fc.assert(fc.asyncProperty(
      fc.array(fc.constantFrom(...RISKS), { minLength: 3, maxLength: 3 }),
      fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 }),
      fc.array(changeArb, { maxLength: 3 }), fc.constantFrom(...Object.keys(POLICIES)),
      fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }), fc.boolean(),
      async (risks, calls, changes, policyName, approvals, proceedHook) => {
        drawn++
        const world = new World(risks)
        world.pending = changes.slice()
        const approved = new Map<string, ToolRiskLevel>()
        const decided = new Set<string>()
        const turn = new ScriptedTurn()
        calls.forEach((t, i) => turn.call(`c${i}`, `t${t}`, '{}'))
        const model = (): ScriptedProvider => ScriptedProvider.fromFunction((r: ModelRequest) =>
          r.messages[r.messages.length - 1].role === 'tool' ? ScriptedTurn.text('done') : turn)
        let marks = 0
        const hooks = (): AgentHook[] => [new (class extends AgentHook {
          async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
            world.apply('gate', ctx.call.index)
            // A hook that says proceed to everything waives nothing.
            return proceedHook ? ToolCallHookResult.proceed() : ToolCallHookResult.proceed(ctx.call)
          }
          async beforePersistState(ctx: StatePersistenceHookContext): Promise<StatePersistenceHookResult> {
            if (ctx.reason === 'tool_started') world.apply('mark', marks++)
            return StatePersistenceHookResult.proceed()
          }
        })()]
        const storage = new MemoryStateStorage()
        const sessionId = newSessionId()
        const build = () => {
          const rt = makeRuntime(model(), { sessionId, hooks: hooks(), storage,
            configure: (c) => { c.tools = world.registry; c.approvalPolicy = POLICIES[policyName](); c.autoResume = false } })
          rt.controller.subscribe(ControllerEventTypes.approvalRequired, () => world.apply('frozen', 0))
          return rt
        }
        let rt = build()
        let outcome = await rt.run('go')
        if (outcome.stopReason === 'awaiting_approval') {
          const items = rt.controller.listPendingApprovals()
          for (const item of items) {
            const i = Number(item.toolCall.id.slice(1))
            const r = approvals[i] ? await rt.controller.approve(item.approvalId) : await rt.controller.deny(item.approvalId)
            expect(r.ok).toBe(true)
            decided.add(item.toolCall.id)
            if (approvals[i]) approved.set(item.toolCall.id, item.riskLevel)
          }
          world.apply('decided', 0)
          if (changes.some((c) => c.point === 'restart')) {
            // A new process: the same stored session, a build whose tools changed meanwhile.
            rt.dispose()
            world.apply('restart', 0)
            world.apply('restart', 1)
            world.apply('restart', 2)
            rt = build()
            await rt.restore()
          }
          outcome = await rt.runStream([])
        }
        expect(outcome.status).toBe('completed')
        const final = rt.snapshot()
        expectPaired(final.history)
        const policy = POLICIES[policyName]()
        const ids = world.ran.map((r) => r.id)
        expect(new Set(ids).size).toBe(ids.length)
        for (const r of world.ran) {
          if (policy.needsApproval(r.risk)) {
            expect(approved.has(r.id), `${r.id} ran at ${r.risk} unapproved`).toBe(true)
            expect(RANK[approved.get(r.id) as string]).toBeGreaterThanOrEqual(RANK[r.risk])
          }
        }
        // Nothing over-denied: an unchanged tool's call that was approved or needed no approval ran.
        calls.forEach((t, i) => {
          const id = `c${i}`
          if (world.changed.has(`t${t}`)) return
          const needed = policy.needsApproval(risks[t])
          const frozen = decided.has(id)
          if ((frozen && approvals[i]) || (!frozen && !needed)) {
            expect(ids, `${id} should have run`).toContain(id)
            expect(toolMessage(final.history, id).isError).toBe(false)
          }
        })
      }), { seed: 2612, numRuns: cases(500) })
    expect(drawn).toBe(cases(500))
  })
})

describe('an interrupted batch resumed by a riskier build', () => {
  // Every clearance an entry can carry (and none: a state stored before clearances existed) × every
  // risk the tool has when the batch resumes × every policy.
  const clearances: Array<ToolRiskLevel | undefined> = [undefined, ...RISKS]
  for (const policyName of Object.keys(POLICIES)) {
    it(`${policyName}: a call runs only when its tool is no riskier than its clearance or needs no approval`, async () => {
      for (const clearance of clearances) {
        for (const now of RISKS) {
          const sessionId = newSessionId()
          const storage = new MemoryStateStorage()
          const state = new AgentState(sessionId)
          const call = new ToolCall('c1', 'wipe', '{}', 0)
          state.status = SessionStatus.running
          state.activeRunId = 'run_old'
          state.history.push(AgentMessage.user('go'))
          state.toolBatch = new ToolBatchProgress('b1', 'run_old', AgentMessage.assistant('', [call]),
            [clearance === undefined ? new ToolBatchEntry(call, false) : new ToolBatchEntry(call, false, undefined, clearance)])
          // No clearance given is stored as an older version stored every entry: without the field.
          await storage.save(state)
          let runs = 0
          const wipe = new FunctionTool(new ToolDefinition('wipe', 'wipe', { type: 'object' }, now), async () => { runs++; return 'wiped' })
          const rt = makeRuntime([ScriptedTurn.text('done')], { sessionId, storage,
            configure: (c) => { c.tools = new ToolRegistry([wipe]); c.approvalPolicy = POLICIES[policyName]() } })
          await rt.restore()
          const outcome = await rt.runStream([])
          expect(outcome.status).toBe('completed')
          const policy = POLICIES[policyName]()
          const cleared = RANK[clearance ?? 'safe']
          const mayRun = RANK[now] <= cleared || !policy.needsApproval(now)
          expect([clearance, now, runs]).toEqual([clearance, now, mayRun ? 1 : 0])
          const answer = toolMessage(rt.snapshot().history, 'c1')
          expect([clearance, now, answer.errorCode]).toEqual([clearance, now, mayRun ? undefined : ErrorCodes.toolDenied])
        }
      }
    })
  }
})

describe('what the approval shows is what the gate saw', () => {
  it('the frozen item carries the risk level the call was gated at, and approval.required shows the same', async () => {
    const world = new World([ToolRiskLevel.dangerous, ToolRiskLevel.safe, ToolRiskLevel.safe])
    let shown: ApprovalRequiredEvent | undefined
    const rt = makeRuntime([ScriptedTurn.text('').call('c0', 't0', '{}'), ScriptedTurn.text('done')],
      { configure: (c) => { c.tools = world.registry } })
    rt.controller.subscribe(ControllerEventTypes.approvalRequired, (e) => { shown = e as ApprovalRequiredEvent })
    await rt.run('go')
    expect(shown?.batch.items.map((i) => [i.toolCall.name, i.riskLevel])).toEqual([['t0', 'dangerous']])
    expect(rt.controller.listPendingApprovals().map((i) => i.riskLevel)).toEqual(['dangerous'])
  })
})
