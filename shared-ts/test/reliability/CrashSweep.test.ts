// Crash-point sweep: for every scenario, every write boundary (each backend write, sync, header
// commit — before and after — and clean-up) and every tool boundary (start, end) of the full run
// including its continuation is a crash point. At each one the process dies; a new one restores
// from the same storage and must find a consistent, honest state and finish the run.
import { afterAll, describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentMessage,
  ApprovalDecision,
  ApprovalPolicyHook,
  CompactionOptions,
  LoopDetector,
  MessageRole,
  PlanReviewDecision,
  ScriptedTurn,
  SessionStatus,
  ToolCallHookContext,
  ToolCallHookResult,
  ToolConcurrency,
  ToolRiskLevel
} from '../../src/index'
import { cleanupTempDirs, expectPaired, newSessionId, tempDir } from '../runtime/helpers'
import { checkFinal, checkNoRepeatedWork, checkRestore, drive, fileWorld, Incarnation, memoryWorld, Scenario, ToolSpec, World } from './crash'
import { flush, record } from './summary'

afterAll(() => {
  cleanupTempDirs()
  flush('CrashSweep')
})

/** Tool messages since the last user message. */
function toolResults(messages: AgentMessage[]): AgentMessage[] {
  let start = 0
  for (let i = 0; i < messages.length; i++) if (messages[i].role === MessageRole.user) start = i
  return messages.slice(start).filter((m) => m.role === MessageRole.tool)
}

class DenyBlocked extends AgentHook {
  async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
    return ctx.call.name === 'blocked' ? ToolCallHookResult.deny(undefined, 'blocked by policy') : ToolCallHookResult.proceed()
  }
}

const tools = [new ToolSpec('danger', ToolRiskLevel.dangerous), new ToolSpec('safe'), new ToolSpec('blocked')]

const scenarios: Scenario[] = [
  {
    name: 'approval batch approve',
    input: 'clean up',
    script: (m) => toolResults(m).length === 0 ?
      ScriptedTurn.text('working').call('a1', 'danger', '{}').call('a2', 'safe', '{}') : ScriptedTurn.text('done'),
    tools, hooks: () => [new ApprovalPolicyHook()], approval: () => ApprovalDecision.approved,
    expectedStatus: SessionStatus.completed
  },
  {
    // An edit, and an "always allow" that answers the next batch: what runs is the edit, never the
    // proposed call, each call at most once, and the remembered grant survives any kill with its decision.
    name: 'approval with an edit and a remembered grant',
    input: 'clean up',
    script: (m) => toolResults(m).length === 0 ?
      ScriptedTurn.text('working').call('a1', 'danger', '{"p":"proposed"}').call('a2', 'danger', '{"p":"two"}') :
      toolResults(m).length === 2 ? ScriptedTurn.text('more').call('a3', 'danger', '{"p":"three"}') : ScriptedTurn.text('done'),
    tools, hooks: () => [],
    decide: (name, args) => args === '{"p":"proposed"}' ? [ApprovalDecision.approved, { arguments: '{"p":"edited"}', actor: 'ann' }] :
      args === '{"p":"two"}' ? [ApprovalDecision.approved, { remember: 'session' }] : [ApprovalDecision.denied, { reason: 'not asked' }],
    expectedStatus: SessionStatus.completed
  },
  {
    // A parallel group: three concurrent calls start together (one mark), a serial one after them, then
    // two more concurrent ones; a kill at any write or tool boundary inside leaves each started call
    // tool_interrupted and each unstarted one to run after the restore.
    name: 'parallel group',
    input: 'read them all',
    script: (m) => toolResults(m).length === 0 ?
      ScriptedTurn.text('reading').call('p1', 'par', '{"n":1}').call('p2', 'par', '{"n":2}').call('p3', 'par', '{"n":3}')
        .call('p4', 'safe', '{}').call('p5', 'par', '{"n":5}').call('p6', 'par', '{"n":6}') : ScriptedTurn.text('done'),
    tools: [...tools, new ToolSpec('par', ToolRiskLevel.safe, undefined, ToolConcurrency.concurrent)], hooks: () => [],
    expectedStatus: SessionStatus.completed
  },
  {
    name: 'approval batch deny',
    input: 'clean up',
    script: (m) => toolResults(m).length === 0 ?
      ScriptedTurn.text('working').call('a1', 'danger', '{}').call('a2', 'danger', '{"x":1}') :
      ScriptedTurn.text('ok, not doing it'),
    tools, hooks: () => [new ApprovalPolicyHook()], approval: () => ApprovalDecision.denied,
    expectedStatus: SessionStatus.completed
  },
  {
    name: 'mixed batch with a hook deny',
    input: 'three things',
    script: (m) => toolResults(m).length === 0 ?
      ScriptedTurn.text('').call('m1', 'danger', '{}').call('m2', 'blocked', '{}').call('m3', 'safe', '{}') :
      ScriptedTurn.text('done'),
    tools, hooks: () => [new DenyBlocked(), new ApprovalPolicyHook()], approval: () => ApprovalDecision.approved,
    expectedStatus: SessionStatus.completed
  },
  {
    name: 'plan review approve',
    input: 'plan first',
    script: (m) => {
      const r = toolResults(m)
      if (r.length === 0) return ScriptedTurn.text('').call('planA', 'submit_plan', '{"plan":"A"}')
      if (r.length === 1) return ScriptedTurn.text('executing').call('p1', 'safe', '{}')
      return ScriptedTurn.text('done')
    },
    tools, hooks: () => [], configure: (c) => { c.planMode = true }, plan: () => PlanReviewDecision.approved,
    expectedStatus: SessionStatus.completed
  },
  {
    name: 'plan review reject',
    input: 'plan first',
    script: (m) => {
      const r = toolResults(m)
      if (r.length === 0) return ScriptedTurn.text('').call('planA', 'submit_plan', '{"plan":"A"}')
      if (r.length === 1) return ScriptedTurn.text('revised').call('planB', 'submit_plan', '{"plan":"B"}')
      if (r.length === 2) return ScriptedTurn.text('').call('p1', 'safe', '{}')
      return ScriptedTurn.text('done')
    },
    tools, hooks: () => [], configure: (c) => { c.planMode = true },
    plan: (p) => p === 'A' ? PlanReviewDecision.rejected : PlanReviewDecision.approved,
    expectedStatus: SessionStatus.completed
  },
  {
    name: 'multi-turn tool use',
    input: 'research',
    script: (m) => {
      const r = toolResults(m).length
      if (r === 0) return ScriptedTurn.text('step 1').call('t1', 'safe', '{"q":1}')
      if (r === 1) return ScriptedTurn.text('step 2').call('t2', 'safe', '{"q":2}').call('t3', 'safe', '{"q":3}')
      return ScriptedTurn.text('all done')
    },
    tools, hooks: () => [], expectedStatus: SessionStatus.completed
  },
  {
    // A model that, asked again after its final answer, acts again: a restored run that re-asked
    // it would charge twice. The final answer must end the run however the process died.
    name: 'final answer after a side effect',
    input: 'pay the invoice',
    script: (m) => {
      const last = m[m.length - 1]
      if (last.role === MessageRole.assistant) return ScriptedTurn.text('').call(`again${m.length}`, 'charge', '{}')
      return toolResults(m).length === 0 ? ScriptedTurn.text('paying').call('pay1', 'charge', '{}') :
        ScriptedTurn.text('Paid.')
    },
    tools: [new ToolSpec('charge')], hooks: () => [], expectedStatus: SessionStatus.completed
  },
  {
    name: 'cancel',
    input: 'start and cancel',
    script: (m) => toolResults(m).length === 0 ?
      ScriptedTurn.text('').call('x1', 'canceller', '{}').call('x2', 'safe', '{}') : ScriptedTurn.text('done'),
    tools: [new ToolSpec('safe'), new ToolSpec('canceller', ToolRiskLevel.safe, async (ctx, world: World) => {
      world.source.cancel('user pressed stop')
      return 'cancel requested'
    })],
    hooks: () => [], expectedStatus: SessionStatus.cancelled
  },
  {
    name: 'loop stop',
    input: 'poll until ready',
    script: (m) => ScriptedTurn.text('').call(`l${toolResults(m).length}`, 'safe', '{"poll":true}'),
    tools, hooks: () => [], configure: (c) => { c.loopDetector = new LoopDetector() },
    expectedStatus: SessionStatus.failed, memory: true
  }
]

/** The highest `step N` the model has said in these messages (compaction may have summarised the first ones). */
function lastStep(m: AgentMessage[]): number {
  let step = 0
  for (const x of m) {
    const found = /step (\d+)/.exec(x.text())
    if (x.role === MessageRole.assistant && found !== null) step = Math.max(step, Number(found[1]))
  }
  return step
}

/** What the simulated vendor counts: not the estimator's ratios, so calibration has work to do. */
function vendorTokens(m: AgentMessage[]): number {
  return m.reduce((n, x) => n + 6 + Math.ceil((x.modelText().length + x.reasoning().length) * 0.5) +
    x.toolCalls.reduce((k, c) => k + 10 + c.argumentsJson.length, 0), 0)
}

scenarios.push({
  // Long answers in a small window: the run compacts twice on its way; a crash anywhere in a
  // compaction (summary call, checkpoint write) must leave a state whose next requests are the
  // crash-free run's own.
  name: 'compaction mid-run',
  input: 'work through the list',
  script: (m) => {
    const first = m[0]?.text() ?? ''
    if (first.startsWith('You compact a conversation')) {
      const steps = [...(m[1]?.text() ?? '').matchAll(/step (\d+)/g)].map((x) => Number(x[1]))
      return ScriptedTurn.text(`Done so far: steps up to ${Math.max(0, ...steps)}.`).withPromptTokens(vendorTokens(m))
    }
    const step = lastStep(m)
    const turn = step >= 8 ? ScriptedTurn.text('all done') :
      ScriptedTurn.text(`step ${step + 1}: ${'details of the work '.repeat(12)}`).call(`s${step + 1}`, 'safe', `{"n":${step + 1}}`)
    return turn.withPromptTokens(vendorTokens(m))
  },
  tools, hooks: () => [],
  configure: (c) => {
    const o = new CompactionOptions()
    o.contextWindow = 900
    o.outputReserve = 100
    c.compaction = o
  },
  expectedStatus: SessionStatus.completed, memory: true, sameRequests: true
})

let total = 0
let recoveries = 0
let sameChecked = 0

describe('crash-point sweep', () => {
  for (const sc of scenarios) {
    it(`${sc.name}: every crash point restores consistently and finishes`, async () => {
      const newWorld = (): World => sc.memory === true ? memoryWorld() : fileWorld(tempDir())
      // The crash-free run counts the boundaries.
      const refWorld = newWorld()
      const ref = new Incarnation(sc, refWorld, newSessionId(), Infinity)
      const refFinal = await drive(ref, true)
      expect(refFinal.status).toBe(sc.expectedStatus)
      checkFinal(refFinal, refWorld)
      await ref.close()
      const points = ref.ks.count
      expect(points).toBeGreaterThan(3)
      const kinds = new Map<string, number>()
      let extraModelCalls = 0
      let extraToolRuns = 0
      for (let k = 1; k <= points; k++) {
        const world = newWorld()
        const sessionId = newSessionId()
        const first = new Incarnation(sc, world, sessionId, k)
        const outcome = await Promise.race([drive(first, true).then(() => 'finished'), first.ks.killed.then(() => 'killed')])
        expect(outcome, `crash point ${k} (${ref.ks.labels[k - 1]}) was not reached`).toBe('killed')
        expect(first.approvalEventsBeforeCommit, `k=${k}: awaiting event published before its write committed`).toEqual([])
        // The next process.
        const second = new Incarnation(sc, world, sessionId, Infinity, 2)
        const report = await second.runtime.restore()
        kinds.set(report.kind, (kinds.get(report.kind) ?? 0) + 1)
        checkRestore(report, world)
        const restored = second.runtime.snapshot().history
        expectPaired(restored)
        const final = await drive(second, report.kind === 'fresh')
        checkFinal(final, world)
        if (sc.decide !== undefined) {
          // The edited call never runs as proposed; a3 is never asked about (the grant answers it), so never denied.
          expect(world.execArgs.get('a1') ?? [], `k=${k}`).not.toContain('{"p":"proposed"}')
          for (const args of world.execArgs.get('a1') ?? []) expect(args, `k=${k}`).toBe('{"p":"edited"}')
          expect(final.history.some((h) => h.toolCallId === 'a3' && h.text().includes('not asked')), `k=${k}`).toBe(false)
        }
        const label = `k=${k} (${ref.ks.labels[k - 1]})`
        checkNoRepeatedWork(world, restored, refWorld, label)
        // A crash that interrupts no tool leaves nothing for the model to learn: its requests are the crash-free run's.
        const interrupted = second.runtime.snapshot().history.some((m) => m.errorCode === 'tool_interrupted')
        if (sc.sameRequests === true && !interrupted) {
          sameChecked++
          const known = new Set(refWorld.requests.map((r) => JSON.stringify(r.messages)))
          for (const r of world.requests.filter((q) => q.incarnation === 2)) {
            if (!known.has(JSON.stringify(r.messages)) && process.env.DEBUG_SWEEP) {
              console.log('GOT', r.messages.map((x) => x.slice(0, 90)).join('\n'))
              for (const q of refWorld.requests) console.log('REF', q.messages.map((x) => x.slice(0, 90)).join('\n'), '\n---')
            }
            expect(known.has(JSON.stringify(r.messages)), `${label}: a request the crash-free run never made`).toBe(true)
          }
        }
        recoveries++
        extraModelCalls = Math.max(extraModelCalls, world.modelCalls(1) + world.modelCalls(2) - refWorld.modelCalls(1))
        extraToolRuns = Math.max(extraToolRuns, (world.execsBy.get(1) ?? 0) + (world.execsBy.get(2) ?? 0) -
          (refWorld.execsBy.get(1) ?? 0))
        expect(second.approvalEventsBeforeCommit).toEqual([])
        await second.close()
      }
      total += points
      record('crash sweep', sc.name, points, 'crash points',
        [...kinds.entries()].map(([k, n]) => `${k} ${n}`).join(', '))
      console.log(`${sc.name}: at most ${extraModelCalls} model call(s) and ${extraToolRuns} tool run(s) more than the crash-free run`)
    })
  }

  afterAll(() => {
    if (total > 0) record('crash sweep', 'all scenarios', total, 'crash points', `${scenarios.length} scenarios`)
    if (sameChecked > 0) {
      record('crash sweep', 'compaction: recoveries whose requests were all the crash-free run\'s', sameChecked,
        'recoveries', 'every crash point that interrupted no tool')
    }
    if (recoveries > 0) {
      record('crash sweep', 'restores that failed to load', 0, 'restores', `of ${recoveries}`)
      record('crash sweep', 'recoveries asking the model for a stored answer', 0, 'recoveries', `of ${recoveries}`)
      record('crash sweep', 'recoveries calling the model or tools more than the crash-free run', 0, 'recoveries',
        `of ${recoveries}`)
    }
  })
})
