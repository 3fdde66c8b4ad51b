// `npm run bench`: the performance figures of docs/performance.md, measured in one process.
// Prints a markdown table and writes bench/results.json. Not part of `npm test`.
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { chunkCases, chunkTexts } from './chunks'
import { check, environment, fmt, gc, measure, stats, Stats } from './lib'
import {
  busWithListeners, LoopFixture, loopDetector, loopMemory, publishFresh, publishPrebuilt, recordCalls,
} from './micro'
import { aiSdkCase, agentsSdkCase } from './peers'
import { persistenceBench, PersistRow } from './persist'
import { buildSseFixture, decodeOurs, decodePeer } from './sse'
import { officialClient, ourPath, PathRun, streamBody, StreamServer } from './http'
import { LlmChunkEvent, LoopDetector } from '../shared-ts/src/index'
import { loadCorpus, median, scoreCorpus } from '../shared-ts/test/loop/corpus/runCorpus'
import { scoreThroughRuntime } from '../shared-ts/test/loop/corpus/runtimePlayer'

const quick = process.argv.includes('--quick')
const CHUNKS = 100_000
const ROUNDS = quick ? 3 : 7
const WARMUP_ROUNDS = 2

interface Row {
  section: string
  measure: string
  median: string
  spread: string
  target: string
  met: string
}

const rows: Row[] = []
const json: Record<string, unknown> = {}

function spread(s: Stats, digits: number, scale: (x: number) => number = (x) => x): string {
  const a = scale(s.min)
  const b = scale(s.max)
  return `${fmt(Math.min(a, b), digits)}–${fmt(Math.max(a, b), digits)}`
}

function row(section: string, measure: string, median: string, spreadText: string, target: string = '', met: boolean | null = null): void {
  rows.push({ section, measure, median, spread: spreadText, target, met: met === null ? '' : met ? 'yes' : '**no**' })
}

function log(msg: string): void {
  process.stderr.write(`[bench] ${msg}\n`)
}

async function main(): Promise<void> {
  const env = environment()
  json.environment = env
  json.date = new Date().toISOString()
  log(env)
  check(typeof (globalThis as { gc?: () => void }).gc === 'function', 'run with node --expose-gc (npm run bench)')

  // ---- 1. chunk path ----
  const texts = chunkTexts(CHUNKS)
  const cases = chunkCases(texts)
  const samples: number[][] = cases.map(() => [])
  for (let r = 0; r < WARMUP_ROUNDS + ROUNDS; r++) {
    for (let c = 0; c < cases.length; c++) {
      gc()
      const t0 = process.hrtime.bigint()
      await cases[c].run()
      const ms = Number(process.hrtime.bigint() - t0) / 1e6
      if (r >= WARMUP_ROUNDS) samples[c].push(ms)
    }
    log(`chunk round ${r + 1}/${WARMUP_ROUNDS + ROUNDS}`)
  }
  const perSec = (ms: number): number => CHUNKS / (ms / 1000)
  const chunkStats = samples.map((s) => stats(s))
  const [forAwait, bare, rt0, rtOther, rt1, rt3] = chunkStats
  const chunkJson: Record<string, unknown> = {}
  for (let c = 0; c < cases.length; c++) {
    const s = chunkStats[c]
    chunkJson[cases[c].name] = { chunksPerSecMedian: perSec(s.median), msSamples: s.samples }
    const isRt3 = c === 5
    row('1. chunk path (100k chunks)', cases[c].name, `${fmt(perSec(s.median))} chunks/s`, spread(s, 0, perSec),
      isRt3 ? '≥ 500,000 chunks/s' : '', isRt3 ? perSec(s.median) >= 500_000 : null)
  }
  // Per-round paired differences give the hook cost with its own spread.
  const perHook = (withHooks: number[], base: number[], hooks: number): Stats =>
    stats(withHooks.map((ms, i) => ((ms - base[i]) * 1e6) / CHUNKS / hooks))
  const hook1 = perHook(samples[4], samples[2], 1)
  const hook3 = perHook(samples[5], samples[2], 3)
  const unused = perHook(samples[3], samples[2], 1)
  row('1. chunk path (100k chunks)', 'cost per chunk per pass-through hook (1 hook)', `${fmt(hook1.median, 1)} ns`, spread(hook1, 1),
    '≤ 500 ns', hook1.median <= 500)
  row('1. chunk path (100k chunks)', 'cost per chunk per pass-through hook (3 hooks)', `${fmt(hook3.median, 1)} ns`, spread(hook3, 1),
    '≤ 500 ns', hook3.median <= 500)
  const unusedRatio = rtOther.median / rt0.median
  row('1. chunk path (100k chunks)', 'cost per chunk of 3 hooks that do not override onModelChunk', `${fmt(unused.median, 1)} ns (×${fmt(unusedRatio, 3)} of 0 hooks)`,
    spread(unused, 1), '≈ 0 (≤ 5 % slower than 0 hooks)', unusedRatio <= 1.05)
  row('1. chunk path (100k chunks)', 'runtime (3 hooks) ÷ bare ScriptedProvider', `${fmt(bare.median / rt3.median, 2)}× the bare throughput`, '', '', null)
  chunkJson.nsPerChunkPerHook1 = hook1
  chunkJson.nsPerChunkPerHook3 = hook3
  chunkJson.nsPerChunkUnusedSlots = unused
  chunkJson.ratioRuntime3ToBare = perSec(rt3.median) / perSec(bare.median)
  chunkJson.ratioRuntime3ToForAwait = perSec(rt3.median) / perSec(forAwait.median)
  json.chunkPath = chunkJson

  // ---- 5. LoopDetector ----
  const fixture = new LoopFixture(1000)
  const LOOP_CALLS = 200_000
  const loopMs = await measure(1, ROUNDS, () => {
    recordCalls(loopDetector(), fixture, LOOP_CALLS)
  })
  const loopNs = stats(loopMs.map((ms) => (ms * 1e6) / LOOP_CALLS))
  const mem = loopMemory(fixture)
  const memDelta = mem.after1m - mem.after1k
  row('5. LoopDetector (window 50)', 'recordToolResult', `${fmt(loopNs.median, 0)} ns/call`, spread(loopNs, 0), '≤ 2,000 ns', loopNs.median <= 2000)
  row('5. LoopDetector (window 50)', 'heap after 1,000,000 calls − after 1,000 (after gc)',
    `${fmt(memDelta / 1024, 1)} KiB (${fmt(mem.after1k / 1048576, 1)} → ${fmt(mem.after1m / 1048576, 1)} MiB)`, '', 'flat', Math.abs(memDelta) < 1024 * 1024)
  // The labelled corpus (shared-ts/test/loop/corpus): false alarms, recall, detection delay.
  const corpus = loadCorpus(path.resolve('shared-ts', 'test', 'loop', 'corpus', 'corpus.jsonl'))
  const score = await scoreCorpus(() => new LoopDetector(), corpus)
  const recall = score.caught.length / score.loops
  const toolCaught = score.caught.filter((r) => r.verdict?.kind !== 'content')
  const turnsDelay = median(toolCaught.map((r) => r.turnsAfterStart))
  const contentCaught = score.caught.filter((r) => r.verdict?.kind === 'content')
  const charsDelay = median(contentCaught.map((r) => r.charsAfterStart))
  row('5. LoopDetector corpus (default options)', `corpus: false alarms on ${score.legit} legitimate outputs and traces`, `${score.falseAlarms.length + score.early.length}`, '', '0',
    score.falseAlarms.length + score.early.length === 0)
  row('5. LoopDetector corpus (default options)', `corpus: loops caught of ${score.loops}`, `${score.caught.length} (${fmt(100 * recall, 1)} %)`, '', '≥ 95 %', recall >= 0.95)
  row('5. LoopDetector corpus (default options)', `corpus: median delay of tool-call loops (${toolCaught.length})`, `${fmt(turnsDelay, 1)} turns after the loop starts`, '')
  row('5. LoopDetector corpus (default options)', `corpus: median delay of content loops (${contentCaught.length})`, `${fmt(charsDelay, 0)} characters after the loop starts`, '')
  // The same corpus played through a real AgentRuntime (the way the held-out corpus is scored):
  // a warning on a legitimate run makes the model answer again, a stop kills it.
  const viaRuntime = await scoreThroughRuntime(corpus)
  const runtimeRecall = viaRuntime.caught.length / viaRuntime.loops
  row('5. LoopDetector corpus through AgentRuntime', `legitimate runs warned / stopped (of ${viaRuntime.legit})`,
    `${viaRuntime.warned.length + viaRuntime.early.length} / ${viaRuntime.stopped.length}`, '', '0 / 0',
    viaRuntime.warned.length + viaRuntime.early.length + viaRuntime.stopped.length + viaRuntime.problems.length === 0)
  row('5. LoopDetector corpus through AgentRuntime', `loops warned about of ${viaRuntime.loops}`,
    `${viaRuntime.caught.length} (${fmt(100 * runtimeRecall, 1)} %)`, '', '≥ 95 %', runtimeRecall >= 0.95)
  const perFamily: Record<string, { cases: number, flagged: number }> = {}
  for (const c of corpus) {
    const f = perFamily[`${c.label}/${c.family}`] ?? (perFamily[`${c.label}/${c.family}`] = { cases: 0, flagged: 0 })
    f.cases++
  }
  for (const r of [...score.falseAlarms, ...score.early, ...score.caught]) perFamily[`${r.label}/${r.family}`].flagged++
  json.loopCorpus = { legit: score.legit, loops: score.loops, falseAlarms: score.falseAlarms.map((r) => r.id), early: score.early.map((r) => r.id),
    missed: score.missed.map((r) => r.id), recall, medianTurns: turnsDelay, medianContentChars: charsDelay, perFamily,
    runtime: { warned: viaRuntime.warned.map((r) => r.id), stopped: viaRuntime.stopped.map((r) => r.id), early: viaRuntime.early.map((r) => r.id),
      missed: viaRuntime.missed.map((r) => r.id), recall: runtimeRecall } }
  json.loopDetector = { nsPerCall: loopNs, heapAfter1k: mem.after1k, heapAfter1m: mem.after1m }

  // ---- 6. EventBus ----
  const PUBLISHES = 1_000_000
  const busJson: Record<string, unknown> = {}
  for (const k of [1, 10]) {
    const { bus, counter } = busWithListeners(k)
    const event = new LlmChunkEvent('s', 'r', 'tok', false)
    const pre = stats((await measure(1, ROUNDS, () => publishPrebuilt(bus, event, PUBLISHES))).map((ms) => (ms * 1e6) / PUBLISHES))
    const fresh = stats((await measure(1, ROUNDS, () => publishFresh(bus, PUBLISHES))).map((ms) => (ms * 1e6) / PUBLISHES))
    check(counter.n === (1 + ROUNDS) * 2 * PUBLISHES * k, `bus listeners saw ${counter.n}`)
    row('6. EventBus', `publish to ${k} listener${k > 1 ? 's' : ''} (event built once)`, `${fmt(pre.median, 1)} ns`, spread(pre, 1),
      k === 10 ? '≤ 1,000 ns' : '', k === 10 ? pre.median <= 1000 : null)
    row('6. EventBus', `new LlmChunkEvent + publish to ${k} listener${k > 1 ? 's' : ''}`, `${fmt(fresh.median, 1)} ns`, spread(fresh, 1),
      k === 10 ? '≤ 1,000 ns' : '', k === 10 ? fresh.median <= 1000 : null)
    busJson[`listeners${k}`] = { publishNs: pre, constructAndPublishNs: fresh }
  }
  json.eventBus = busJson

  // ---- 3. SSE decoding ----
  const sse = buildSseFixture(20 * 1024 * 1024)
  log(`SSE fixture: ${fmt(sse.bytes / 1048576, 1)} MiB, ${fmt(sse.events)} events, ${fmt(sse.pieces.length)} pieces`)
  const oursMs: number[] = []
  const peerMs: number[] = []
  for (let r = 0; r < WARMUP_ROUNDS + ROUNDS; r++) {
    for (const [fn, out] of [[decodeOurs, oursMs], [decodePeer, peerMs]] as const) {
      gc()
      const t0 = process.hrtime.bigint()
      fn(sse)
      const ms = Number(process.hrtime.bigint() - t0) / 1e6
      if (r >= WARMUP_ROUNDS) out.push(ms)
    }
  }
  const mibs = (ms: number): number => sse.bytes / 1048576 / (ms / 1000)
  const ours = stats(oursMs)
  const peer = stats(peerMs)
  const sseRatio = peer.median / ours.median
  row('3. SSE decoding (20 MiB DeepSeek-shaped)', 'ours: SseParser + decodeChunk', `${fmt(mibs(ours.median), 1)} MiB/s`, spread(ours, 1, mibs),
    '≥ eventsource-parser', sseRatio >= 1)
  row('3. SSE decoding (20 MiB DeepSeek-shaped)', 'eventsource-parser 3 + JSON.parse', `${fmt(mibs(peer.median), 1)} MiB/s`, spread(peer, 1, mibs))
  row('3. SSE decoding (20 MiB DeepSeek-shaped)', 'ours ÷ eventsource-parser', `${fmt(sseRatio, 2)}×`, '', '≥ 1×', sseRatio >= 1)
  json.sse = { bytes: sse.bytes, events: sse.events, pieces: sse.pieces.length, oursMiBps: mibs(ours.median), peerMiBps: mibs(peer.median), ratio: sseRatio, oursMs: ours, peerMs: peer }

  // ---- 4. persistence ----
  const persist: PersistRow[] = await persistenceBench([100, 1000, 10000], 2, quick ? 5 : 9, quick ? 3 : 7)
  for (const p of persist) {
    const pct = (100 * p.autosaveBytes) / p.fullBytes
    const big = p.messages === 10000
    const sec = `4. persistence (${p.backend})`
    row(sec, `${fmt(p.messages)} msgs: autosave after +1 message`, `${fmt(p.autosaveBytes)} B in ${fmt(p.autosaveMs.median, 2)} ms`,
      `${spread(p.autosaveMs, 2)} ms`, big ? '≤ 1% of full rewrite' : '', big ? pct <= 1 : null)
    row(sec, `${fmt(p.messages)} msgs: naive full rewrite${p.backend === 'file' ? ' (encode + write + fsync)' :
      p.backend === 'postgres' ? ' (encode + one-row upsert)' : ' (encode)'}`,
      `${fmt(p.fullBytes)} B in ${fmt(p.fullMs.median, 2)} ms`, `${spread(p.fullMs, 2)} ms`)
    row(sec, `${fmt(p.messages)} msgs: autosave bytes ÷ full rewrite`, `${fmt(pct, 2)} %`, '', big ? '≤ 1 %' : '', big ? pct <= 1 : null)
    row(sec, `${fmt(p.messages)} msgs: restore (load)`, `${fmt(p.restoreMs.median, 2)} ms`, `${spread(p.restoreMs, 2)} ms`,
      big ? '≤ 100 ms' : '', big ? p.restoreMs.median <= 100 : null)
  }
  json.persistence = persist

  // ---- 7. the whole path over HTTP ----
  {
    const server = new StreamServer()
    await server.start()
    const sec = '7. whole path over HTTP (127.0.0.1)'
    const cases: [string, () => Promise<PathRun>][] = [
      ['official openai client, chat.completions.create(stream)', officialClient(server.port)],
      ['FetchTransport → OpenAICompatibleProvider → AgentRuntime, 3 pass-through chunk hooks, 1 subscriber', ourPath(server.port)],
    ]
    // Throughput: 100k chunks per request, the two consumers alternating round by round.
    server.use(streamBody(CHUNKS))
    const total: number[][] = cases.map(() => [])
    for (let r = 0; r < WARMUP_ROUNDS + ROUNDS; r++) {
      for (let c = 0; c < cases.length; c++) {
        gc()
        const run = await cases[c][1]()
        check(run.chunks === CHUNKS, `${cases[c][0]} saw ${run.chunks} chunks, expected ${CHUNKS}`)
        if (r >= WARMUP_ROUNDS) total[c].push(run.totalMs)
      }
    }
    // Time to first chunk: short streams (10 chunks), many requests, alternating.
    server.use(streamBody(10))
    const TTFC_REQUESTS = quick ? 30 : 100
    const first: number[][] = cases.map(() => [])
    for (let r = 0; r < 10 + TTFC_REQUESTS; r++) {
      for (let c = 0; c < cases.length; c++) {
        const run = await cases[c][1]()
        check(run.chunks === 10 && run.firstChunkMs >= 0, `${cases[c][0]}: short stream saw ${run.chunks} chunks`)
        if (r >= 10) first[c].push(run.firstChunkMs)
      }
    }
    await server.stop()
    const tput = total.map((t) => stats(t))
    const ttfc = first.map((t) => stats(t))
    const httpJson: Record<string, unknown> = {}
    for (let c = 0; c < cases.length; c++) {
      row(sec, `${cases[c][0]}: 100k chunks`, `${fmt(perSec(tput[c].median))} chunks/s`, spread(tput[c], 0, perSec))
      row(sec, `${cases[c][0]}: time to first chunk`, `${fmt(ttfc[c].median, 2)} ms`, `${spread(ttfc[c], 2)} ms`)
      httpJson[c === 0 ? 'official' : 'ours'] = { chunksPerSec: perSec(tput[c].median), totalMs: tput[c], firstChunkMs: ttfc[c] }
    }
    const ratio = tput[0].median / tput[1].median
    const overhead = ttfc[1].median - ttfc[0].median
    row(sec, 'ours ÷ official client (throughput)', `${fmt(ratio, 2)}×`, '', '≥ 1×', ratio >= 1)
    row(sec, 'ours − official client (time to first chunk)', `${fmt(overhead, 3)} ms`, '', '≤ 1 ms', overhead <= 1)
    httpJson.throughputRatio = ratio
    httpJson.firstChunkOverheadMs = overhead
    json.http = httpJson
    log('http done')
  }

  // ---- 2. peers (last: the Agents SDK's first run enables AsyncLocalStorage, slowing later promises) ----
  const aiRun = aiSdkCase(texts)
  const aiWarm = aiSdkCase(chunkTexts(20_000))
  await aiWarm()
  const aiMs = stats(await measure(1, quick ? 2 : 5, aiRun))
  log('ai done')
  const agentsRun = agentsSdkCase(texts)
  const agentsMs = stats(await measure(2, ROUNDS, agentsRun))
  log('agents done')
  const ours3 = perSec(rt3.median)
  const aiRatio = ours3 / perSec(aiMs.median)
  const agentsRatio = ours3 / perSec(agentsMs.median)
  row('2. peers (same 100k stream)', 'ai 6 streamText (MockLanguageModelV3 + pass-through wrapStream) textStream',
    `${fmt(perSec(aiMs.median))} chunks/s`, spread(aiMs, 0, perSec))
  row('2. peers (same 100k stream)', '@openai/agents 0.20 run(stream) with a fake Model',
    `${fmt(perSec(agentsMs.median))} chunks/s`, spread(agentsMs, 0, perSec))
  row('2. peers (same 100k stream)', 'ours (3 hooks + subscriber) ÷ ai 6', `${fmt(aiRatio, 1)}×`, '', '≥ 20×', aiRatio >= 20)
  row('2. peers (same 100k stream)', 'ours (3 hooks + subscriber) ÷ @openai/agents', `${fmt(agentsRatio, 1)}×`, '', '≥ 3×', agentsRatio >= 3)
  json.peers = { aiSdkChunksPerSec: perSec(aiMs.median), agentsSdkChunksPerSec: perSec(agentsMs.median), aiMs, agentsMs, oursOverAi: aiRatio, oursOverAgents: agentsRatio }

  // ---- output ----
  const order = ['1.', '2.', '3.', '4.', '5.', '6.', '7.']
  rows.sort((a, b) => order.findIndex((p) => a.section.startsWith(p)) - order.findIndex((p) => b.section.startsWith(p)))
  const lines: string[] = []
  lines.push(`Environment: ${env}`)
  lines.push('')
  lines.push('| Section | Measure | Median | Spread (min–max) | Target | Met |')
  lines.push('|---|---|---|---|---|---|')
  for (const r of rows) {
    lines.push(`| ${r.section} | ${r.measure} | ${r.median} | ${r.spread} | ${r.target} | ${r.met} |`)
  }
  const table = lines.join('\n')
  process.stdout.write(table + '\n')
  json.table = table
  json.rows = rows
  const out = path.resolve('bench', 'results.json')
  await fs.writeFile(out, JSON.stringify(json, null, 2) + '\n')
  log(`wrote ${out}`)
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack ?? e.message : String(e)}\n`)
  process.exit(1)
})
