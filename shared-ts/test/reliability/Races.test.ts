// Races: concurrent decisions, decisions against a running continuation, cancel around approvals,
// suspend() while streaming, and two owners of one session directory (the session lock).
import { MUTATION_RUN } from '../support/scale'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import {
  AgentHook,
  ApprovalDecision,
  ApprovalPolicyHook,
  ArkAgentError,
  CancellationSource,
  ControllerEventTypes,
  ErrorCodes,
  ErrorLayer,
  FileStateStorage,
  LOCK_FILE,
  MemoryStateStorage,
  ModelChunkHookContext,
  ModelChunkHookResult,
  RestoreKind,
  RunStatus,
  ScriptedTurn,
  SessionStatus,
  ToolRiskLevel
} from '../../src/index'
import {
  cleanupTempDirs, CountingTool, expectPaired, makeRuntime, newSessionId, rejectionOf, sleep, tempDir
} from '../runtime/helpers'
import { flush, record } from './summary'

afterEach(() => cleanupTempDirs())
afterAll(() => flush('Races'))

const repoRoot = path.resolve(__dirname, '../../..')

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 20000 && !cond(); i++) await sleep(1)
  expect(cond()).toBe(true)
}

function batchTurns(n: number): ScriptedTurn[] {
  const t = ScriptedTurn.text('batch')
  for (let i = 0; i < n; i++) t.call(`c${i}`, 'danger', `{"i":${i}}`)
  return [t, ScriptedTurn.text('done')]
}

describe('races', () => {
  it('100 concurrent approve/deny calls on one batch: first decision per item wins, exactly one continuation', async () => {
    const danger = new CountingTool('danger', ToolRiskLevel.dangerous)
    const rt = makeRuntime(batchTurns(4), { tools: [danger.tool], hooks: [new ApprovalPolicyHook()], storage: new MemoryStateStorage() })
    const resumed: string[] = []
    rt.controller.subscribe(ControllerEventTypes.agentResumed, (e) => resumed.push(e.eventType()))
    expect((await rt.run('go')).status).toBe(RunStatus.suspended)
    const items = rt.controller.listPendingApprovals()
    const first = new Map<string, string>()
    const calls: Promise<{ id: string, ok: boolean, decision: string, code?: string }>[] = []
    for (let i = 0; i < 100; i++) {
      const item = items[(i * 7) % items.length]
      const approve = ((i * 13) % 3) !== 0
      if (!first.has(item.approvalId)) first.set(item.approvalId, approve ? ApprovalDecision.approved : ApprovalDecision.denied)
      const p = approve ? rt.controller.approve(item.approvalId) : rt.controller.deny(item.approvalId, `no ${i}`)
      calls.push(p.then((r) => ({ id: item.approvalId, ok: r.ok, decision: r.decision, code: r.error?.code })))
    }
    const results = await Promise.all(calls)
    await rt.whenIdle()
    for (const r of results) {
      // Every call is answered with the winning (first) decision — or, once the batch was resumed, consumed.
      if (r.ok) expect(r.decision).toBe(first.get(r.id))
      else expect(r.code).toBe(ErrorCodes.approvalConsumed)
    }
    expect(results.filter((r) => r.ok).length).toBeGreaterThanOrEqual(items.length)
    expect(resumed.length).toBe(1)
    const st = rt.snapshot()
    expect(st.status).toBe(SessionStatus.completed)
    expectPaired(st.history)
    const approved = [...first.values()].filter((d) => d === ApprovalDecision.approved).length
    expect(danger.count).toBe(approved)
    record('races', 'concurrent approve/deny on one batch', 100, 'calls', `${items.length} items, 1 continuation`)
  })

  it('approve (again) and runStream([]) while the resumed run is already running', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => { release = r })
    const danger = new CountingTool('danger', ToolRiskLevel.dangerous, async () => { await gate; return 'done' })
    const rt = makeRuntime(batchTurns(2), { tools: [danger.tool], hooks: [new ApprovalPolicyHook()], storage: new MemoryStateStorage() })
    await rt.run('go')
    const items = rt.controller.listPendingApprovals()
    await rt.controller.approve(items[0].approvalId)
    await rt.controller.approve(items[1].approvalId)
    await until(() => danger.count === 1 && rt.isRunning)
    // The batch was consumed by the running continuation.
    const late = await rt.controller.approve(items[0].approvalId)
    expect(late.ok).toBe(false)
    expect(late.error?.code).toBe(ErrorCodes.approvalConsumed)
    const lateDeny = await rt.controller.deny(items[1].approvalId)
    expect(lateDeny.error?.code).toBe(ErrorCodes.approvalConsumed)
    // A resume asked for during the continuation joins it: the same single outcome, no second run.
    const joined = rt.runStream([])
    expect((await rejectionOf(rt.run('new input'))).code).toBe(ErrorCodes.runInProgress)
    release()
    expect((await joined).status).toBe(RunStatus.completed)
    await rt.whenIdle()
    expect(danger.count).toBe(2)
    expect(rt.snapshot().status).toBe(SessionStatus.completed)
    expectPaired(rt.snapshot().history)
    record('races', 'approve + runStream([]) during the continuation', 4, 'calls')
  })

  it('cancel during a pending approval: the suspended batch survives; cancelling the continuation ends it cancelled, nothing runs twice', async () => {
    const dir = tempDir()
    const sid = newSessionId()
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => { release = r })
    const danger = new CountingTool('danger', ToolRiskLevel.dangerous, async (args, ctx) => {
      await Promise.race([gate, new Promise<void>((r) => ctx.token.onCancel(() => r()))])
      return 'done'
    })
    const storage = new FileStateStorage(dir)
    const rt = makeRuntime(batchTurns(2), { sessionId: sid, tools: [danger.tool], hooks: [new ApprovalPolicyHook()], storage,
      configure: (c) => { c.autoResume = false } })
    const first = new CancellationSource()
    expect((await rt.run('go', undefined, first.token)).status).toBe(RunStatus.suspended)
    first.cancel('user left')                       // the run is over; the batch must not be affected
    expect(rt.controller.listPendingApprovals().length).toBe(2)
    for (const item of rt.controller.listPendingApprovals()) expect((await rt.controller.approve(item.approvalId)).ok).toBe(true)
    const second = new CancellationSource()
    const run = rt.runStream([], undefined, second.token)
    await until(() => danger.count === 1)
    second.cancel('stop')
    const outcome = await run
    expect(outcome.status).toBe(RunStatus.cancelled)
    release()
    expect(danger.count).toBe(1)                    // the second call never started
    expectPaired(rt.snapshot().history)
    await storage.close()
    const again = makeRuntime([], { sessionId: sid, tools: [danger.tool], storage: new FileStateStorage(dir) })
    const report = await again.restore()
    expect(report.kind).toBe(RestoreKind.idle)      // terminal: never resumable
    expect(report.lastStatus).toBe(SessionStatus.cancelled)
    expect(danger.count).toBe(1)
    record('races', 'cancel around a pending approval', 2, 'cancels')
  })

  it('suspend() during streaming (many, concurrently) writes consistent states and the run completes', async () => {
    const dir = tempDir()
    const sid = newSessionId()
    let chunks = 0
    class Slow extends AgentHook {
      async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
        chunks++
        await sleep(1)
        return ModelChunkHookResult.proceed()
      }
    }
    const pieces = Array.from({ length: 30 }, (_, i) => `p${i} `)
    const storage = new FileStateStorage(dir)
    const rt = makeRuntime([ScriptedTurn.text(...pieces)], { sessionId: sid, hooks: [new Slow()], storage })
    const run = rt.run('stream please')
    const suspends: Promise<boolean>[] = []
    for (let i = 0; i < 20; i++) {
      await until(() => chunks > i)
      suspends.push(rt.suspend())
      if (i % 5 === 0) {
        const peek = await new FileStateStorage(dir, undefined, { lock: false }).load(sid)
        expect(peek).toBeDefined()
        // A snapshot is taken between steps: never half an answer.
        for (const m of peek!.state.history) expect(m.role === 'assistant' ? m.text() : '').not.toMatch(/^p0 p1 $/)
        expectPaired(peek!.state.history)
      }
    }
    expect((await Promise.all(suspends)).every((ok) => ok)).toBe(true)
    const outcome = await run
    expect(outcome.status).toBe(RunStatus.completed)
    await storage.close()
    const loaded = await new FileStateStorage(dir).load(sid)
    expect(loaded!.state.status).toBe(SessionStatus.completed)
    expect(loaded!.state.history[loaded!.state.history.length - 1].text()).toBe(pieces.join(''))
    record('races', 'suspend() during streaming', 20, 'suspends')
  })
})

describe('session lock (FileStateStorage)', () => {
  it('a second runtime on the same session directory gets session_locked until the first closes', async () => {
    const dir = tempDir()
    const sid = newSessionId()
    const s1 = new FileStateStorage(dir)
    const rt1 = makeRuntime([ScriptedTurn.text('hi')], { sessionId: sid, storage: s1 })
    await rt1.run('hello')
    expect(fs.existsSync(path.join(dir, sid, LOCK_FILE))).toBe(true)
    const rt2 = makeRuntime([ScriptedTurn.text('hi again')], { sessionId: sid, storage: new FileStateStorage(dir) })
    const err = await rejectionOf(rt2.restore())
    expect(err).toBeInstanceOf(ArkAgentError)
    expect(err.layer).toBe(ErrorLayer.runtime)
    expect(err.code).toBe(ErrorCodes.sessionLocked)
    expect((await rejectionOf(rt2.run('me too'))).code).toBe(ErrorCodes.sessionLocked)
    // Other sessions in the same root are not affected.
    const other = makeRuntime([ScriptedTurn.text('x')], { storage: new FileStateStorage(dir) })
    expect((await other.run('x')).status).toBe(RunStatus.completed)
    await s1.close()
    expect(fs.existsSync(path.join(dir, sid, LOCK_FILE))).toBe(false)
    const rt3 = makeRuntime([ScriptedTurn.text('back')], { sessionId: sid, storage: new FileStateStorage(dir) })
    expect((await rt3.restore()).kind).toBe(RestoreKind.idle)
    expect((await rt3.run('again')).status).toBe(RunStatus.completed)
    record('races', 'two runtimes on one session directory', 2, 'runtimes', 'second: session_locked')
  })

  it('ten instances racing for one session: exactly one wins', async () => {
    const dir = tempDir()
    const sid = newSessionId()
    const storages = Array.from({ length: 10 }, () => new FileStateStorage(dir))
    const results = await Promise.allSettled(storages.map((s) => s.load(sid)))
    const won = results.filter((r) => r.status === 'fulfilled').length
    expect(won).toBe(1)
    for (const r of results) {
      if (r.status === 'rejected') expect((r.reason as ArkAgentError).code).toBe(ErrorCodes.sessionLocked)
    }
    for (const s of storages) await s.close()
    record('races', 'instances racing for one lock', 10, 'instances', 'exactly one wins')
  })

  it('a lock left by a dead process is stale and taken over', async () => {
    const dir = tempDir()
    const sid = newSessionId()
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
    const deadPid = Number(child.stdout.toString())
    fs.mkdirSync(path.join(dir, sid), { recursive: true })
    fs.writeFileSync(path.join(dir, sid, LOCK_FILE), JSON.stringify({ pid: deadPid, startTicks: '1', token: 'x', createdAtMs: 1 }))
    const s = new FileStateStorage(dir)
    expect(await s.load(sid)).toBeUndefined()
    const owner = JSON.parse(fs.readFileSync(path.join(dir, sid, LOCK_FILE), 'utf8')) as { pid: number }
    expect(owner.pid).toBe(process.pid)
    await s.close()
  })

  it.skipIf(MUTATION_RUN)('across processes: locked while the owner lives, taken over once it is killed', async () => {
    const dir = tempDir()
    const sid = newSessionId()
    const script = path.join(dir, 'holder.mts')
    fs.writeFileSync(script, `import { FileStateStorage } from ${JSON.stringify(path.join(repoRoot, 'shared-ts/src/index.ts'))}
const s = new FileStateStorage(${JSON.stringify(dir)})
await s.load(${JSON.stringify(sid)})
process.stdout.write('locked\\n')
setInterval(() => {}, 1000)
`)
    // Node itself runs the holder (tsx as a loader, not as a wrapper process), so holder.pid is the owner.
    const loader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href
    const holder = spawn(process.execPath, ['--import', loader, script], { stdio: ['ignore', 'pipe', 'inherit'] })
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', (d: Buffer) => { if (d.toString().includes('locked')) resolve() })
      holder.on('exit', (code) => reject(new Error(`holder exited ${code}`)))
    })
    const mine = new FileStateStorage(dir)
    const err = await rejectionOf(mine.load(sid))
    expect(err.code).toBe(ErrorCodes.sessionLocked)
    expect(err.message).toContain(String(holder.pid))
    const exited = new Promise<void>((r) => holder.on('exit', () => r()))
    holder.kill('SIGKILL')
    await exited
    expect(await mine.load(sid)).toBeUndefined()
    await mine.close()
    record('races', 'cross-process lock, owner killed', 2, 'processes', 'stale lock taken over')
  })

  it('lock: false opts out (read-only inspection while another owner holds the session)', async () => {
    const dir = tempDir()
    const sid = newSessionId()
    const s1 = new FileStateStorage(dir)
    const rt = makeRuntime([ScriptedTurn.text('hi')], { sessionId: sid, storage: s1 })
    await rt.run('hello')
    const peek = await new FileStateStorage(dir, undefined, { lock: false }).load(sid)
    expect(peek?.state.status).toBe(SessionStatus.completed)
    await s1.close()
  })
})
