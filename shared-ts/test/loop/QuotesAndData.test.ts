// Inline code spans and quotations are not prose, the user's own words are a quote, and data
// written inline (DNA, hex, base64, ids) repeats by nature.
import { describe, expect, it } from 'vitest'
import { dataLike } from '../../src/core/loop/ContentText'
import { LoopKind } from '../../src/core/loop/LoopDetectorPort'
import { everyChunking, withRequest } from './helpers'

const NONE = Array(9).fill(undefined)
const TEST = 'test test test test test test test test test test test test test test test test test test test test test test test test test test test test'
const LOCK = 'waiting for lock waiting for lock waiting for lock waiting for lock waiting for lock waiting for lock waiting for lock waiting for lock'

describe('quotations and code spans are not prose', () => {
  it('a repeated phrase inside "…", “…”, ‘…’, «…», 「…」, 『…』 or `…` does not chant', () => {
    for (const [open, close] of [['"', '"'], ['“', '”'], ['‘', '’'], ['«', '»'], ['「', '」'], ['『', '』'], ['`', '`'], ['``', '``']]) {
      expect(everyChunking(`Your script prints ${open}${TEST}${close} because the loop never ends.`)).toEqual(NONE)
    }
    expect(everyChunking(`你贴的“${'等待锁 '.repeat(40)}”说明锁一直没有释放。`)).toEqual(NONE)
  })

  it('quoted sentences are skipped whole: their punctuation ends nothing', () => {
    const quoted = '"' + 'Connection lost. Retrying. '.repeat(10) + '"'
    expect(everyChunking(`The log shows ${quoted} and then the client gives up.`)).toEqual(NONE)
  })

  it('a straight quote after a digit is an inch mark, not an opening quote', () => {
    const v = everyChunking('The screen is 15" wide. ' + 'I will check the configuration file again. '.repeat(12))
    expect(v.every((x) => x?.kind === LoopKind.content)).toBe(true)
  })

  it('chanting beside a quotation is still chanting', () => {
    const v = everyChunking(`You said "${TEST}". ` + 'Let me look at the log again. '.repeat(12))
    expect(v.every((x) => x?.kind === LoopKind.content && x.signature === 'let me look at the log again')).toBe(true)
  })
})

describe("the user's own words quoted back", () => {
  it('echoed without quotation marks, the repeated input of the request is a quote', () => {
    const make = (): ReturnType<typeof withRequest> => withRequest(`My terminal shows: ${LOCK}. What is going on?`)
    expect(everyChunking(`You are seeing ${LOCK} because apt is still running.`, make)).toEqual(NONE)
    const block = 'Connection lost. Retrying. '.repeat(8)
    const fromLog = (): ReturnType<typeof withRequest> => withRequest(`The log says: ${block}`)
    expect(everyChunking(`The log says: ${block}The server closes idle sockets.`, fromLog)).toEqual(NONE)
  })

  it('a short sentence is no quote of a longer word, and a chanted short request sentence is still a chant', () => {
    const ok = everyChunking('OK. '.repeat(12), () => withRequest('Rotate the token and look at the book.'))
    expect(ok.every((x) => x?.kind === LoopKind.content)).toBe(true)
    const fix = everyChunking('Fix it. '.repeat(12), () => withRequest('My build fails. Fix it.'))
    expect(fix.every((x) => x?.kind === LoopKind.content)).toBe(true)
  })
})

describe('data written inline', () => {
  it('DNA, hex, base64 and ids repeat by nature: they are not chanting', () => {
    const data = [
      'ATTCG'.repeat(40),
      'gattacagat tacagattac '.repeat(12),
      '0x' + 'DEADBEEF'.repeat(24),
      'deadbeef '.repeat(30),
      'de ad be ef 00 11 22 33 '.repeat(16),
      'SGVsbG8gd29ybGQh'.repeat(16),
      '550e8400-e29b-41d4-a716-446655440000 '.repeat(14),
      'req-n86kbe '.repeat(30),
      'usr_8fK2pQ, '.repeat(30),
    ]
    for (const d of data) {
      expect(everyChunking(`The value is ${d} as expected.`)).toEqual(NONE)
      expect(everyChunking(`这段数据是 ${d}，这是正常的。`)).toEqual(NONE)
    }
  })

  it('tells data from prose: a phrase with a number or a path in it is still prose', () => {
    expect(dataLike('gattacagat tacagattac')).toBe(true)
    expect(dataLike('req-n86kbe req-n86kbe')).toBe(true)
    expect(dataLike('checking 3 files again')).toBe(false)
    expect(dataLike('已将 src/app.ts 改为使用共享日志模块')).toBe(false)
    expect(dataLike('let me read the file again')).toBe(false)
    const v = everyChunking('and then we go back to step 3 and '.repeat(60))
    expect(v.every((x) => x?.kind === LoopKind.content)).toBe(true)
  })
})
