// Content detection v2: markdown- and script-aware sentences, rolling pieces for unpunctuated
// repetition, reasoning, reset at tool calls; and calls that never ran feed the call window.
import { describe, expect, it } from 'vitest'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ToolCall } from '../../src/core/model/ToolCall'
import { ToolResult } from '../../src/core/model/ToolResult'
import { weight } from '../../src/core/loop/ContentText'
import { LoopDetector } from '../../src/core/loop/LoopDetector'
import { LoopDetectorOptions } from '../../src/core/loop/LoopDetectorOptions'
import { LoopKind, LoopVerdict } from '../../src/core/loop/LoopDetectorPort'
import { LoopDiagnoser } from '../../src/core/loop/LoopDiagnosis'
import { ArkAgentError } from '../../src/core/errors/ArkAgentError'
import { record, stream } from './helpers'

function detector(patch: (o: LoopDetectorOptions) => void = () => {}): LoopDetector {
  const o = new LoopDetectorOptions()
  patch(o)
  return new LoopDetector(o)
}

/** Streams `text` with every chunk size from 1 to 9; returns the verdicts (one per size). */
function everyChunking(text: string, make: () => LoopDetector = () => detector(), reasoning: boolean = false): Array<LoopVerdict | undefined> {
  const out: Array<LoopVerdict | undefined> = []
  for (let size = 1; size <= 9; size++) {
    const d = make()
    let first: LoopVerdict | undefined
    for (let i = 0; i < text.length; i += size) {
      const v = d.recordChunk(text.substring(i, i + size), reasoning)
      if (first === undefined) first = v
    }
    out.push(first)
  }
  return out
}

const FILES = Array.from({ length: 24 }, (_, i) => `src/module${i}/index.ts`)

describe('no false alarms on structured answers', () => {
  it('a markdown table of .ts files with the same status column', () => {
    const table = '| File | Status |\n|---|---|\n' + FILES.map((f) => `| ${f} | updated to use the shared logger. |\n`).join('')
    expect(everyChunking(table)).toEqual(Array(9).fill(undefined))
  })

  it('a numbered list with the same tail after every file name (the tail after ".ts" is not a sentence)', () => {
    const list = FILES.map((f, i) => `${i + 1}. Updated ${f} to use the shared logger.\n`).join('')
    expect(everyChunking(list)).toEqual(Array(9).fill(undefined))
    // The same lines without list markers are distinct sentences: a dot inside a path ends nothing.
    expect(everyChunking(FILES.map((f) => `Updated ${f} to use the shared logger.\n`).join(''))).toEqual(Array(9).fill(undefined))
  })

  it('Chinese list numbering (1、 一、 （1） •) is structure too', () => {
    for (const mark of ['1、', '一、', '（1）', '(1)', '• ', '- ', '* ']) {
      const list = FILES.map((f) => `${mark}${f} 已更新，改用共享日志模块。\n`).join('')
      expect(everyChunking(list)).toEqual(Array(9).fill(undefined))
    }
  })

  it('fenced code (``` and ~~~) and indented code, however the fence is split', () => {
    const services = Array.from({ length: 8 }, (_, i) => `  svc${i}:\n    image: example/svc${i}\n    restart: unless-stopped\n`).join('')
    const log = Array.from({ length: 30 }, () => 'WARN pool almost exhausted, retrying the connection now.').join('\n')
    const code = Array.from({ length: 12 }, () => '    return the same value to the caller again').join('\n')
    for (const text of ['```yaml\nservices:\n' + services + '```\nDone.\n', '~~~\n' + log + '\n~~~\n', 'Code:\n\n' + code + '\n']) {
      expect(everyChunking(text)).toEqual(Array(9).fill(undefined))
    }
  })

  it('text after a closed fence is prose again', () => {
    const chant = 'I will check the configuration file one more time. '.repeat(10)
    const v = everyChunking('```\nconst a = 1\n```\n' + chant)
    expect(v.every((x) => x?.kind === LoopKind.content)).toBe(true)
  })

  it('headings and quotes repeated per section', () => {
    const text = Array.from({ length: 10 }, (_, i) => `## Summary of the changes so far\n\n> The module was updated and tested again.\nPart ${i} is done.\n`).join('\n')
    expect(everyChunking(text)).toEqual(Array(9).fill(undefined))
  })

  it('narration before each poll, while the polled result changes, never adds up', () => {
    const d = detector()
    for (let i = 0; i < 40; i++) {
      expect(stream(d, 'The job is still running. I will check its status again.')).toBeUndefined()
      expect(record(d, 'job_status', '{"id":1}', `progress ${i}`)).toBeUndefined()
    }
  })

  it('an opening sentence said every turn while a different file is edited each time (20 files)', () => {
    const d = detector()
    for (let i = 0; i < 20; i++) {
      expect(stream(d, 'Okay, moving on to the next file now.\n')).toBeUndefined()
      expect(record(d, 'edit_file', `{"path":"${FILES[i]}"}`, 'edited')).toBeUndefined()
    }
  })

  it('a long sentence that shares a long stretch between varying words is not a chant', () => {
    const mods = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu']
    const text = 'The plan: ' + mods.map((m) => `then rerun the whole integration test suite for module ${m}`).join(', ') + '.'
    expect(everyChunking(text)).toEqual(Array(9).fill(undefined))
  })
})

describe('no false alarms on per-section stock sentences', () => {
  it('the same short verdict under each heading, list item or bold label', () => {
    const shapes = [
      (f: string) => `### ${f}\nNo issues found.\n`,
      (f: string) => `## ${f}\n未发现问题。\n`,
      (f: string) => `- **${f}**\n  No issues found.\n`,
      (f: string) => `**${f}**\nWarm up for 10 minutes.\n`,
    ]
    for (const shape of shapes) expect(everyChunking(FILES.slice(0, 10).map(shape).join('\n'))).toEqual(Array(9).fill(undefined))
  })

  it('a stock sentence between varying ones (grading, derivations)', () => {
    const quiz = Array.from({ length: 12 }, (_, i) => `Question ${i + 1}: you answered ${'ABCD'.charAt(i % 4)}. That's correct.`).join('\n')
    const maths = Array.from({ length: 10 }, (_, i) => `For n = ${i}, the left side equals ${i * i}. This matches the formula.`).join(' ')
    expect(everyChunking(quiz)).toEqual(Array(9).fill(undefined))
    expect(everyChunking(maths)).toEqual(Array(9).fill(undefined))
  })

  it('long runs of one or two letters are data or sounds, not chanting', () => {
    for (const lit of ['0b' + '0'.repeat(130), 'a'.repeat(200), 'la '.repeat(40), 'ha'.repeat(80)]) {
      expect(everyChunking(`The value is ${lit} as requested.`)).toEqual(Array(9).fill(undefined))
    }
  })
})

describe('chanting caught', () => {
  it('"Let me check." fifty times, in every chunking', () => {
    const v = everyChunking('Let me check. '.repeat(50))
    expect(v.every((x) => x?.kind === LoopKind.content && x.signature === 'let me check')).toBe(true)
  })

  it('short Chinese sentences, below any Latin minimum length', () => {
    for (const s of ['让我检查一下。', '好的。', '稍等！']) {
      expect(everyChunking(s.repeat(30)).every((x) => x?.kind === LoopKind.content)).toBe(true)
    }
  })

  it('a short sentence repeated back to back, but not the same short sentence spread over an answer', () => {
    expect(everyChunking('OK. '.repeat(6)).every((x) => x?.count === 6)).toBe(true)
    expect(everyChunking('OK. '.repeat(5))).toEqual(Array(9).fill(undefined))
    const spread = Array.from({ length: 10 }, (_, i) => `OK. Item ${i} is configured with its own value.`).join(' ')
    expect(everyChunking(spread)).toEqual(Array(9).fill(undefined))
  })

  it('a phrase with no punctuation repeated 200 times, for periods that do not divide any cut', () => {
    for (const phrase of ['and then we go back to the start ', 'loop ', '然后我们再回到开头重新开始 ', 'checking it again and again ']) {
      const v = everyChunking(phrase.repeat(200))
      expect(v.every((x) => x?.kind === LoopKind.content)).toBe(true)
    }
  })

  it('detects unpunctuated repetition within a few periods, not at a fixed cut', () => {
    const d = detector()
    let chars = 0
    let v: LoopVerdict | undefined
    while (v === undefined && chars < 20000) {
      v = d.recordChunk('the same step over and over ')
      chars += 28
    }
    expect(v?.kind).toBe(LoopKind.content)
    expect(chars).toBeLessThanOrEqual(28 * 12)
  })

  it('reasoning loops are caught with their own threshold and marked as reasoning', () => {
    const line = 'Wait, let me recompute the sum of the first column. '
    const r = everyChunking(line.repeat(30), () => detector(), true)
    expect(r.every((x) => x?.kind === LoopKind.content && x.count === 10 && x.reason === 'repeated in the reasoning')).toBe(true)
    // A check the thinking repeats between varying items is not a loop.
    const checklist = Array.from({ length: 12 }, (_, i) => `Function f${i} handles kind ${i}. Let me check the implementation. Yes, that works.`).join(' ')
    expect(everyChunking(checklist, () => detector(), true)).toEqual(Array(9).fill(undefined))
    // Nine times is still thinking; the answer's threshold (6) does not apply to reasoning.
    expect(everyChunking(line.repeat(9), () => detector(), true)).toEqual(Array(9).fill(undefined))
    expect(everyChunking(line.repeat(30), () => detector((o) => { o.reasoningEnabled = false }), true)).toEqual(Array(9).fill(undefined))
    // Reasoning and answer are counted apart: five of each is neither.
    const d = detector()
    expect(stream(d, line.repeat(5))).toBeUndefined()
    for (let i = 0; i < 5; i++) expect(d.recordChunk(line, true)).toBeUndefined()
  })

  it('blocks of sentences said again and again: alternating short answers, a long paragraph, bold lines', () => {
    expect(everyChunking('OK. Wait. '.repeat(60)).every((x) => x?.kind === LoopKind.content && x.signature === 'ok | wait')).toBe(true)
    expect(everyChunking('好的。等等。'.repeat(60)).every((x) => x?.kind === LoopKind.content)).toBe(true)
    const para = Array.from({ length: 12 }, (_, i) => `This is sentence ${i} of the paragraph that the model keeps repeating.`).join(' ')
    const v = everyChunking(Array.from({ length: 30 }, () => para).join('\n\n'))
    expect(v.every((x) => x?.kind === LoopKind.content && x.count === 4)).toBe(true)
    expect(everyChunking('**Let me check the file again.**\n'.repeat(40)).every((x) => x?.kind === LoopKind.content)).toBe(true)
    // Three times is a refrain, not a loop.
    expect(everyChunking(Array.from({ length: 3 }, () => para).join('\n\n'))).toEqual(Array(9).fill(undefined))
  })

  it('weighs a CJK character like two Latin letters', () => {
    expect(weight('let me check')).toBe(10)
    expect(weight('让我检查一下')).toBe(12)
    expect(weight('，。！ …—')).toBe(0)
  })
})

describe('tool calls', () => {
  it('a cycle of five calls repeated 30 times is caught with the default options', () => {
    const d = detector()
    let v: LoopVerdict | undefined
    let calls = 0
    for (let i = 0; i < 30 && v === undefined; i++) {
      for (const name of ['a', 'b', 'c', 'd', 'e']) {
        calls++
        v = v ?? record(d, name)
      }
    }
    expect(v?.kind).toBe(LoopKind.cycle)
    expect(v?.cycle).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(calls).toBeLessThanOrEqual(15)
  })

  it('a denied call retried is a repeat, whatever its result text says', () => {
    const d = detector()
    let v: LoopVerdict | undefined
    for (let i = 0; i < 20 && v === undefined; i++) {
      const c = new ToolCall(`c${i}`, 'shell', '{"cmd":"rm -rf /"}')
      v = d.recordToolResult(c, ToolResult.error(c.id, 'tool_denied', 'Tool call denied: dangerous'))
    }
    expect(v?.kind).toBe(LoopKind.repeat)
    expect(v?.count).toBe(4)
  })

  it('a tool call resets content counting, even for an exempt tool', () => {
    const d = detector((o) => { o.exemptTools = ['wait'] })
    const line = 'I am going to wait for the build to finish now. '
    for (let i = 0; i < 20; i++) {
      expect(stream(d, line.repeat(5))).toBeUndefined()
      expect(d.recordToolResult(new ToolCall(`w${i}`, 'wait', '{}'), ToolResult.text(`w${i}`, 'ok'))).toBeUndefined()
    }
  })

  it('rejects content options that cannot work', () => {
    expect(() => detector((o) => { o.contentPieceChars = 4 })).toThrow(ArkAgentError)
    expect(() => detector((o) => { o.reasoningRepeatThreshold = 1 })).toThrow(/reasoningRepeatThreshold/)
    expect(() => detector((o) => { o.contentMaxBlock = 0 })).toThrow(/contentMaxBlock/)
    expect(() => detector((o) => { o.contentPieceRepeats = 1 })).toThrow(/contentPieceRepeats/)
  })
})

describe('diagnosis prompt', () => {
  it('finds the request of the current run: the first user message after the latest final answer', () => {
    const h = [AgentMessage.user('old request'), AgentMessage.assistant('old answer'), AgentMessage.user('CURRENT'),
      AgentMessage.assistant('working', [new ToolCall('c', 'x', '{}')]), AgentMessage.assistant('newest')]
    expect(LoopDiagnoser.requestIndex(h)).toBe(2)
    expect(LoopDiagnoser.requestIndex([AgentMessage.assistant('no user')])).toBe(-1)
    expect(LoopDiagnoser.requestIndex([AgentMessage.user('only')])).toBe(0)
  })
})
