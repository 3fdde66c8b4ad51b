// Plays the labelled corpus (corpus.jsonl) through a loop detector the way the runtime feeds it:
// streamed text and reasoning in small chunks, every requested tool call with its result, and the
// end-of-turn check. Shared by the corpus test and `npm run bench`.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ToolCall } from '../../../src/core/model/ToolCall'
import { ToolResult } from '../../../src/core/model/ToolResult'
import { LoopDetectorPort, LoopVerdict } from '../../../src/core/loop/LoopDetectorPort'
import { CancellationToken } from '../../../src/core/util/Cancellation'

export type CorpusEvent =
  | { t: 'text' | 'reasoning'; v: string }
  | { t: 'call'; name: string; args: unknown; result: string; error?: string; executed: boolean; atMs?: number }
  | { t: 'turn' }
  | { t: 'user'; v: string }

/** The time of each call: its `atMs`, else 1000 ms after the previous call (the case begins at 0). */
export function callTimes(c: CorpusCase): Map<number, number> {
  const times = new Map<number, number>()
  let t = 0
  c.events.forEach((e, i) => {
    if (e.t === 'call') {
      t = e.atMs ?? t + 1000
      times.set(i, t)
    }
  })
  return times
}

export interface CorpusCase {
  id: string
  label: 'legit' | 'loop'
  family: string
  lang: 'en' | 'zh'
  loopFrom?: number
  events: CorpusEvent[]
}

export interface CaseResult {
  id: string
  label: 'legit' | 'loop'
  family: string
  verdict?: LoopVerdict
  /** Event index of the first verdict. */
  atEvent: number
  /** Turns ended between the loop's start and the verdict (loops only). */
  turnsAfterStart: number
  /** Characters streamed between the loop's start and the verdict (loops only). */
  charsAfterStart: number
}

/** Reads corpus.jsonl (default: beside this file; bundled callers pass the path). */
export function loadCorpus(file: string = path.join(path.dirname(fileURLToPath(import.meta.url)), 'corpus.jsonl')): CorpusCase[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l) as CorpusCase)
}

function rng(seed: number): () => number {
  let a = seed >>> 0
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Runs one case until the first verdict (or the end); chunk sizes 1–8 characters, seeded. As the
 * runtime does: a user message after other events starts a new run (reset, then the request), each
 * call is recorded with its time.
 */
export async function runCase(detector: LoopDetectorPort, c: CorpusCase, seed: number = 1): Promise<CaseResult> {
  const rand = rng(seed)
  const times = callTimes(c)
  let turn = 0
  let turnsAfter = 0
  let charsAfter = 0
  let calls = 0
  const loopFrom = c.loopFrom ?? 0
  const found = (verdict: LoopVerdict, i: number): CaseResult =>
    ({ id: c.id, label: c.label, family: c.family, verdict, atEvent: i, turnsAfterStart: turnsAfter, charsAfterStart: charsAfter })
  for (let i = 0; i < c.events.length; i++) {
    const e = c.events[i]
    const counting = c.label === 'loop' && i >= loopFrom
    if (e.t === 'text' || e.t === 'reasoning') {
      for (let pos = 0; pos < e.v.length;) {
        const n = 1 + Math.floor(rand() * 8)
        const piece = e.v.substring(pos, pos + n)
        pos += n
        if (counting) charsAfter += piece.length
        const v = detector.recordChunk(piece, e.t === 'reasoning')
        if (v !== undefined) return found(v, i)
      }
    } else if (e.t === 'call') {
      calls++
      const call = new ToolCall(`call_${calls}`, e.name, JSON.stringify(e.args))
      const result = e.error !== undefined ? ToolResult.error(call.id, e.error, e.result) : ToolResult.text(call.id, e.result)
      const v = detector.recordToolResult(call, result, times.get(i))
      if (v !== undefined) return found(v, i)
    } else if (e.t === 'user') {
      if (i > 0 && c.events[i - 1].t !== 'user') {
        detector.reset()
      }
      detector.recordUserMessage?.(e.v)
    } else {
      turn++
      const check = await detector.afterTurn(turn, [], CancellationToken.none)
      if (check.verdict !== undefined) return found(check.verdict, i)
      if (counting) turnsAfter++
    }
  }
  return { id: c.id, label: c.label, family: c.family, atEvent: -1, turnsAfterStart: turnsAfter, charsAfterStart: charsAfter }
}

export interface CorpusScore {
  legit: number
  loops: number
  falseAlarms: CaseResult[]
  caught: CaseResult[]
  missed: CaseResult[]
  /** Loops reported before they started (counted as false alarms too). */
  early: CaseResult[]
}

export async function scoreCorpus(make: () => LoopDetectorPort, cases: CorpusCase[], seed: number = 1): Promise<CorpusScore> {
  const score: CorpusScore = { legit: 0, loops: 0, falseAlarms: [], caught: [], missed: [], early: [] }
  for (const c of cases) {
    const r = await runCase(make(), c, seed)
    if (c.label === 'legit') {
      score.legit++
      if (r.verdict !== undefined) score.falseAlarms.push(r)
    } else {
      score.loops++
      if (r.verdict === undefined) score.missed.push(r)
      else if (r.atEvent < (c.loopFrom ?? 0)) score.early.push(r)
      else score.caught.push(r)
    }
  }
  return score
}

export function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b)
  if (s.length === 0) return NaN
  const mid = Math.floor(s.length / 2)
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}
