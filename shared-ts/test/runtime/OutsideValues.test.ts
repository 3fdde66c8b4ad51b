// Values from outside the runtime are checked where they come in: run input, a custom provider's
// response, decisions from UI code. And the smaller truths: suspend() resolves false instead of
// throwing, a cancelled answer is kept as shown, a new run does not carry the last run's error.
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentMessage,
  ApprovalPolicyHook,
  CancellationSource,
  ContentPart,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  FileStateStorage,
  MemoryStateStorage,
  MessageRole,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ModelStreamSink,
  RunStatus,
  ScriptedTurn,
  SessionStatus,
  ToolCall,
  ToolRiskLevel
} from '../../src/index'
import { cleanupTempDirs, CountingTool, expectPaired, FaultyStorage, loadFromDisk, makeRuntime, rejectionOf, tempDir } from './helpers'

afterEach(() => cleanupTempDirs())

/** A custom provider answering with whatever it was given. */
class Returns implements ModelProvider {
  readonly providerId = 'returns'
  constructor(readonly answer: () => unknown) {}
  async streamModel(request: ModelRequest, sink: ModelStreamSink): Promise<ModelResponse> {
    return this.answer() as ModelResponse
  }
}

describe('run input', () => {
  for (const [name, input] of [
    ['a string instead of messages', 'hello'],
    ['an array holding a string', ['hello']],
    ['a plain object that looks like a message', [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]],
    ['a message whose text is a number', [AgentMessage.user(5 as unknown as string)]],
    ['null', null]
  ] as Array<[string, unknown]>) {
    it(`${name} is refused with config/invalid_input, and the runtime stays usable`, async () => {
      const rt = makeRuntime([ScriptedTurn.text('hi')])
      const e = await rejectionOf(rt.runStream(input as AgentMessage[]))
      expect({ code: e.code, layer: e.layer }).toEqual({ code: ErrorCodes.invalidInput, layer: ErrorLayer.config })
      expect(rt.isRunning).toBe(false)
      expect((await rt.run('hello')).status).toBe(RunStatus.completed)
    })
  }

  it('a token that is not a CancellationToken (an AbortSignal, say) is refused with a hint', async () => {
    const rt = makeRuntime([ScriptedTurn.text('hi')])
    const e = await rejectionOf(rt.runStream([AgentMessage.user('x')], undefined, new AbortController().signal as never))
    expect(e.code).toBe(ErrorCodes.invalidInput)
    expect(e.message).toContain('tokenFromAbortSignal')
  })

  it('what a caller keeps of its input cannot change the stored history afterwards', async () => {
    const input = AgentMessage.user('original')
    const rt = makeRuntime([ScriptedTurn.text('hi')])
    await rt.runStream([input])
    ;((input as unknown as Record<string, unknown>).parts as ContentPart[]).push(ContentPart.text(' changed'))
    expect(rt.snapshot().history[0].text()).toBe('original')
  })
})

describe("a custom provider's response", () => {
  for (const [name, answer] of [
    ['undefined', () => undefined],
    ['a plain object', () => ({ message: { role: 'assistant' } })],
    ['a user message', () => new ModelResponse(AgentMessage.user('hi'))],
    ['a tool call whose name is a number', () => new ModelResponse(AgentMessage.assistant('', [new ToolCall('a', 7 as unknown as string, '{}')]))]
  ] as Array<[string, () => unknown]>) {
    it(`${name}: the run fails with provider_malformed_response, nothing unloadable is stored`, async () => {
      const storage = new MemoryStateStorage()
      const rt = makeRuntime(new Returns(answer), { storage })
      const outcome = await rt.run('go')
      expect(outcome.status).toBe(RunStatus.failed)
      expect(outcome.error?.code).toBe(ErrorCodes.providerMalformedResponse)
      expect(outcome.persisted).toBe(true)
      expect((await new MemoryStateStorage(undefined, storage.memory).load(rt.sessionId))!.state.status).toBe(SessionStatus.failed)
    })
  }

  it('repeated or empty tool call ids get fresh ones, so every result pairs with exactly one call', async () => {
    const t = new CountingTool('t')
    const rt = makeRuntime([ScriptedTurn.text('').call('dup', 't', '{"n":1}').call('dup', 't', '{"n":2}').call('', 't', '{"n":3}'),
      ScriptedTurn.text('done')], { tools: [t.tool] })
    expect((await rt.run('go')).status).toBe(RunStatus.completed)
    const h = rt.snapshot().history
    expectPaired(h)
    expect(t.count).toBe(3)
    const ids = h.find((m) => m.hasToolCalls())!.toolCalls.map((c) => c.id)
    expect(ids[0]).toBe('dup')
    expect(new Set(ids).size).toBe(3)
    expect(ids.every((id) => id.length > 0)).toBe(true)
  })
})

describe('decisions from UI code', () => {
  it('a non-string approval id or deny reason is refused with invalid_input and decides nothing', async () => {
    const danger = new CountingTool('danger', ToolRiskLevel.dangerous)
    const rt = makeRuntime([ScriptedTurn.text('').call('c', 'danger', '{}'), ScriptedTurn.text('done')],
      { tools: [danger.tool], hooks: [new ApprovalPolicyHook()], storage: new MemoryStateStorage() })
    await rt.run('go')
    const id = rt.snapshot().pendingApproval!.items[0].approvalId
    const r1 = await rt.controller.deny(id, { why: 'no' } as unknown as string)
    expect(r1.ok).toBe(false)
    expect(r1.error?.code).toBe(ErrorCodes.invalidInput)
    const r2 = await rt.controller.approve(42 as unknown as string)
    expect(r2.error?.code).toBe(ErrorCodes.invalidInput)
    expect(rt.snapshot().pendingApproval!.items[0].isPending()).toBe(true)
    expect((await rt.controller.deny(id, 'too risky')).ok).toBe(true)
  })
})

describe('suspend() resolves false on every failure, as documented', () => {
  it('storage that cannot be opened (its root is a file)', async () => {
    const root = path.join(tempDir(), 'not-a-dir')
    await fs.writeFile(root, 'x')
    const rt = makeRuntime([ScriptedTurn.text('hi')], { storage: new FileStateStorage(root) })
    const diagnostics: string[] = []
    rt.controller.subscribe(ControllerEventTypes.hookDiagnostic, (e) => diagnostics.push((e as unknown as { message: string }).message))
    expect(await rt.suspend()).toBe(false)
    expect(diagnostics.length).toBe(1)
  })

  it('a stored session that is corrupt', async () => {
    const storage = new MemoryStateStorage()
    const rt0 = makeRuntime([ScriptedTurn.text('hi')], { storage })
    await rt0.run('hello')
    storage.memory.poke(rt0.sessionId, 'header', 'h1:00000000:{}')
    const rt = makeRuntime([], { sessionId: rt0.sessionId, storage: new MemoryStateStorage(undefined, storage.memory) })
    expect(await rt.suspend()).toBe(false)
  })

  it('a failing save', async () => {
    const faulty = new FaultyStorage(new MemoryStateStorage())
    const rt = makeRuntime([ScriptedTurn.text('hi')], { storage: faulty })
    await rt.run('hello')
    faulty.failWhen = () => true
    expect(await rt.suspend()).toBe(false)
  })
})

describe('a cancelled run', () => {
  it('keeps what the user saw as an assistant message marked cancelled; reasoning-only output is not kept', async () => {
    const source = new CancellationSource()
    const rt = makeRuntime([ScriptedTurn.text('Here is ', 'the start', ' and more').withDelay(5), ScriptedTurn.text('ok')],
      { storage: new MemoryStateStorage() })
    rt.controller.subscribe(ControllerEventTypes.llmChunk, (e) => {
      if ((e as unknown as { text: string }).text === 'the start') source.cancel('stop')
    })
    const outcome = await rt.runStream([AgentMessage.user('go')], undefined, source.token)
    expect(outcome.status).toBe(RunStatus.cancelled)
    const h = rt.snapshot().history
    expect(h.map((m) => m.role)).toEqual([MessageRole.user, MessageRole.assistant])
    expect(h[1].text()).toBe('Here is the start')
    expect(h[1].errorCode).toBe(ErrorCodes.cancelled)
    // The next run sends user, the kept answer, user: never two questions in a row.
    await rt.run('again')
    expect(rt.snapshot().history.map((m) => m.role)).toEqual([MessageRole.user, MessageRole.assistant, MessageRole.user,
      MessageRole.assistant])

    const s2 = new CancellationSource()
    const thinking = new ScriptedTurn().think('hmm ').think('let me').withDelay(5)
    const rt2 = makeRuntime([thinking])
    rt2.controller.subscribe(ControllerEventTypes.llmChunk, () => s2.cancel('stop'))
    await rt2.runStream([AgentMessage.user('go')], undefined, s2.token)
    expect(rt2.snapshot().history.map((m) => m.role)).toEqual([MessageRole.user])
  })

  it("a new run does not carry the last run's error into its header", async () => {
    const dir = tempDir()
    const danger = new CountingTool('danger', ToolRiskLevel.dangerous)
    const source = new CancellationSource()
    const rt = makeRuntime([ScriptedTurn.text('a', 'b').withDelay(5), ScriptedTurn.text('').call('c', 'danger', '{}')],
      { tools: [danger.tool], hooks: [new ApprovalPolicyHook()], storage: new FileStateStorage(dir, undefined, { lock: false }) })
    rt.controller.subscribe(ControllerEventTypes.llmChunk, () => source.cancel('stop'))
    await rt.runStream([AgentMessage.user('first')], undefined, source.token)
    expect(rt.snapshot().lastError?.code).toBe(ErrorCodes.cancelled)
    const outcome = await rt.run('second')
    expect(outcome.status).toBe(RunStatus.suspended)
    const stored = (await loadFromDisk(dir, rt.sessionId))!.state
    expect(stored.status).toBe(SessionStatus.awaitingApproval)
    expect(stored.lastError).toBeUndefined()
  })
})

