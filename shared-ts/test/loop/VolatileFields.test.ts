// Calls are compared on a normalised form: a timestamp, a duration, a request id or a counter in a
// result (or in the arguments) does not make a stuck call look like progress.
import { describe, expect, it } from 'vitest'
import { canonicalCallHash } from '../../src/core/loop/CanonicalJson'
import { LoopDetector } from '../../src/core/loop/LoopDetector'
import { LoopKind, LoopVerdict } from '../../src/core/loop/LoopDetectorPort'
import { maskedHash } from '../../src/core/loop/Volatile'
import { record } from './helpers'

const same = (a: string, b: string): boolean => maskedHash('O:', a, '') === maskedHash('O:', b, '')

/** Records `n` calls of `name`; args and result from the index. Returns the index of the first verdict (-1: none). */
function firstVerdict(n: number, name: string, args: (i: number) => string, result: (i: number) => string): number {
  const d = new LoopDetector()
  for (let i = 0; i < n; i++) {
    const v: LoopVerdict | undefined = record(d, name, args(i), result(i))
    if (v !== undefined) return v.kind === LoopKind.repeat ? i : -2
  }
  return -1
}

describe('volatile fields in results', () => {
  it('results that differ only in a timestamp, a duration, a request id or a counter are the same result', () => {
    expect(same('{"status":"pending","checked_at":"2024-05-01T10:00:03Z"}', '{"status":"pending","checked_at":"2024-05-01T10:07:41Z"}')).toBe(true)
    expect(same('Build failed after 12.3s: cannot find module', 'Build failed after 14.0s: cannot find module')).toBe(true)
    expect(same('failed (took 1234 ms)', 'failed (took 87 ms)')).toBe(true)
    expect(same('Error 503 (request id: 7f3a9c2e-1b2c-4d5e-8f90-123456789abc)', 'Error 503 (request id: 0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d)')).toBe(true)
    expect(same('Attempt 3: connection refused', 'Attempt 4: connection refused')).toBe(true)
    expect(same('{"error":"timeout","retry_count":3}', '{"error":"timeout","retry_count":4}')).toBe(true)
    expect(same('poll #4: pending', 'poll #5: pending')).toBe(true)
    expect(same('{"now":1714557603000}', '{"now":1714557661000}')).toBe(true)
    expect(same('It is 10:03:15 now.', 'It is 10:05:02 now.')).toBe(true)
    expect(same('第 3 次尝试：连接被拒绝', '第 4 次尝试：连接被拒绝')).toBe(true)
    expect(same('构建失败，耗时 12.3 秒', '构建失败，耗时 15.1 秒')).toBe(true)
    expect(same('X-Request-Id: req_8Hj2kL9q', 'X-Request-Id: req_1Ab3Cd5e')).toBe(true)
  })

  it('progress is not volatile: percentages, counts, pages, states and versions still differ', () => {
    expect(same('{"state":"running","progress":42}', '{"state":"running","progress":43}')).toBe(false)
    expect(same('3 failing, 41 passing', '2 failing, 42 passing')).toBe(false)
    expect(same('page 3 of 10', 'page 4 of 10')).toBe(false)
    expect(same('{"state":"queued","position":4}', '{"state":"queued","position":3}')).toBe(false)
    expect(same('installed 1.2.3', 'installed 1.2.4')).toBe(false)
    expect(same('order-101 order-102', 'order-201 order-202')).toBe(false)
    expect(same('Updated: 3 files', 'Updated: 4 files')).toBe(false)
    expect(same('{"rows_exported":1000,"updated_at":"2024-05-01T10:00:00Z"}', '{"rows_exported":2000,"updated_at":"2024-05-01T10:01:00Z"}')).toBe(false)
  })

  it('an identical call whose result differs only in volatile fields repeats (timestamp, duration, id, counter)', () => {
    const results: Array<(i: number) => string> = [
      (i) => `{"status":"pending","checked_at":"2024-05-01T10:${String(i).padStart(2, '0')}:00Z"}`,
      (i) => `Build failed after ${10 + i}.${i}s: cannot find module 'left-pad'`,
      (i) => `Error 503 Service Unavailable (request id: ${(0x10000000 + i * 7919).toString(16)}-aaaa-4bbb-8ccc-${String(i).padStart(12, '0')})`,
      (i) => `Attempt ${i + 1}: connection refused`,
    ]
    for (const result of results) expect(firstVerdict(10, 'status', () => '{"id":1}', result)).toBe(3)
  })

  it('polling whose results carry timestamps and ids but also progress is never a repeat', () => {
    expect(firstVerdict(50, 'export_status', () => '{"job":"e"}',
      (i) => `{"rows":${i * 100},"updated_at":"2024-05-01T10:00:${String(i % 60).padStart(2, '0')}Z","request_id":"r${i}x${i}y${i}z"}`)).toBe(-1)
  })
})

describe('volatile fields in arguments', () => {
  it('arguments that differ only in a request id, a timestamp, an attempt counter or a nonce are the same call', () => {
    const args: Array<(i: number) => string> = [
      (i) => JSON.stringify({ url: 'https://api/x', requestId: `5f0c${i}aa-1111-4222-8333-44445555666${i}` }),
      (i) => JSON.stringify({ query: 'status', ts: 1714550400000 + i * 1500 }),
      (i) => JSON.stringify({ job: 'etl', attempt: i + 1 }),
      (i) => JSON.stringify({ action: 'refresh', nonce: `n${i}q${i}` }),
      (i) => JSON.stringify({ sql: 'select 1', trace_id: `t${i}`, timestamp: `2024-05-01T10:00:0${i}Z` }),
      (i) => JSON.stringify({ level: 'error', since: `2024-05-01T10:00:0${i}Z` }),
    ]
    for (const a of args) expect(firstVerdict(10, 'call', a, () => '{"error":"upstream timeout"}')).toBe(3)
  })

  it('what a call is about stays: dates, times, ids, pages and paths given as arguments', () => {
    for (const a of [(i: number) => `{"date":"2024-05-0${i + 1}"}`, (i: number) => `{"time":"0${i}:00"}`,
      (i: number) => `{"id":"550e8400-e29b-41d4-a716-44665544000${i}"}`, (i: number) => `{"page":${i}}`, (i: number) => `{"user":${1000000000 + i}}`]) {
      expect(firstVerdict(10, 'mark', a, () => 'ok')).toBe(-1)
    }
    expect(canonicalCallHash('f', '{"a":1,"requestId":"x"}', true)).toBe(canonicalCallHash('f', '{"requestId":"y","a":1}', true))
    expect(canonicalCallHash('f', '{"a":1,"requestId":"x"}')).not.toBe(canonicalCallHash('f', '{"requestId":"y","a":1}'))
  })
})

describe('a stuck poll with a changing clock call in between', () => {
  it('the cycle does not hide behind the clock, whatever the clock returns', () => {
    const clocks: Array<(s: number) => string> = [
      (s) => `2024-05-01T10:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}Z`,
      (s) => `It is 10:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')} now.`,
      (s) => `现在是 10:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`,
      (s) => JSON.stringify({ now: 1714557600000 + s * 1000 }),
      (s) => JSON.stringify({ unix: 1714557600 + s, tz: 'UTC' }),
      (s) => `Wed May  1 10:0${s % 10}:1${s % 10} UTC 2024`,
    ]
    for (const clock of clocks) {
      const d = new LoopDetector()
      let verdict: LoopVerdict | undefined
      let at = -1
      for (let i = 0; i < 10 && verdict === undefined; i++) {
        verdict = record(d, 'get_current_time', '{}', clock(3 + i * 7)) ?? record(d, 'check_job', '{"id":"job-19"}', '{"state":"queued"}')
        at = i
      }
      expect(verdict?.kind).toBe(LoopKind.cycle)
      expect(verdict?.cycle).toEqual(['get_current_time', 'check_job'])
      expect(at).toBe(2)
    }
  })
})
