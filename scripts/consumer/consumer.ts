// A TypeScript consumer: type-checked against the installed tarball (its optional peers installed)
// under node16 and bundler resolution.
import { AgentRuntime, AgentRuntimeConfig, ScriptedProvider, ScriptedTurn, type RunOutcome } from '@arkagent/core'
import { ApprovalDecision } from '@arkagent/core/core'

export async function main(): Promise<string> {
  const runtime = new AgentRuntime(new AgentRuntimeConfig('typed', new ScriptedProvider([ScriptedTurn.text('hi')])))
  const outcome: RunOutcome = await runtime.run('hello')
  const decision: string = ApprovalDecision.approved
  return `${outcome.status} ${decision}`
}

// The optional entries type-check with their peers installed.
import { McpToolSource, type McpServerSpec } from '@arkagent/core/mcp'
import { zodTool } from '@arkagent/core/zod'
import { z } from 'zod'

export function optional(): string {
  const spec: McpServerSpec = { name: 'notes', command: 'node', args: ['notes-server.mjs'] }
  const source = new McpToolSource(spec)
  const tool = zodTool({ name: 'echo', description: 'Echo', schema: z.object({ text: z.string() }), execute: async ({ text }) => text })
  return `${source.constructor.name} ${tool.definition.name}`
}
