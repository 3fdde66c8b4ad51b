// A stranger's first script, in plain ESM JavaScript, against the installed tarball.
import { AgentRuntime, AgentRuntimeConfig, ApprovalPolicyHook, AgentHookPipeline, FunctionTool, MemoryStateStorage,
  RunStatus, ScriptedProvider, ScriptedTurn, ToolDefinition, ToolRegistry, ToolRiskLevel } from '@arkagent/core'

let deleted = 0
const deleteTool = new FunctionTool(
  new ToolDefinition('delete_file', 'Deletes a file', { type: 'object', properties: { path: { type: 'string' } } }, ToolRiskLevel.dangerous),
  async () => { deleted++; return 'deleted' })
const provider = ScriptedProvider.fromFunction((request) =>
  request.messages[request.messages.length - 1].role === 'user'
    ? ScriptedTurn.text('Deleting it.').call('c1', 'delete_file', '{"path":"/tmp/x"}')
    : ScriptedTurn.text('Done.'))
const config = new AgentRuntimeConfig('consumer', provider)
config.tools = new ToolRegistry([deleteTool])
config.hooks = new AgentHookPipeline([new ApprovalPolicyHook()])
config.storage = new MemoryStateStorage()
const runtime = new AgentRuntime(config)

const first = await runtime.run('Delete /tmp/x')
if (first.status !== RunStatus.suspended || deleted !== 0) throw new Error(`expected a suspended run, got ${first.status}`)
const batch = runtime.controller.pendingBatch()
await runtime.controller.approve(batch.items[0].approvalId)
await runtime.whenIdle()
if (deleted !== 1 || runtime.snapshot().status !== 'completed') throw new Error(`approval did not run the tool once (${deleted})`)
console.log('consumer session: suspended for approval, approved, tool ran once, completed')
