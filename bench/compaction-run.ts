// `npm run bench`, section 9 (its own process, after the others): what a turn costs as a session's
// history grows from 10 to 10,000 messages, with and without context compaction. Each turn's request
// is encoded for the wire (what a real provider does before sending), so its size and the time to
// build and encode it are what is measured. Appends its rows to bench/results.json and prints them.
import { promises as fs } from 'node:fs'
import path from 'node:path'
import {
  AgentRuntime, AgentRuntimeConfig, CompactionOptions, MemoryStateStorage, ModelRequest, ScriptedProvider, ScriptedTurn,
  TokenEstimator,
} from '../shared-ts/src/index'
import { encodeChatRequest, WireRequestOptions } from '../shared-ts/src/core/provider/OpenAIWireFormat'
import { fmt, gc, stats, Stats } from './lib'

const SIZES = [10, 100, 1000, 10_000]
const WINDOW = 16_000

interface Probe { bytes: number, tokens: number }

function session(compact: boolean, probe: Probe): AgentRuntime {
  const provider = ScriptedProvider.fromFunction((request: ModelRequest) => {
    if (request.messages[0]?.text().startsWith('You compact a conversation')) {
      return ScriptedTurn.text('The user asked numbered questions about the project; each was answered in full.')
    }
    const wire = encodeChatRequest(request, new WireRequestOptions('bench-model', {}))
    probe.bytes = wire.length
    probe.tokens = TokenEstimator.messages(request.messages)
    return ScriptedTurn.text(`Answer: ${'a sentence of a typical answer about the code; '.repeat(6)}`)
  })
  const cfg = new AgentRuntimeConfig(compact ? 'bench-compact' : 'bench-plain', provider)
  cfg.storage = new MemoryStateStorage()
  cfg.systemPrompt = 'You are a helpful assistant for a software project.'
  if (compact) {
    const o = new CompactionOptions()
    o.contextWindow = WINDOW
    o.outputReserve = 2000
    cfg.compaction = o
  }
  return new AgentRuntime(cfg)
}

interface Point { messages: number, bytes: number, tokens: number, turnMs: Stats }

async function series(compact: boolean, turns: number): Promise<Point[]> {
  const probe: Probe = { bytes: 0, tokens: 0 }
  const runtime = session(compact, probe)
  const out: Point[] = []
  let asked = 0
  for (const size of SIZES) {
    // Grow the history to `size` messages (a question and an answer per run)...
    while (runtime.snapshot().history.length < size) {
      await runtime.run(`question ${asked++}: ${'how does this part of the code work? '.repeat(3)}`)
    }
    // ...note the next request (history of `size` plus the question)...
    await runtime.run(`question ${asked++}: ${'how does this part of the code work? '.repeat(3)}`)
    const point = { messages: size, bytes: probe.bytes, tokens: probe.tokens }
    // ...then time the turns after it.
    const samples: number[] = []
    gc()
    for (let i = 0; i < turns; i++) {
      const t0 = process.hrtime.bigint()
      await runtime.run(`question ${asked++}: ${'how does this part of the code work? '.repeat(3)}`)
      samples.push(Number(process.hrtime.bigint() - t0) / 1e6)
    }
    out.push({ ...point, turnMs: stats(samples) })
  }
  return out
}

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick')
  const turns = quick ? 3 : 5
  const plain = await series(false, turns)
  const compact = await series(true, turns)
  const sec = `9. context compaction (window ${fmt(WINDOW)} tokens)`
  const lines = ['', '| Section | Measure | Median | Spread (min–max) | Target | Met |', '|---|---|---|---|---|---|']
  for (let i = 0; i < SIZES.length; i++) {
    for (const [name, p] of [['whole history', plain[i]], ['compacted', compact[i]]] as const) {
      lines.push(`| ${sec} | ${fmt(SIZES[i])} msgs, ${name}: request | ${fmt(p.bytes)} B, ≈${fmt(p.tokens)} tokens | | | |`)
      lines.push(`| ${sec} | ${fmt(SIZES[i])} msgs, ${name}: time per turn | ${fmt(p.turnMs.median, 3)} ms | ${fmt(p.turnMs.min, 3)}–${fmt(p.turnMs.max, 3)} ms | | |`)
    }
  }
  const last = SIZES.length - 1
  const sizeRatio = plain[last].bytes / compact[last].bytes
  const timeRatio = plain[last].turnMs.median / compact[last].turnMs.median
  const flat = compact[last].bytes / compact[last - 1].bytes
  lines.push(`| ${sec} | 10,000 msgs: whole ÷ compacted request size | ${fmt(sizeRatio, 1)}× | | | |`)
  lines.push(`| ${sec} | 10,000 msgs: whole ÷ compacted time per turn | ${fmt(timeRatio, 1)}× | | | |`)
  lines.push(`| ${sec} | compacted request at 10,000 ÷ at 1,000 msgs | ${fmt(flat, 2)}× | | ≤ 1.5× (flat) | ${flat <= 1.5 ? 'yes' : '**no**'} |`)
  const table = lines.join('\n')
  process.stdout.write(table + '\n')
  const file = path.resolve('bench', 'results.json')
  const json = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>
  json.compaction = { plain, compact, sizeRatio, timeRatio, flat }
  json.compactionTable = table
  await fs.writeFile(file, JSON.stringify(json, null, 2) + '\n')
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`)
  process.exit(1)
})
