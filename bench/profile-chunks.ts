// Profiling helper: `BENCH_ENTRY=bench/profile-chunks.ts BENCH_NODE_FLAGS=--cpu-prof node bench/index.mjs [case] [rounds]`.
import { chunkCases, chunkTexts } from './chunks'

const index = Number(process.argv[2] ?? '5')
const rounds = Number(process.argv[3] ?? '10')
const cases = chunkCases(chunkTexts(100_000))
const list = Number.isNaN(index) ? cases : [cases[index]]
for (const c of list) {
  let best = Infinity
  for (let i = 0; i < rounds; i++) {
    const t0 = process.hrtime.bigint()
    await c.run()
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6)
  }
  process.stderr.write(`${c.name}: best of ${rounds} ${best.toFixed(1)} ms = ${Math.round(100_000 / best * 1000).toLocaleString('en-US')} chunks/s\n`)
}
