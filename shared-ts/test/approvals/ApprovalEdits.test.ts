// Approve with edits (docs/approvals.md): the edit is checked against the schema, put through the
// beforeToolCall hooks again as the user's edit, and what runs is exactly the edit; the item keeps
// the call as proposed, as approved and as executed. Deny with a message meant for the model.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentHook,
  CallOrigin,
  ControllerEventTypes,
  DecisionChannel,
  ErrorCodes,
  SecretVault,
  ScriptedTurn,
  ToolBeforeEvent,
  ToolCallHookContext,
  ToolCallHookResult,
  ToolRiskLevel
} from '../../src/index'
import { cleanupTempDirs, CountingTool, expectPaired, toolMessage } from '../runtime/helpers'
import { ApprovalWorld, writeCall } from './support'

afterEach(() => cleanupTempDirs())

const PROPOSED = '{"path":"/etc/passwd","text":"x"}'

function turns(): ScriptedTurn[] {
  return [writeCall('c1', PROPOSED), ScriptedTurn.text('done')]
}

class EditWatcher extends AgentHook {
  readonly seen: [string, string, string | undefined][] = []
  verdict: (ctx: ToolCallHookContext) => ToolCallHookResult = () => ToolCallHookResult.proceed()
  get hookName(): string { return 'EditWatcher' }
  async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
    this.seen.push([ctx.origin, ctx.call.argumentsJson, ctx.proposedCall?.argumentsJson])
    return ctx.origin === CallOrigin.userEdit ? this.verdict(ctx) : ToolCallHookResult.proceed()
  }
}

describe('approve with edits', () => {
  it('runs exactly the edit (byte for byte, spacing included) and keeps proposed, approved and executed', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime(turns())
    const [id] = await ApprovalWorld.frozen(rt)
    const edit = '{ "path": "/tmp/notes.txt",  "text": "x" }'
    const r = await rt.controller.approve(id, { arguments: edit, actor: 'alice@example.com', reason: 'safer path' })
    expect([r.ok, r.applied, r.decision]).toEqual([true, true, 'approved'])
    await rt.whenIdle()
    expect(w.received).toEqual(['{"path":"/tmp/notes.txt","text":"x"}'])
    const before = w.events.filter((e) => e instanceof ToolBeforeEvent) as ToolBeforeEvent[]
    expect(before.map((e) => e.call.argumentsJson)).toEqual([edit])
    const [d] = rt.controller.listDecisions()
    expect([d.toolCall.argumentsJson, d.approvedCall?.argumentsJson, d.executedCall?.argumentsJson]).toEqual([PROPOSED, edit, edit])
    expect([d.actor, d.channel, d.decisionReason, d.approvedCall?.id]).toEqual(['alice@example.com', DecisionChannel.ui, 'safer path', 'c1'])
    expectPaired(rt.snapshot().history)
    expect(toolMessage(rt.snapshot().history, 'c1').text()).toBe('written')
  })

  it('takes the edit as an object too, written as JSON', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime(turns())
    const [id] = await ApprovalWorld.frozen(rt)
    expect((await rt.controller.approve(id, { arguments: { path: '/tmp/a' } })).ok).toBe(true)
    await rt.whenIdle()
    expect(w.received).toEqual(['{"path":"/tmp/a"}'])
    expect(rt.controller.listDecisions()[0].executedCall?.argumentsJson).toBe('{"path":"/tmp/a"}')
  })

  it('refuses an edit the schema rejects, or that is not a JSON object: approval_edit_refused / invalid_input, the item stays pending', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime(turns())
    const [id] = await ApprovalWorld.frozen(rt)
    for (const bad of ['{"path":3}', '{"text":"no path"}', '{"path":"/a","extra":1}']) {
      const r = await rt.controller.approve(id, { arguments: bad })
      expect([r.ok, r.error?.code, r.applied], bad).toEqual([false, ErrorCodes.approvalEditRefused, false])
      expect(rt.controller.listPendingApprovals().map((i) => i.approvalId)).toEqual([id])
    }
    for (const bad of ['[1]', 'not json', '"text"', 'null']) {
      const r = await rt.controller.approve(id, { arguments: bad })
      expect([r.ok, r.error?.code], bad).toEqual([false, ErrorCodes.invalidInput])
    }
    expect(w.write.count).toBe(0)
    // Still decidable: the unedited approval runs the proposed call.
    expect((await rt.controller.approve(id)).ok).toBe(true)
    await rt.whenIdle()
    expect(w.received).toEqual(['{"path":"/etc/passwd","text":"x"}'])
  })

  it('refuses an option name it does not know, so a misspelt edit never approves the unedited call', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime(turns())
    const [id] = await ApprovalWorld.frozen(rt)
    for (const bad of [{ argument: '{"path":"/tmp/a"}' }, { args: {} }, { remember: 'forever' }, { actor: 7 },
      { messageToModel: 'x' }, { matcher: 'nope', remember: 'session' }, { remember: 'app' }]) {
      const r = await rt.controller.approve(id, bad as never)
      expect([r.ok, r.error?.code], JSON.stringify(bad)).toEqual([false, ErrorCodes.invalidInput])
    }
    expect((await rt.controller.deny(id, { arguments: '{}' } as never)).error?.code).toBe(ErrorCodes.invalidInput)
    expect(rt.controller.listPendingApprovals().length).toBe(1)
  })

  it('hooks see the edit as the user\'s, with the proposed call; a hook that denies or rewrites it refuses the decision', async () => {
    const w = new ApprovalWorld()
    const watcher = new EditWatcher()
    const rt = w.runtime(turns(), (cfg) => cfg.hooks.register(watcher))
    const [id] = await ApprovalWorld.frozen(rt)
    watcher.verdict = () => ToolCallHookResult.deny(undefined, 'not under /secret')
    const denied = await rt.controller.approve(id, { arguments: '{"path":"/secret/a"}' })
    expect([denied.ok, denied.error?.code]).toEqual([false, ErrorCodes.approvalEditRefused])
    expect(denied.error?.message).toContain('not under /secret')
    watcher.verdict = (ctx) => ToolCallHookResult.proceed(ctx.call.withArguments('{"path":"/tmp/normalised"}'))
    const rewritten = await rt.controller.approve(id, { arguments: '{"path":"/tmp/../tmp/a"}' })
    expect([rewritten.ok, rewritten.error?.code]).toEqual([false, ErrorCodes.approvalEditRefused])
    watcher.verdict = () => ToolCallHookResult.defer('asks anyway')
    const ok = await rt.controller.approve(id, { arguments: '{"path":"/tmp/b"}' })
    expect(ok.ok).toBe(true)
    await rt.whenIdle()
    expect(w.received).toEqual(['{"path":"/tmp/b"}'])
    expect(watcher.seen.filter((s) => s[0] === CallOrigin.userEdit)).toEqual([
      [CallOrigin.userEdit, '{"path":"/secret/a"}', PROPOSED],
      [CallOrigin.userEdit, '{"path":"/tmp/../tmp/a"}', PROPOSED],
      [CallOrigin.userEdit, '{"path":"/tmp/b"}', PROPOSED]])
    expect(watcher.seen[0]).toEqual([CallOrigin.model, PROPOSED, undefined])
  })

  it('a hook that throws on the edit refuses it (never waves it through)', async () => {
    const w = new ApprovalWorld()
    const watcher = new EditWatcher()
    const rt = w.runtime(turns(), (cfg) => cfg.hooks.register(watcher))
    const [id] = await ApprovalWorld.frozen(rt)
    watcher.verdict = () => { throw new Error('hook bug') }
    const r = await rt.controller.approve(id, { arguments: '{"path":"/tmp/c"}' })
    expect(r.ok).toBe(false)
    expect(rt.controller.listPendingApprovals().length).toBe(1)
  })

  it('renames only when the app allows it; a renamed call is cleared at its own tool\'s risk', async () => {
    const safeWrite = new CountingTool('write_tmp', ToolRiskLevel.safe, async () => 'tmp written', { type: 'object' })
    const w = new ApprovalWorld()
    const strict = w.runtime(turns(), undefined, [safeWrite])
    const [id] = await ApprovalWorld.frozen(strict)
    const refused = await strict.controller.approve(id, { name: 'write_tmp' })
    expect([refused.ok, refused.error?.code]).toEqual([false, ErrorCodes.approvalEditRefused])
    strict.dispose()
    const w2 = new ApprovalWorld()
    const rt = w2.runtime(turns(), (cfg) => { cfg.allowToolRenameOnApproval = true }, [safeWrite])
    const [id2] = await ApprovalWorld.frozen(rt)
    expect((await rt.controller.approve(id2, { name: 'write_tmp', arguments: '{}' })).ok).toBe(true)
    await rt.whenIdle()
    expect([w2.write.count, safeWrite.count]).toEqual([0, 1])
    const [d] = rt.controller.listDecisions()
    expect([d.approvedCall?.name, d.approvedRisk, d.executedCall?.name]).toEqual(['write_tmp', ToolRiskLevel.safe, 'write_tmp'])
  })

  it('an edit holding a secret this process keeps is refused (it could be neither stored nor changed)', async () => {
    const secret = 'sk-Zq9xW3vT7kLm2Pn8Rb4Yc6Hd1'
    SecretVault.register(secret)
    const w = new ApprovalWorld()
    const rt = w.runtime(turns())
    const [id] = await ApprovalWorld.frozen(rt)
    const r = await rt.controller.approve(id, { arguments: JSON.stringify({ path: '/tmp/k', text: secret }) })
    expect([r.ok, r.error?.code]).toEqual([false, ErrorCodes.approvalEditRefused])
    expect(JSON.stringify(r)).not.toContain(secret)
  })

  it('a second decision with another edit loses: ok with the winner\'s decision, applied false, and nothing of it runs', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime(turns(), (cfg) => { cfg.autoResume = false })
    const [id] = await ApprovalWorld.frozen(rt)
    const [a, b] = await Promise.all([
      rt.controller.approve(id, { arguments: '{"path":"/tmp/first"}', actor: 'ann' }),
      rt.controller.approve(id, { arguments: '{"path":"/tmp/second"}', actor: 'bob' })])
    expect([a.applied, b.applied]).toEqual([true, false])
    expect([b.ok, b.item?.approvedCall?.argumentsJson, b.item?.actor]).toEqual([true, '{"path":"/tmp/first"}', 'ann'])
    const same = await rt.controller.approve(id, { arguments: '{"path":"/tmp/first"}' })
    expect(same.applied).toBe(true)
    await rt.runStream([])
    expect(w.received).toEqual(['{"path":"/tmp/first"}'])
    const late = await rt.controller.approve(id, { arguments: '{"path":"/tmp/third"}' })
    expect([late.ok, late.error?.code, late.item?.executedCall?.argumentsJson]).toEqual([false, ErrorCodes.approvalConsumed,
      '{"path":"/tmp/first"}'])
  })
})

describe('deny with a message to the model', () => {
  it('the model is told messageToModel; the user-facing reason is recorded and published apart', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime(turns())
    const [id] = await ApprovalWorld.frozen(rt)
    const r = await rt.controller.deny(id, { reason: 'I do not trust that path', messageToModel: 'Write under /tmp instead.', actor: 'ann' })
    expect(r.ok).toBe(true)
    await rt.whenIdle()
    const told = toolMessage(rt.snapshot().history, 'c1')
    expect([told.isError, told.errorCode, told.text()]).toEqual([true, ErrorCodes.toolDenied, 'Write under /tmp instead.'])
    const decided = w.events.filter((e) => e.eventType() === ControllerEventTypes.approvalDecided)
    const item = (decided[0] as unknown as { item: { denyReason: string, messageToModel: string, actor: string } }).item
    expect([item.denyReason, item.messageToModel, item.actor]).toEqual(['I do not trust that path', 'Write under /tmp instead.', 'ann'])
    expect(w.write.count).toBe(0)
  })

  it('without messageToModel the model is told the reason, as before', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime(turns())
    const [id] = await ApprovalWorld.frozen(rt)
    await rt.controller.deny(id, 'no')
    await rt.whenIdle()
    expect(toolMessage(rt.snapshot().history, 'c1').text()).toBe("The user denied 'write_file': no")
    expect(rt.controller.listDecisions()[0].channel).toBe(DecisionChannel.ui)
  })
})
