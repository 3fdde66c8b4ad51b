import { describe, expect, it } from 'vitest'
import { CancellationToken } from '../../src/core/util/Cancellation'
import { LoopDetector } from '../../src/core/loop/LoopDetector'
import { LoopDetectorOptions } from '../../src/core/loop/LoopDetectorOptions'
import { LoopKind } from '../../src/core/loop/LoopDetectorPort'
import { stream } from './helpers'

const PROSE = `The quick brown fox jumps over the lazy dog. In the beginning the project had a single file,
and the team wrote the tests after the code. Later the tests came first, and the design of the
modules improved. The build runs on the server and on the laptops of the developers; the cache
keeps the slow parts fast. When the network is down, the agent retries the request with backoff.
Then the user reviews the plan, approves the first step and rejects the second one.
| Name | Type | Default |
|------|------|---------|
| windowSize | number | 20 |
| repeatThreshold | number | 4 |
---
\`\`\`ts
if (a) {
  return 1
}
if (b) {
  return 2
}
\`\`\`
Finally, the summary lists what changed, what was tested, and what is left for the next release.
`

function detector(patch: (o: LoopDetectorOptions) => void = () => {}): LoopDetector {
  const o = new LoopDetectorOptions()
  patch(o)
  return new LoopDetector(o)
}

describe('LoopDetector: content loops', () => {
  it('detects a chanted sentence at the threshold and not below', () => {
    const d = detector((o) => { o.contentRepeatThreshold = 6 })
    const sentence = 'Let me try calling the search tool once more. '
    expect(stream(d, sentence.repeat(5))).toBeUndefined()
    const v = stream(d, sentence)
    expect(v?.kind).toBe(LoopKind.content)
    expect(v?.signature).toBe('let me try calling the search tool once more')
    expect(v?.count).toBe(6)
  })

  it('detects a chanted line split across arbitrary chunk boundaries', () => {
    const d = detector()
    let v
    for (let i = 0; i < 20 && v === undefined; i++) {
      v = stream(d, 'Checking the configuration file again\n', 1 + (i % 7))
    }
    expect(v?.kind).toBe(LoopKind.content)
    expect(v?.count).toBe(6)
  })

  it('normalises case and whitespace before comparing', () => {
    const d = detector((o) => { o.contentRepeatThreshold = 3 })
    expect(stream(d, 'I will retry the download now.\n')).toBeUndefined()
    expect(stream(d, 'i  will RETRY the\tdownload now! ')).toBeUndefined()
    expect(stream(d, '   I will retry the download   now?\n')?.count).toBe(3)
  })

  it('detects a repeated paragraph, not only a repeated line', () => {
    const d = detector()
    const paragraph = 'First I read the file. Then I check the tests. Then I read the file again. ' +
      'Nothing changed so far. I should look at the logs. '
    let v
    for (let i = 0; i < 10 && v === undefined; i++) v = stream(d, paragraph, 4)
    expect(v?.kind).toBe(LoopKind.content)
  })

  it('does not flag normal prose, tables or code streamed token by token', () => {
    const d = detector()
    for (let i = 0; i < 3; i++) expect(stream(d, PROSE, 4)).toBeUndefined()
  })

  it('does not flag short common chunks repeated many times', () => {
    const d = detector()
    // " the" is the most repeated chunk of any English answer; between other words it never counts.
    for (let i = 0; i < 5000; i++) {
      expect(d.recordChunk(' the')).toBeUndefined()
      expect(d.recordChunk(` item${i}`)).toBeUndefined()
      if (i % 9 === 0) expect(d.recordChunk('.')).toBeUndefined()
    }
    for (let i = 0; i < 500; i++) expect(d.recordChunk('Ok.\n}\n---\n|---|---|---|---|---|---|---|\n')).toBeUndefined()
    for (let i = 0; i < 200; i++) expect(d.recordChunk('=========================================\n')).toBeUndefined()
  })

  it('reports a degenerate stream of one token with no sentence ends within a few hundred characters', () => {
    const d = detector()
    // No punctuation: the rolling pieces recur at every offset, whatever the period.
    let v
    let chars = 0
    for (let i = 0; i < 10000 && v === undefined; i++) {
      v = d.recordChunk(' the')
      chars += 4
    }
    expect(v?.kind).toBe(LoopKind.content)
    expect(chars).toBeLessThan(200)
  })

  it('does not flag a sentence that recurs between distinct sentences', () => {
    const d = detector((o) => { o.contentRepeatThreshold = 3 })
    for (let i = 0; i < 30; i++) {
      let filler = ''
      for (let k = 0; k < 12; k++) filler += `Distinct filler sentence number ${i * 100 + k} here.\n`
      expect(stream(d, 'Summary of the current progress so far.\n' + filler, 5)).toBeUndefined()
    }
  })

  it('ends the pending line at the end of a turn', async () => {
    const d = detector((o) => { o.contentRepeatThreshold = 3 })
    const line = 'I am going to open the same file one more time'
    expect(stream(d, line)).toBeUndefined()
    expect((await d.afterTurn(1, [], CancellationToken.none)).verdict).toBeUndefined()
    expect(stream(d, line)).toBeUndefined()
    expect((await d.afterTurn(2, [], CancellationToken.none)).verdict).toBeUndefined()
    expect(stream(d, line)).toBeUndefined()
    const check = await d.afterTurn(3, [], CancellationToken.none)
    expect(check.verdict?.kind).toBe(LoopKind.content)
    expect(check.verdict?.count).toBe(3)
  })

  it('can be turned off separately from tool-call detection', () => {
    const d = detector((o) => { o.contentEnabled = false })
    expect(stream(d, 'Let me try calling the search tool once more. '.repeat(50))).toBeUndefined()
  })
})
