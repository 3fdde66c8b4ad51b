// Profiling helper: SSE parsing and chunk decoding measured apart (ours vs eventsource-parser + JSON.parse).
import { createParser } from 'eventsource-parser'
import { decodeChunk, SseEvent, SseParser } from '../shared-ts/src/index'
import { buildSseFixture } from './sse'

const f = buildSseFixture(20 * 1024 * 1024)
const datas: string[] = []
new SseParser().feed(f.pieces.join(''), (e: SseEvent) => { if (e.data !== '[DONE]') datas.push(e.data) })
function time(name: string, fn: () => void): void {
  let best = Infinity
  for (let r = 0; r < 7; r++) {
    const t0 = process.hrtime.bigint()
    fn()
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6)
  }
  process.stderr.write(`${name}: best ${best.toFixed(1)} ms\n`)
}
time('ours: SseParser only', () => { const p = new SseParser(); let n = 0; for (const piece of f.pieces) p.feed(piece, () => { n++ }) })
time('peer: eventsource-parser only', () => { let n = 0; const p = createParser({ onEvent: () => { n++ } }); for (const piece of f.pieces) p.feed(piece) })
time('ours: decodeChunk only', () => { let c = 0; for (const d of datas) { const k = decodeChunk(d); if (k.choice !== null) c += k.choice.content.length } })
time('peer: JSON.parse only', () => { let c = 0; for (const d of datas) { const k = JSON.parse(d); const x = k.choices.length > 0 ? k.choices[0].delta.content : null; if (typeof x === 'string') c += x.length } })
