// The README's Node example: a hook, a dangerous tool, approve after a restart.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  AgentHook, createAgent, FileStateStorage, FunctionTool, ModelChunkHookContext, ModelChunkHookResult,
  ScriptedProvider, ScriptedTurn, ToolDefinition, ToolRiskLevel,
} from '@arkagent/core'

class NoSwearing extends AgentHook {
  async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
    return ModelChunkHookResult.proceed(ctx.text.replace(/darn/gi, 'd**n'))
  }
}

const model = ScriptedProvider.fromFunction((request) =>          // a real app: OpenAICompatibleProvider.fromPreset(...)
  request.messages[request.messages.length - 1].role === 'tool'
    ? ScriptedTurn.text('Cache wiped.')
    : ScriptedTurn.text('Removing the darn ', 'cache.').call('c1', 'wipe_cache', '{}'))
const wipeCache = new FunctionTool(
  new ToolDefinition('wipe_cache', 'Delete the app cache', { type: 'object' }, ToolRiskLevel.dangerous),
  async () => 'cache wiped')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-quickstart-'))

// One call: your hooks, then approval for dangerous tools, loop detection, durable storage.
const storage = new FileStateStorage(dir)                  // locks the session directory while in use
const first = createAgent({ sessionId: 'demo', model, tools: [wipeCache], hooks: [new NoSwearing()], storage })
console.log((await first.runtime.run('Please wipe the cache')).stopReason)       // awaiting_approval
await storage.close()                                      // releases the lock, as a process that exits does

// Later, in a new process: restore, approve; the run continues by itself.
const second = createAgent({ sessionId: 'demo', model, tools: [wipeCache], hooks: [new NoSwearing()],
  storage: new FileStateStorage(dir) })
const report = await second.runtime.restore()                                     // kind: awaiting_approval
await second.controller.approve(report.pendingApprovals[0].approvalId)
await second.runtime.whenIdle()
console.log(second.runtime.snapshot().history.map((m) => `${m.role}: ${m.text()}`).join('\n'))
fs.rmSync(dir, { recursive: true, force: true })
