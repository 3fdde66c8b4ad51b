// The optional entries, once the app installed their peers: @arkagent/core/mcp against the example
// MCP server over stdio (a destructive tool waits for approval, then runs once) and
// @arkagent/core/zod (a zod tool refuses bad arguments, takes good ones).
import { createAgent, ScriptedProvider, ScriptedTurn, ToolRegistry } from '@arkagent/core'
import { McpToolSource } from '@arkagent/core/mcp'
import { zodTool } from '@arkagent/core/zod'
import { z } from 'zod'

const notes = new McpToolSource({ name: 'notes', command: process.execPath, args: ['notes-server.mjs'] })
const weather = zodTool({
  name: 'weather', description: 'Weather for a city', schema: z.object({ city: z.string().min(1) }),
  execute: async ({ city }) => `${city}: 21 C`,
})
let turn = 0
const model = ScriptedProvider.fromFunction(() => {
  turn++
  if (turn === 1) return ScriptedTurn.text('').call('c1', 'weather', '{"city":""}')
  if (turn === 2) return ScriptedTurn.text('').call('c2', 'weather', '{"city":"Shenzhen"}')
  if (turn === 3) return ScriptedTurn.text('').call('c3', 'notes__delete_note', '{"name":"welcome"}')
  return ScriptedTurn.text('done')
})
try {
  const registry = new ToolRegistry([weather, ...await notes.tools()])
  const { runtime } = createAgent({ sessionId: 'peers', model, registry })
  const first = await runtime.run('weather, then delete the welcome note')
  if (first.stopReason !== 'awaiting_approval') throw new Error(`expected a wait for approval, got ${first.stopReason}`)
  const results = runtime.snapshot().history.filter((m) => m.role === 'tool').map((m) => m.text())
  if (!/city/.test(results[0]) || results[1] !== 'Shenzhen: 21 C') throw new Error(`zod tool results: ${JSON.stringify(results)}`)
  const pending = runtime.controller.listPendingApprovals()
  await runtime.controller.approve(pending[0].approvalId)
  await runtime.whenIdle()
  const last = runtime.snapshot().history.filter((m) => m.role === 'tool').map((m) => m.text())
  if (last.filter((t) => t === 'deleted welcome').length !== 1) throw new Error(`delete_note results: ${JSON.stringify(last)}`)
} finally {
  await notes.close()
}
console.log('optional entries: zod tool refused bad arguments and ran good ones; MCP delete waited for approval, ran once')
