import { describe, expect, it } from 'vitest'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ContentPart } from '../../src/core/model/ContentPart'
import { ToolCall } from '../../src/core/model/ToolCall'
import { ModelRequest } from '../../src/core/model/ModelRequest'
import { ModelResponse } from '../../src/core/model/ModelResponse'
import { ModelProvider, ModelStreamSink } from '../../src/core/provider/ModelProvider'
import { StreamingEvent } from '../../src/core/provider/StreamingEvent'
import { CancellationSource, CancellationToken } from '../../src/core/util/Cancellation'
import { LoopDetector } from '../../src/core/loop/LoopDetector'
import { LoopDetectorOptions, LoopDiagnosisOptions } from '../../src/core/loop/LoopDetectorOptions'
import { LoopKind } from '../../src/core/loop/LoopDetectorPort'
import { parseDiagnosisAnswer } from '../../src/core/loop/LoopDiagnosis'
import { record } from './helpers'

type Behaviour = 'answer' | 'throw' | 'hang' | 'throw-string'

/** A diagnosis model that answers a fixed text, fails, or hangs until cancelled. */
class FakeProvider implements ModelProvider {
  readonly providerId = 'fake'
  requests: ModelRequest[] = []
  tokens: CancellationToken[] = []

  constructor(private behaviour: Behaviour, private answer: string = '') {}

  async streamModel(request: ModelRequest, sink: ModelStreamSink, token: CancellationToken): Promise<ModelResponse> {
    this.requests.push(request)
    this.tokens.push(token)
    if (this.behaviour === 'throw') {
      throw new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerServerError, 'upstream 503')
    }
    if (this.behaviour === 'throw-string') {
      throw 'bare string failure'
    }
    if (this.behaviour === 'hang') {
      return new Promise<ModelResponse>((_resolve, reject) => {
        token.onCancel((reason) => reject(CancellationToken.cancelledError(reason)))
      })
    }
    for (const piece of this.answer.match(/.{1,5}/gs) ?? []) await sink.onEvent(StreamingEvent.text(piece))
    return new ModelResponse(AgentMessage.assistant(this.answer))
  }
}

function detector(provider: FakeProvider, patch: (o: LoopDiagnosisOptions) => void = () => {}): LoopDetector {
  const diagnosis = new LoopDiagnosisOptions(provider)
  diagnosis.afterTurns = 1
  diagnosis.interval = 1
  diagnosis.confidenceThreshold = 0.8
  patch(diagnosis)
  const o = new LoopDetectorOptions()
  o.diagnosis = diagnosis
  return new LoopDetector(o)
}

const history: AgentMessage[] = [AgentMessage.user('Find the bug'), AgentMessage.assistant('Looking at the file.')]

/** Four identical calls: the heuristics see a repeat (default threshold 4). */
function makeRepeat(d: LoopDetector): void {
  for (let i = 0; i < 4; i++) record(d, 'read_file', '{"path":"a.ts"}', 'same')
}

describe('LoopDetector: LLM diagnosis', () => {
  it('reports a diagnosis verdict when the model says looping above the threshold', async () => {
    const p = new FakeProvider('answer', '{"looping": true, "confidence": 0.93, "reason": "same read every turn"}')
    const d = detector(p)
    const check = await d.afterTurn(1, history, CancellationToken.none)
    expect(check.verdict?.kind).toBe(LoopKind.diagnosis)
    expect(check.verdict?.confidence).toBe(0.93)
    expect(check.verdict?.reason).toBe('same read every turn')
    expect(check.diagnostics).toEqual([])
  })

  it('accepts an answer wrapped in code fences and prose', async () => {
    const p = new FakeProvider('answer', 'Sure! Here is my verdict:\n```json\n{"looping":true,"confidence":0.9,' +
      '"reason":"cycle {A,B}"}\n```\nHope this helps.')
    const check = await detector(p).afterTurn(1, history, CancellationToken.none)
    expect(check.verdict?.kind).toBe(LoopKind.diagnosis)
    expect(check.verdict?.reason).toBe('cycle {A,B}')
  })

  it('carries the heuristic evidence into a diagnosis verdict', async () => {
    const p = new FakeProvider('answer', '{"looping": true, "confidence": 0.95, "reason": "r"}')
    const d = detector(p)
    makeRepeat(d)
    const v = (await d.afterTurn(1, history, CancellationToken.none)).verdict
    expect(v?.kind).toBe(LoopKind.diagnosis)
    expect(v?.signature).toBe('read_file:{"path":"a.ts"}')
    expect(v?.count).toBe(4)
  })

  it('reports nothing when the model says not looping', async () => {
    const p = new FakeProvider('answer', '{"looping": false, "confidence": 0.99, "reason": "making progress"}')
    const d = detector(p)
    makeRepeat(d)
    const check = await d.afterTurn(1, history, CancellationToken.none)
    expect(check.verdict).toBeUndefined()
    expect(check.diagnostics).toEqual([])
  })

  it('ignores a looping answer below the confidence threshold, with a diagnostic', async () => {
    const p = new FakeProvider('answer', '{"looping": true, "confidence": 0.5, "reason": "maybe"}')
    const check = await detector(p).afterTurn(1, history, CancellationToken.none)
    expect(check.verdict).toBeUndefined()
    expect(check.diagnostics.length).toBe(1)
    expect(check.diagnostics[0]).toMatch(/0\.5 below threshold 0\.8/)
  })

  it('degrades to the heuristic verdict when the provider throws', async () => {
    const d = detector(new FakeProvider('throw'))
    makeRepeat(d)
    const check = await d.afterTurn(1, history, CancellationToken.none)
    expect(check.verdict?.kind).toBe(LoopKind.repeat)
    expect(check.verdict?.count).toBe(4)
    expect(check.diagnostics[0]).toMatch(/loop diagnosis failed: provider\/provider_server_error: upstream 503/)
    expect(check.diagnostics[0]).toMatch(/using heuristic verdict \(repeat\)/)
  })

  it('degrades to no verdict when the provider throws and the heuristics see nothing', async () => {
    const d = detector(new FakeProvider('throw-string'))
    const check = await d.afterTurn(1, history, CancellationToken.none)
    expect(check.verdict).toBeUndefined()
    expect(check.diagnostics[0]).toMatch(/bare string failure; no heuristic verdict/)
  })

  it('cancels the call and degrades when the diagnosis times out', async () => {
    const p = new FakeProvider('hang')
    const d = detector(p, (o) => { o.timeoutMs = 20 })
    makeRepeat(d)
    const check = await d.afterTurn(1, history, CancellationToken.none)
    expect(check.verdict?.kind).toBe(LoopKind.repeat)
    expect(check.diagnostics[0]).toMatch(/timed out after 20 ms/)
    expect(p.tokens[0].isCancelled).toBe(true)
  })

  it('degrades when the answer is garbage', async () => {
    const answers = ['I think it is looping.', '{"looping": "yes", "confidence": 0.9}', '{"looping": true}',
      '{"looping": true, "confidence": 7}', '{"looping": true, "confidence": 0.9, "reason": 3}', '[true, 0.9]', '']
    for (const answer of answers) {
      const d = detector(new FakeProvider('answer', answer))
      makeRepeat(d)
      const check = await d.afterTurn(1, history, CancellationToken.none)
      expect(check.verdict?.kind, answer).toBe(LoopKind.repeat)
      expect(check.diagnostics[0], answer).toMatch(/loop diagnosis answer unusable/)
    }
  })

  it('is consulted first after afterTurns turns, then every interval turns', async () => {
    const p = new FakeProvider('answer', '{"looping": false, "confidence": 1}')
    const d = detector(p, (o) => { o.afterTurns = 3; o.interval = 2 })
    const asked: number[] = []
    for (let turn = 1; turn <= 9; turn++) {
      const before = p.requests.length
      await d.afterTurn(turn, history, CancellationToken.none)
      if (p.requests.length > before) asked.push(turn)
    }
    expect(asked).toEqual([3, 5, 7, 9])
  })

  it('sends only the recent messages, to the configured model, ignoring streamed chunks', async () => {
    const p = new FakeProvider('answer', '{"looping": false, "confidence": 1, "reason": ""}')
    const d = detector(p, (o) => { o.recentMessages = 2; o.model = 'judge-mini' })
    const long = [AgentMessage.user('OLDEST message'), AgentMessage.assistant('middle'),
      AgentMessage.assistant('newest', [new ToolCall('c1', 'grep', '{"q":"x"}')])]
    await d.afterTurn(1, long, CancellationToken.none)
    const req = p.requests[0]
    expect(req.model).toBe('judge-mini')
    expect(req.tools).toEqual([])
    const prompt = req.messages.map((m) => m.text()).join('\n')
    expect(prompt).not.toContain('OLDEST')
    expect(prompt).toContain('middle')
    expect(prompt).toContain('<call grep {"q":"x"}>')
    expect(prompt).toMatch(/"looping"/)
  })

  it('always includes the run\'s request, however far back it is', async () => {
    const p = new FakeProvider('answer', '{"looping": false, "confidence": 1, "reason": ""}')
    const d = detector(p, (o) => { o.recentMessages = 20 })
    const h: AgentMessage[] = [AgentMessage.user('OLD request'), AgentMessage.assistant('old answer'),
      AgentMessage.user('Rename the logger in all 30 packages')]
    for (let i = 0; i < 30; i++) {
      h.push(AgentMessage.assistant('', [new ToolCall(`c${i}`, 'edit', `{"pkg":${i}}`)]), AgentMessage.tool(`c${i}`, [ContentPart.text('edited')]))
    }
    await d.afterTurn(1, h, CancellationToken.none)
    const prompt = p.requests[0].messages.map((m) => m.text()).join('\n')
    expect(prompt).toContain('[user] Rename the logger in all 30 packages')
    expect(prompt).toContain('(40 messages omitted)')
    expect(prompt).not.toContain('OLD request')
    expect(prompt.indexOf('Rename the logger')).toBeLessThan(prompt.indexOf('{"pkg":29}'))
  })

  it('does not call the model when the run is already cancelled, and never rejects', async () => {
    const p = new FakeProvider('answer', '{"looping": true, "confidence": 1}')
    const d = detector(p)
    const source = new CancellationSource()
    source.cancel('user stop')
    const check = await d.afterTurn(1, history, source.token)
    expect(check.verdict).toBeUndefined()
    expect(p.requests.length).toBe(0)
  })

  it('degrades when the run is cancelled during the diagnosis', async () => {
    const p = new FakeProvider('hang')
    const d = detector(p, (o) => { o.timeoutMs = 60000 })
    const source = new CancellationSource()
    const pending = d.afterTurn(1, history, source.token)
    source.cancel('user stop')
    const check = await pending
    expect(check.verdict).toBeUndefined()
    expect(check.diagnostics[0]).toMatch(/Cancelled: user stop/)
  })

  it('is never consulted when the detector is off', async () => {
    const p = new FakeProvider('answer', '{"looping": true, "confidence": 1}')
    const d = detector(p)
    d.setEnabled(false)
    expect(await d.afterTurn(1, history, CancellationToken.none)).toEqual(expect.objectContaining({ verdict: undefined }))
    expect(p.requests.length).toBe(0)
  })
})

describe('parseDiagnosisAnswer', () => {
  it('validates field types and range', () => {
    expect(parseDiagnosisAnswer('{"looping":false,"confidence":0}')?.reason).toBe('')
    expect(parseDiagnosisAnswer('{"looping":true,"confidence":1,"reason":null}')?.looping).toBe(true)
    expect(parseDiagnosisAnswer('{"looping":true,"confidence":-0.1}')).toBeUndefined()
    expect(parseDiagnosisAnswer('{"looping":1,"confidence":0.5}')).toBeUndefined()
    expect(parseDiagnosisAnswer('note {x} then {"looping":true,"confidence":0.9}')?.confidence).toBe(0.9)
    expect(parseDiagnosisAnswer('null')).toBeUndefined()
  })
})
