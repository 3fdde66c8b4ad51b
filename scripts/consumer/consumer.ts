// A TypeScript consumer: type-checked against the installed tarball under node16 and bundler resolution.
import { AgentRuntime, AgentRuntimeConfig, ScriptedProvider, ScriptedTurn, type RunOutcome } from '@arkagent/core'
import { ApprovalDecision } from '@arkagent/core/core'

export async function main(): Promise<string> {
  const runtime = new AgentRuntime(new AgentRuntimeConfig('typed', new ScriptedProvider([ScriptedTurn.text('hi')])))
  const outcome: RunOutcome = await runtime.run('hello')
  const decision: string = ApprovalDecision.approved
  return `${outcome.status} ${decision}`
}
