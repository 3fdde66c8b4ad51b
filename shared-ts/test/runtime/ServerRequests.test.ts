// The runtime's side of MCP servers' requests, without a server: a local tool asks through
// controller.serverRequests as an MCP client would. Persisted before shown (a failed write asks nobody),
// the first of concurrent answers wins, the stored record round-trips and a corrupt one is refused,
// secrets stay out, and a sampling call's hooks can answer, retry or refuse it without ending the run.
import { describe, expect, it } from 'vitest'
import {
  AgentController, AgentHook, AgentState, CancellationToken, ControllerEventTypes, ElicitationAction, ElicitationKind,
  ElicitationRequiredEvent, ErrorCodes, FunctionTool, McpElicitationAnswer, McpElicitationRequest, McpRpcError, McpSamplingRequest,
  MemoryStateStorage, ModelCallHookContext, ModelCallHookResult, ModelResponse, ModelResponseHookContext, ModelResponseHookResult,
  PendingElicitation, SamplingCompletedEvent, SamplingPolicy, ScriptedProvider, ScriptedTurn, SecretVault, StateCodec, ToolDefinition,
  ToolRiskLevel, AgentMessage, type BusEvent,
} from '../../src/index'
import { FaultyStorage, makeRuntime, rejectionOf } from './helpers'

const SCHEMA = '{"type":"object","properties":{"name":{"type":"string","minLength":1}},"required":["name"]}'

/** A safe local tool that asks the user (`ask`) or the model (`sample`) through the controller, as an MCP client would. */
function asker(controller: AgentController, what: 'ask' | 'sample', message = 'Your name?'): FunctionTool {
  return new FunctionTool(new ToolDefinition(what, 'talks back', { type: 'object' }, ToolRiskLevel.safe), async (_args, ctx) => {
    if (what === 'ask') {
      const answer = await controller.serverRequests.elicit(new McpElicitationRequest('notes', message, SCHEMA, ctx.call.id), ctx.token)
      return JSON.stringify(answer)
    }
    const answer = await controller.serverRequests.createMessage(new McpSamplingRequest('notes', [AgentMessage.user('q')], '', 20,
      ctx.call.id), ctx.token)
    return answer.text
  })
}
function runtimeWith(controller: AgentController, tool: FunctionTool, provider: ScriptedProvider | ScriptedTurn[], storage = new MemoryStateStorage(),
  hooks: AgentHook[] = [], policy = SamplingPolicy.ask) {
  return makeRuntime(provider, { tools: [tool], storage, hooks, configure: (c) => { c.controller = controller; c.samplingPolicy = policy } })
}
const callThenDone = (name: string) => [new ScriptedTurn().call('c1', name, '{}'), ScriptedTurn.text('done')]
const resultText = (rt: { snapshot(): AgentState }) => rt.snapshot().history.find((m) => m.toolCallId === 'c1')?.text() ?? ''

describe('elicitation in the runtime', () => {
  it('a failed write asks nobody: the server gets the error, nothing is pending', async () => {
    const controller = new AgentController()
    const asked: BusEvent[] = []
    controller.subscribe(ControllerEventTypes.elicitationRequired, (e) => { asked.push(e) })
    const storage = new FaultyStorage(new MemoryStateStorage())
    storage.failWhen = (s) => s.elicitations.some((e) => e.isPending())
    const rt = runtimeWith(controller, asker(controller, 'ask'), callThenDone('ask'), storage as never)
    await rt.run('go')
    expect(asked).toEqual([])
    expect(resultText(rt)).toContain('could not be saved')
    expect(rt.snapshot().elicitations).toEqual([])
  })

  it('concurrent answers: the first wins, the second gets it back; each answer written before it counts', async () => {
    const controller = new AgentController()
    const results: Array<Promise<{ ok: boolean, action: string }>> = []
    controller.subscribe(ControllerEventTypes.elicitationRequired, (e) => {
      const id = (e as ElicitationRequiredEvent).elicitation.elicitationId
      results.push(controller.serverRequests.accept(id, { name: 'Ada' }), controller.serverRequests.decline(id, 'no'))
    })
    const rt = runtimeWith(controller, asker(controller, 'ask'), callThenDone('ask'))
    await rt.run('go')
    expect((await Promise.all(results)).map((r) => [r.ok, r.action])).toEqual([[true, 'accept'], [true, 'accept']])
    expect(JSON.parse(resultText(rt))).toEqual({ action: 'accept', content: { name: 'Ada' } })
  })

  it('secrets: the stored message is redacted, an answer holding one is refused and the question stays open', async () => {
    const secret = 'sk-elicit-9f8e7d6c5b4a3210'
    SecretVault.register(secret)
    const controller = new AgentController()
    controller.subscribe(ControllerEventTypes.elicitationRequired, (e) => {
      const item = (e as ElicitationRequiredEvent).elicitation
      expect(item.message).not.toContain(secret.slice(0, 8 + 3))
      void (async () => {
        const refused = await controller.serverRequests.accept(item.elicitationId, { name: `key ${secret}` })
        expect(refused.error?.code).toBe(ErrorCodes.elicitationInvalid)
        expect(refused.error?.message).not.toContain(secret.slice(3, 11))
        await controller.serverRequests.cancel(item.elicitationId)
      })()
    })
    const rt = runtimeWith(controller, asker(controller, 'ask', `Paste ${secret} here`), callThenDone('ask'))
    await rt.run('go')
    expect(JSON.parse(resultText(rt))).toEqual({ action: 'cancel' })
    expect(JSON.stringify(StateCodec.encode(rt.snapshot()))).not.toContain(secret.slice(3, 11))
  })

  it('the stored record round-trips; a corrupt one is refused', () => {
    const state = new AgentState('s')
    const open = new PendingElicitation('eli-1', 'r', ElicitationKind.input, 'notes', 'Your name?', SCHEMA, 'c1', 5)
    const done = new PendingElicitation('eli-2', 'r', ElicitationKind.sampling, 'notes', 'user: q', '', '', 6)
    done.action = ElicitationAction.decline
    done.closedBy = 'user'
    done.decidedAtMs = 7
    done.reason = 'no'
    state.elicitations = [open, done]
    const back = StateCodec.decode(StateCodec.encode(state))
    expect(back.elicitations).toEqual([open, done])
    const doc = JSON.parse(StateCodec.encode(state))
    for (const bad of [{ action: 'maybe' }, { closedBy: 'user' }, { kind: 'form' }, { schema: '{"type":"array"}' }]) {
      const copy = structuredClone(doc)
      Object.assign(copy.elicitations[0], bad)
      let code = 'loaded'
      try { StateCodec.decode(JSON.stringify(copy)) } catch (e) { code = (e as { code: string }).code }
      expect([bad, code]).toEqual([bad, ErrorCodes.stateCorrupt])
    }
    // Without elicitations the header has no such key (earlier sessions keep their bytes).
    expect(JSON.parse(StateCodec.encode(new AgentState('s'))).elicitations).toBeUndefined()
  })
})

describe('sampling in the runtime', () => {
  it('a beforeModelCall answer, an afterModelCall retry, a refusal that fails the request and not the run', async () => {
    class Hook extends AgentHook {
      mode = 'respond'
      async beforeModelCall(ctx: ModelCallHookContext): Promise<ModelCallHookResult> {
        if (ctx.purpose !== ModelCallHookContext.purposeSampling) return ModelCallHookResult.proceed()
        if (this.mode === 'respond') return ModelCallHookResult.respond(new ModelResponse(AgentMessage.assistant('from the hook')))
        if (this.mode === 'abort') return ModelCallHookResult.abort('not for servers')
        return ModelCallHookResult.proceed()
      }
      retried = 0
      async afterModelCall(ctx: ModelResponseHookContext): Promise<ModelResponseHookResult> {
        if (ctx.purpose === ModelCallHookContext.purposeSampling && this.mode === 'retry' && this.retried++ === 0) {
          return ModelResponseHookResult.retry('once more')
        }
        return ModelResponseHookResult.proceed()
      }
    }
    for (const mode of ['respond', 'retry', 'abort']) {
      const controller = new AgentController()
      const seen: SamplingCompletedEvent[] = []
      controller.subscribe(ControllerEventTypes.samplingCompleted, (e) => { seen.push(e as SamplingCompletedEvent) })
      const hook = new Hook()
      hook.mode = mode
      let samplingCalls = 0
      const provider = ScriptedProvider.fromFunction((req, i) => {
        if (req.tools.length === 0) { samplingCalls++; return ScriptedTurn.text(`sampled ${samplingCalls}`) }
        return i === 0 ? new ScriptedTurn().call('c1', 'sample', '{}') : ScriptedTurn.text('done')
      })
      const rt = runtimeWith(controller, asker(controller, 'sample'), provider, new MemoryStateStorage(), [hook], SamplingPolicy.allow)
      const outcome = await rt.run('go')
      expect(outcome.status).toBe('completed')
      const text = resultText(rt)
      if (mode === 'respond') expect([text, samplingCalls]).toEqual(['from the hook', 0])
      if (mode === 'retry') expect([text, samplingCalls]).toEqual(['sampled 2', 2])
      if (mode === 'abort') expect([text.includes('not for servers'), samplingCalls, seen[0].outcome]).toEqual([true, 0, 'failed'])
    }
  })

  it('outside a run, and with no runtime bound, nobody is asked', async () => {
    const controller = new AgentController()
    const req = new McpSamplingRequest('notes', [AgentMessage.user('q')], '', 5, '')
    const lone = await rejectionOf(controller.serverRequests.createMessage(req, CancellationToken.none) as never) as unknown as McpRpcError
    expect(lone.message).toContain('No agent runtime is bound')
    makeRuntime([], { configure: (c) => { c.controller = controller } })
    const idle = await rejectionOf(controller.serverRequests.elicit(new McpElicitationRequest('n', 'm', SCHEMA, ''),
      CancellationToken.none) as never) as unknown as McpRpcError
    expect([idle.code, idle.message]).toEqual([McpRpcError.internalError, expect.stringContaining('no run of this agent')])
    expect(McpElicitationAnswer.cancel().action).toBe('cancel')
  })
})
