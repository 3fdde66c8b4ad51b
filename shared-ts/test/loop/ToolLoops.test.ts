import { describe, expect, it } from 'vitest'
import { ArkAgentError } from '../../src/core/errors/ArkAgentError'
import { ToolResult } from '../../src/core/model/ToolResult'
import { LoopDetector } from '../../src/core/loop/LoopDetector'
import { LoopDetectorOptions } from '../../src/core/loop/LoopDetectorOptions'
import { LoopKind } from '../../src/core/loop/LoopDetectorPort'
import { call, record, recordNames } from './helpers'

function options(patch: (o: LoopDetectorOptions) => void = () => {}): LoopDetectorOptions {
  const o = new LoopDetectorOptions()
  patch(o)
  return o
}

describe('LoopDetector: repeats', () => {
  it('reports a repeat at the threshold and not below', () => {
    const d = new LoopDetector(options((o) => { o.repeatThreshold = 4 }))
    for (let i = 0; i < 3; i++) expect(record(d, 'read_file', '{"path":"a.ts"}', 'same')).toBeUndefined()
    const v = record(d, 'read_file', '{"path":"a.ts"}', 'same')
    expect(v).toBeDefined()
    expect(v!.kind).toBe(LoopKind.repeat)
    expect(v!.signature).toBe('read_file:{"path":"a.ts"}')
    expect(v!.count).toBe(4)
    expect(v!.cycle).toEqual([])
    expect(record(d, 'read_file', '{"path":"a.ts"}', 'same')!.count).toBe(5)
  })

  it('treats key order, whitespace and number spelling as the same call', () => {
    const d = new LoopDetector(options((o) => { o.repeatThreshold = 4 }))
    expect(record(d, 'search', '{"q":"x","limit":1}')).toBeUndefined()
    expect(record(d, 'search', '{ "limit": 1.0, "q": "x" }')).toBeUndefined()
    expect(record(d, 'search', '{"limit":1e0,\n"q":"x"}')).toBeUndefined()
    const v = record(d, 'search', '{"q":"\\u0078","limit":10E-1}')
    expect(v?.kind).toBe(LoopKind.repeat)
    expect(v?.signature).toBe('search:{"limit":1,"q":"x"}')
  })

  it('compares invalid JSON arguments by their raw text', () => {
    const d = new LoopDetector(options((o) => { o.repeatThreshold = 3 }))
    expect(record(d, 'run', '{cmd: ls')).toBeUndefined()
    expect(record(d, 'run', '{cmd:  ls')).toBeUndefined()
    expect(record(d, 'run', '{cmd:  ls')).toBeUndefined()
    const v = record(d, 'run', '{cmd:  ls')
    expect(v?.signature).toBe('run:{cmd:  ls')
    expect(v?.count).toBe(3)
  })

  it('does not flag identical calls whose results keep changing', () => {
    const d = new LoopDetector()
    for (let i = 0; i < 100; i++) {
      expect(record(d, 'job_status', '{"id":7}', `progress ${i}%`)).toBeUndefined()
    }
  })

  it('tells error results apart from success results with the same text', () => {
    const d = new LoopDetector(options((o) => { o.repeatThreshold = 2 }))
    const a = call('fetch')
    d.recordToolResult(a, ToolResult.text(a.id, 'boom'))
    const b = call('fetch')
    expect(d.recordToolResult(b, ToolResult.error(b.id, 'tool_execution_failed', 'boom'))).toBeUndefined()
  })

  it('does not flag honest repetitive work (same tool, different arguments)', () => {
    const d = new LoopDetector()
    for (let i = 0; i < 500; i++) {
      expect(record(d, 'read_file', JSON.stringify({ path: `src/file${i}.ts` }), 'export {}')).toBeUndefined()
    }
  })

  it('does not flag a batch that alternates two tools over changing inputs', () => {
    const d = new LoopDetector()
    for (let i = 0; i < 200; i++) {
      expect(record(d, 'read_file', `{"path":"f${i}"}`, 'content')).toBeUndefined()
      expect(record(d, 'write_file', `{"path":"f${i}","text":"x"}`, 'written')).toBeUndefined()
    }
  })
})

describe('LoopDetector: cycles', () => {
  it('reports an A-B cycle once it has run cycleRepeats times', () => {
    const d = new LoopDetector(options((o) => { o.cycleRepeats = 3 }))
    const verdicts = recordNames(d, ['A', 'B', 'A', 'B', 'A'])
    expect(verdicts.every((v) => v === undefined)).toBe(true)
    const v = record(d, 'B')
    expect(v?.kind).toBe(LoopKind.cycle)
    expect(v?.cycle).toEqual(['A', 'B'])
    expect(v?.count).toBe(3)
    expect(v?.signature).toBe('A:{} -> B:{}')
  })

  it('reports an A-B-C cycle with the tools in the order the cycle started', () => {
    const d = new LoopDetector(options((o) => { o.cycleRepeats = 3 }))
    const verdicts = recordNames(d, ['X', 'B', 'C', 'A', 'B', 'C', 'A', 'B', 'C', 'A'])
    expect(verdicts.slice(0, 9).every((v) => v === undefined)).toBe(true)
    const v = verdicts[9]
    expect(v?.kind).toBe(LoopKind.cycle)
    expect(v?.cycle).toEqual(['B', 'C', 'A'])
    expect(v?.count).toBe(3)
  })

  it('reports a period-4 cycle and names it by its shortest period', () => {
    const d = new LoopDetector(options((o) => { o.cycleRepeats = 3 }))
    const four = recordNames(d, ['A', 'B', 'A', 'C', 'A', 'B', 'A', 'C', 'A', 'B', 'A', 'C'])
    expect(four[11]?.cycle).toEqual(['A', 'B', 'A', 'C'])
    expect(four.slice(0, 11).every((v) => v === undefined)).toBe(true)

    const e = new LoopDetector(options((o) => { o.cycleRepeats = 3 }))
    const two = recordNames(e, ['A', 'B', 'A', 'B', 'A', 'B', 'A', 'B'])
    expect(two[7]?.cycle).toEqual(['A', 'B'])
  })

  it('does not report identical calls as a cycle before the repeat threshold', () => {
    const d = new LoopDetector(options((o) => { o.repeatThreshold = 10 }))
    const verdicts = recordNames(d, ['A', 'A', 'A', 'A', 'A', 'A', 'A', 'A', 'A'])
    expect(verdicts.every((v) => v === undefined)).toBe(true)
    expect(record(d, 'A')?.kind).toBe(LoopKind.repeat)
  })

  it('does not flag a cycle whose results change', () => {
    const d = new LoopDetector()
    for (let i = 0; i < 100; i++) {
      expect(record(d, 'poll', '{}', `tick ${i}`)).toBeUndefined()
      expect(record(d, 'sleep', '{"ms":100}', 'slept')).toBeUndefined()
    }
  })

  it('ignores cycles longer than maxCyclePeriod', () => {
    const d = new LoopDetector(options((o) => { o.maxCyclePeriod = 2 }))
    const verdicts = recordNames(d, ['A', 'B', 'C', 'A', 'B', 'C', 'A', 'B', 'C', 'A', 'B', 'C'])
    expect(verdicts.every((v) => v === undefined)).toBe(true)
  })
})

describe('LoopDetector: exemptions and switches', () => {
  it('does not record exempt tools at all', () => {
    const d = new LoopDetector(options((o) => { o.exemptTools = ['wait'] }))
    for (let i = 0; i < 50; i++) expect(record(d, 'wait', '{"s":1}', 'waited')).toBeUndefined()
    expect(d.size()).toBe(0)
    // Exempt calls are invisible, so they neither count nor break a run of another tool.
    const verdicts = recordNames(d, ['check', 'wait', 'check', 'wait', 'check', 'wait', 'check'])
    expect(verdicts[6]?.kind).toBe(LoopKind.repeat)
    expect(d.size()).toBe(4)
  })

  it('never reports when disabled by options', () => {
    const d = new LoopDetector(options((o) => { o.enabled = false }))
    for (let i = 0; i < 50; i++) expect(record(d, 'A')).toBeUndefined()
    expect(d.size()).toBe(0)
    for (let i = 0; i < 50; i++) expect(d.recordChunk('I will try the same thing again now.\n')).toBeUndefined()
  })

  it('can be switched off and on for the session', () => {
    const d = new LoopDetector(options((o) => { o.repeatThreshold = 3 }))
    recordNames(d, ['A', 'A'])
    d.setEnabled(false)
    expect(d.isEnabled()).toBe(false)
    expect(record(d, 'A')).toBeUndefined()
    d.setEnabled(true)
    expect(record(d, 'A')).toBeUndefined()
    expect(record(d, 'A')).toBeUndefined()
    expect(record(d, 'A')?.count).toBe(3)
  })
})

describe('LoopDetector: window and memory', () => {
  it('rejects thresholds that cannot fit in the window', () => {
    expect(() => new LoopDetector(options((o) => { o.windowSize = 5; o.repeatThreshold = 6 }))).toThrow(ArkAgentError)
    expect(() => new LoopDetector(options((o) => { o.windowSize = 10; o.maxCyclePeriod = 4; o.cycleRepeats = 3 })))
      .toThrow(/cycleRepeats/)
    expect(() => new LoopDetector(options((o) => { o.contentRepeatThreshold = 1 }))).toThrow()
    expect(() => new LoopDetector(options((o) => { o.windowSize = 18 }))).not.toThrow()
    expect(() => new LoopDetector(options((o) => { o.windowSize = 17 }))).toThrow(/cycleRepeats/)
  })

  it('keeps at most windowSize calls', () => {
    const d = new LoopDetector(options((o) => { o.windowSize = 8; o.repeatThreshold = 3; o.maxCyclePeriod = 2 }))
    for (let i = 0; i < 30; i++) record(d, 'read', `{"i":${i}}`)
    expect(d.size()).toBe(8)
    expect(d.stats().toolWindowCapacity).toBe(8)
  })

  it('stays bounded over 200,000 calls and chunks', () => {
    const d = new LoopDetector()
    const o = new LoopDetectorOptions()
    let verdicts = 0
    for (let i = 0; i < 200000; i++) {
      // Mostly unique calls, with a burst of A-B cycling and of plain repeats every 1000 calls.
      const k = i % 1000
      const v = k < 12 ? record(d, k % 2 === 0 ? 'A' : 'B') : k < 20 ? record(d, 'C') : record(d, 'tool', `{"n":${i}}`)
      if (v !== undefined) verdicts++
      if (i % 10 === 0) d.recordChunk(`sentence number ${i % 997} of a long answer. `)
      const s = d.stats()
      if (s.toolCalls > o.windowSize || s.contentSegments > o.contentMaxBlock || s.contentDistinct > o.contentMaxBlock ||
        s.contentPendingChars > o.maxSegmentChars) {
        throw new Error(`unbounded at ${i}: ${JSON.stringify(s)}`)
      }
    }
    // A single never-ending line without delimiters is force-split.
    d.recordChunk('word '.repeat(100000))
    expect(d.stats().contentPendingChars).toBeLessThanOrEqual(o.maxSegmentChars)
    expect(d.size()).toBe(o.windowSize)
    expect(verdicts).toBeGreaterThan(0)
  })
})

describe('LoopDetector: reset', () => {
  it('forgets calls and text', () => {
    const d = new LoopDetector(options((o) => { o.repeatThreshold = 3; o.contentRepeatThreshold = 3 }))
    recordNames(d, ['A', 'A'])
    d.recordChunk('The same long sentence again and again.\nThe same long sentence again and again.\n')
    d.reset()
    expect(d.stats()).toEqual({ toolCalls: 0, toolWindowCapacity: 20, contentSegments: 0, contentDistinct: 0,
      contentPendingChars: 0 })
    expect(record(d, 'A')).toBeUndefined()
    expect(record(d, 'A')).toBeUndefined()
    expect(d.recordChunk('The same long sentence again and again.\n')).toBeUndefined()
    expect(record(d, 'A')?.count).toBe(3)
  })
})
