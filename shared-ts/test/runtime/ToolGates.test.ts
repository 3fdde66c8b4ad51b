// Tool gates: every failed gate is an error-flagged result for the model, and the run goes on.
import { describe, expect, it } from 'vitest'
import {
  ErrorCodes,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  ToolRiskLevel
} from '../../src/index'
import { CountingTool, expectPaired, makeRuntime, toolMessage } from './helpers'

function tools() {
  const write = new CountingTool('write', ToolRiskLevel.safe, async (args) => `wrote ${String(args['path'])}`, {
    type: 'object',
    properties: { path: { type: 'string' }, mode: { type: 'string', enum: ['a', 'w'] } },
    required: ['path']
  })
  const boom = new CountingTool('boom', ToolRiskLevel.safe, async () => { throw new Error('disk on fire') })
  let slowTokenReason = ''
  const slow = new CountingTool('slow', ToolRiskLevel.safe, (args, ctx) => new Promise<string>((resolve) => {
    ctx.token.onCancel((reason) => { slowTokenReason = reason })
  }))
  return { write, boom, slow, slowReason: () => slowTokenReason }
}

const cases: Array<{ name: string, call: [string, string], code: string, detail?: string }> = [
  { name: 'an unknown tool gets tool_not_found', call: ['nope', '{}'], code: ErrorCodes.toolNotFound, detail: 'nope' },
  { name: 'invalid JSON arguments get tool_invalid_arguments', call: ['write', '{"path": '], code: ErrorCodes.toolInvalidArguments, detail: 'JSON' },
  { name: 'a schema violation gets tool_invalid_arguments naming the field', call: ['write', '{"path": 5}'], code: ErrorCodes.toolInvalidArguments, detail: 'path' },
  { name: 'a missing required field gets tool_invalid_arguments naming the field', call: ['write', '{"mode":"a"}'], code: ErrorCodes.toolInvalidArguments, detail: 'path' },
  { name: 'a tool that throws gets tool_execution_failed', call: ['boom', '{}'], code: ErrorCodes.toolExecutionFailed, detail: 'disk on fire' },
  { name: 'a tool exceeding toolTimeoutMs gets tool_timeout', call: ['slow', '{}'], code: ErrorCodes.toolTimeout }
]

describe('tool gates', () => {
  for (const c of cases) {
    it(`${c.name}, error-flagged, and the run continues`, async () => {
      const t = tools()
      const provider = new ScriptedProvider([ScriptedTurn.text('').call('x1', c.call[0], c.call[1]), ScriptedTurn.text('handled')])
      const rt = makeRuntime(provider, {
        tools: [t.write.tool, t.boom.tool, t.slow.tool],
        configure: (cfg) => { cfg.toolTimeoutMs = 50 }
      })
      const outcome = await rt.run('go')
      expect(outcome.status).toBe(RunStatus.completed)
      expect(outcome.finalMessage?.text()).toBe('handled')
      const msg = toolMessage(rt.snapshot().history, 'x1')
      expect(msg.isError).toBe(true)
      expect(msg.errorCode).toBe(c.code)
      if (c.detail !== undefined) {
        expect(msg.text()).toContain(c.detail)
      }
      expect(provider.requests[1].messages.find((m) => m.toolCallId === 'x1')?.errorCode).toBe(c.code)
      expectPaired(rt.snapshot().history)
    })
  }

  it('argument gates stop the call before the tool body runs', async () => {
    const t = tools()
    const rt = makeRuntime([ScriptedTurn.text('').call('a', 'write', '{bad').call('b', 'write', '{"path":1}')
      .call('c', 'write', '{"path":"/tmp/x"}'), ScriptedTurn.text('done')], { tools: [t.write.tool] })
    await rt.run('go')
    expect(t.write.count).toBe(1)
    expect(toolMessage(rt.snapshot().history, 'c').text()).toBe('wrote /tmp/x')
  })

  it('a timed-out tool is told through its token', async () => {
    const t = tools()
    const rt = makeRuntime([ScriptedTurn.text('').call('x', 'slow', '{}'), ScriptedTurn.text('done')],
      { tools: [t.slow.tool], configure: (cfg) => { cfg.toolTimeoutMs = 30 } })
    await rt.run('go')
    expect(t.slowReason()).toBe('tool timeout')
  })

  it('one batch mixing every failing gate and a good call: all answered in model order, the good call runs', async () => {
    const t = tools()
    const provider = new ScriptedProvider([
      ScriptedTurn.text('').call('u', 'nope', '{}').call('j', 'write', '{').call('s', 'write', '{"path":[]}')
        .call('e', 'boom', '{}').call('o', 'slow', '{}').call('g', 'write', '{"path":"ok.txt"}'),
      ScriptedTurn.text('summary')
    ])
    const rt = makeRuntime(provider, { tools: [t.write.tool, t.boom.tool, t.slow.tool], configure: (cfg) => { cfg.toolTimeoutMs = 40 } })
    const outcome = await rt.run('go')
    expect(outcome.status).toBe(RunStatus.completed)
    const history = rt.snapshot().history
    expectPaired(history)
    const results = history.filter((m) => m.role === 'tool')
    expect(results.map((m) => m.toolCallId)).toEqual(['u', 'j', 's', 'e', 'o', 'g'])
    expect(results.map((m) => m.errorCode ?? 'ok')).toEqual([ErrorCodes.toolNotFound, ErrorCodes.toolInvalidArguments,
      ErrorCodes.toolInvalidArguments, ErrorCodes.toolExecutionFailed, ErrorCodes.toolTimeout, 'ok'])
    expect(results[5].text()).toBe('wrote ok.txt')
  })
})

describe('risk levels fail closed', () => {
  it('a risk level that is not one of the three is refused where the definition is made', async () => {
    const { ToolDefinition } = await import('../../src/index')
    for (const bad of ['Dangerous', 'none', '', null, 0, {}, 'constructor']) {
      expect(() => new ToolDefinition('t', 't', { type: 'object' }, bad as unknown as ToolRiskLevel)).toThrow(/risk level/)
    }
    expect(new ToolDefinition('t', 't', { type: 'object' }).riskLevel).toBe(ToolRiskLevel.safe)
  })

  it('the approval policy asks the user for any risk it does not know to be safe (a definition that lies)', async () => {
    const { AgentMessage, ApprovalPolicyHook, ToolDefinition, ToolCall, ToolCallHookContext, ToolCallHookAction, StateView, AgentState } = await import('../../src/index')
    class Shifty extends ToolDefinition {
      get riskLevel(): ToolRiskLevel { return 'whatever' as ToolRiskLevel }
    }
    const policy = new ApprovalPolicyHook()
    const call = new ToolCall('c1', 't', '{}', 0)
    const def = new Shifty('t', 't', { type: 'object' })
    const ctx = new ToolCallHookContext('s', 'r', new StateView(() => new AgentState('s')), call, AgentMessage.assistant('', [call]), [def], def)
    expect((await policy.beforeToolCall(ctx)).action).toBe(ToolCallHookAction.defer)
  })
})

describe('an approval covers the tool as it was shown', () => {
  it('a tool that became riskier between the decision and the execution is not run (tool_denied); the others run', async () => {
    const { createAgent, FunctionTool, ToolDefinition, ToolRegistry, ModelRequest } = await import('../../src/index')
    const runs: string[] = []
    const make = (name: string, risk: ToolRiskLevel) => new FunctionTool(new ToolDefinition(name, name, { type: 'object' }, risk),
      async () => { runs.push(name); return `${name} done` })
    const registry = new ToolRegistry([make('peek', ToolRiskLevel.safe), make('wipe', ToolRiskLevel.dangerous)])
    const model = ScriptedProvider.fromFunction((r: InstanceType<typeof ModelRequest>) => r.messages[r.messages.length - 1].role === 'tool'
      ? ScriptedTurn.text('done') : ScriptedTurn.text('').call('c1', 'peek', '{}').call('c2', 'wipe', '{}'))
    const { runtime, controller } = createAgent({ sessionId: 'riskier', model, registry })
    expect((await runtime.run('go')).status).toBe(RunStatus.suspended)
    const pending = controller.listPendingApprovals()
    expect(pending.map((p) => [p.toolCall.name, p.riskLevel])).toEqual([['peek', 'safe'], ['wipe', 'dangerous']])
    // A tool source re-listed meanwhile: peek is dangerous now.
    registry.unregister('peek')
    registry.register(make('peek', ToolRiskLevel.dangerous))
    for (const p of pending) await controller.approve(p.approvalId)
    await runtime.whenIdle()
    expect(runs).toEqual(['wipe'])
    const peek = toolMessage(runtime.snapshot().history, 'c1')
    expect([peek.isError, peek.errorCode]).toEqual([true, ErrorCodes.toolDenied])
    expect(peek.text()).toMatch(/'peek' is dangerous now but was cleared to run as safe: not run/)
  })
})
