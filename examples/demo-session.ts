// One phase of the demo, run in its own process: `ask`, `decide` or `loop`.
// Each process builds its runtime from scratch and knows only what is on disk.
import path from 'node:path'
import fs from 'node:fs'
import {
  AgentHookPipeline,
  AgentRuntime,
  AgentRuntimeConfig,
  FileStateStorage,
  LoopDetector,
  LoopDetectorOptions,
  ScriptedProvider,
  ToolRegistry,
} from '../shared-ts/src/index'
import { buildStatusTool, c, cleanupModel, loopingModel, narrate, RedactSecretsHook, sandboxTools } from './demo-support'

const [phase, dir] = process.argv.slice(2)
if (!phase || !dir) {
  console.error('usage: demo-session.ts ask|decide|loop <dir>')
  process.exit(2)
}
const storage = new FileStateStorage(path.join(dir, 'sessions'))
const sandbox = path.join(dir, 'sandbox')

function cleanupRuntime(): AgentRuntime {
  const cfg = new AgentRuntimeConfig('cleanup', ScriptedProvider.fromFunction(cleanupModel))
  cfg.systemPrompt = 'You are a careful file assistant.'
  cfg.tools = new ToolRegistry(sandboxTools(sandbox))
  // Dangerous tools wait for the user: the runtime's approval policy (cfg.approvalPolicy) is on by default.
  cfg.hooks = new AgentHookPipeline([new RedactSecretsHook()])
  cfg.storage = storage
  return new AgentRuntime(cfg)
}

async function ask(): Promise<void> {
  const runtime = cleanupRuntime()
  narrate(runtime.controller.eventBus)
  await runtime.restore()
  const outcome = await runtime.run('Please tidy up my downloads folder.')
  console.log(`\n  outcome: ${outcome.status} (${outcome.stopReason})`)
  const pending = runtime.controller.listPendingApprovals()
  console.log(`  ${pending.length} approvals pending on disk. This process now exits (pid ${process.pid}).`)
}

async function decide(): Promise<void> {
  const runtime = cleanupRuntime()
  narrate(runtime.controller.eventBus)
  const report = await runtime.restore()
  console.log(`  new process (pid ${process.pid}) restored the session: ${c.bold(report.kind)}, ` +
    `${report.historyLength} messages in history`)
  for (const item of report.pendingApprovals) {
    console.log(`      • ${item.approvalId}  ${item.toolCall.name} ${c.dim(item.toolCall.argumentsJson)}`)
  }
  const [first, second] = report.pendingApprovals
  await runtime.controller.approve(first.approvalId)
  await runtime.controller.deny(second.approvalId, 'keep it for now')
  await runtime.whenIdle()
  const state = runtime.snapshot()
  console.log(`\n  session status: ${state.status}; sandbox now holds: ${fs.readdirSync(sandbox).sort().join(', ')}`)
}

async function loop(): Promise<void> {
  const options = new LoopDetectorOptions()
  options.repeatThreshold = 3
  const cfg = new AgentRuntimeConfig('looping', ScriptedProvider.fromFunction(loopingModel))
  cfg.tools = new ToolRegistry([buildStatusTool()])
  cfg.loopDetector = new LoopDetector(options)
  cfg.storage = storage
  const runtime = new AgentRuntime(cfg)
  narrate(runtime.controller.eventBus)
  await runtime.restore()
  const outcome = await runtime.run('Wait until the nightly build is green.')
  console.log(`\n  outcome: ${outcome.status} (${outcome.error?.code ?? outcome.stopReason})`)
}

const phases: Record<string, () => Promise<void>> = { ask, decide, loop }
const run = phases[phase]
if (run === undefined) {
  console.error(`unknown phase '${phase}'`)
  process.exit(2)
}
run().catch((e: unknown) => {
  console.error(c.red(`demo phase '${phase}' failed: ${e instanceof Error ? e.stack : String(e)}`))
  process.exit(1)
})
