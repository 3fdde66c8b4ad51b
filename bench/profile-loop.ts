// Profiling helper: `BENCH_ENTRY=bench/profile-loop.ts BENCH_NODE_FLAGS=--cpu-prof node bench/index.mjs`.
import { LoopFixture, loopDetector, recordCalls } from './micro'

const f = new LoopFixture(1000)
for (let r = 0; r < 8; r++) {
  const t0 = process.hrtime.bigint()
  recordCalls(loopDetector(), f, 200_000)
  process.stderr.write(`${(Number(process.hrtime.bigint() - t0) / 200_000).toFixed(0)} ns/call\n`)
}
