// Repetition the user asked for, and time-paced repetition, are not loops: how the detector tells
// them from a loop (the user's request, elapsed time between calls, a wait in between).
import { describe, expect, it } from 'vitest'
import { ToolResult } from '../../src/core/model/ToolResult'
import { LoopDetector } from '../../src/core/loop/LoopDetector'
import { LoopDetectorOptions } from '../../src/core/loop/LoopDetectorOptions'
import { LoopKind, LoopVerdict } from '../../src/core/loop/LoopDetectorPort'
import { UserRequest } from '../../src/core/loop/UserRequest'
import { CancellationToken } from '../../src/core/util/Cancellation'
import { Clock } from '../../src/core/transport/Clock'
import { call, record, recordAt, withRequest } from './helpers'

function options(patch: (o: LoopDetectorOptions) => void): LoopDetectorOptions {
  const o = new LoopDetectorOptions()
  patch(o)
  return o
}

/** Index of the first verdict among `n` identical polls (-1: none); `between` runs before each poll. */
function polls(d: LoopDetector, n: number, between: (i: number) => void = () => {}, atMs?: (i: number) => number): number {
  for (let i = 0; i < n; i++) {
    between(i)
    const v = atMs === undefined ? record(d, 'deployment_status', '{"id":"dep-7"}', '{"status":"in_progress","ready":"2/4"}')
      : recordAt(d, 'deployment_status', '{"id":"dep-7"}', '{"status":"in_progress","ready":"2/4"}', atMs(i))
    if (v !== undefined) return i
  }
  return -1
}

describe('time-paced repetition', () => {
  it('a poll after a wait tool (sleep, wait, wait_seconds, waitForRollout, pause_for, time.sleep) repeats nothing', () => {
    for (const wait of ['sleep', 'wait', 'wait_seconds', 'waitForRollout', 'pause_for', 'time.sleep', 'await_job']) {
      const d = new LoopDetector()
      expect(polls(d, 40, () => record(d, wait, '{"seconds":30}', 'slept 30s'))).toBe(-1)
      // Waits are not recorded: the window holds the polls only.
      expect(d.size()).toBe(20)
    }
    const configured = new LoopDetector(options((o) => { o.waitTools = ['hold_on'] }))
    expect(polls(configured, 40, () => record(configured, 'hold_on', '{}', 'ok'))).toBe(-1)
  })

  it('a poll pacedGapMs or more after the previous call repeats nothing; a quick one does', () => {
    expect(polls(new LoopDetector(), 40, undefined, (i) => i * 30000)).toBe(-1)
    expect(polls(new LoopDetector(), 40, undefined, (i) => i * 20000)).toBe(-1)
    expect(polls(new LoopDetector(), 40, undefined, (i) => i * 19999)).toBe(3)
    expect(polls(new LoopDetector(options((o) => { o.pacedGapMs = 0 })), 40, undefined, (i) => i * 60000)).toBe(3)
  })

  it('half the interval the user asked for paces too ("every 10 seconds", "每隔 10 秒")', () => {
    expect(polls(withRequest('Check the rollout every 10 seconds.'), 40, undefined, (i) => i * 5000)).toBe(-1)
    expect(polls(withRequest('每隔 10 秒查一次部署状态'), 40, undefined, (i) => i * 5000)).toBe(-1)
    expect(polls(withRequest('Check the rollout.'), 40, undefined, (i) => i * 5000)).toBe(3)
  })

  it('a sleep in the command itself paces the call', () => {
    const d = new LoopDetector()
    for (let i = 0; i < 40; i++) {
      expect(record(d, 'run_command', '{"cmd":"sleep 30 && kubectl rollout status deploy/api"}', 'Waiting for rollout: 2 of 4 updated')).toBeUndefined()
    }
  })

  it('call times come from the caller, else from the options clock', () => {
    let now = 0
    const clock: Clock = { now: () => now, sleep: async () => {}, setTimer: () => () => {} }
    const d = new LoopDetector(options((o) => { o.clock = clock }))
    expect(polls(d, 40, () => { now += 30000 })).toBe(-1)
    const quick = new LoopDetector(options((o) => { o.clock = clock }))
    expect(polls(quick, 40, () => { now += 1000 })).toBe(3)
  })

  it('an exempt tool is invisible: it neither counts nor paces', () => {
    const d = new LoopDetector(options((o) => { o.exemptTools = ['wait'] }))
    expect(polls(d, 40, () => record(d, 'wait', '{}', 'waited'))).toBe(3)
  })

  it('a stuck poll without pauses is still a loop, and a clock call is no pause', () => {
    expect(polls(new LoopDetector(), 40)).toBe(3)
    const d = new LoopDetector()
    let v: LoopVerdict | undefined
    for (let i = 0; i < 10 && v === undefined; i++) {
      v = record(d, 'get_time', '{}', `10:00:0${i}`) ?? record(d, 'deployment_status', '{"id":"dep-7"}', 'pending')
    }
    expect(v?.kind).toBe(LoopKind.cycle)
  })
})

describe('repetition the user asked for', () => {
  it('reads counts, open-ended repetition and intervals from the request (English and Chinese)', () => {
    const counts: Array<[string, number]> = [['Run the flaky test 10 times.', 10], ['ping it ten times', 10], ['call it 12x', 12],
      ['do it x5', 5], ['run it twice', 2], ['a dozen times please', 12], ['跑 10 次', 10], ['跑十遍', 10], ['重试二十次', 20],
      ['查询两次', 2], ['Run it once.', 0], ['Fix these 3 bugs.', 0], ['run it 3 more times', 3]]
    for (const [text, n] of counts) expect([text, UserRequest.parse(text).count]).toEqual([text, n])
    for (const text of ['Keep polling until it is done.', 'retry until it succeeds', 'run it several times', 'repeatedly call the API',
      '一直重试直到成功', '反复检查', '每隔 30 秒查一次', '轮询部署状态']) {
      expect([text, UserRequest.parse(text).openEnded]).toEqual([text, true])
    }
    for (const text of ['Fix the login bug.', 'Find the infinite loop in my code.', 'Remove the repeated code.', '修一下这个报错']) {
      expect([text, UserRequest.parse(text).asked()]).toEqual([text, false])
    }
    expect(UserRequest.parse('check it every 30 seconds').intervalMs).toBe(30000)
    expect(UserRequest.parse('every 2 minutes').intervalMs).toBe(120000)
    expect(UserRequest.parse('每隔五秒').intervalMs).toBe(5000)
  })

  it('"run the flaky test 10 times": ten identical calls and results are no loop, thirty are', () => {
    for (const request of ['Run the flaky test test/login.spec.ts 10 times.', '把 test/login.spec.ts 连续跑 10 次']) {
      const d = withRequest(request)
      for (let i = 0; i < 12; i++) expect(record(d, 'run_tests', '{"file":"test/login.spec.ts"}', `PASS (${(1 + i / 10).toFixed(2)}s)`)).toBeUndefined()
      expect(record(d, 'run_tests', '{"file":"test/login.spec.ts"}', 'PASS (1.00s)')?.kind).toBe(LoopKind.repeat)
    }
    const batch = withRequest('Run it 10 times.')
    const verdicts = Array.from({ length: 10 }, () => batch.recordToolResult(call('run_tests'), ToolResult.text('x', 'PASS')))
    expect(verdicts.every((v) => v === undefined)).toBe(true)
  })

  it('open-ended repetition multiplies the thresholds; a count raises cycles and the small-set rule too', () => {
    const d = withRequest('Keep retrying until it succeeds.')
    const verdicts = Array.from({ length: 12 }, () => record(d, 'deploy', '{}', 'quota exceeded'))
    expect(verdicts.findIndex((v) => v !== undefined)).toBe(11)
    const cycles = withRequest('Build and test it 5 times.')
    const names = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 'build' : 'test'))
    expect(names.map((n) => record(cycles, n)).findIndex((v) => v !== undefined)).toBe(13)
  })

  it('a new run brings a new request; messages in a row add up; the warning does not forget it', async () => {
    const d = new LoopDetector()
    d.recordUserMessage('Run the test')
    d.recordUserMessage('10 times, please.')
    expect(d.userRequest().count).toBe(10)
    d.reset()
    expect(d.userRequest().count).toBe(10)
    record(d, 'run_tests')
    await d.afterTurn(1, [], CancellationToken.none)
    d.recordUserMessage('Now fix the bug.')
    expect(d.userRequest().asked()).toBe(false)
    d.setEnabled(false)
    d.setEnabled(true)
    expect(d.userRequest().text).toBe('')
  })

  it('text the user asked to have repeated is a quote, not a chant', () => {
    const d = withRequest('Write the sentence "I will not push to main without a review." 20 times.')
    for (let i = 0; i < 20; i++) expect(d.recordChunk('I will not push to main without a review.\n')).toBeUndefined()
  })
})
