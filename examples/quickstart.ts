// The README's Node example: a hook, a dangerous tool, approve after a reload.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  AgentHook, AgentHookPipeline, AgentRuntime, AgentRuntimeConfig, ApprovalPolicyHook, FileStateStorage,
  FunctionTool, ModelChunkHookContext, ModelChunkHookResult, ScriptedProvider, ScriptedTurn, ToolDefinition,
  ToolRegistry, ToolRiskLevel,
} from '@arkagent/core'

class NoSwearing extends AgentHook {
  async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
    return ModelChunkHookResult.proceed(ctx.text.replace(/darn/gi, 'd**n'))
  }
}

function makeRuntime(storage: FileStateStorage): AgentRuntime {
  const model = ScriptedProvider.fromFunction((request) =>            // a real app uses OpenAICompatibleProvider
    request.messages[request.messages.length - 1].role === 'tool'
      ? ScriptedTurn.text('Cache wiped.')
      : ScriptedTurn.text('Removing the darn ', 'cache.').call('c1', 'wipe_cache', '{}'))
  const config = new AgentRuntimeConfig('demo-session', model)
  config.tools = new ToolRegistry([new FunctionTool(
    new ToolDefinition('wipe_cache', 'Delete the app cache', { type: 'object' }, ToolRiskLevel.dangerous),
    async () => 'cache wiped')])
  config.hooks = new AgentHookPipeline([new NoSwearing(), new ApprovalPolicyHook()])
  config.storage = storage
  return new AgentRuntime(config)
}

const dir = path.join(os.tmpdir(), `arkagent-quickstart-${process.pid}`)
const firstStorage = new FileStateStorage(dir)                             // locks the session directory
const first = makeRuntime(firstStorage)
console.log((await first.run('Please wipe the cache')).stopReason)       // awaiting_approval
await firstStorage.close()                 // the app is killed (a dead process's lock is found stale)

const second = makeRuntime(new FileStateStorage(dir))                      // e.g. after the app was killed
const report = await second.restore()                                       // kind: 'awaiting_approval'
await second.controller.approve(report.pendingApprovals[0].approvalId)     // the run continues by itself
await second.whenIdle()
console.log(second.snapshot().history.map((m) => `${m.role}: ${m.text()}`).join('\n'))
fs.rmSync(dir, { recursive: true, force: true })
