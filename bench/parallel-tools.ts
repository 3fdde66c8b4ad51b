// `npm run bench`, section 12, "parallel tools": one model turn asks for 8 I/O-bound tool calls of 100 ms
// each (a timer). Measured: the whole run, divided by the longest single call measured in the same
// run — ours with the 8 tools concurrent (maxConcurrentTools 8), ours serial (the baseline), and the
// same batch through the OpenAI Agents SDK (which runs a turn's function calls together). Ratios within
// one run; results merged into bench/results.json under `parallelTools`.
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { Agent, run, setTracingDisabled, tool, Usage } from '@openai/agents'
import type { Model, ModelRequest, ModelResponse, StreamEvent } from '@openai/agents'
import {
  AgentRuntime, AgentRuntimeConfig, FunctionTool, ScriptedProvider, ScriptedTurn, ToolConcurrency, ToolDefinition, ToolRegistry,
} from '../shared-ts/src/index'
import { check, fmt, stats, Stats } from './lib'

const quick = process.argv.includes('--quick')
const CALLS = 8
const CALL_MS = 100
const ROUNDS = quick ? 3 : 7

/** Tools that wait CALL_MS and record how long each call took, as the tool saw it. */
class Timed {
  readonly durations: number[] = []

  async call(): Promise<string> {
    const t0 = performance.now()
    await new Promise((r) => setTimeout(r, CALL_MS))
    this.durations.push(performance.now() - t0)
    return 'done'
  }
}

async function ours(concurrency: ToolConcurrency, limit: number): Promise<[number, number]> {
  const timed = new Timed()
  let turn = ScriptedTurn.text('')
  for (let i = 0; i < CALLS; i++) turn = turn.call(`c${i}`, `io${i}`, '{}')
  const cfg = new AgentRuntimeConfig('bench-parallel', new ScriptedProvider([turn, ScriptedTurn.text('done')]))
  cfg.tools = new ToolRegistry(Array.from({ length: CALLS }, (_, i) =>
    new FunctionTool(new ToolDefinition(`io${i}`, 'waits', { type: 'object' }, undefined, concurrency), () => timed.call())))
  cfg.maxConcurrentTools = limit
  const rt = new AgentRuntime(cfg)
  const t0 = performance.now()
  const outcome = await rt.run('go')
  const ms = performance.now() - t0
  check(outcome.status === 'completed', `run ended ${outcome.status}`)
  check(timed.durations.length === CALLS, 'every call ran')
  return [ms, Math.max(...timed.durations)]
}

/** A fake Agents SDK model: the first response asks for CALLS function calls, the second answers. */
class BatchModel implements Model {
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const input = Array.isArray(request.input) ? request.input : []
    const answered = input.some((item) => ['function_call_output', 'function_call_result'].includes(String((item as { type?: string }).type)))
    const output = answered ?
      [{ type: 'message' as const, id: 'm', role: 'assistant' as const, status: 'completed' as const, content: [{ type: 'output_text' as const, text: 'done' }] }] :
      Array.from({ length: CALLS }, (_, i) => ({ type: 'function_call' as const, callId: `c${i}`, name: `io${i}`, arguments: '{}', status: 'completed' as const }))
    return { usage: new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 }), output, responseId: 'r' }
  }

  // eslint-disable-next-line require-yield
  async *getStreamedResponse(): AsyncIterable<StreamEvent> {
    throw new Error('not streamed here')
  }
}

async function agentsSdk(): Promise<[number, number]> {
  setTracingDisabled(true)
  const timed = new Timed()
  const tools = Array.from({ length: CALLS }, (_, i) => tool({
    name: `io${i}`, description: 'waits', strict: false,
    parameters: { type: 'object', properties: {}, additionalProperties: true, required: [] },
    execute: () => timed.call(),
  }))
  const agent = new Agent({ name: 'bench', instructions: 'call tools', model: new BatchModel(), tools })
  const t0 = performance.now()
  const result = await run(agent, 'go')
  const ms = performance.now() - t0
  check(result.finalOutput === 'done', `agents final output ${String(result.finalOutput)}`)
  check(timed.durations.length === CALLS, `agents ran ${timed.durations.length} calls`)
  return [ms, Math.max(...timed.durations)]
}

async function measure(what: () => Promise<[number, number]>): Promise<{ ratio: Stats, runMs: Stats }> {
  await what()
  const ratios: number[] = []
  const runs: number[] = []
  for (let r = 0; r < ROUNDS; r++) {
    const [ms, longest] = await what()
    ratios.push(ms / longest)
    runs.push(ms)
  }
  return { ratio: stats(ratios), runMs: stats(runs) }
}

async function main(): Promise<void> {
  const parallel = await measure(() => ours(ToolConcurrency.concurrent, CALLS))
  const defaultLimit = await measure(() => ours(ToolConcurrency.concurrent, 4))
  const serial = await measure(() => ours(ToolConcurrency.serial, CALLS))
  const agents = await measure(() => agentsSdk())
  const lines = [
    '| Section | Measure | Median | Spread (min–max) | Target | Met |',
    '|---|---|---|---|---|---|',
    `| 12. parallel tools (8 × ${CALL_MS} ms) | parallel batch ÷ longest single call (ours, concurrent, limit 8) | ${fmt(parallel.ratio.median, 3)}× | ${fmt(parallel.ratio.min, 3)}–${fmt(parallel.ratio.max, 3)} | ≤ 1.25× | ${parallel.ratio.median <= 1.25 ? 'yes' : '**no**'} |`,
    `| 12. parallel tools (8 × ${CALL_MS} ms) | parallel batch ÷ longest single call (ours, concurrent, default limit 4) | ${fmt(defaultLimit.ratio.median, 3)}× | ${fmt(defaultLimit.ratio.min, 3)}–${fmt(defaultLimit.ratio.max, 3)} | | |`,
    `| 12. parallel tools (8 × ${CALL_MS} ms) | serial batch ÷ longest single call (ours, serial tools) | ${fmt(serial.ratio.median, 3)}× | ${fmt(serial.ratio.min, 3)}–${fmt(serial.ratio.max, 3)} | | |`,
    `| 12. parallel tools (8 × ${CALL_MS} ms) | parallel batch ÷ longest single call (@openai/agents run) | ${fmt(agents.ratio.median, 3)}× | ${fmt(agents.ratio.min, 3)}–${fmt(agents.ratio.max, 3)} | | |`,
    `| 12. parallel tools (8 × ${CALL_MS} ms) | whole run, ours parallel ÷ @openai/agents | ${fmt(parallel.runMs.median / agents.runMs.median, 3)}× | | | |`,
  ]
  process.stdout.write(lines.join('\n') + '\n')
  const out = path.resolve('bench', 'results.json')
  let json: Record<string, unknown> = {}
  try { json = JSON.parse(await fs.readFile(out, 'utf8')) as Record<string, unknown> } catch { /* first run */ }
  json.parallelTools = { calls: CALLS, callMs: CALL_MS, parallel, defaultLimit, serial, agents, table: lines.join('\n') }
  await fs.writeFile(out, JSON.stringify(json, null, 2) + '\n')
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`)
  process.exit(1)
})
