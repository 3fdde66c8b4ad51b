// Profiling helper: where decodeChunk's cost over a bare JSON.parse goes.
import { decodeChunk, SseEvent, SseParser } from '../shared-ts/src/index'
import { buildSseFixture } from './sse'

const f = buildSseFixture(20 * 1024 * 1024)
const datas: string[] = []
new SseParser().feed(f.pieces.join(''), (e: SseEvent) => { if (e.data !== '[DONE]') datas.push(e.data) })
function time(name: string, fn: () => number): void {
  let best = Infinity
  let sink = 0
  for (let r = 0; r < 9; r++) {
    const t0 = process.hrtime.bigint()
    sink += fn()
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6)
  }
  process.stderr.write(`${name}: best ${best.toFixed(1)} ms (${sink})\n`)
}
type R = Record<string, unknown>
for (let round = 0; round < 2; round++) {
  time('JSON.parse + content', () => { let c = 0; for (const d of datas) { const k = JSON.parse(d); const x = k.choices.length > 0 ? k.choices[0].delta.content : null; if (typeof x === 'string') c += x.length } return c })
  time('JSON.parse + all reads', () => {
    let c = 0
    for (const d of datas) {
      const k = JSON.parse(d) as R
      if (k.error !== undefined) c++
      const ch = k.choices as R[]
      if (Array.isArray(ch) && ch.length > 0) {
        const e = ch[0]
        const delta = e.delta as R
        if (e.index !== 0) c++
        const x = delta.content; if (typeof x === 'string') c += x.length
        const rc = delta.reasoning_content; if (typeof rc === 'string') c += rc.length
        if (delta.tool_calls !== undefined) c++
        if (typeof e.finish_reason === 'string') c++
      }
      if (k.usage !== undefined && k.usage !== null) c++
      if (typeof k.model === 'string') c++
    }
    return c
  })
  time('decodeChunk', () => { let c = 0; for (const d of datas) { const k = decodeChunk(d); if (k.choice !== null) c += k.choice.content.length } return c })
}
