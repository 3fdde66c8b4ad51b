// Spec 十: the three pitfalls found on real devices, each pinned as a test.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentHook,
  ApprovalPolicyHook,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  FileStateStorage,
  ModelChunkHookContext,
  ModelChunkHookResult,
  RunStatus,
  ScriptedTurn,
  ToolRiskLevel
} from '../../src/index'
import {
  cleanupTempDirs,
  CountingTool,
  expectPaired,
  makeRuntime,
  newSessionId,
  Recorder,
  rejectionOf,
  sleep,
  storedHistory,
  tempDir,
  toolMessage
} from './helpers'

afterEach(() => cleanupTempDirs())

describe('pitfall 10.1: an unknown tool is not an approval', () => {
  it('an unregistered tool passes the approval policy and the registry answers tool_not_found', async () => {
    const dangerous = new CountingTool('rm', ToolRiskLevel.dangerous)
    const rt = makeRuntime([
      ScriptedTurn.text('').call('u1', 'unknown_tool', '{"x":1}'),
      ScriptedTurn.text('I do not have that tool')
    ], { tools: [dangerous.tool], hooks: [new ApprovalPolicyHook(true)], storage: new FileStateStorage(tempDir(), undefined, { lock: false }) })
    const rec = new Recorder()
    const outcome = await rt.run('do the thing', rec.observer)
    expect(outcome.status).toBe(RunStatus.completed)
    expect(rec.types()).not.toContain(ControllerEventTypes.approvalRequired)
    expect(rt.controller.listPendingApprovals()).toEqual([])
    expect(rt.snapshot().pendingApproval).toBeUndefined()
    const msg = toolMessage(rt.snapshot().history, 'u1')
    expect(msg.isError).toBe(true)
    expect(msg.errorCode).toBe(ErrorCodes.toolNotFound)
    expectPaired(rt.snapshot().history)
  })
})

describe('pitfall 10.2: new input while an approval is pending', () => {
  it('is refused with pending_approval_blocks_input and neither clears the batch nor leaves an unpaired call', async () => {
    const dir = tempDir()
    const sessionId = newSessionId()
    const rm = new CountingTool('rm', ToolRiskLevel.dangerous)
    const rt = makeRuntime([
      ScriptedTurn.text('deleting').call('c1', 'rm', '{}'),
      ScriptedTurn.text('deleted')
    ], { sessionId, tools: [rm.tool], hooks: [new ApprovalPolicyHook()], storage: new FileStateStorage(dir, undefined, { lock: false }) })
    await rt.run('delete it')
    const before = rt.snapshot()
    const err = await rejectionOf(rt.run('actually, never mind'))
    expect(err.code).toBe(ErrorCodes.pendingApprovalBlocksInput)
    expect(err.layer).toBe(ErrorLayer.security)
    const after = rt.snapshot()
    expect(after.history).toEqual(before.history)
    expect(after.history.some((m) => m.text() === 'actually, never mind')).toBe(false)
    expect(after.pendingApproval?.items.map((i) => i.approvalId)).toEqual(before.pendingApproval?.items.map((i) => i.approvalId))
    const stored = await storedHistory(dir, sessionId)
    expect(stored.some((m) => m.text() === 'actually, never mind')).toBe(false)
    expectPaired(stored)
    expect(rm.count).toBe(0)
  })
})

class SlowDroppingHook extends AgentHook {
  readonly log: string[]
  constructor(log: string[]) {
    super()
    this.log = log
  }

  async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
    // The later the chunk, the faster the hook: a fire-and-forget chain would finish out of order.
    await sleep(ctx.chunkIndex === 1 ? 40 : 2)
    const drop = ctx.text.includes('badword')
    this.log.push(`decided ${ctx.chunkIndex} ${drop ? 'drop' : 'keep'}`)
    return drop ? ModelChunkHookResult.drop() : ModelChunkHookResult.proceed()
  }
}

describe('pitfall 10.3: the fire-and-forget chunk race is impossible', () => {
  it('a slow dropping chunk hook: the dropped text never reaches the observer and agent.success comes after every chunk decision', async () => {
    const log: string[] = []
    const rt = makeRuntime([ScriptedTurn.text('start ', 'badword ', 'end')], { hooks: [new SlowDroppingHook(log)] })
    const outcome = await rt.run('go', {
      onEvent: (e) => {
        const t = e.eventType()
        if (t === ControllerEventTypes.llmChunk) {
          log.push(`shown ${(e as unknown as { text: string }).text}`)
        } else if (t === ControllerEventTypes.afterCallLlm || ControllerEventTypes.isTerminal(t)) {
          log.push(t)
        }
      }
    })
    expect(outcome.status).toBe(RunStatus.completed)
    expect(log).toEqual([
      'decided 0 keep', 'shown start ',
      'decided 1 drop',
      'decided 2 keep', 'shown end',
      ControllerEventTypes.afterCallLlm,
      ControllerEventTypes.agentSuccess
    ])
    expect(log.some((l) => l.startsWith('shown') && l.includes('badword'))).toBe(false)
    expect(outcome.finalMessage?.text()).toBe('start end')
  })

  it('a slow chunk abort still wins over the completed model response', async () => {
    class SlowAbort extends AgentHook {
      async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
        if (ctx.chunkIndex === 2) {
          await sleep(40)
          return ModelChunkHookResult.abort('late verdict')
        }
        return ModelChunkHookResult.proceed()
      }
    }
    const rt = makeRuntime([ScriptedTurn.text('a', 'b', 'c')], { hooks: [new SlowAbort()] })
    const rec = new Recorder()
    const outcome = await rt.run('go', rec.observer)
    expect(outcome.status).toBe(RunStatus.failed)
    expect(outcome.error?.code).toBe(ErrorCodes.hookAbort)
    expect(rec.types()).not.toContain(ControllerEventTypes.afterCallLlm)
    expect(rec.types()).not.toContain(ControllerEventTypes.agentSuccess)
  })
})
