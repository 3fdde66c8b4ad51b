// What a hook may answer, slot by slot: every malformed answer a plain-JavaScript hook can give is
// refused with hook_failed and a message naming the hook, the slot and what was wrong; every
// well-formed answer is accepted as a copy the hook can no longer change.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { AgentHook } from '../../src/core/hook/AgentHook'
import { AgentHookPipeline } from '../../src/core/hook/AgentHookPipeline'
import {
  AfterRunHookContext,
  BeforeRunHookContext,
  ModelCallHookContext,
  ModelChunkHookContext,
  ModelResponseHookContext,
  StatePersistenceHookContext,
  StateView,
  ToolCallHookContext,
  ToolResultHookContext,
  TurnCompletionHookContext
} from '../../src/core/hook/HookContexts'
import {
  BeforeRunHookResult,
  ModelCallHookResult,
  ModelChunkHookResult,
  ModelResponseHookResult,
  StatePersistenceHookResult,
  ToolCallHookResult,
  ToolResultHookResult,
  TurnCompletionHookResult
} from '../../src/core/hook/HookResults'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ModelRequest } from '../../src/core/model/ModelRequest'
import { ModelResponse } from '../../src/core/model/ModelResponse'
import { ToolCall } from '../../src/core/model/ToolCall'
import { ToolDefinition } from '../../src/core/model/ToolDefinition'
import { ToolResult } from '../../src/core/model/ToolResult'
import { AgentState } from '../../src/core/state/AgentState'
import { rejectionOf } from './fixtures'

afterEach(() => { vi.useRealTimers() })

type Loose = Record<string, unknown>
type Slot = 'beforeRun' | 'beforeModelCall' | 'onModelChunk' | 'afterModelCall' | 'beforeToolCall' | 'afterToolCall' |
  'onTurnCompletion' | 'beforePersistState'

/** A hook answering `answer` in `slot` (plain JavaScript style: no types enforced). */
function answering(slot: string, answer: unknown, name: string = 'H'): AgentHook {
  const h = new AgentHook()
  Object.assign(h as unknown as Loose, { [slot]: async () => answer })
  Object.defineProperty(h, 'hookName', { get: () => name })
  return h
}

/** An object of a result class that no factory would build (fields as a plain-JS hook might set them). */
function forged<T>(proto: { prototype: T }, fields: Loose): T {
  return Object.assign(Object.create(proto.prototype as object), fields) as T
}

const view = (): StateView => StateView.of(new AgentState('s'))
const CALL = new ToolCall('c1', 'read', '{}', 0)
const TOOLS = [new ToolDefinition('read', 'reads', {})]

function runSlot(p: AgentHookPipeline, slot: Slot): Promise<Object> {
  switch (slot) {
    case 'beforeRun': return p.beforeRun(new BeforeRunHookContext('s', 'r', view(), [AgentMessage.user('in')]))
    case 'beforeModelCall': return p.beforeModelCall(new ModelCallHookContext('s', 'r', view(),
      new ModelRequest([AgentMessage.user('q')]), 1))
    case 'onModelChunk': return p.onModelChunk(new ModelChunkHookContext('s', 'r', view(), 'chunk', false, 0, 1))
    case 'afterModelCall': return p.afterModelCall(new ModelResponseHookContext('s', 'r', view(),
      new ModelResponse(AgentMessage.assistant('answer')), 1, 0))
    case 'beforeToolCall': return p.beforeToolCall(new ToolCallHookContext('s', 'r', view(), CALL,
      AgentMessage.assistant('', [CALL]), TOOLS, TOOLS[0]))
    case 'afterToolCall': return p.afterToolCall(new ToolResultHookContext('s', 'r', view(), CALL, ToolResult.text('c1', 'ok')))
    case 'onTurnCompletion': return p.onTurnCompletion(new TurnCompletionHookContext('s', 'r', view(),
      AgentMessage.assistant('done'), 1))
    case 'beforePersistState': return p.beforePersistState(new StatePersistenceHookContext('s', 'r', view(), 'autosave', false))
  }
}

const LONG = 'x'.repeat(45)
const CUT = 'x'.repeat(40)
const notArk = new Error('plain')

/** [slot, what the hook answered, what the message says is wrong]. */
const INVALID: Array<[Slot, () => unknown, string]> = [
  ['beforeRun', () => ({ action: 'proceed' }), 'expected a BeforeRunHookResult (use its static factories)'],
  ['beforeRun', () => forged(BeforeRunHookResult, { action: 'proceed', input: 'hi' }), 'input: expected an array of AgentMessage'],
  ['beforeRun', () => forged(BeforeRunHookResult, { action: 'proceed', input: [AgentMessage.user('a'), 'b'] }), 'input[1]: expected an AgentMessage'],
  ['beforeRun', () => forged(BeforeRunHookResult, { action: 'abort', reason: 7 }), 'reason: expected a string, got number'],
  ['beforeRun', () => forged(BeforeRunHookResult, { action: 'abort', error: notArk }), 'error: expected an ArkAgentError'],
  ['beforeRun', () => forged(BeforeRunHookResult, { action: 'respond' }), "action 'respond' is not one of this slot's actions"],

  ['beforeModelCall', () => BeforeRunHookResult.proceed(), 'expected a ModelCallHookResult (use its static factories)'],
  ['beforeModelCall', () => forged(ModelCallHookResult, { action: 'proceed', request: [] }), 'request: expected a ModelRequest'],
  ['beforeModelCall', () => forged(ModelCallHookResult, { action: 'respond', response: 'cached' }), 'response: expected a ModelResponse'],
  ['beforeModelCall', () => forged(ModelCallHookResult, { action: 'respond' }), 'response: expected a ModelResponse'],
  ['beforeModelCall', () => forged(ModelCallHookResult, { action: 'abort', reason: false }), 'reason: expected a string, got boolean'],
  ['beforeModelCall', () => forged(ModelCallHookResult, { action: 'abort', error: 'nope' }), 'error: expected an ArkAgentError'],
  ['beforeModelCall', () => forged(ModelCallHookResult, { action: 'retry' }), "action 'retry' is not one of this slot's actions"],

  ['onModelChunk', () => ({ action: 'drop' }), 'expected a ModelChunkHookResult (use its static factories)'],
  ['onModelChunk', () => forged(ModelChunkHookResult, { action: 'proceed', text: 42 }), 'text: expected a string, got number'],
  ['onModelChunk', () => forged(ModelChunkHookResult, { action: 'proceed', text: ['a'] }), 'text: expected a string, got object'],
  ['onModelChunk', () => forged(ModelChunkHookResult, { action: 'abort', reason: {} }), 'reason: expected a string, got object'],
  ['onModelChunk', () => forged(ModelChunkHookResult, { action: 'abort', error: {} }), 'error: expected an ArkAgentError'],
  ['onModelChunk', () => forged(ModelChunkHookResult, { action: 'skip' }), "action 'skip' is not one of this slot's actions"],

  ['afterModelCall', () => ModelCallHookResult.proceed(), 'expected a ModelResponseHookResult (use its static factories)'],
  ['afterModelCall', () => forged(ModelResponseHookResult, { action: 'proceed', response: {} }), 'response: expected a ModelResponse'],
  ['afterModelCall', () => forged(ModelResponseHookResult, { action: 'retry', reason: 1 }), 'reason: expected a string, got number'],
  ['afterModelCall', () => forged(ModelResponseHookResult, { action: 'abort', reason: 2 }), 'reason: expected a string, got number'],
  ['afterModelCall', () => forged(ModelResponseHookResult, { action: 'abort', error: notArk }), 'error: expected an ArkAgentError'],
  ['afterModelCall', () => forged(ModelResponseHookResult, { action: 'respond' }), "action 'respond' is not one of this slot's actions"],

  ['beforeToolCall', () => ToolResultHookResult.proceed(), 'expected a ToolCallHookResult (use its static factories)'],
  ['beforeToolCall', () => forged(ToolCallHookResult, { action: 'proceed', call: 'rm -rf' }), 'call: expected a ToolCall'],
  ['beforeToolCall', () => forged(ToolCallHookResult, { action: 'defer', call: {} }), 'call: expected a ToolCall'],
  ['beforeToolCall', () => forged(ToolCallHookResult, { action: 'defer', reason: 3 }), 'reason: expected a string, got number'],
  ['beforeToolCall', () => forged(ToolCallHookResult, { action: 'deny', syntheticResult: 'denied' }), 'syntheticResult: expected a ToolResult'],
  ['beforeToolCall', () => forged(ToolCallHookResult, { action: 'deny', reason: 4 }), 'reason: expected a string, got number'],
  ['beforeToolCall', () => forged(ToolCallHookResult, { action: 'abort', reason: 5 }), 'reason: expected a string, got number'],
  ['beforeToolCall', () => forged(ToolCallHookResult, { action: 'abort', error: notArk }), 'error: expected an ArkAgentError'],
  ['beforeToolCall', () => forged(ToolCallHookResult, { action: 'approve' }), "action 'approve' is not one of this slot's actions"],

  ['afterToolCall', () => ToolCallHookResult.proceed(), 'expected a ToolResultHookResult (use its static factories)'],
  ['afterToolCall', () => forged(ToolResultHookResult, { action: 'proceed', result: 'ok', injectedMessages: [] }), 'result: expected a ToolResult'],
  ['afterToolCall', () => forged(ToolResultHookResult, { action: 'proceed', injectedMessages: 'more' }), 'injectedMessages: expected an array of AgentMessage'],
  ['afterToolCall', () => forged(ToolResultHookResult, { action: 'stop', injectedMessages: [], reason: 6 }), 'reason: expected a string, got number'],
  ['afterToolCall', () => forged(ToolResultHookResult, { action: 'abort', reason: 7 }), 'reason: expected a string, got number'],
  ['afterToolCall', () => forged(ToolResultHookResult, { action: 'abort', error: notArk }), 'error: expected an ArkAgentError'],
  ['afterToolCall', () => forged(ToolResultHookResult, { action: 'retry', injectedMessages: [] }), "action 'retry' is not one of this slot's actions"],

  ['onTurnCompletion', () => StatePersistenceHookResult.proceed(), 'expected a TurnCompletionHookResult (use its static factories)'],
  ['onTurnCompletion', () => forged(TurnCompletionHookResult, { action: 'continue_run', injectedMessages: {} }), 'injectedMessages: expected an array of AgentMessage'],
  ['onTurnCompletion', () => forged(TurnCompletionHookResult, { action: 'continue_run', injectedMessages: [], reason: 8 }), 'reason: expected a string, got number'],
  ['onTurnCompletion', () => forged(TurnCompletionHookResult, { action: 'abort', reason: 9 }), 'reason: expected a string, got number'],
  ['onTurnCompletion', () => forged(TurnCompletionHookResult, { action: 'abort', error: notArk }), 'error: expected an ArkAgentError'],
  ['onTurnCompletion', () => forged(TurnCompletionHookResult, { action: 'proceed' }), "action 'proceed' is not one of this slot's actions"],

  ['beforePersistState', () => TurnCompletionHookResult.accept(), 'expected a StatePersistenceHookResult (use its static factories)'],
  ['beforePersistState', () => forged(StatePersistenceHookResult, { action: 'skip', reason: 10 }), 'reason: expected a string, got number'],
  ['beforePersistState', () => forged(StatePersistenceHookResult, { action: 'abort', reason: 11 }), 'reason: expected a string, got number'],
  ['beforePersistState', () => forged(StatePersistenceHookResult, { action: 'abort', error: notArk }), 'error: expected an ArkAgentError'],
  ['beforePersistState', () => forged(StatePersistenceHookResult, { action: LONG }), `action '${CUT}' is not one of this slot's actions`],
  ['beforePersistState', () => forged(StatePersistenceHookResult, { action: 12 }), "action '12' is not one of this slot's actions"]
]

describe('a malformed answer is refused, naming the hook, the slot and the problem', () => {
  it.each(INVALID)('%s: %#', async (slot, answer, problem) => {
    const later = new AgentHook()
    let laterCalled = 0
    Object.assign(later as unknown as Loose, { [slot]: async () => { laterCalled++; throw new Error('must not run') } })
    const p = new AgentHookPipeline([answering(slot, answer(), 'Gate'), later])
    const e = await rejectionOf(runSlot(p, slot))
    expect(e).toBeInstanceOf(ArkAgentError)
    expect([e.layer, e.code, e.message]).toEqual([ErrorLayer.security, ErrorCodes.hookFailed,
      `Hook Gate.${slot} returned an invalid result: ${problem}`])
    expect(laterCalled).toBe(0)
  })

  it('an action name longer than 40 characters is cut in the message, in every slot', async () => {
    const classes: Array<[Slot, { prototype: object }]> = [['beforeRun', BeforeRunHookResult],
      ['beforeModelCall', ModelCallHookResult], ['onModelChunk', ModelChunkHookResult],
      ['afterModelCall', ModelResponseHookResult], ['beforeToolCall', ToolCallHookResult],
      ['afterToolCall', ToolResultHookResult], ['onTurnCompletion', TurnCompletionHookResult]]
    for (const [slot, cls] of classes) {
      const p = new AgentHookPipeline([answering(slot, forged(cls, { action: LONG + 'tail', injectedMessages: [] }))])
      expect((await rejectionOf(runSlot(p, slot))).message)
        .toBe(`Hook H.${slot} returned an invalid result: action '${CUT}' is not one of this slot's actions`)
    }
  })
})

describe('well-formed answers are accepted as checked copies', () => {
  it('a chunk rewrite of null means "no rewrite": the chunk passes unchanged', async () => {
    const seen: string[] = []
    const p = new AgentHookPipeline([
      answering('onModelChunk', forged(ModelChunkHookResult, { action: 'proceed', text: null })),
      Object.assign(new AgentHook(), { onModelChunk: async (c: ModelChunkHookContext) => { seen.push(c.text); return ModelChunkHookResult.proceed() } })
    ])
    const r = await runSlot(p, 'onModelChunk') as ModelChunkHookResult
    expect([r.action, r.text]).toEqual(['proceed', undefined])
    expect(seen).toEqual(['chunk'])
  })

  it('aborts keep their reason and error; null reason and error mean none', async () => {
    const err = new ArkAgentError(ErrorLayer.security, ErrorCodes.hookAbort, 'stop now')
    const cases: Array<[Slot, unknown]> = [
      ['beforeRun', BeforeRunHookResult.abort('r', err)],
      ['beforeModelCall', ModelCallHookResult.abort('r', err)],
      ['onModelChunk', ModelChunkHookResult.abort('r', err)],
      ['afterModelCall', ModelResponseHookResult.abort('r', err)],
      ['beforeToolCall', ToolCallHookResult.abort('r', err)],
      ['afterToolCall', ToolResultHookResult.abort('r', err)],
      ['onTurnCompletion', TurnCompletionHookResult.abort('r', err)],
      ['beforePersistState', StatePersistenceHookResult.abort('r', err)]
    ]
    for (const [slot, answer] of cases) {
      const r = await runSlot(new AgentHookPipeline([answering(slot, answer)]), slot) as { action: string, reason?: string, error?: ArkAgentError }
      expect([slot, r.action, r.reason, r.error]).toEqual([slot, 'abort', 'r', err])
      const bare = forged((answer as object).constructor as { prototype: object }, { action: 'abort', reason: null, error: null, injectedMessages: [] })
      const b = await runSlot(new AgentHookPipeline([answering(slot, bare)]), slot) as { action: string, reason?: string, error?: ArkAgentError }
      expect([slot, b.action, b.reason, b.error]).toEqual([slot, 'abort', undefined, undefined])
    }
  })

  it('every other action of every slot comes back with its payload', async () => {
    const msg = AgentMessage.user('injected')
    const response = new ModelResponse(AgentMessage.assistant('cached'))
    const synthetic = ToolResult.text('other', 'made up')

    const respond = await runSlot(new AgentHookPipeline([answering('beforeModelCall', ModelCallHookResult.respond(response))]), 'beforeModelCall') as ModelCallHookResult
    expect([respond.action, respond.response!.message.text()]).toEqual(['respond', 'cached'])

    const retry = await runSlot(new AgentHookPipeline([answering('afterModelCall', ModelResponseHookResult.retry('again'))]), 'afterModelCall') as ModelResponseHookResult
    expect([retry.action, retry.reason]).toEqual(['retry', 'again'])

    const drop = await runSlot(new AgentHookPipeline([answering('onModelChunk', ModelChunkHookResult.drop('noise'))]), 'onModelChunk') as ModelChunkHookResult
    expect([drop.action, drop.reason]).toEqual(['drop', 'noise'])

    const deny = await runSlot(new AgentHookPipeline([answering('beforeToolCall', ToolCallHookResult.deny(synthetic, 'no'))]), 'beforeToolCall') as ToolCallHookResult
    expect([deny.action, deny.reason, deny.syntheticResult!.textContent(), deny.call!.id]).toEqual(['deny', 'no', 'made up', 'c1'])
    const bareDeny = await runSlot(new AgentHookPipeline([answering('beforeToolCall', ToolCallHookResult.deny())]), 'beforeToolCall') as ToolCallHookResult
    expect([bareDeny.action, bareDeny.syntheticResult, bareDeny.reason]).toEqual(['deny', undefined, undefined])

    const defer = await runSlot(new AgentHookPipeline([answering('beforeToolCall', ToolCallHookResult.defer('ask', new ToolCall('c1', 'read', '{"x":1}')))]), 'beforeToolCall') as ToolCallHookResult
    expect([defer.action, defer.reason, defer.call!.argumentsJson]).toEqual(['defer', 'ask', '{"x":1}'])

    const stop = await runSlot(new AgentHookPipeline([answering('afterToolCall', ToolResultHookResult.stop(ToolResult.text('c1', 'final'), [msg], 'enough'))]), 'afterToolCall') as ToolResultHookResult
    expect([stop.action, stop.reason, stop.result!.textContent(), stop.injectedMessages.map((m) => m.text())]).toEqual(['stop', 'enough', 'final', ['injected']])

    const cont = await runSlot(new AgentHookPipeline([answering('onTurnCompletion', TurnCompletionHookResult.continueRun([msg], 'go on'))]), 'onTurnCompletion') as TurnCompletionHookResult
    expect([cont.action, cont.reason, cont.injectedMessages.map((m) => m.text())]).toEqual(['continue_run', 'go on', ['injected']])
    const contBare = await runSlot(new AgentHookPipeline([answering('onTurnCompletion', TurnCompletionHookResult.continueRun())]), 'onTurnCompletion') as TurnCompletionHookResult
    expect([contBare.action, contBare.injectedMessages]).toEqual(['continue_run', []])

    const skip = await runSlot(new AgentHookPipeline([answering('beforePersistState', StatePersistenceHookResult.skip('busy'))]), 'beforePersistState') as StatePersistenceHookResult
    expect([skip.action, skip.reason]).toEqual(['skip', 'busy'])
  })

  it('what passed the check is a copy: changing what the hook returned afterwards changes nothing', async () => {
    const input = [AgentMessage.user('clean')]
    const run = await runSlot(new AgentHookPipeline([answering('beforeRun', BeforeRunHookResult.proceed(input))]), 'beforeRun') as BeforeRunHookResult
    input.push(AgentMessage.user('smuggled'))
    expect(run.input!.map((m) => m.text())).toEqual(['clean'])

    const injected = [AgentMessage.user('one')]
    const cont = await runSlot(new AgentHookPipeline([answering('onTurnCompletion', TurnCompletionHookResult.continueRun(injected))]), 'onTurnCompletion') as TurnCompletionHookResult
    injected.push(AgentMessage.user('two'))
    expect(cont.injectedMessages.map((m) => m.text())).toEqual(['one'])

    const afterInjected = [AgentMessage.user('a')]
    const after = await runSlot(new AgentHookPipeline([answering('afterToolCall', ToolResultHookResult.proceed(undefined, afterInjected))]), 'afterToolCall') as ToolResultHookResult
    afterInjected.push(AgentMessage.user('b'))
    expect(after.injectedMessages.map((m) => m.text())).toEqual(['a'])
  })

  it('result factories build exactly the documented defaults', () => {
    expect(TurnCompletionHookResult.accept().injectedMessages).toEqual([])
    expect(TurnCompletionHookResult.abort('x').injectedMessages).toEqual([])
    expect(TurnCompletionHookResult.continueRun().injectedMessages).toEqual([])
    expect(ToolResultHookResult.stop().injectedMessages).toEqual([])
    expect(ToolResultHookResult.proceed().injectedMessages).toEqual([])
    expect(ToolResultHookResult.abort().injectedMessages).toEqual([])
    expect(ModelChunkHookResult.proceed().text).toBeUndefined()
    expect(ModelChunkHookResult.proceed('').text).toBe('')
    expect(ModelChunkHookResult.proceed('t').text).toBe('t')
  })
})
