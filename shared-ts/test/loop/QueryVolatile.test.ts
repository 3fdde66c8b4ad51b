// Calls whose URL arguments differ only in a volatile query value (a cache buster, a request id or
// timestamp parameter, an epoch value) are the same call; any other difference in the URL is not.
import { describe, expect, it } from 'vitest'
import { canonicalCallHash } from '../../src/core/loop/CanonicalJson'
import { volatileQueryRanges } from '../../src/core/loop/QueryVolatile'
import { LoopDetector } from '../../src/core/loop/LoopDetector'
import { ToolCall } from '../../src/core/model/ToolCall'
import { ToolResult } from '../../src/core/model/ToolResult'

const same = (a: object, b: object) => canonicalCallHash('fetch', JSON.stringify(a), true) === canonicalCallHash('fetch', JSON.stringify(b), true)

function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('volatile query values in URL arguments', () => {
  it('cache busters, request ids, timestamp parameters and epoch values are masked, in any position', () => {
    const rand = rng(7)
    const keys = ['_', 'cb', 'nocache', 'ts', 'request_id', 'requestId', 'nonce', 'traceId', 'x']
    const hosts = ['https://ci.example.com/builds/1213', 'http://127.0.0.1:8080/api/status', 'https://例子.测试/状态']
    let checked = 0
    for (let i = 0; i < 300; i++) {
      const key = keys[Math.floor(rand() * keys.length)]
      const host = hosts[Math.floor(rand() * hosts.length)]
      const value = (): string => key === 'x' ? String(1_700_000_000_000 + Math.floor(rand() * 1e10))
        : key === 'request_id' || key === 'requestId' || key === 'traceId' ? `req-${Math.floor(rand() * 1e9).toString(36)}`
          : String(Math.floor(rand() * 1e13))
      const before = rand() < 0.5 ? 'page=2&' : ''
      const after = rand() < 0.5 ? '&lang=en' : ''
      const frag = rand() < 0.3 ? '#top' : ''
      const a = { url: `${host}?${before}${key}=${value()}${after}${frag}`, headers: { 'Cache-Control': 'no-cache' } }
      const b = { url: `${host}?${before}${key}=${value()}${after}${frag}`, headers: { 'Cache-Control': 'no-cache' } }
      expect(same(a, b), `${a.url} vs ${b.url}`).toBe(true)
      checked++
    }
    expect(checked).toBe(300)
  })

  it('a change anywhere else in the URL is a different call: path, other parameters, their values, the fragment', () => {
    const base = 'https://ci.example.com/builds/1213?_=1723288771550&page=2#log'
    for (const other of [
      'https://ci.example.com/builds/1214?_=1723288771550&page=2#log',
      'https://ci.example.com/builds/1213?_=1723288771550&page=3#log',
      'https://ci.example.com/builds/1213?_=1723288771550&size=2#log',
      'https://ci.example.com/builds/1213?_=1723288771550&page=2#top',
      'https://ci.example.com/builds/1213?_=1723288771550',
      'https://ci.example.com/builds/1213?id=42&page=2#log',
    ]) {
      expect(same({ url: base }, { url: other }), other).toBe(false)
    }
    // Ids, small numbers, versions and dates as parameters are what the call is about.
    expect(same({ url: 'https://x/api?id=1723288771' }, { url: 'https://x/api?id=1723288772' })).toBe(false) // 10 digits: maybe an order number
    expect(same({ url: 'https://x/api?id=1723288771000' }, { url: 'https://x/api?id=1723288772000' })).toBe(true) // epoch ms
    expect(same({ url: 'https://x/api?id=42' }, { url: 'https://x/api?id=43' })).toBe(false)
    expect(same({ url: 'https://x/api?date=2024-05-01' }, { url: 'https://x/api?date=2024-05-02' })).toBe(false)
    expect(same({ url: 'https://x/api?v=1.2.3' }, { url: 'https://x/api?v=1.2.4' })).toBe(false)
    expect(volatileQueryRanges('no query here')).toEqual([])
    expect(volatileQueryRanges('?=1&&_=&a')).toEqual([7, 7])
  })

  it('a page re-fetched with a new cache buster and the same answer is a repeat loop', () => {
    const detector = new LoopDetector()
    let verdict
    for (let i = 0; i < 8 && verdict === undefined; i++) {
      const call = new ToolCall(`c${i}`, 'fetch_url', JSON.stringify({ url: `https://ci.example.com/builds/1213?_=${1723288771550 + i * 2977}` }))
      verdict = detector.recordToolResult(call, ToolResult.text(call.id, 'Status: failed'), 1000 * i)
    }
    expect(verdict?.kind).toBe('repeat')
  })
})
