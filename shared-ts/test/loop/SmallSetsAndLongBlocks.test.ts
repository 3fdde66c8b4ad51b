// A window whose calls or sentences come from a very small set is a loop whatever the order (cycles
// of period 7 and 8, stock sentences in random order); blocks longer than contentMaxBlock, and a
// heading with its paragraph, repeated.
import { describe, expect, it } from 'vitest'
import { LoopDetector } from '../../src/core/loop/LoopDetector'
import { LoopDetectorOptions } from '../../src/core/loop/LoopDetectorOptions'
import { LoopKind, LoopVerdict } from '../../src/core/loop/LoopDetectorPort'
import { everyChunking, record, withRequest } from './helpers'

const NONE = Array(9).fill(undefined)

function rng(seed: number): () => number {
  let a = seed
  return (): number => {
    a = (a * 1103515245 + 12345) % 2147483648
    return a / 2147483648
  }
}

/** Index of the first verdict over `names` (same arguments and result per name). */
function firstVerdict(d: LoopDetector, names: string[]): { at: number, verdict?: LoopVerdict } {
  for (let i = 0; i < names.length; i++) {
    const v = record(d, names[i], `{"target":"${names[i]}"}`, `${names[i]} result`)
    if (v !== undefined) return { at: i, verdict: v }
  }
  return { at: -1 }
}

describe('calls from a small set', () => {
  it('cycles of period 7 and 8 are caught once the window holds only them', () => {
    for (const period of [7, 8]) {
      const names = ['read_file', 'search', 'list_dir', 'open_url', 'grep', 'stat', 'git_log', 'git_diff'].slice(0, period)
      const calls = Array.from({ length: 30 * period }, (_, i) => names[i % period])
      const r = firstVerdict(new LoopDetector(), calls)
      expect(r.at).toBe(19)
      expect(r.verdict?.kind).toBe(LoopKind.cycle)
      expect(r.verdict?.cycle).toEqual(names)
      expect(r.verdict?.reason).toBe('calls drawn from a small set')
    }
  })

  it('calls shuffled from a small set are a loop whatever the order', () => {
    const r = rng(7)
    const names = ['a', 'b', 'c', 'd', 'e', 'f']
    const calls = Array.from({ length: 200 }, () => names[Math.floor(r() * names.length)])
    expect(firstVerdict(new LoopDetector(), calls).at).toBeGreaterThanOrEqual(0)
  })

  it('a result that changes, a ninth distinct call or a paced call keeps it from firing', () => {
    const d = new LoopDetector()
    for (let i = 0; i < 300; i++) expect(record(d, `t${i % 7}`, '{}', i % 7 === 0 ? `${i}% done` : 'same')).toBeUndefined()
    const nine = Array.from({ length: 300 }, (_, i) => `t${i % 9}`)
    expect(firstVerdict(new LoopDetector(), nine).at).toBe(-1)
    const off = new LoopDetectorOptions()
    off.toolSetSize = 0
    expect(firstVerdict(new LoopDetector(off), Array.from({ length: 300 }, (_, i) => `t${i % 8}`)).at).toBe(-1)
  })

  it('asked-for repetition: each call must occur more often than asked since it entered the window', () => {
    const names = Array.from({ length: 300 }, (_, i) => `t${i % 7}`)
    expect(firstVerdict(withRequest('Run each check 5 times.'), names).at).toBe(41)
  })
})

describe('stock sentences in random order', () => {
  it('"Sorry." / "I apologize." / "My mistake." in any order is chanting, in the answer', () => {
    const r = rng(3)
    const set = ['Sorry.', 'I apologize.', 'My mistake.']
    const text = Array.from({ length: 50 }, () => set[Math.floor(r() * 3)]).join(' ')
    expect(everyChunking(text).every((v) => v?.kind === LoopKind.content && v.count === 12)).toBe(true)
    const zh = Array.from({ length: 50 }, () => ['抱歉。', '对不起。'][Math.floor(r() * 2)]).join('')
    expect(everyChunking(zh).every((v) => v?.kind === LoopKind.content)).toBe(true)
  })

  it('"Wait." / "Hmm." in any order is chanting in the reasoning, with its own window', () => {
    const r = rng(5)
    const text = Array.from({ length: 80 }, () => ['Wait.', 'Hmm.'][Math.floor(r() * 2)]).join(' ')
    expect(everyChunking(text, () => new LoopDetector(), true).every((v) => v?.reason === 'repeated in the reasoning')).toBe(true)
  })

  it('a user who said "twice" does not turn the rule off: the window grows by the count', () => {
    const r = rng(9)
    const text = Array.from({ length: 50 }, () => ['Sorry.', 'I apologize.', 'My mistake.'][Math.floor(r() * 3)]).join(' ')
    const v = everyChunking(text, () => withRequest('I told you twice already, fix the import!'))
    expect(v.every((x) => x?.kind === LoopKind.content && x.count === 13)).toBe(true)
  })

  it('stock sentences among varying ones are not chanting', () => {
    const r = rng(11)
    const parts: string[] = []
    for (let i = 0; i < 30; i++) {
      parts.push(`Option ${i} needs ${i + 2} servers and costs ${i * 3} units.`)
      if (r() < 0.5) parts.push(['Sorry.', 'Hmm.', 'Wait.'][Math.floor(r() * 3)])
    }
    expect(everyChunking(parts.join(' '))).toEqual(NONE)
    expect(everyChunking(parts.join(' '), () => new LoopDetector(), true)).toEqual(NONE)
  })
})

describe('long blocks and headed paragraphs', () => {
  const zhBlock = ['先读配置。', '检查端口。', '端口被占用。', '换一个端口。', '重启服务。', '服务起来了。', '再看日志。', '日志有报错。',
    '报错是超时。', '调大超时。', '再重启。', '还是超时。', '检查网络。', '网络正常。', '检查数据库。', '数据库正常。', '回到配置。',
    '配置没问题。', '再读一遍。', '还是一样。'].join('')

  it('a block of more than 16 short sentences (about 200 characters of Chinese) repeated is caught at its fourth time', () => {
    const v = everyChunking(zhBlock.repeat(8))
    expect(v.every((x) => x?.kind === LoopKind.content && x.count === 4)).toBe(true)
    const en = Array.from({ length: 30 }, (_, i) => `Step ${String.fromCharCode(97 + (i % 26))}${i} is pending.`).join(' ')
    expect(everyChunking((en + ' ').repeat(6)).every((x) => x?.kind === LoopKind.content)).toBe(true)
  })

  it('the same long block said twice or three times (a summary repeated) is not', () => {
    expect(everyChunking(zhBlock + '\n\n再重复一遍：\n\n' + zhBlock + zhBlock)).toEqual(NONE)
  })

  it('a heading plus its paragraph repeated ten times is a block (headings take part, never alone)', () => {
    for (const heading of ['## Next step', '### Findings', '**Next step**', '## 下一步']) {
      const text = Array.from({ length: 10 }, () => `${heading}\n\nI will check the logs and restart the service.\n\n---\n\n`).join('')
      expect([heading, everyChunking(text).every((x) => x?.kind === LoopKind.content)]).toEqual([heading, true])
    }
    const same = Array.from({ length: 10 }, (_, i) => `## Result\n\nModule ${i} passed all ${i + 3} checks.\n`).join('\n')
    expect(everyChunking(same)).toEqual(NONE)
    expect(everyChunking('# Retry the download now\n'.repeat(40))).toEqual(NONE)
  })
})

describe('bounded memory', () => {
  it('the sentence ring, its maps and the window counts stay bounded over long streams', () => {
    const d = new LoopDetector()
    for (let i = 0; i < 50000; i++) {
      d.recordChunk(`Sentence number ${i} of a very long answer without tool calls. `)
      if (i % 1000 === 0) {
        const s = d.stats()
        expect(s.contentSegments).toBeLessThanOrEqual(256)
        expect(s.contentDistinct).toBeLessThanOrEqual(256)
      }
    }
    for (let i = 0; i < 50000; i++) record(d, `t${i % 50}`, `{"i":${i}}`, `r${i}`)
    expect(d.size()).toBe(20)
  })
})
