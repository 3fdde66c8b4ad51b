// Profiling helper: `BENCH_ENTRY=bench/profile-sse.ts BENCH_NODE_FLAGS=--cpu-prof node bench/index.mjs`.
import { buildSseFixture, decodeOurs, decodePeer } from './sse'

const f = buildSseFixture(20 * 1024 * 1024)
for (let r = 0; r < 6; r++) {
  let t0 = process.hrtime.bigint()
  decodeOurs(f)
  const ours = Number(process.hrtime.bigint() - t0) / 1e6
  t0 = process.hrtime.bigint()
  decodePeer(f)
  const peer = Number(process.hrtime.bigint() - t0) / 1e6
  process.stderr.write(`ours ${ours.toFixed(0)} ms, peer ${peer.toFixed(0)} ms, ratio ${(peer / ours).toFixed(2)}\n`)
}
