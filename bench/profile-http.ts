// Profiling helper: one pass of section 7 (the whole path over HTTP) without the rest of the bench.
import { officialClient, ourPath, streamBody, StreamServer } from './http'

const server = new StreamServer()
await server.start()
server.use(streamBody(100_000))
const official = officialClient(server.port)
const ours = ourPath(server.port)
for (let r = 0; r < 3; r++) {
  const a = await official()
  const b = await ours()
  process.stderr.write(`official ${a.chunks} chunks ${a.totalMs.toFixed(0)} ms (first ${a.firstChunkMs.toFixed(2)} ms); ` +
    `ours ${b.chunks} chunks ${b.totalMs.toFixed(0)} ms (first ${b.firstChunkMs.toFixed(2)} ms)\n`)
}
await server.stop()
