// Fail-closed edges of approval records, one test per class of defect: secrets kept out of the
// decision log, app grants changed atomically and only after a decision counts, grants and edits never
// above the level the user was shown, unknown verdicts read as deny, revocations and definition
// changes seen at the last moment, plain-JavaScript options refused rather than guessed.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentHook, ApprovalDecidedEvent, ApprovalGrant, ApprovalPolicy, ControllerEventTypes, DecisionChannel, ErrorCodes, FunctionTool,
  GrantScope, GrantVerdict, MemoryStateStorage, PathPrefixMatcher, RunStatus, ScriptedTurn, SecretVault, StorageGrantStore,
  ToolCall, ToolCallHookContext, ToolCallHookResult, ToolDefinition, ToolRiskLevel
} from '../../src/index'
import type { AppGrantStore, ToolRegistry } from '../../src/index'
import { cleanupTempDirs, CountingTool, toolMessage } from '../runtime/helpers'
import { ApprovalWorld, FILE_SCHEMA, writeCall } from './support'

afterEach(() => cleanupTempDirs())

const twice = (a: string, b: string): ScriptedTurn[] => [writeCall('c1', a), ScriptedTurn.text('one'), writeCall('c2', b), ScriptedTurn.text('two')]
const registryOf = (rt: unknown): ToolRegistry => (rt as { s: { config: { tools: ToolRegistry } } }).s.config.tools
function reRegister(rt: unknown, risk: ToolRiskLevel, description = 'write_file tool'): void {
  const reg = registryOf(rt)
  reg.unregister('write_file')
  reg.register(new FunctionTool(new ToolDefinition('write_file', description, FILE_SCHEMA, risk), async () => 'v2 ran'))
}

describe('secrets and the decision log', () => {
  it('a kept secret in a proposed call reaches neither the stored decision log nor any stored file', async () => {
    const secret = 'tok-Hk29QpV7Lm3Xz8Rw5'
    SecretVault.register(secret)
    const w = new ApprovalWorld()
    const rt = w.runtime([writeCall('c1', `{"path":"/tmp/a","text":"${secret}"}`), ScriptedTurn.text('done')])
    const [id] = await ApprovalWorld.frozen(rt)
    await rt.controller.approve(id)
    await rt.whenIdle()
    expect(JSON.stringify(rt.controller.listDecisions())).not.toContain(secret)
    const files = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)])
    expect(files(w.dir).filter((f) => fs.readFileSync(f, 'utf8').includes(secret))).toEqual([])
  })

  it('an edit holding a kept secret written with \\u escapes is refused like the plain one', async () => {
    const secret = 'sk-Wq4Nz7Ty2Ub9Kc5Vd'
    SecretVault.register(secret)
    const w = new ApprovalWorld()
    const rt = w.runtime([writeCall('c1', '{"path":"/tmp/a"}'), ScriptedTurn.text('done')])
    const [id] = await ApprovalWorld.frozen(rt)
    const escaped = [...secret].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')
    const r = await rt.controller.approve(id, { arguments: `{"path":"/tmp/a","text":"${escaped}"}` })
    expect([r.ok, r.error?.code]).toEqual([false, ErrorCodes.approvalEditRefused])
  })
})

describe('app grants', () => {
  it('a revocation and another session\'s remember: app through one store never undo each other', async () => {
    const mem = new MemoryStateStorage()
    let delay = 0
    const slow = new Proxy(mem, { get(t, k) {
      if (k === 'load') return async (id: string) => { for (let i = 0; i < delay; i++) await Promise.resolve(); return t.load(id) }
      const v = (t as unknown as Record<string | symbol, unknown>)[k]
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v
    } }) as MemoryStateStorage
    const store = new StorageGrantStore(slow)
    for (delay = 0; delay < 6; delay++) {
      const a = new ApprovalWorld()
      const rtA = a.runtime([writeCall('c1', '{"path":"/tmp/a"}'), ScriptedTurn.text('one')], (cfg) => { cfg.appGrants = store })
      await rtA.controller.approve((await ApprovalWorld.frozen(rtA))[0], { remember: 'app' })
      await rtA.whenIdle()
      const mine = (await store.load()).find((g) => g.fromApprovalId !== '' && g.toolName === 'write_file')!
      const b = new ApprovalWorld()
      const other = new CountingTool('other', ToolRiskLevel.dangerous)
      const rtB = b.runtime([ScriptedTurn.text('').call('o1', 'other', '{}'), ScriptedTurn.text('one')], (cfg) => { cfg.appGrants = store }, [other])
      const idb = (await ApprovalWorld.frozen(rtB))[0]
      const [rev, appr] = await Promise.all([rtA.controller.revokeGrant(mine.grantId), rtB.controller.approve(idb, { remember: 'app' })])
      expect([rev.ok, appr.ok]).toEqual([true, true])
      const after = (await store.load()).map((g) => g.grantId)
      expect(after).not.toContain(mine.grantId)
      expect(after.length).toBeGreaterThan(0)
      for (const g of await store.load()) await store.update((cur) => cur.filter((x) => x.grantId !== g.grantId))
    }
  })

  it('is written only once the decision is durable: a decision that fails to save leaves no grant; a store that fails after it reports grantError', async () => {
    let failSaves = true
    const inner = new MemoryStateStorage()
    const store: AppGrantStore = new StorageGrantStore(inner)
    const w = new ApprovalWorld()
    const rt = w.runtime([writeCall('c1', '{"path":"/tmp/a"}'), ScriptedTurn.text('done')], (cfg) => {
      cfg.appGrants = store
      cfg.hooks.register(new class extends AgentHook {
        get hookName(): string { return 'RefuseDecisionWrite' }
        async beforePersistState(ctx: { reason: string }) {
          const { StatePersistenceHookResult } = await import('../../src/index')
          return failSaves && ctx.reason === 'approval_decision' ? StatePersistenceHookResult.abort('disk full') : StatePersistenceHookResult.proceed()
        }
      }())
    })
    const [id] = await ApprovalWorld.frozen(rt)
    expect((await rt.controller.approve(id, { remember: 'app' })).ok).toBe(false)
    expect(await store.load()).toEqual([])
    failSaves = false
    const broken: AppGrantStore = { load: () => store.load(), update: async () => { throw new Error('store offline') } }
    ;(rt as unknown as { s: { config: { appGrants: AppGrantStore } } }).s.config.appGrants = broken
    const r = await rt.controller.approve(id, { remember: 'app' })
    expect([r.ok, r.applied, r.grantError?.code]).toEqual([true, true, ErrorCodes.stateSaveFailed])
    expect(await store.load()).toEqual([])
  })

  it('a grant whose verdict is not exactly allow or deny is refused where it is made, and a forged one counts as deny', async () => {
    expect(() => new ApprovalGrant('g', 'write_file', 'DENY' as GrantVerdict, GrantScope.app, ToolRiskLevel.dangerous, 'x', '', '', 'a', 1, ''))
      .toThrow(/verdict/)
    const forged = Object.assign(Object.create(ApprovalGrant.prototype) as ApprovalGrant, {
      grantId: 'g', toolName: 'write_file', verdict: 'DENY', scope: GrantScope.app, riskLevel: ToolRiskLevel.dangerous,
      definitionFingerprint: '', matcher: '', matcherParam: '', actor: 'db', createdAtMs: 1, fromApprovalId: '' })
    const w = new ApprovalWorld()
    const rt = w.runtime([writeCall('c1', '{"path":"/etc/passwd"}'), ScriptedTurn.text('done')], (cfg) => {
      cfg.appGrants = { load: async () => [forged], update: async () => [] }
    })
    await rt.run('go')
    expect(w.write.count).toBe(0)
    expect(toolMessage(rt.snapshot().history, 'c1').errorCode).toBe(ErrorCodes.toolDenied)
  })

  it('the session the app grants are kept in cannot be used as a runtime\'s own session', () => {
    const store = new StorageGrantStore(new MemoryStateStorage(), 'grants-here')
    const w = new ApprovalWorld()
    expect(() => w.runtime([], (cfg) => { (cfg as unknown as { sessionId: string }).sessionId = 'grants-here'; cfg.appGrants = store })).toThrow(/app grants/)
  })
})

describe('never above what the user was shown', () => {
  it('remember and edits are refused when the tool became riskier than the level it was asked about', async () => {
    const w = new ApprovalWorld(ToolRiskLevel.sensitive)
    const rt = w.runtime(twice('{"path":"/tmp/a"}', '{"path":"/etc/x"}'), (cfg) => { cfg.approvalPolicy = ApprovalPolicy.askForSensitiveToo() })
    const [id] = await ApprovalWorld.frozen(rt)
    reRegister(rt, ToolRiskLevel.dangerous)
    expect((await rt.controller.approve(id, { remember: 'session' })).error?.code).toBe(ErrorCodes.invalidInput)
    expect((await rt.controller.approve(id, { arguments: '{"path":"/tmp/a" }' })).error?.code).toBe(ErrorCodes.approvalEditRefused)
    expect(await rt.controller.listGrants()).toEqual([])
  })

  it('an approval with edits is checked against "always deny" grants', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime([writeCall('c1', '{"path":"/etc/a"}'), ScriptedTurn.text('one'), writeCall('c2', '{"path":"/tmp/b"}'),
      ScriptedTurn.text('two')], (cfg) => { cfg.grantMatchers = [new PathPrefixMatcher('under', 'path')] })
    await rt.controller.deny((await ApprovalWorld.frozen(rt))[0], { remember: 'session', matcher: 'under', matcherParam: '/etc' })
    await rt.whenIdle()
    expect((await rt.run('again')).status).toBe(RunStatus.suspended)
    const [id2] = rt.controller.listPendingApprovals().map((i) => i.approvalId)
    for (const sneaky of ['{"path":"/etc/passwd"}', '{"path":"/tmp/../etc/passwd"}', '{"path":"//etc/./passwd"}']) {
      expect((await rt.controller.approve(id2, { arguments: sneaky })).error?.code, sneaky).toBe(ErrorCodes.approvalEditRefused)
    }
    expect(w.write.count).toBe(0)
  })
})

describe('grants seen at the last moment', () => {
  it('a grant revoked while a hook of the batch still runs decides nothing', async () => {
    let entered!: () => void
    const inHook = new Promise<void>((r) => { entered = r })
    let release!: () => void
    const released = new Promise<void>((r) => { release = r })
    let armed = false
    const w = new ApprovalWorld()
    const rt = w.runtime(twice('{"path":"/tmp/a"}', '{"path":"/etc/shadow"}'), (cfg) => cfg.hooks.register(new class extends AgentHook {
      get hookName(): string { return 'Slow' }
      async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
        if (armed && ctx.call.id === 'c2') { entered(); await released }
        return ToolCallHookResult.proceed()
      }
    }()))
    await rt.controller.approve((await ApprovalWorld.frozen(rt))[0], { remember: 'session' })
    await rt.whenIdle()
    const [g] = await rt.controller.listGrants()
    armed = true
    const second = rt.run('again')
    await inHook
    expect((await rt.controller.revokeGrant(g.grantId)).ok).toBe(true)
    release()
    expect((await second).status).toBe(RunStatus.suspended)
    expect(w.received).toEqual(['{"path":"/tmp/a"}'])
  })

  it('an "always deny" stays in force whatever the tool\'s definition becomes', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime(twice('{"path":"/etc/a"}', '{"path":"/etc/b"}'))
    await rt.controller.deny((await ApprovalWorld.frozen(rt))[0], { remember: 'session' })
    await rt.whenIdle()
    reRegister(rt, ToolRiskLevel.safe, 'writes, now said to be safe')
    await rt.run('again')
    expect(toolMessage(rt.snapshot().history, 'c2').errorCode).toBe(ErrorCodes.toolDenied)
  })

  it('an item a grant approved in a frozen batch is denied at resume when its tool changed meanwhile', async () => {
    const other = new (await import('../runtime/helpers')).CountingTool('other', ToolRiskLevel.dangerous)
    const w = new ApprovalWorld()
    const rt = w.runtime([writeCall('c1', '{"path":"/tmp/a"}'), ScriptedTurn.text('one'),
      ScriptedTurn.text('').call('c2', 'write_file', '{"path":"/tmp/b"}').call('o1', 'other', '{}'), ScriptedTurn.text('two')], undefined, [other])
    await rt.controller.approve((await ApprovalWorld.frozen(rt))[0], { remember: 'session' })
    await rt.whenIdle()
    expect((await rt.run('again')).status).toBe(RunStatus.suspended)
    reRegister(rt, ToolRiskLevel.dangerous, 'DELETES the file it is given')
    await rt.controller.approve(rt.controller.listPendingApprovals()[0].approvalId)
    await rt.whenIdle()
    expect(w.received).toEqual(['{"path":"/tmp/a"}'])
    expect(toolMessage(rt.snapshot().history, 'c2').text()).toContain('no longer applies')
    expect(other.count).toBe(1)
  })

  it('decisions made by a grant are published as approval.decided', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime(twice('{"path":"/tmp/a"}', '{"path":"/tmp/b"}'))
    await rt.controller.approve((await ApprovalWorld.frozen(rt))[0], { remember: 'session' })
    await rt.whenIdle()
    await rt.run('again')
    const decided = w.events.filter((e) => e instanceof ApprovalDecidedEvent) as ApprovalDecidedEvent[]
    expect(decided.map((e) => [e.item.toolCall.id, e.item.channel])).toEqual([['c1', DecisionChannel.ui], ['c2', DecisionChannel.grant]])
  })
})

describe('what runs is what was decided', () => {
  it('a hook that keeps the edited call object and changes it later changes nothing that runs or is recorded', async () => {
    let kept: ToolCall | undefined
    const w = new ApprovalWorld()
    const rt = w.runtime([writeCall('c1', '{"path":"/tmp/a"}'), ScriptedTurn.text('done')], (cfg) => { cfg.autoResume = false; cfg.hooks.register(new class extends AgentHook {
      get hookName(): string { return 'Keeper' }
      async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> { kept = ctx.call; return ToolCallHookResult.proceed() }
    }()) })
    const [id] = await ApprovalWorld.frozen(rt)
    expect((await rt.controller.approve(id, { arguments: '{"path":"/tmp/edited"}' })).ok).toBe(true)
    ;(kept as unknown as { callArguments: string }).callArguments = '{"path":"/etc/passwd"}'
    await rt.runStream([])
    expect(w.received).toEqual(['{"path":"/tmp/edited"}'])
    expect(rt.controller.listDecisions()[0].executedCall?.argumentsJson).toBe('{"path":"/tmp/edited"}')
  })

  it('a deadline that passes while an edit\'s hooks run wins over that approval', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime([writeCall('c1', '{"path":"/tmp/a"}'), ScriptedTurn.text('done')], (cfg) => {
      cfg.approvalDeadlineMs = 10_000
      cfg.hooks.register(new class extends AgentHook {
        get hookName(): string { return 'SlowOnEdits' }
        async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
          if (ctx.origin === 'user_edit') w.clock.nowMs += 60_000
          return ToolCallHookResult.proceed()
        }
      }())
    })
    const [id] = await ApprovalWorld.frozen(rt)
    const r = await rt.controller.approve(id, { arguments: '{"path":"/tmp/b"}' })
    expect([r.decision, r.applied, r.item?.channel]).toEqual(['denied', false, DecisionChannel.expiry])
    await rt.whenIdle()
    expect(w.write.count).toBe(0)
  })

  it('plain-JavaScript options that would approve the unedited call are refused', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime([writeCall('c1', '{"path":"/etc/passwd"}'), ScriptedTurn.text('done')])
    const [id] = await ApprovalWorld.frozen(rt)
    class Opts { get arguments(): string { return '{"path":"/tmp/a"}' } }
    const hidden = {}
    Object.defineProperty(hidden, 'argument', { value: '{"path":"/tmp/a"}', enumerable: false })
    const getterThrows = { get actor(): string { throw new Error('boom') } }
    for (const bad of ['{"path":"/tmp/safe"}', { arguments: undefined }, new Opts(), hidden, getterThrows]) {
      const r = await rt.controller.approve(id, bad as never)
      expect([r.ok, r.error?.code]).toEqual([false, ErrorCodes.invalidInput])
    }
    expect(rt.controller.listPendingApprovals().length).toBe(1)
  })

  it('the expiry timer backs off when the expiry cannot be written', async () => {
    let refuse = false
    const w = new ApprovalWorld()
    const rt = w.runtime([writeCall('c1', '{"path":"/tmp/a"}'), ScriptedTurn.text('done')], (cfg) => {
      cfg.approvalDeadlineMs = 1_000
      cfg.hooks.register(new class extends AgentHook {
        get hookName(): string { return 'Refuse' }
        async beforePersistState() {
          const { StatePersistenceHookResult } = await import('../../src/index')
          return refuse ? StatePersistenceHookResult.abort('read-only') : StatePersistenceHookResult.proceed()
        }
      }())
    })
    await ApprovalWorld.frozen(rt)
    refuse = true
    const scheduled = w.clock as unknown as { timers: { at: number }[] }
    for (let i = 0; i < 3; i++) {
      w.clock.advance(1_000_000)
      await rt.controller.expireApprovals()
    }
    // After three failed writes the next attempt waits at least 4 s of the runtime's clock.
    expect(Math.min(...scheduled.timers.map((t) => t.at)) - w.clock.nowMs).toBeGreaterThanOrEqual(4_000)
    rt.dispose()
  })
})

describe('second review', () => {
  it('PathPrefixMatcher: an allow never vouches for a relative path or a backslash; a deny counts them as under the prefix', () => {
    const m = new PathPrefixMatcher('under', 'path')
    for (const p of ['tmp/notes/x', '/tmp/notes\\evil', 'notes/x']) {
      expect(m.matches({ path: p }, '/tmp/notes'), p).toBe(false)
      expect(m.matchesForDeny({ path: p }, '/tmp/notes'), p).toBe(true)
    }
    expect(m.matches({ path: '/tmp/notes/a' }, '/tmp/notes')).toBe(true)
  })

  it('one batch with many granted calls keeps the log within decisionLogChars, its own records included (a small value limit holds)', async () => {
    const { MemorySegmentBackend, SegmentedStateStorage, SegmentedStorageOptions } = await import('../../src/index')
    const o = new SegmentedStorageOptions()
    o.maxValueBytes = 8192
    const w = new ApprovalWorld()
    let turn = ScriptedTurn.text('')
    for (let i = 0; i < 12; i++) turn = turn.call(`b${i}`, 'write_file', `{"path":"/tmp/notes/${i}.txt","text":"hello"}`)
    const rt = w.runtime([writeCall('c0', '{"path":"/tmp/notes/0.txt"}'), ScriptedTurn.text('ok'), turn, ScriptedTurn.text('done')],
      (cfg) => { cfg.storage = new SegmentedStateStorage(new MemorySegmentBackend(), o); cfg.decisionLogChars = 1500 })
    await rt.controller.approve((await ApprovalWorld.frozen(rt))[0], { remember: 'session' })
    await rt.whenIdle()
    const out = await rt.run('twenty notes')
    expect(out.status).toBe(RunStatus.completed)
    expect(w.write.count).toBe(13)
    expect(rt.controller.listDecisions().length).toBeLessThan(5)
  })

  it('"always deny" can be remembered for a tool that became riskier since it was asked about', async () => {
    const w = new ApprovalWorld(ToolRiskLevel.sensitive)
    const rt = w.runtime(twice('{"path":"/tmp/a"}', '{"path":"/tmp/b"}'), (cfg) => { cfg.approvalPolicy = ApprovalPolicy.askForSensitiveToo() })
    const [id] = await ApprovalWorld.frozen(rt)
    reRegister(rt, ToolRiskLevel.dangerous)
    expect((await rt.controller.deny(id, { remember: 'session' })).ok).toBe(true)
    expect((await rt.controller.listGrants()).map((g) => g.verdict)).toEqual([GrantVerdict.deny])
  })

  it('a grant that no longer applies at resume is a runtime decision, published', async () => {
    const other = new CountingTool('other', ToolRiskLevel.dangerous)
    const w = new ApprovalWorld()
    const rt = w.runtime([writeCall('c1', '{"path":"/tmp/a"}'), ScriptedTurn.text('one'),
      ScriptedTurn.text('').call('c2', 'write_file', '{"path":"/tmp/b"}').call('o1', 'other', '{}'), ScriptedTurn.text('two')], undefined, [other])
    await rt.controller.approve((await ApprovalWorld.frozen(rt))[0], { remember: 'session' })
    await rt.whenIdle()
    await rt.run('again')
    const [g] = await rt.controller.listGrants()
    await rt.controller.revokeGrant(g.grantId)
    await rt.controller.approve(rt.controller.listPendingApprovals()[0].approvalId)
    await rt.whenIdle()
    const c2 = rt.controller.listDecisions().find((d) => d.toolCall.id === 'c2')!
    expect([c2.decision, c2.channel, c2.actor]).toEqual(['denied', DecisionChannel.policy, 'runtime'])
    const published = (w.events.filter((e) => e instanceof ApprovalDecidedEvent) as ApprovalDecidedEvent[])
      .filter((e) => e.item.toolCall.id === 'c2').map((e) => e.item.decision)
    expect(published).toContain('denied')
    expect(w.write.count).toBe(1)
  })
})
