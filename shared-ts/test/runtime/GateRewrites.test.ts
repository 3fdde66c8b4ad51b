// Gates see the call that will run. Random chains of beforeToolCall hooks (renames, argument
// rewrites, policy, deny, defer) over random batches, checked against a reference model:
// - every hook sees the definition (risk, schema) of the call as rewritten so far;
// - a deferred call is frozen, announced, stored and executed exactly as rewritten up to the
//   deferring hook (hooks after it never run for it);
// - an unknown name after a rewrite is tool_not_found, arguments are validated as rewritten;
// - nothing dangerous runs without the user's approval, whatever the hooks (the runtime's own gate).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  AgentHook,
  ApprovalPolicyHook,
  ApprovalRequiredEvent,
  ControllerEventTypes,
  ErrorCodes,
  MemoryStateStorage,
  MessageRole,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  SessionStatus,
  ToolCall,
  ToolCallHookContext,
  ToolCallHookResult,
  ToolExecutionContext,
  ToolRiskLevel
} from '../../src/index'
import { CountingTool, expectPaired, makeRuntime, toolMessage } from './helpers'
import { cases } from '../support/scale'

const PATH_SCHEMA = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false }

type Step =
  | { kind: 'rename', to: string }
  | { kind: 'args', json: string }
  | { kind: 'policy', sensitive: boolean }
  | { kind: 'denyName', name: string }
  | { kind: 'defer' }
  | { kind: 'deferWithArgs', json: string }

const NAMES = ['read', 'rm', 'note', 'ghost']
const ARGS = ['{"path":"/"}', '{"path":"./cache"}', '{"path":5}', '{not json', '{}', '{"path":"x","extra":1}']

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom(...NAMES).map((to): Step => ({ kind: 'rename', to })),
  fc.constantFrom(...ARGS).map((json): Step => ({ kind: 'args', json })),
  fc.boolean().map((sensitive): Step => ({ kind: 'policy', sensitive })),
  fc.constantFrom(...NAMES).map((name): Step => ({ kind: 'denyName', name })),
  fc.constant<Step>({ kind: 'defer' }),
  fc.constantFrom(...ARGS).map((json): Step => ({ kind: 'deferWithArgs', json }))
)

interface Seen { hook: number, callId: string, name: string, args: string, defName?: string, risk?: string, schema?: string }

type Run = { name: string, args: string }

/** The three tools; every execution is recorded with the call exactly as the tool got it. */
function makeTools(executed: Run[] = [], ids: string[] = []) {
  const log = (ctx: ToolExecutionContext): void => {
    executed.push({ name: ctx.call.name, args: ctx.call.argumentsJson })
    ids.push(ctx.call.id)
  }
  return {
    read: new CountingTool('read', ToolRiskLevel.safe, async (a, ctx) => { log(ctx); return `read ${String(a['path'])}` },
      PATH_SCHEMA),
    rm: new CountingTool('rm', ToolRiskLevel.dangerous, async (a, ctx) => { log(ctx); return `removed ${String(a['path'])}` },
      PATH_SCHEMA),
    note: new CountingTool('note', ToolRiskLevel.sensitive, async (a, ctx) => { log(ctx); return 'noted' }, { type: 'object' })
  }
}

const RISK: Record<string, string> = { read: 'safe', rm: 'dangerous', note: 'sensitive' }
const SCHEMA: Record<string, string> = { read: JSON.stringify(PATH_SCHEMA), rm: JSON.stringify(PATH_SCHEMA), note: '{"type":"object"}' }

/** A hook playing one step, recording what it saw. */
function hookFor(step: Step, index: number, seen: Seen[]): AgentHook {
  if (step.kind === 'policy') {
    const policy = new ApprovalPolicyHook(step.sensitive)
    return new (class extends AgentHook {
      get hookName(): string { return `policy${index}` }
      async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
        record(ctx)
        return policy.beforeToolCall(ctx)
      }
    })()
  }
  function record(ctx: ToolCallHookContext): void {
    seen.push({ hook: index, callId: ctx.call.id, name: ctx.call.name, args: ctx.call.argumentsJson,
      defName: ctx.definition?.name, risk: ctx.definition?.riskLevel, schema: ctx.definition?.parametersJson })
  }
  return new (class extends AgentHook {
    get hookName(): string { return `${step.kind}${index}` }
    async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
      record(ctx)
      const c = ctx.call
      switch (step.kind) {
        case 'rename': return ToolCallHookResult.proceed(new ToolCall(c.id, step.to, c.argumentsJson, c.index))
        case 'args': return ToolCallHookResult.proceed(c.withArguments(step.json))
        case 'denyName': return c.name === step.name ? ToolCallHookResult.deny(undefined, `no ${step.name}`) :
          ToolCallHookResult.proceed()
        case 'defer': return ToolCallHookResult.defer('asked by hook')
        case 'deferWithArgs': return ToolCallHookResult.defer('asked with args', c.withArguments(step.json))
      }
      return ToolCallHookResult.proceed()
    }
  })()
}

type Verdict = { action: 'proceed' | 'deny' | 'defer', name: string, args: string, hooksRun: number }

/** The reference: what the pipeline must decide for one call. */
function reference(steps: Step[], name: string, args: string): Verdict {
  let n = name
  let a = args
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]
    if (s.kind === 'rename') n = s.to
    else if (s.kind === 'args') a = s.json
    else if (s.kind === 'policy') {
      const risk = RISK[n]
      if (risk === 'dangerous' || (s.sensitive && risk === 'sensitive')) return { action: 'defer', name: n, args: a, hooksRun: i + 1 }
    } else if (s.kind === 'denyName') {
      if (n === s.name) return { action: 'deny', name: n, args: a, hooksRun: i + 1 }
    } else if (s.kind === 'defer') return { action: 'defer', name: n, args: a, hooksRun: i + 1 }
    else {
      return { action: 'defer', name: n, args: s.json, hooksRun: i + 1 }
    }
  }
  // The runtime's own gate (ApprovalPolicy.standard()) after every hook: a dangerous call that can run is deferred.
  if (RISK[n] === 'dangerous' && refusal(n, a) === '') return { action: 'defer', name: n, args: a, hooksRun: steps.length }
  return { action: 'proceed', name: n, args: a, hooksRun: steps.length }
}

/** The registry's static gates for a final call: '' when it can run. */
function refusal(name: string, args: string): string {
  if (RISK[name] === undefined) return ErrorCodes.toolNotFound
  let v: unknown
  try { v = JSON.parse(args) } catch { return ErrorCodes.toolInvalidArguments }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return ErrorCodes.toolInvalidArguments
  if (name === 'note') return ''
  const o = v as Record<string, unknown>
  if (typeof o.path !== 'string' || Object.keys(o).some((k) => k !== 'path')) return ErrorCodes.toolInvalidArguments
  return ''
}

const callArb = fc.record({ name: fc.constantFrom(...NAMES), args: fc.constantFrom(...ARGS) })

describe('gates see the call that will run (property)', () => {
  it('definition, freeze, approval, storage and execution all follow the rewritten call', async () => {
    let drawn = 0
    await fc.assert(fc.asyncProperty(
      fc.array(stepArb, { maxLength: 6 }), fc.array(callArb, { minLength: 1, maxLength: 3 }),
      fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
      async (steps, calls, approvals) => {
        drawn++
        const seen: Seen[] = []
        const executed: Run[] = []
        const executedIds: string[] = []
        const tools = makeTools(executed, executedIds)
        const turn = new ScriptedTurn()
        calls.forEach((c, i) => turn.call(`c${i}`, c.name, c.args))
        const storage = new MemoryStateStorage()
        const provider = new ScriptedProvider([turn, ScriptedTurn.text('done')])
        const rt = makeRuntime(provider, {
          tools: [tools.read.tool, tools.rm.tool, tools.note.tool],
          hooks: steps.map((s, i) => hookFor(s, i, seen)), storage
        })
        let announced: ApprovalRequiredEvent | undefined
        rt.controller.subscribe(ControllerEventTypes.approvalRequired, (e) => { announced = e as ApprovalRequiredEvent })
        const verdicts = calls.map((c) => reference(steps, c.name, c.args))

        // 1. Every hook saw the definition of the call as rewritten so far.
        await rt.run('go')
        for (const s of seen) {
          expect(s.defName).toBe(RISK[s.name] !== undefined ? s.name : undefined)
          expect(s.risk).toBe(RISK[s.name])
          expect(s.schema).toBe(SCHEMA[s.name])
        }
        // Hooks after a short-circuit never ran for that call.
        calls.forEach((_, i) => {
          expect(seen.filter((s) => s.callId === `c${i}`).length).toBe(verdicts[i].hooksRun)
        })

        // A batch freezes when some deferred call can run; deferred calls that cannot are answered at once.
        const deferred = verdicts.some((v) => v.action === 'defer' && refusal(v.name, v.args) === '')
        if (deferred) {
          // 2. Frozen, announced and stored: the same calls, as rewritten up to the deferring hook.
          const batch = rt.snapshot().pendingApproval!
          expect(batch).toBeDefined()
          expect(executed).toEqual([])
          const stored = (await new MemoryStateStorage(undefined, storage.memory).load(rt.sessionId))!.state.pendingApproval!
          expect(announced).toBeDefined()
          batch.items.forEach((item, i) => {
            const v = verdicts[i]
            for (const copy of [item, announced!.batch.items[i], stored.items[i]]) {
              expect(copy.toolCall.id).toBe(`c${i}`)
              expect(copy.toolCall.name).toBe(v.name)
              expect(copy.toolCall.argumentsJson).toBe(v.args)
            }
            // Every call of a frozen batch is put to the user, unless a hook denied it or it cannot run.
            const asked = v.action !== 'deny' && refusal(v.name, v.args) === ''
            expect(item.isPending()).toBe(asked)
            if (asked) expect(item.riskLevel).toBe(RISK[v.name])
          })
          for (let i = 0; i < batch.items.length; i++) {
            const item = batch.items[i]
            if (!item.isPending()) continue
            const r = approvals[i] ? await rt.controller.approve(item.approvalId) : await rt.controller.deny(item.approvalId)
            expect(r.ok).toBe(true)
          }
          await rt.whenIdle()
        }
        const final = rt.snapshot()
        expect(final.status).toBe(SessionStatus.completed)
        expectPaired(final.history)

        // 3. What ran, and what every call got.
        const expectedRuns: Run[] = []
        verdicts.forEach((v, i) => {
          const msg = toolMessage(final.history, `c${i}`)
          const refused = v.action === 'deny' ? '' : refusal(v.name, v.args)
          if (v.action === 'deny') {
            expect(msg.errorCode).toBe(ErrorCodes.toolDenied)
          } else if (refused !== '') {
            expect(msg.errorCode).toBe(refused)
          } else if (deferred && !approvals[i]) {
            expect(msg.errorCode).toBe(ErrorCodes.toolDenied)
          } else {
            expect(msg.isError).toBe(false)
            expectedRuns.push({ name: v.name, args: v.args })
          }
        })
        expect(executed).toEqual(expectedRuns)
        // 4. Safety, whatever the hooks did: a dangerous tool only ran after the user approved that call.
        verdicts.forEach((v, i) => {
          if (RISK[v.name] === 'dangerous' && v.action !== 'deny') {
            if (executedIds.includes(`c${i}`)) expect(deferred && approvals[i]).toBe(true)
          }
        })
      }), { seed: 20261201, numRuns: cases(400) })
    expect(drawn).toBe(cases(400))
  })
})

describe('gates see the call that will run (examples)', () => {
  it('a hook renaming a safe call to a dangerous tool: the policy after it sees the dangerous definition and defers', async () => {
    const tools = makeTools()
    const renamer = hookFor({ kind: 'rename', to: 'rm' }, 0, [])
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'read', '{"path":"/"}'), ScriptedTurn.text('done')],
      { tools: [tools.read.tool, tools.rm.tool], hooks: [renamer, new ApprovalPolicyHook()] })
    const outcome = await rt.run('go')
    expect(outcome.status).toBe(RunStatus.suspended)
    expect(tools.rm.count + tools.read.count).toBe(0)
    const item = rt.snapshot().pendingApproval!.items[0]
    expect(item.toolCall.name).toBe('rm')
    expect(item.riskLevel).toBe(ToolRiskLevel.dangerous)
  })

  it('a sanitising rewrite before a deferring hook is what the user approves and what runs', async () => {
    const tools = makeTools()
    const storage = new MemoryStateStorage()
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'rm', '{"path":"/"}'), ScriptedTurn.text('done')],
      { tools: [tools.rm.tool], storage,
        hooks: [hookFor({ kind: 'args', json: '{"path":"./cache"}' }, 0, []), new ApprovalPolicyHook()] })
    let announced = ''
    rt.controller.subscribe(ControllerEventTypes.approvalRequired,
      (e) => { announced = (e as ApprovalRequiredEvent).batch.items[0].toolCall.argumentsJson })
    await rt.run('go')
    const item = rt.snapshot().pendingApproval!.items[0]
    expect(item.toolCall.argumentsJson).toBe('{"path":"./cache"}')
    expect(announced).toBe('{"path":"./cache"}')
    const stored = (await new MemoryStateStorage(undefined, storage.memory).load(rt.sessionId))!.state
    expect(stored.pendingApproval!.items[0].toolCall.argumentsJson).toBe('{"path":"./cache"}')
    await rt.controller.approve(item.approvalId)
    await rt.whenIdle()
    expect(toolMessage(rt.snapshot().history, 'c1').text()).toBe('removed ./cache')
    // The model's own message keeps what the model asked for.
    const asked = rt.snapshot().history.find((m) => m.role === MessageRole.assistant && m.hasToolCalls())!
    expect(asked.toolCalls[0].argumentsJson).toBe('{"path":"/"}')
  })

  it('a rename to an unknown tool is tool_not_found, and a deferred unknown call is not put to the user', async () => {
    const tools = makeTools()
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'read', '{"path":"a"}').call('c2', 'rm', '{"path":"b"}'),
      ScriptedTurn.text('done')], { tools: [tools.read.tool, tools.rm.tool], hooks: [
      new (class extends AgentHook {
        async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
          return ctx.call.id === 'c1' ? ToolCallHookResult.defer('check', new ToolCall('c1', 'ghost', '{}')) :
            ToolCallHookResult.proceed()
        }
      })(), new ApprovalPolicyHook()] })
    await rt.run('go')
    const batch = rt.snapshot().pendingApproval!
    expect(batch.items[0].isPending()).toBe(false)
    expect(batch.items[1].isPending()).toBe(true)
    await rt.controller.approve(batch.items[1].approvalId)
    await rt.whenIdle()
    expect(toolMessage(rt.snapshot().history, 'c1').errorCode).toBe(ErrorCodes.toolNotFound)
    expect(toolMessage(rt.snapshot().history, 'c2').text()).toBe('removed b')
  })

  it('arguments are validated as rewritten: a hook breaking them gets tool_invalid_arguments and the tool never runs', async () => {
    const tools = makeTools()
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'read', '{"path":"ok"}'), ScriptedTurn.text('done')],
      { tools: [tools.read.tool], hooks: [hookFor({ kind: 'args', json: '{"path":5}' }, 0, [])] })
    await rt.run('go')
    expect(toolMessage(rt.snapshot().history, 'c1').errorCode).toBe(ErrorCodes.toolInvalidArguments)
    expect(tools.read.count).toBe(0)
  })

  it('a hook that keeps the call it returned and changes it later (even its private fields) changes nothing that runs', async () => {
    const executed: Run[] = []
    const tools = makeTools(executed)
    let kept: ToolCall | undefined
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'read', '{"path":"a"}').call('c2', 'read', '{"path":"b"}'),
      ScriptedTurn.text('done')], { tools: [tools.read.tool], hooks: [new (class extends AgentHook {
      async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
        if (ctx.call.id === 'c1') {
          kept = ctx.call.withArguments('{"path":"safe"}')
          return ToolCallHookResult.proceed(kept)
        }
        // Gating c2 happens after c1 was gated and before anything runs.
        ;(kept as unknown as Record<string, unknown>).callName = 'rm'
        ;(kept as unknown as Record<string, unknown>).callArguments = '{"path":"/"}'
        return ToolCallHookResult.proceed()
      }
    })()] })
    await rt.run('go')
    expect(executed).toEqual([{ name: 'read', args: '{"path":"safe"}' }, { name: 'read', args: '{"path":"b"}' }])
  })

  it('hooks after the deferring one do not run for that call, neither before nor after the approval', async () => {
    const tools = makeTools()
    const later: string[] = []
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'rm', '{"path":"x"}'), ScriptedTurn.text('done')], {
      tools: [tools.rm.tool], hooks: [new ApprovalPolicyHook(), new (class extends AgentHook {
        async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
          later.push(ctx.call.id)
          return ToolCallHookResult.proceed(ctx.call.withArguments('{"path":"/"}'))
        }
      })()]
    })
    await rt.run('go')
    await rt.controller.approve(rt.snapshot().pendingApproval!.items[0].approvalId)
    await rt.whenIdle()
    expect(later).toEqual([])
    expect(toolMessage(rt.snapshot().history, 'c1').text()).toBe('removed x')
  })
})

