// Fenced code per CommonMark: a fence is 3+ backticks or 3+ tildes, and only a line of the same
// character, at least as long, closes it. Lines inside are code however much they repeat.
import { describe, expect, it } from 'vitest'
import { CancellationToken } from '../../src/core/util/Cancellation'
import { LoopDetector } from '../../src/core/loop/LoopDetector'
import { LoopKind } from '../../src/core/loop/LoopDetectorPort'
import { everyChunking } from './helpers'

const NONE = Array(9).fill(undefined)
const LOG = Array.from({ length: 20 }, () => 'Waiting for lock on /var/lib/dpkg/lock-frontend. Retrying in 5 seconds.').join('\n')
const CHANT = 'I will check the configuration file again. '.repeat(12)

describe('fenced code per CommonMark', () => {
  it('a shorter fence inside a longer one does not close it: repeated log lines stay code', () => {
    expect(everyChunking('How to show a fence:\n\n````markdown\n```text\n' + LOG + '\n```\n' + LOG + '\n````\nDone.\n')).toEqual(NONE)
    expect(everyChunking('~~~~\n~~~\n' + LOG + '\n~~~\n' + LOG + '\n~~~~\n')).toEqual(NONE)
  })

  it('tilde lines inside a backtick block, and backtick lines inside a tilde block, are code', () => {
    expect(everyChunking('```text\n~~~ attempt 1 ~~~\n' + LOG + '\n~~~\n' + LOG + '\n```\nEnd.\n')).toEqual(NONE)
    expect(everyChunking('~~~\n```\n' + LOG + '\n```\n' + LOG + '\n~~~\nEnd.\n')).toEqual(NONE)
  })

  it('a closing fence may be longer than the opening one, and indented (as in a list item)', () => {
    expect(everyChunking('```\n' + LOG + '\n`````\n')).toEqual(NONE)
    const nested = '1. Run it:\n   ```\n' + LOG.split('\n').map((l) => '   ' + l).join('\n') + '\n   ```\n2. Done.\n'
    expect(everyChunking(nested)).toEqual(NONE)
  })

  it('a line with text after the fence characters does not close the block', () => {
    expect(everyChunking('```\n' + LOG + '\n``` not a fence\n' + LOG + '\n```\n')).toEqual(NONE)
  })

  it('the block closes where CommonMark says: chanting after a nested block is caught', () => {
    const v = everyChunking('````markdown\n```bash\nnpm test\n```\n````\n\n' + CHANT)
    expect(v.every((x) => x?.kind === LoopKind.content)).toBe(true)
    const tildes = everyChunking('~~~~\n~~~\nnpm test\n~~~\n~~~~\n' + CHANT)
    expect(tildes.every((x) => x?.kind === LoopKind.content)).toBe(true)
  })

  it('a backtick fence whose info string holds a backtick is no fence (inline code on its own line)', () => {
    const v = everyChunking('```x``` is inline code\n' + CHANT)
    expect(v.every((x) => x?.kind === LoopKind.content)).toBe(true)
  })

  it('an unclosed block ends with the message: the next message is prose again', async () => {
    const d = new LoopDetector()
    d.recordChunk('```\nconst a = 1\n')
    await d.afterTurn(1, [], CancellationToken.none)
    expect(d.recordChunk(CHANT)?.kind).toBe(LoopKind.content)
  })
})
