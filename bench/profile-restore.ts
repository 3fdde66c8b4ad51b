// Profiling helper: `BENCH_ENTRY=bench/profile-restore.ts node bench/index.mjs` — restore times only.
import { persistenceBench } from './persist'

const rows = await persistenceBench([10_000], 1, 3, 7)
for (const r of rows) process.stderr.write(`${r.backend} ${r.messages}: restore median ${r.restoreMs.median.toFixed(1)} ms\n`)
