// Remembered decisions (docs/approvals.md): "always allow / deny" for the session or the app,
// matched by tool name and an app-defined argument predicate, bound to the tool's definition, never
// covering a riskier tool or a hook's defer, stored, listed, revocable — and failing closed.
import { afterEach, describe, expect, it } from 'vitest'
import {
  AgentHook,
  ApprovalGrantEvent,
  DecisionChannel,
  ErrorCodes,
  FunctionTool,
  GrantChange,
  GrantScope,
  GrantVerdict,
  MemoryStateStorage,
  PathPrefixMatcher,
  RunStatus,
  ScriptedTurn,
  StorageGrantStore,
  ToolCallHookContext,
  ToolCallHookResult,
  ToolDefinition,
  ToolRiskLevel
} from '../../src/index'
import type { AppGrantStore, ApprovalGrant, GrantMatcher } from '../../src/index'
import { cleanupTempDirs, toolMessage } from '../runtime/helpers'
import { ApprovalWorld, FILE_SCHEMA, writeCall } from './support'

afterEach(() => cleanupTempDirs())

/** Two batches: the first asks (and is decided with remember), the second is gated against the grant. */
function twice(first: string, second: string): ScriptedTurn[] {
  return [writeCall('c1', first), ScriptedTurn.text('one'), writeCall('c2', second), ScriptedTurn.text('two')]
}

const prefix = new PathPrefixMatcher('path-prefix', 'path')

describe('always allow for this session', () => {
  it('a later call of the tool runs without asking; the grant is listed, stored, and the call recorded as decided by it', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime(twice('{"path":"/tmp/a"}', '{"path":"/tmp/b"}'))
    const [id] = await ApprovalWorld.frozen(rt)
    const r = await rt.controller.approve(id, { remember: 'session', actor: 'ann' })
    expect(r.ok).toBe(true)
    await rt.whenIdle()
    const second = await rt.run('again')
    expect(second.status).toBe(RunStatus.completed)
    expect(w.received).toEqual(['{"path":"/tmp/a"}', '{"path":"/tmp/b"}'])
    const grants = await rt.controller.listGrants()
    expect(grants.map((g) => [g.toolName, g.verdict, g.scope, g.actor, g.fromApprovalId])).toEqual([
      ['write_file', GrantVerdict.allow, GrantScope.session, 'ann', id]])
    const decisions = rt.controller.listDecisions()
    expect(decisions.map((d) => [d.channel, d.grantId, d.executedCall?.argumentsJson])).toEqual([
      [DecisionChannel.ui, grants[0].grantId, '{"path":"/tmp/a"}'],
      [DecisionChannel.grant, grants[0].grantId, '{"path":"/tmp/b"}']])
    expect(w.events.filter((e) => e instanceof ApprovalGrantEvent).map((e) => (e as ApprovalGrantEvent).change)).toEqual([GrantChange.added])
    // A new process sees the same grant.
    rt.dispose()
    const again = w.runtime([])
    await again.restore()
    expect((await again.controller.listGrants()).map((g) => g.grantId)).toEqual([grants[0].grantId])
  })

  it('revoked, it no longer applies: the next call asks again; an unknown id is grant_unknown', async () => {
    const w = new ApprovalWorld()
    const rt = w.runtime(twice('{"path":"/tmp/a"}', '{"path":"/tmp/b"}'))
    const [id] = await ApprovalWorld.frozen(rt)
    await rt.controller.approve(id, { remember: 'session' })
    await rt.whenIdle()
    const [g] = await rt.controller.listGrants()
    expect((await rt.controller.revokeGrant(g.grantId)).ok).toBe(true)
    expect((await rt.controller.revokeGrant(g.grantId)).error?.code).toBe(ErrorCodes.grantUnknown)
    expect((await rt.run('again')).status).toBe(RunStatus.suspended)
    expect(w.write.count).toBe(1)
  })

  it('never applies to a tool whose definition changed, or that became riskier', async () => {
    for (const change of ['description', 'schema', 'risk'] as const) {
      const w = new ApprovalWorld(ToolRiskLevel.sensitive)
      const rt = w.runtime(twice('{"path":"/tmp/a"}', '{"path":"/tmp/b"}'), (cfg) => {
        cfg.approvalPolicy = (cfg.approvalPolicy.constructor as unknown as { askForSensitiveToo(): typeof cfg.approvalPolicy }).askForSensitiveToo()
      })
      const [id] = await ApprovalWorld.frozen(rt)
      await rt.controller.approve(id, { remember: 'session' })
      await rt.whenIdle()
      const reg = rt.snapshot() && (rt as unknown as { s: { config: { tools: { unregister(n: string): boolean, register(t: FunctionTool): void } } } }).s.config.tools
      reg.unregister('write_file')
      reg.register(new FunctionTool(new ToolDefinition('write_file', change === 'description' ? 'writes files (v2)' : 'write_file tool',
        change === 'schema' ? { ...FILE_SCHEMA, properties: { ...(FILE_SCHEMA.properties as object), mode: { type: 'string' } } } : FILE_SCHEMA,
        change === 'risk' ? ToolRiskLevel.dangerous : ToolRiskLevel.sensitive), async () => 'ran'))
      const second = await rt.run('again')
      expect(second.status, change).toBe(RunStatus.suspended)
      expect(w.write.count, change).toBe(1)
    }
  })

  it('with a matcher it covers only the calls the matcher accepts; a path escaping the prefix asks', async () => {
    for (const [later, asks] of [['{"path":"/tmp/x/y"}', false], ['{"path":"/etc/x"}', true], ['{"path":"/tmp/x/../../etc"}', true],
      ['{"path":"/tmp/xy"}', true]] as const) {
      const w = new ApprovalWorld()
      const rt = w.runtime(twice('{"path":"/tmp/x/1"}', later), (cfg) => { cfg.grantMatchers = [prefix] })
      const [id] = await ApprovalWorld.frozen(rt)
      expect((await rt.controller.approve(id, { remember: 'session', matcher: 'path-prefix', matcherParam: '/tmp/x' })).ok).toBe(true)
      await rt.whenIdle()
      expect((await rt.run('again')).status, later).toBe(asks ? RunStatus.suspended : RunStatus.completed)
    }
  })

  it('an allow grant whose matcher throws, or is no longer registered, does not apply (the call asks)', async () => {
    const throwing: GrantMatcher = { name: 'path-prefix', matches: () => { throw new Error('bug') } }
    for (const later of [[throwing], []]) {
      const w = new ApprovalWorld()
      let matchers: GrantMatcher[] = [prefix]
      const rt = w.runtime(twice('{"path":"/tmp/1"}', '{"path":"/tmp/2"}'), (cfg) => { cfg.grantMatchers = matchers })
      const [id] = await ApprovalWorld.frozen(rt)
      await rt.controller.approve(id, { remember: 'session', matcher: 'path-prefix', matcherParam: '/tmp' })
      await rt.whenIdle()
      matchers = later
      ;(rt as unknown as { s: { config: { grantMatchers: GrantMatcher[] } } }).s.config.grantMatchers = later
      expect((await rt.run('again')).status).toBe(RunStatus.suspended)
      expect(w.write.count).toBe(1)
    }
  })

  it('never covers a hook\'s defer: the grant answers the policy\'s question only', async () => {
    class AlwaysAsk extends AgentHook {
      get hookName(): string { return 'AlwaysAsk' }
      async beforeToolCall(_: ToolCallHookContext): Promise<ToolCallHookResult> { return ToolCallHookResult.defer('ask me') }
    }
    const w = new ApprovalWorld()
    const rt = w.runtime(twice('{"path":"/tmp/a"}', '{"path":"/tmp/b"}'), (cfg) => cfg.hooks.register(new AlwaysAsk()))
    const [id] = await ApprovalWorld.frozen(rt)
    await rt.controller.approve(id, { remember: 'session' })
    await rt.whenIdle()
    expect((await rt.run('again')).status).toBe(RunStatus.suspended)
  })
})

describe('always deny', () => {
  it('a later call is denied without asking; the model is told; a deny grant\'s failing matcher denies too', async () => {
    for (const matcher of ['', 'throws']) {
      const w = new ApprovalWorld()
      const throwing: GrantMatcher = { name: 'throws', matches: () => { throw new Error('bug') } }
      const rt = w.runtime(twice('{"path":"/etc/a"}', '{"path":"/etc/b"}'), (cfg) => { cfg.grantMatchers = [throwing] })
      const [id] = await ApprovalWorld.frozen(rt)
      const opts = matcher === '' ? { remember: 'session' } : { remember: 'session', matcher, matcherParam: 'x' }
      expect((await rt.controller.deny(id, opts)).ok).toBe(true)
      await rt.whenIdle()
      expect((await rt.run('again')).status).toBe(RunStatus.completed)
      expect(w.write.count).toBe(0)
      const told = toolMessage(rt.snapshot().history, 'c2')
      expect([told.errorCode, told.text()]).toEqual([ErrorCodes.toolDenied, "Not run: the user chose to always deny 'write_file'"])
      expect(rt.controller.listDecisions().map((d) => d.channel)).toEqual([DecisionChannel.ui, DecisionChannel.grant])
    }
  })

  it('denies a call the policy would let run unasked (a deny grant is never weaker than asking)', async () => {
    const w = new ApprovalWorld(ToolRiskLevel.dangerous)
    const rt = w.runtime(twice('{"path":"/etc/a"}', '{"path":"/etc/b"}'))
    const [id] = await ApprovalWorld.frozen(rt)
    await rt.controller.deny(id, { remember: 'session' })
    await rt.whenIdle()
    ;(rt as unknown as { s: { policy: unknown } }).s.policy = { needsApproval: () => false, admits: () => true }
    await rt.run('again')
    expect(w.write.count).toBe(0)
  })
})

describe('always, for the app', () => {
  it('another session with the same grant store runs the tool unasked; without a store remember: app is refused', async () => {
    const store = new StorageGrantStore(new MemoryStateStorage())
    const w = new ApprovalWorld()
    const rt = w.runtime([writeCall('c1', '{"path":"/tmp/a"}'), ScriptedTurn.text('one')], (cfg) => { cfg.appGrants = store })
    const [id] = await ApprovalWorld.frozen(rt)
    expect((await rt.controller.approve(id, { remember: 'app' })).ok).toBe(true)
    await rt.whenIdle()
    const other = new ApprovalWorld()
    const rt2 = other.runtime([writeCall('c9', '{"path":"/tmp/z"}'), ScriptedTurn.text('done')], (cfg) => { cfg.appGrants = store })
    expect((await rt2.run('go')).status).toBe(RunStatus.completed)
    expect(other.write.count).toBe(1)
    expect((await rt2.controller.listGrants()).map((g) => g.scope)).toEqual([GrantScope.app])
    const [g] = await rt2.controller.listGrants()
    expect((await rt2.controller.revokeGrant(g.grantId)).ok).toBe(true)
    expect(await store.load()).toEqual([])
    const third = new ApprovalWorld()
    const rt3 = third.runtime([writeCall('c1', '{"path":"/a"}'), ScriptedTurn.text('x')])
    const [id3] = await ApprovalWorld.frozen(rt3)
    expect((await rt3.controller.approve(id3, { remember: 'app' })).error?.code).toBe(ErrorCodes.invalidInput)
  })

  it('a grant store that fails or returns something else fails the run closed (nothing runs, a typed error)', async () => {
    const bad: AppGrantStore[] = [
      { load: async () => { throw new Error('disk gone') }, update: async () => [] },
      { load: async () => ({ grants: [] }) as unknown as ApprovalGrant[], update: async () => [] },
      { load: async () => [{ toolName: 'write_file', verdict: 'allow' }] as unknown as ApprovalGrant[], update: async () => [] }]
    for (const store of bad) {
      const w = new ApprovalWorld(ToolRiskLevel.safe)
      const rt = w.runtime([writeCall('c1', '{"path":"/tmp/a"}'), ScriptedTurn.text('x')], (cfg) => { cfg.appGrants = store })
      const outcome = await rt.run('go')
      expect(outcome.status).toBe(RunStatus.failed)
      expect(outcome.error?.code).toBe(ErrorCodes.stateLoadFailed)
      expect(w.write.count).toBe(0)
    }
  })
})
