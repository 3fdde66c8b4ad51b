// Load scenario, run as its own process with --expose-gc (see Load.test.ts): N concurrent sessions
// in one process on the ScriptedProvider, each with a tool batch that needs approval. Prints one
// JSON line with the results.
import {
  AgentController,
  AgentHookPipeline,
  AgentRuntime,
  AgentRuntimeConfig,
  ApprovalPolicyHook,
  ControllerEventTypes,
  EventBus,
  FunctionTool,
  MemoryStateStorage,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  SessionStatus,
  ToolDefinition,
  ToolRegistry,
  ToolRiskLevel
} from '../../src/index'
import { expectPaired } from '../runtime/helpers'

const sessions = Number(process.argv[2] ?? '1000')
const gc = (globalThis as { gc?: () => void }).gc

function heap(): number {
  if (gc !== undefined) {
    gc()
    gc()
  }
  return process.memoryUsage().heapUsed
}

const bus = new EventBus()
let executions = 0
const tools = (): ToolRegistry => new ToolRegistry([
  new FunctionTool(new ToolDefinition('lookup', 'safe lookup', { type: 'object' }), async () => { executions++; return 'found' }),
  new FunctionTool(new ToolDefinition('write', 'dangerous write', { type: 'object' }, ToolRiskLevel.dangerous),
    async () => { executions++; return 'written' })
], 0)

async function main(): Promise<void> {
  const storage = new MemoryStateStorage()
  bus.subscribe(ControllerEventTypes.agentFailed, () => {})   // the app's own, permanent listener
  const baselineListeners = bus.listenerCount()
  const before = heap()
  let runtimes: AgentRuntime[] = []
  let peakListeners = 0
  const one = async (i: number): Promise<string> => {
    const provider = ScriptedProvider.fromFunction((req) => req.messages[req.messages.length - 1].role === 'tool' ?
      ScriptedTurn.text(`session ${i} done`) :
      ScriptedTurn.text(`working on ${i}`).call(`l${i}`, 'lookup', '{}').call(`w${i}`, 'write', `{"n":${i}}`))
    const cfg = new AgentRuntimeConfig(`load-${i}`, provider)
    cfg.tools = tools()
    cfg.hooks = new AgentHookPipeline([new ApprovalPolicyHook()])
    cfg.storage = storage
    cfg.controller = new AgentController(bus)
    const rt = new AgentRuntime(cfg)
    runtimes.push(rt)
    // A UI subscribing for the session's lifetime and unsubscribing at the end.
    let events = 0
    const off = rt.controller.subscribeAll(() => { events++ })
    peakListeners = Math.max(peakListeners, bus.listenerCount())
    const first = await rt.run(`task ${i}`)
    if (first.status !== RunStatus.suspended) return `suspended expected, got ${first.status}`
    for (const item of rt.controller.listPendingApprovals()) await rt.controller.approve(item.approvalId)
    await rt.whenIdle()
    off()
    const st = rt.snapshot()
    expectPaired(st.history)
    return st.status === SessionStatus.completed && events > 0 ? 'ok' : `status ${st.status}`
  }
  const results = await Promise.all(Array.from({ length: sessions }, (_, i) => one(i)))
  const afterRuns = heap()
  const completed = results.filter((r) => r === 'ok').length
  const listenersAfter = bus.listenerCount()
  for (const rt of runtimes) rt.dispose()
  runtimes = []
  for (let i = 0; i < sessions; i++) await storage.delete(`load-${i}`)
  const afterDrop = heap()
  process.stdout.write(JSON.stringify({
    sessions, completed, failures: results.filter((r) => r !== 'ok').slice(0, 5), executions,
    baselineListeners, peakListeners, listenersAfter, gc: gc !== undefined,
    heapBefore: before, heapAfterRuns: afterRuns, heapAfterDrop: afterDrop,
    perSessionBytes: Math.round((afterRuns - before) / sessions),
    retainedAfterDropBytes: afterDrop - before
  }) + '\n')
}

main().catch((e) => {
  process.stdout.write(JSON.stringify({ error: String((e as Error).stack ?? e) }) + '\n')
  process.exitCode = 1
})
