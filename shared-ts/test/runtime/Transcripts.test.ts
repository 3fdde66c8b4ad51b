// Golden transcripts: whole runs as data (events in order with their reasons, flags and messages,
// outcomes, history, stored state), compared with committed files under __transcripts__. They pin
// everything a UI, an audit log or a model sees — the text of every error, every synthetic tool
// result, every persist reason — so any change to it is a reviewed diff, not a silent one.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentMessage,
  AgentRuntime,
  ApprovalPolicyHook,
  ArkAgentError,
  BeforeRunHookResult,
  CancellationSource,
  ErrorLayer,
  ErrorRetryability,
  FileStateStorage,
  LoopDetector,
  MemoryStateStorage,
  ModelCallHookResult,
  ModelChunkHookContext,
  ModelChunkHookResult,
  ModelResponse,
  ModelResponseHookResult,
  StatePersistenceHookContext,
  StatePersistenceHookResult,
  ScriptedProvider,
  ScriptedTurn,
  ToolCallHookContext,
  ToolCallHookResult,
  ToolResult,
  ToolResultHookContext,
  ToolResultHookResult,
  ToolRiskLevel,
  TurnCompletionHookResult
} from '../../src/index'
import { cleanupTempDirs, CountingTool, FaultyStorage, loadFromDisk, makeRuntime, MakeOptions, tempDir } from './helpers'
import { decision, outcome, state, Transcript } from './transcript'

afterEach(() => cleanupTempDirs())

type Loose = Record<string, unknown>

function hook(slots: Loose, name = 'TestHook'): AgentHook {
  const h = new AgentHook()
  Object.assign(h as unknown as Loose, slots)
  Object.defineProperty(h, 'hookName', { get: () => name })
  return h
}

async function golden(name: string, t: Transcript): Promise<void> {
  await expect(t.text()).toMatchFileSnapshot(`./__transcripts__/${name}.json`)
}

function tools() {
  return {
    read: new CountingTool('read', ToolRiskLevel.safe, async (a) => `read ${String(a['path'] ?? '?')}`,
      { type: 'object', properties: { path: { type: 'string' } } }),
    rm: new CountingTool('rm', ToolRiskLevel.dangerous, async () => 'removed'),
    note: new CountingTool('note', ToolRiskLevel.sensitive, async () => 'noted'),
    boom: new CountingTool('boom', ToolRiskLevel.safe, async () => { throw new Error('disk on fire') })
  }
}

function runtime(turns: ScriptedTurn[] | ScriptedProvider, opts: MakeOptions = {}): { rt: AgentRuntime, t: Transcript } {
  const all = tools()
  const rt = makeRuntime(turns, { sessionId: 'golden', tools: [all.read.tool, all.rm.tool, all.note.tool, all.boom.tool],
    storage: new MemoryStateStorage(), ...opts })
  return { rt, t: new Transcript(rt) }
}

describe('golden transcripts: completed runs', () => {
  it('a streamed answer with a system prompt and a chunk rewrite', async () => {
    const { rt, t } = runtime([ScriptedTurn.text('Hello', ' darn', ' world').think('think ')], {
      hooks: [hook({ onModelChunk: async (c: ModelChunkHookContext) => ModelChunkHookResult.proceed(c.text.replace('darn', 'd**n')) })],
      configure: (c) => { c.systemPrompt = 'Be brief.' }
    })
    t.note('outcome', outcome(await rt.run('hi')))
    t.note('state', state(rt.snapshot()))
    await golden('streamed-answer', t)
  })

  it('a tool batch: success, each registry refusal, a failure, an afterToolCall rewrite with injections', async () => {
    const { rt, t } = runtime([
      ScriptedTurn.text('working').call('c1', 'read', '{"path":"a"}').call('c2', 'ghost', '{}').call('c3', 'read', '{bad')
        .call('c4', 'read', '{"path":5}').call('c5', 'boom', '{}'),
      ScriptedTurn.text('done')
    ], { hooks: [hook({
      afterToolCall: async (c: ToolResultHookContext) => c.call.id === 'c1' ?
        ToolResultHookResult.proceed(ToolResult.text('x', 'READ A'), [AgentMessage.user('injected after c1')]) :
        ToolResultHookResult.proceed()
    })] })
    t.note('outcome', outcome(await rt.run('go')))
    t.note('state', state(rt.snapshot()))
    await golden('tool-batch', t)
  })

  it('an afterToolCall stop ends the run after the batch; later calls get a close-out result', async () => {
    const { rt, t } = runtime([ScriptedTurn.text('').call('c1', 'read', '{}').call('c2', 'read', '{}'), ScriptedTurn.text('never')],
      { hooks: [hook({ afterToolCall: async () => ToolResultHookResult.stop(undefined, [], 'enough') })] })
    t.note('outcome', outcome(await rt.run('go')))
    t.note('state', state(rt.snapshot()))
    await golden('tool-stop', t)
  })

  it('onTurnCompletion continues once with an injection, then accepts', async () => {
    let once = true
    const { rt, t } = runtime([ScriptedTurn.text('first'), ScriptedTurn.text('second')], { hooks: [hook({
      onTurnCompletion: async () => {
        if (once) { once = false; return TurnCompletionHookResult.continueRun([AgentMessage.user('keep going')], 'more') }
        return TurnCompletionHookResult.accept()
      }
    })] })
    t.note('outcome', outcome(await rt.run('go')))
    t.note('state', state(rt.snapshot()))
    await golden('turn-continue', t)
  })

  it('beforeModelCall answers from a cache; afterModelCall retries twice with reasons', async () => {
    let retries = 0
    const { rt, t } = runtime([ScriptedTurn.text('bad 1'), ScriptedTurn.text('bad 2'), ScriptedTurn.text('good')], { hooks: [hook({
      afterModelCall: async (c: { response: ModelResponse }) => {
        if (c.response.message.text().startsWith('bad')) { retries++; return ModelResponseHookResult.retry(`not json ${retries}`) }
        return ModelResponseHookResult.proceed()
      }
    })] })
    t.note('outcome', outcome(await rt.run('go')))
    const cached = runtime([], { hooks: [hook({ beforeModelCall: async () => ModelCallHookResult.respond(new ModelResponse(AgentMessage.assistant('from cache'))) })] })
    t.note('cached outcome', outcome(await cached.rt.run('go')))
    t.note('cached transcript', JSON.parse(cached.t.text()))
    await golden('model-hooks', t)
  })
})

describe('golden transcripts: approvals and plans', () => {
  it('a frozen batch: a hook deny, a refused call, a proceed call and a dangerous one; approve, deny, consumed and unknown ids', async () => {
    const { rt, t } = runtime([
      ScriptedTurn.text('plan').call('c1', 'rm', '{}').call('c2', 'note', '{}').call('c3', 'ghost', '{}').call('c4', 'read', '{}'),
      ScriptedTurn.text('finished')
    ], { hooks: [hook({ beforeToolCall: async (c: ToolCallHookContext) => c.call.name === 'note' ?
      ToolCallHookResult.deny(undefined, 'notes are off') : ToolCallHookResult.proceed() }), new ApprovalPolicyHook()] })
    t.note('outcome', outcome(await rt.run('go')))
    t.note('state', state(rt.snapshot()))
    const pending = rt.snapshot().pendingApproval!.items.filter((i) => i.isPending())
    t.note('approve', decision(await rt.controller.approve(pending[0].approvalId)))
    t.note('approve again', decision(await rt.controller.approve(pending[0].approvalId)))
    t.note('unknown', decision(await rt.controller.approve('apr_nope')))
    t.note('deny', decision(await rt.controller.deny(pending[1].approvalId)))
    await rt.whenIdle()
    t.note('consumed', decision(await rt.controller.deny(pending[1].approvalId, 'late')))
    t.note('state', state(rt.snapshot()))
    await golden('approval-batch', t)
  })

  it('input and resume while approvals are pending; a deny with a reason; a save that fails rolls the decision back', async () => {
    const faulty = new FaultyStorage(new MemoryStateStorage())
    const { rt, t } = runtime([ScriptedTurn.text('').call('c1', 'rm', '{}'), ScriptedTurn.text('ok')],
      { hooks: [new ApprovalPolicyHook()], storage: faulty, configure: (c) => { c.autoResume = false } })
    t.note('outcome', outcome(await rt.run('go')))
    const refuse = async (p: Promise<unknown>): Promise<void> => {
      try { await p; t.note('unexpected', 'resolved') } catch (e) { t.note('refused', { code: (e as ArkAgentError).code, message: (e as Error).message }) }
    }
    await refuse(rt.run('more'))
    await refuse(rt.runStream([]))
    const id = rt.snapshot().pendingApproval!.items[0].approvalId
    faulty.failWhen = () => true
    t.note('deny while the disk fails', decision(await rt.controller.deny(id, 'too risky')))
    faulty.failWhen = undefined
    t.note('deny', decision(await rt.controller.deny(id, 'too risky')))
    t.note('resume', outcome(await rt.runStream([])))
    await refuse(rt.runStream([]))
    t.note('state', state(rt.snapshot()))
    await golden('approval-decisions', t)
  })

  it('plan mode: other tools before a plan, a rejected plan (with and without a reason), a submission without a plan, then an approved one', async () => {
    const turns = [
      ScriptedTurn.text('').call('x1', 'read', '{}'),
      ScriptedTurn.text('').call('p1', 'submit_plan', '{"plan":"1. read"}').call('x2', 'read', '{}'),
      ScriptedTurn.text('').call('p2', 'submit_plan', '{"plan":"2. read more"}'),
      ScriptedTurn.text('').call('p3', 'submit_plan', '{}'),
      ScriptedTurn.text('').call('p4', 'submit_plan', '{"plan":"3. read z"}'),
      ScriptedTurn.text('').call('r1', 'read', '{"path":"z"}'),
      ScriptedTurn.text('all read')
    ]
    const { rt, t } = runtime(turns, { configure: (c) => { c.planMode = true; c.autoResume = false } })
    t.note('outcome', outcome(await rt.run('go')))
    const refuse = async (p: Promise<unknown>): Promise<void> => {
      try { await p } catch (e) { t.note('refused', { code: (e as ArkAgentError).code, message: (e as Error).message }) }
    }
    await refuse(rt.run('more'))
    await refuse(rt.runStream([]))
    t.note('reject', decision(await rt.controller.rejectPlan('too thin')))
    t.note('reject again', decision(await rt.controller.rejectPlan('again')))
    t.note('resume', outcome(await rt.runStream([])))
    t.note('reject without reason', decision(await rt.controller.rejectPlan('')))
    t.note('resume', outcome(await rt.runStream([])))
    t.note('approve', decision(await rt.controller.approvePlan()))
    t.note('resume', outcome(await rt.runStream([])))
    t.note('no plan', decision(await rt.controller.approvePlan()))
    t.note('state', state(rt.snapshot()))
    await golden('plan-mode', t)
  })
})

describe('golden transcripts: how runs end badly', () => {
  const aborts: Array<[string, Loose, ScriptedTurn[]]> = [
    ['beforeRun', { beforeRun: async () => BeforeRunHookResult.abort('no input today') }, [ScriptedTurn.text('x')]],
    ['beforeModelCall', { beforeModelCall: async () => ModelCallHookResult.abort() }, [ScriptedTurn.text('x')]],
    ['onModelChunk', { onModelChunk: async () => ModelChunkHookResult.abort('leak') }, [ScriptedTurn.text('a', 'b')]],
    ['afterModelCall', { afterModelCall: async () => ModelResponseHookResult.abort(undefined,
      new ArkAgentError(ErrorLayer.security, 'custom_policy', 'custom error', ErrorRetryability.never)) }, [ScriptedTurn.text('x')]],
    ['beforeToolCall', { beforeToolCall: async () => ToolCallHookResult.abort('injection') }, [ScriptedTurn.text('').call('c1', 'read', '{}')]],
    ['afterToolCall', { afterToolCall: async () => ToolResultHookResult.abort('exfiltration') }, [ScriptedTurn.text('').call('c1', 'read', '{}').call('c2', 'read', '{}')]],
    ['onTurnCompletion', { onTurnCompletion: async () => TurnCompletionHookResult.abort('unsafe') }, [ScriptedTurn.text('x')]],
    ['beforePersistState', { beforePersistState: async (c: StatePersistenceHookContext) => c.reason === 'after_model_text' ?
      StatePersistenceHookResult.abort('audit offline') : StatePersistenceHookResult.proceed() }, [ScriptedTurn.text('x')]]
  ]
  it('every decision slot aborting (with and without a reason, with a custom error)', async () => {
    const t0 = new Transcript(makeRuntime([]))
    for (const [slot, slots, turns] of aborts) {
      const { rt, t } = runtime(turns, { hooks: [hook(slots, `Abort_${slot}`)] })
      t0.note(slot, { outcome: outcome(await rt.run('go')), events: JSON.parse(t.text()), state: state(rt.snapshot()) })
    }
    await golden('aborts', t0)
  })

  it('max turns, the retry limit, cancellation in a tool and mid-stream, a loop warned then stopped', async () => {
    const t0 = new Transcript(makeRuntime([]))
    const loopy = ScriptedProvider.fromFunction(() => ScriptedTurn.text('').call('l', 'read', '{"path":"same"}'))
    const a = runtime(loopy, { configure: (c) => { c.maxTurns = 2 } })
    t0.note('max turns', outcome(await a.rt.run('go')))
    const b = runtime([ScriptedTurn.text('no'), ScriptedTurn.text('no'), ScriptedTurn.text('no')], { hooks: [hook({
      afterModelCall: async () => ModelResponseHookResult.retry() })], configure: (c) => { c.maxModelRetries = 1 } })
    t0.note('retry limit', outcome(await b.rt.run('go')))
    const source = new CancellationSource()
    const waiting = new CountingTool('wait', ToolRiskLevel.safe, (args, ctx) => new Promise<string>((_, reject) => {
      ctx.token.onCancel((r) => reject(new Error(r)))
      source.cancel('user pressed stop')
    }))
    const c = makeRuntime([ScriptedTurn.text('').call('w1', 'wait', '{}').call('w2', 'wait', '{}')],
      { tools: [waiting.tool], storage: new MemoryStateStorage() })
    const ct = new Transcript(c)
    t0.note('cancel in a tool', { outcome: outcome(await c.runStream([AgentMessage.user('go')], undefined, source.token)),
      events: JSON.parse(ct.text()), state: state(c.snapshot()) })
    const s2 = new CancellationSource()
    const d = runtime([ScriptedTurn.text('partial ', 'answer ', 'more').withDelay(3)])
    d.rt.controller.subscribe('llm.chunk', () => s2.cancel('stop'))
    t0.note('cancel mid-stream', { outcome: outcome(await d.rt.runStream([AgentMessage.user('go')], undefined, s2.token)),
      state: state(d.rt.snapshot()) })
    const e = runtime(loopy, { configure: (c2) => { c2.loopDetector = new LoopDetector() } })
    t0.note('loop', { outcome: outcome(await e.rt.run('go')), events: JSON.parse(e.t.text()) })
    await golden('bad-endings', t0)
  })

  it('storage trouble: a failing autosave, a refused mandatory write, a failing terminal write and mark, suspend', async () => {
    const t0 = new Transcript(makeRuntime([]))
    const f1 = new FaultyStorage(new MemoryStateStorage())
    f1.failWhen = (s) => s.status === 'running' && s.history.length === 2
    const a = runtime([ScriptedTurn.text('answer')], { storage: f1 })
    t0.note('autosave fails', { outcome: outcome(await a.rt.run('go')), events: JSON.parse(a.t.text()) })
    const b = runtime([ScriptedTurn.text('').call('c1', 'rm', '{}')], { hooks: [new ApprovalPolicyHook(), hook({
      beforePersistState: async (c: StatePersistenceHookContext) => c.reason === 'awaiting_approval' ?
        StatePersistenceHookResult.abort('no approvals stored here') : StatePersistenceHookResult.proceed()
    })] })
    t0.note('approval write refused', { outcome: outcome(await b.rt.run('go')), state: state(b.rt.snapshot()) })
    const f3 = new FaultyStorage(new MemoryStateStorage())
    f3.failWhen = (s) => s.status === 'completed'
    f3.failMarks = true
    const c = runtime([ScriptedTurn.text('done')], { storage: f3 })
    t0.note('terminal write and mark fail', { outcome: outcome(await c.rt.run('go')), marks: f3.marks })
    const f4 = new FaultyStorage(new MemoryStateStorage())
    f4.failWhen = (s) => s.status === 'completed'
    const d = runtime([ScriptedTurn.text('done')], { storage: f4 })
    t0.note('terminal write fails', { outcome: outcome(await d.rt.run('go')), marks: f4.marks })
    t0.note('restored after it', JSON.parse(JSON.stringify(await makeRuntime([], { sessionId: 'golden', storage: f4.inner }).restore())))
    const e = runtime([ScriptedTurn.text('x')], { hooks: [hook({ beforePersistState: async (c: StatePersistenceHookContext) => {
      if (c.mandatory) throw new Error('audit crashed')
      return StatePersistenceHookResult.skip('not now')
    } })] })
    t0.note('skips and a crashing gate on mandatory writes', { outcome: outcome(await e.rt.run('go')), events: JSON.parse(e.t.text()) })
    const f5 = new FaultyStorage(new MemoryStateStorage())
    const g = runtime([ScriptedTurn.text('x')], { storage: f5 })
    await g.rt.run('go')
    f5.failWhen = () => true
    t0.note('suspend fails', { suspended: await g.rt.suspend(), events: JSON.parse(g.t.text()).slice(-2) })
    await golden('storage-trouble', t0)
  })
})

describe('golden transcripts: restore', () => {
  it('every kind a restore reports, and what the next run does with it', async () => {
    const t0 = new Transcript(makeRuntime([]))
    const dir = tempDir()
    const fresh = makeRuntime([], { sessionId: 'r1', storage: new FileStateStorage(dir, undefined, { lock: false }) })
    t0.note('fresh', JSON.parse(JSON.stringify(await fresh.restore())))
    const first = makeRuntime([ScriptedTurn.text('').call('c1', 'rm', '{}')], { sessionId: 'r2', tools: [tools().rm.tool],
      hooks: [new ApprovalPolicyHook()], storage: new FileStateStorage(dir, undefined, { lock: false }) })
    await first.run('go')
    const again = makeRuntime([ScriptedTurn.text('ok')], { sessionId: 'r2', tools: [tools().rm.tool],
      hooks: [new ApprovalPolicyHook()], storage: new FileStateStorage(dir, undefined, { lock: false }) })
    t0.note('awaiting approval', JSON.parse(JSON.stringify(await again.restore())))
    const idle = makeRuntime([ScriptedTurn.text('fine')], { sessionId: 'r3', storage: new FileStateStorage(dir, undefined, { lock: false }) })
    await idle.run('hi')
    t0.note('idle', JSON.parse(JSON.stringify(await makeRuntime([], { sessionId: 'r3', storage: new FileStateStorage(dir, undefined, { lock: false }) }).restore())))
    let hang = true
    const stuck = new CountingTool('stuck', ToolRiskLevel.safe, () => hang ? new Promise<string>(() => {}) : Promise.resolve('unstuck'))
    const dying = makeRuntime([ScriptedTurn.text('').call('s1', 'stuck', '{}').call('s2', 'stuck', '{}')],
      { sessionId: 'r4', tools: [stuck.tool], storage: new FileStateStorage(dir, undefined, { lock: false }) })
    void dying.run('go')
    for (let i = 0; i < 200 && stuck.count === 0; i++) await new Promise((r) => setTimeout(r, 2))
    hang = false
    const back = makeRuntime([ScriptedTurn.text('after the crash')], { sessionId: 'r4', tools: [stuck.tool],
      storage: new FileStateStorage(dir, undefined, { lock: false }) })
    const bt = new Transcript(back)
    t0.note('interrupted', JSON.parse(JSON.stringify(await back.restore())))
    t0.note('resumed', { outcome: outcome(await back.runStream([])), events: JSON.parse(bt.text()), state: state(back.snapshot()) })
    const marked = new FileStateStorage(dir, undefined, { lock: false })
    await marked.markNotResumable('r3', 'terminal write failed: disk full')
    const nr = makeRuntime([ScriptedTurn.text('new start')], { sessionId: 'r3', storage: new FileStateStorage(dir, undefined, { lock: false }) })
    t0.note('not resumable', JSON.parse(JSON.stringify(await nr.restore())))
    t0.note('state', state(nr.snapshot()))
    try { await nr.runStream([]) } catch (e) { t0.note('resume refused', { code: (e as ArkAgentError).code, message: (e as Error).message }) }
    t0.note('new input', outcome(await nr.run('again')))
    t0.note('stored', state((await loadFromDisk(dir, 'r3'))!.state))
    await golden('restore-kinds', t0)
  })
})
