// Spec 3.1 / 4: every decision slot's actions as the runtime applies them, and fail-closed hooks.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AfterRunHookContext,
  AgentHook,
  AgentMessage,
  ApprovalDecision,
  ApprovalRequiredEvent,
  BeforeRunHookContext,
  BeforeRunHookResult,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  FileStateStorage,
  HookDiagnosticEvent,
  LlmAfterEvent,
  ModelCallHookContext,
  ModelCallHookResult,
  ModelResponse,
  ModelResponseHookContext,
  ModelResponseHookResult,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  SessionStatus,
  StopReason,
  ToolCallHookContext,
  ToolCallHookResult,
  ToolResult,
  ToolResultHookContext,
  ToolResultHookResult,
  TurnCompletionHookContext,
  TurnCompletionHookResult
} from '../../src/index'
import {
  cleanupTempDirs,
  CountingTool,
  expectPaired,
  expectSingleTerminalLast,
  makeRuntime,
  Recorder,
  sleep,
  tempDir,
  toolMessage
} from './helpers'

afterEach(() => cleanupTempDirs())

/** One hook whose slots are given as arrows (only the given ones are overridden). */
class Slots {
  beforeRun?: (c: BeforeRunHookContext) => Promise<BeforeRunHookResult>
  beforeModelCall?: (c: ModelCallHookContext) => Promise<ModelCallHookResult>
  afterModelCall?: (c: ModelResponseHookContext) => Promise<ModelResponseHookResult>
  beforeToolCall?: (c: ToolCallHookContext) => Promise<ToolCallHookResult>
  afterToolCall?: (c: ToolResultHookContext) => Promise<ToolResultHookResult>
  onTurnCompletion?: (c: TurnCompletionHookContext) => Promise<TurnCompletionHookResult>
  afterRun?: (c: AfterRunHookContext) => Promise<void>
}

function hookOf(slots: Slots): AgentHook {
  const h = new AgentHook()
  const anyHook = h as unknown as Record<string, unknown>
  for (const [k, v] of Object.entries(slots)) {
    if (v !== undefined) {
      anyHook[k] = v
    }
  }
  Object.defineProperty(h, 'hookName', { get: () => 'TestHook' })
  return h
}

describe('fail-closed decision hooks', () => {
  it('a beforeToolCall hook that throws leaves the tool unexecuted and fails the run with hook_failed (security)', async () => {
    const tool = new CountingTool('act')
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'act', '{}'), ScriptedTurn.text('done')], {
      tools: [tool.tool],
      hooks: [hookOf({ beforeToolCall: async () => { throw new Error('policy service down') } })],
      storage: new FileStateStorage(tempDir(), undefined, { lock: false })
    })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(tool.count).toBe(0)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.hookFailed)
    expect(outcome.error?.layer).toBe(ErrorLayer.security)
    expect(rec.types()).not.toContain(ControllerEventTypes.beforeToolCall)
    expectPaired(rt.snapshot().history)
  })

  it('a beforeToolCall hook hanging past hookTimeoutMs fails the run with hook_timeout and the tool never runs', async () => {
    const tool = new CountingTool('act')
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'act', '{}'), ScriptedTurn.text('done')], {
      tools: [tool.tool],
      hooks: [hookOf({ beforeToolCall: () => new Promise<ToolCallHookResult>(() => {}) })],
      configure: (cfg) => { cfg.hookTimeoutMs = 50 }
    })
    const outcome = await rt.run('go')
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.hookTimeout)
    expect(outcome.error?.layer).toBe(ErrorLayer.security)
    await sleep(60)
    expect(tool.count).toBe(0)
    expectPaired(rt.snapshot().history)
  })

  it('an afterRun hook that throws keeps the successful outcome and publishes hook.diagnostic before the terminal event', async () => {
    const rt = makeRuntime([ScriptedTurn.text('fine')], {
      hooks: [hookOf({ afterRun: async () => { throw new Error('metrics backend down') } })]
    })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.error).toBeUndefined()
    const diags = rec.ofType<HookDiagnosticEvent>(ControllerEventTypes.hookDiagnostic)
    expect(diags.length).toBe(1)
    expect(diags[0].slot).toBe('afterRun')
    expect(diags[0].message).toContain('metrics backend down')
    expectSingleTerminalLast(rec, ControllerEventTypes.agentSuccess)
  })
})

describe('beforeRun', () => {
  it('rewrite: the rewritten input is what history stores and the model sees', async () => {
    const provider = new ScriptedProvider([ScriptedTurn.text('ok')])
    const rt = makeRuntime(provider, {
      hooks: [hookOf({ beforeRun: async (c) => BeforeRunHookResult.proceed([AgentMessage.user(c.input[0].text().toUpperCase())]) })]
    })
    await rt.run('hello there')
    const history = rt.snapshot().history
    expect(history[0].text()).toBe('HELLO THERE')
    expect(history.some((m) => m.text() === 'hello there')).toBe(false)
    expect(provider.requests[0].messages.map((m) => m.text())).toContain('HELLO THERE')
  })

  it('abort: the run fails with hook_abort before the model is called and the input is not stored', async () => {
    const provider = new ScriptedProvider([ScriptedTurn.text('never')])
    const rt = makeRuntime(provider, { hooks: [hookOf({ beforeRun: async () => BeforeRunHookResult.abort('blocked') })] })
    const rec = new Recorder()
    const outcome = await rt.run('jailbreak attempt', rec.observer)
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
    expect(outcome.stopReason).toBe(StopReason.aborted)
    expect(provider.callCount).toBe(0)
    expect(rt.snapshot().history).toEqual([])
    expectSingleTerminalLast(rec, ControllerEventTypes.agentFailed)
  })
})

describe('beforeModelCall', () => {
  it('rewrite: the provider receives the rewritten request', async () => {
    const provider = new ScriptedProvider([ScriptedTurn.text('ok')])
    const rt = makeRuntime(provider, {
      hooks: [hookOf({
        beforeModelCall: async (c) => ModelCallHookResult.proceed(
          c.request.withMessages([AgentMessage.system('be brief'), ...c.request.messages]))
      })]
    })
    await rt.run('q')
    expect(provider.requests[0].messages[0].text()).toBe('be brief')
    // The rewrite is per request: history is not changed by it.
    expect(rt.snapshot().history.some((m) => m.text() === 'be brief')).toBe(false)
  })

  it('respond: the hook answers without calling the model and that answer completes the run', async () => {
    const provider = new ScriptedProvider([])
    const rt = makeRuntime(provider, {
      hooks: [hookOf({ beforeModelCall: async () => ModelCallHookResult.respond(new ModelResponse(AgentMessage.assistant('cached answer'))) })]
    })
    const outcome = await rt.run('q')
    expect(provider.callCount).toBe(0)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.finalMessage?.text()).toBe('cached answer')
    expect(rt.snapshot().history[1].text()).toBe('cached answer')
  })

  it('abort: hook_abort and the model is never called', async () => {
    const provider = new ScriptedProvider([ScriptedTurn.text('never')])
    const rt = makeRuntime(provider, { hooks: [hookOf({ beforeModelCall: async () => ModelCallHookResult.abort('quota') })] })
    const outcome = await rt.run('q')
    expect(provider.callCount).toBe(0)
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
    expect(outcome.error?.message).toContain('quota')
  })
})

describe('afterModelCall', () => {
  it('rewrite: the rewritten response is what llm.after shows and history stores', async () => {
    const rt = makeRuntime([ScriptedTurn.text('raw answer')], {
      hooks: [hookOf({ afterModelCall: async () => ModelResponseHookResult.proceed(new ModelResponse(AgentMessage.assistant('polished answer'))) })]
    })
    const rec = new Recorder()
    const outcome = await rt.run('q', rec.observer)
    expect(outcome.finalMessage?.text()).toBe('polished answer')
    expect(rec.ofType<LlmAfterEvent>(ControllerEventTypes.afterCallLlm)[0].response.message.text()).toBe('polished answer')
    expect(rt.snapshot().history.map((m) => m.text())).toEqual(['q', 'polished answer'])
  })

  it('retry: the model is called again and only the accepted answer is kept', async () => {
    const attempts: number[] = []
    const provider = new ScriptedProvider([ScriptedTurn.text('bad'), ScriptedTurn.text('good')])
    const rt = makeRuntime(provider, {
      hooks: [hookOf({
        afterModelCall: async (c) => {
          attempts.push(c.attempt)
          return c.response.message.text() === 'bad' ? ModelResponseHookResult.retry('not good enough') :
            ModelResponseHookResult.proceed()
        }
      })]
    })
    const outcome = await rt.run('q')
    expect(provider.callCount).toBe(2)
    expect(attempts).toEqual([0, 1])
    expect(outcome.finalMessage?.text()).toBe('good')
    expect(rt.snapshot().history.map((m) => m.text())).toEqual(['q', 'good'])
  })

  it('retry beyond maxModelRetries fails the run with retry_limit_exceeded (runtime)', async () => {
    const provider = ScriptedProvider.fromFunction(() => ScriptedTurn.text('meh'))
    const rt = makeRuntime(provider, {
      hooks: [hookOf({ afterModelCall: async () => ModelResponseHookResult.retry('never satisfied') })],
      configure: (cfg) => { cfg.maxModelRetries = 2 }
    })
    const outcome = await rt.run('q')
    expect(provider.callCount).toBe(3)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.retryLimitExceeded)
    expect(outcome.error?.layer).toBe(ErrorLayer.runtime)
    expect(rt.snapshot().history.filter((m) => m.role === 'assistant')).toEqual([])
  })

  it('abort: hook_abort after the response, and the response is not stored', async () => {
    const rt = makeRuntime([ScriptedTurn.text('leaky answer')], {
      hooks: [hookOf({ afterModelCall: async () => ModelResponseHookResult.abort('leak') })]
    })
    const rec = new Recorder()
    const outcome = await rt.run('q', rec.observer)
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
    expect(rec.types()).not.toContain(ControllerEventTypes.afterCallLlm)
    expect(rt.snapshot().history.some((m) => m.text() === 'leaky answer')).toBe(false)
  })
})

describe('afterToolCall', () => {
  it('rewrite: the rewritten result is stored, paired with the original call id', async () => {
    const tool = new CountingTool('read', undefined, async () => 'password=hunter2')
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'read', '{}'), ScriptedTurn.text('done')], {
      tools: [tool.tool],
      hooks: [hookOf({ afterToolCall: async (c) => ToolResultHookResult.proceed(ToolResult.text('other-id', 'password=***')) })]
    })
    await rt.run('q')
    const msg = toolMessage(rt.snapshot().history, 'c1')
    expect(msg.text()).toBe('password=***')
    expectPaired(rt.snapshot().history)
  })

  it('stop: the loop ends after the batch (tool_stop), the rest of the batch is answered unrun', async () => {
    const a = new CountingTool('a')
    const b = new CountingTool('b')
    const provider = new ScriptedProvider([ScriptedTurn.text('').call('c1', 'a', '{}').call('c2', 'b', '{}'), ScriptedTurn.text('never')])
    const rt = makeRuntime(provider, {
      tools: [a.tool, b.tool],
      hooks: [hookOf({ afterToolCall: async () => ToolResultHookResult.stop(undefined, [], 'goal reached') })]
    })
    const outcome = await rt.run('q')
    expect(outcome.status).toBe(RunStatus.completed)
    expect(outcome.stopReason).toBe(StopReason.toolStop)
    expect(a.count).toBe(1)
    expect(b.count).toBe(0)
    expect(provider.callCount).toBe(1)
    const history = rt.snapshot().history
    expectPaired(history)
    expect(toolMessage(history, 'c2').errorCode).toBe(ErrorCodes.toolInterrupted)
  })

  it('abort: hook_abort, the finished call keeps its result and history stays paired', async () => {
    const a = new CountingTool('a')
    const b = new CountingTool('b')
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'a', '{}').call('c2', 'b', '{}'), ScriptedTurn.text('never')], {
      tools: [a.tool, b.tool],
      hooks: [hookOf({ afterToolCall: async () => ToolResultHookResult.abort('exfiltration') })],
      storage: new FileStateStorage(tempDir(), undefined, { lock: false })
    })
    const outcome = await rt.run('q')
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
    expect(b.count).toBe(0)
    const history = rt.snapshot().history
    expectPaired(history)
    expect(toolMessage(history, 'c1').text()).toBe('ok')
    expect(toolMessage(history, 'c2').isError).toBe(true)
  })

  it('injected messages are placed after all the batch\'s tool results, in hook order', async () => {
    const a = new CountingTool('a')
    const b = new CountingTool('b')
    const provider = new ScriptedProvider([ScriptedTurn.text('').call('c1', 'a', '{}').call('c2', 'b', '{}'), ScriptedTurn.text('done')])
    const first = hookOf({ afterToolCall: async (c) => ToolResultHookResult.proceed(undefined, [AgentMessage.user(`note-1 ${c.call.id}`)]) })
    const second = hookOf({ afterToolCall: async (c) => ToolResultHookResult.proceed(undefined, [AgentMessage.user(`note-2 ${c.call.id}`)]) })
    const rt = makeRuntime(provider, { tools: [a.tool, b.tool], hooks: [first, second] })
    await rt.run('q')
    const history = rt.snapshot().history
    expect(history.map((m) => m.role === 'tool' ? `tool ${m.toolCallId}` : m.text())).toEqual([
      'q', '', 'tool c1', 'tool c2', 'note-1 c1', 'note-2 c1', 'note-1 c2', 'note-2 c2', 'done'
    ])
    expectPaired(history)
    // The model saw them in that order on its next call.
    expect(provider.requests[1].messages.slice(-4).map((m) => m.text())).toEqual(['note-1 c1', 'note-2 c1', 'note-1 c2', 'note-2 c2'])
  })
})

describe('onTurnCompletion', () => {
  it('accept: the turn\'s answer completes the run', async () => {
    let calls = 0
    const rt = makeRuntime([ScriptedTurn.text('final')], {
      hooks: [hookOf({ onTurnCompletion: async () => { calls++; return TurnCompletionHookResult.accept() } })]
    })
    const outcome = await rt.run('q')
    expect(calls).toBe(1)
    expect(outcome.stopReason).toBe(StopReason.complete)
    expect(outcome.finalMessage?.text()).toBe('final')
  })

  it('continue_run: the injected messages are added and the model gets another turn', async () => {
    const provider = new ScriptedProvider([ScriptedTurn.text('partial'), ScriptedTurn.text('complete')])
    const rt = makeRuntime(provider, {
      hooks: [hookOf({
        onTurnCompletion: async (c) => c.turn === 1 ?
          TurnCompletionHookResult.continueRun([AgentMessage.user('keep going')]) : TurnCompletionHookResult.accept()
      })]
    })
    const outcome = await rt.run('q')
    expect(provider.callCount).toBe(2)
    expect(outcome.finalMessage?.text()).toBe('complete')
    expect(rt.snapshot().history.map((m) => m.text())).toEqual(['q', 'partial', 'keep going', 'complete'])
  })

  it('abort: the run fails with hook_abort', async () => {
    const rt = makeRuntime([ScriptedTurn.text('answer')], {
      hooks: [hookOf({ onTurnCompletion: async () => TurnCompletionHookResult.abort('unsafe answer') })]
    })
    const outcome = await rt.run('q')
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
  })
})

describe('mixed batch decisions', () => {
  it('a hook denying one call and deferring another freezes the batch; the denied call keeps its synthetic result and is recorded decided', async () => {
    const a = new CountingTool('a')
    const b = new CountingTool('b')
    const c = new CountingTool('c')
    const hook = hookOf({
      beforeToolCall: async (ctx) => {
        if (ctx.call.name === 'a') {
          return ToolCallHookResult.deny(ToolResult.error('x', ErrorCodes.toolDenied, 'a is blocked here'), 'blocked')
        }
        if (ctx.call.name === 'b') {
          return ToolCallHookResult.defer('b needs a human')
        }
        return ToolCallHookResult.proceed()
      }
    })
    const rt = makeRuntime([ScriptedTurn.text('').call('c1', 'a', '{}').call('c2', 'b', '{}').call('c3', 'c', '{}'),
      ScriptedTurn.text('done')], { tools: [a.tool, b.tool, c.tool], hooks: [hook], storage: new FileStateStorage(tempDir(), undefined, { lock: false }) })
    const rec = new Recorder()
    const outcome = await rt.run('q', rec.observer)
    expect(outcome.status).toBe(RunStatus.suspended)
    const batch = rec.ofType<ApprovalRequiredEvent>(ControllerEventTypes.approvalRequired)[0].batch
    expect(batch.items.map((i) => i.toolCall.id)).toEqual(['c1', 'c2', 'c3'])
    expect(batch.items[0].decision).toBe(ApprovalDecision.denied)
    expect(batch.items[0].syntheticResult?.textContent()).toBe('a is blocked here')
    expect(batch.items[1].decision).toBe(ApprovalDecision.pending)
    expect(batch.items[1].reason).toBe('b needs a human')
    expect(batch.items[2].decision).toBe(ApprovalDecision.pending)
    expect(rt.controller.listPendingApprovals().map((i) => i.toolCall.id)).toEqual(['c2', 'c3'])
    // Deciding the hook-denied item is idempotent: it stays denied.
    const again = await rt.controller.approve(batch.items[0].approvalId)
    expect(again.ok).toBe(true)
    expect(again.decision).toBe(ApprovalDecision.denied)
    expect(a.count + b.count + c.count).toBe(0)
    for (const item of rt.controller.listPendingApprovals()) {
      await rt.controller.approve(item.approvalId)
    }
    await rt.whenIdle()
    expect(a.count).toBe(0)
    expect(b.count).toBe(1)
    expect(c.count).toBe(1)
    const history = rt.snapshot().history
    expectPaired(history)
    const denied = toolMessage(history, 'c1')
    expect(denied.isError).toBe(true)
    expect(denied.text()).toBe('a is blocked here')
    expect(rt.snapshot().status).toBe(SessionStatus.completed)
  })
})
