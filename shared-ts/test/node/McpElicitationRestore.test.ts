// A pending elicitation survives a kill of the app as a record, and fails closed: a child process runs an
// agent whose MCP tool (the everything server's trigger-elicitation-request, over stdio) asks the user;
// once `elicitation.required` is out (the child says so: a handshake), the child is SIGKILLed. The next
// process restores the session: the elicitation is closed as cancel (closedBy 'restore', written with the
// restore), `elicitation.resolved` says so, a late answer is refused, and the tool call that waited gets
// tool_interrupted — it is not run again by itself.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, expect, it } from 'vitest'
import {
  AgentController, ControllerEventTypes, createAgent, ElicitationAction, ElicitationClosedBy, ElicitationResolvedEvent, ErrorCodes,
  FileStateStorage, RestoreKind, ScriptedProvider, ScriptedTurn, SessionStatus, type PendingElicitation,
} from '../../src/index'
import { everythingBin } from './fixtures/reference-servers'

const repoRoot = path.resolve(__dirname, '../../..')
const dirs: string[] = []
afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }) })

it('killed while an elicitation waits: restore closes it as cancel, the tool call is interrupted, a late answer is refused', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-eli-kill-'))
  dirs.push(dir)
  const sid = 'eli-kill'
  const script = path.join(dir, 'child.mts')
  fs.writeFileSync(script, `import { AgentController, ControllerEventTypes, createAgent, FileStateStorage, ScriptedProvider,
  ScriptedTurn } from ${JSON.stringify(path.join(repoRoot, 'shared-ts/src/index.ts'))}
import { McpToolSource } from ${JSON.stringify(path.join(repoRoot, 'shared-ts/src/mcp.ts'))}
const controller = new AgentController()
const source = new McpToolSource({ name: 'everything', command: process.execPath, args: [${JSON.stringify(everythingBin)}, 'stdio'],
  elicitation: controller.serverRequests })
let tools = await source.tools()
for (let i = 0; i < 20 && !tools.some((t) => t.definition.name === 'everything__trigger-elicitation-request'); i++) {
  source.invalidateTools()
  tools = await source.tools()
}
controller.subscribe(ControllerEventTypes.elicitationRequired, (e) => {
  process.stdout.write('ELICITING ' + e.elicitation.elicitationId + '\\n')
})
let n = 0
const agent = createAgent({ sessionId: ${JSON.stringify(sid)}, tools, controller, storage: new FileStateStorage(${JSON.stringify(dir)}),
  model: ScriptedProvider.fromFunction(() => n++ === 0 ? new ScriptedTurn().call('c1', 'everything__trigger-elicitation-request', '{}') :
    ScriptedTurn.text('done')) })
await agent.runtime.run('ask me something')
process.stdout.write('FINISHED\\n')
`)
  const loader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href
  const child = spawn(process.execPath, ['--import', loader, script], { stdio: ['ignore', 'pipe', 'inherit'] })
  const id = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /ELICITING (\S+)\n/.exec(out)
      if (m !== null) resolve(m[1])
    })
    child.on('exit', (code) => reject(new Error(`child exited (${code}) before asking: ${out}`)))
  })
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  child.kill('SIGKILL')
  await exited

  // The stored session holds the pending elicitation: it was written before the event.
  const peek = await new FileStateStorage(dir, undefined, { lock: false }).load(sid)
  expect(peek?.state.elicitations.map((e) => [e.elicitationId, e.action])).toEqual([[id, ElicitationAction.pending]])

  const controller = new AgentController()
  const resolved: PendingElicitation[] = []
  controller.subscribe(ControllerEventTypes.elicitationResolved, (e) => { resolved.push((e as ElicitationResolvedEvent).elicitation) })
  const provider = new ScriptedProvider([ScriptedTurn.text('The form could not be shown; ask again if you need it.')])
  const storage = new FileStateStorage(dir)
  const agent = createAgent({ sessionId: sid, model: provider, storage, controller })
  const report = await agent.runtime.restore()
  expect([report.kind, report.interruptedCalls]).toEqual([RestoreKind.interrupted, 1])
  expect(resolved.map((e) => [e.elicitationId, e.action, e.closedBy])).toEqual([[id, ElicitationAction.cancel, ElicitationClosedBy.restore]])
  expect(controller.serverRequests.pending()).toEqual([])
  const late = await controller.serverRequests.accept(id, { name: 'Ada' })
  expect([late.ok, late.error?.code]).toEqual([false, ErrorCodes.elicitationClosed])
  // Written with the restore: a reader sees it closed.
  const after = await new FileStateStorage(dir, undefined, { lock: false }).load(sid)
  expect(after?.state.elicitations.map((e) => [e.action, e.closedBy])).toEqual([[ElicitationAction.cancel, ElicitationClosedBy.restore]])
  // The interrupted run goes on without running the tool again: its call is answered tool_interrupted.
  const outcome = await agent.runtime.runStream([])
  expect(outcome.status).toBe('completed')
  const history = agent.runtime.snapshot().history
  const result = history.find((m) => m.toolCallId === 'c1')
  expect([result?.isError, result?.errorCode]).toEqual([true, ErrorCodes.toolInterrupted])
  expect(provider.callCount).toBe(1)
  expect(agent.runtime.snapshot().status).toBe(SessionStatus.completed)
  agent.runtime.dispose()
  await storage.close()
})
