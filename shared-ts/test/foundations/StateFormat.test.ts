// The stored state format, exactly: the bytes a state encodes to (a committed fixture), which
// optional forms read back as absent, what each refusal to write is called, and the defaults of
// the state classes that adapters and hosts construct themselves.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { ContentPart } from '../../src/core/model/ContentPart'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ToolCall } from '../../src/core/model/ToolCall'
import { AgentState, SessionStatus } from '../../src/core/state/AgentState'
import { StateCodec } from '../../src/core/state/StateCodec'
import { ToolBatchEntry } from '../../src/core/state/ToolBatchProgress'
import { LoadedState } from '../../src/core/storage/StateStorage'
import { richState, thrownBy } from './fixtures'

const GOLDEN = readFileSync(path.join(__dirname, '__fixtures__', 'state-v3.json'), 'utf8').trimEnd()
/** The same kind of state as written by the previous version (2), before approval records existed. */
const GOLDEN_V2 = readFileSync(path.join(__dirname, '__fixtures__', 'state-v2.json'), 'utf8').trimEnd()

type Doc = Record<string, any>

function goldenDoc(): Doc {
  return JSON.parse(GOLDEN) as Doc
}

function corrupt(doc: Doc): ArkAgentError {
  const e = thrownBy(() => StateCodec.decode(JSON.stringify(doc)))
  expect(e).toBeInstanceOf(ArkAgentError)
  expect(e.layer).toBe(ErrorLayer.storage)
  return e
}

describe('the stored bytes', () => {
  it('a state with every field encodes to exactly the committed document, which decodes and re-encodes unchanged', () => {
    expect(StateCodec.encode(richState('golden'))).toBe(GOLDEN)
    expect(StateCodec.encode(StateCodec.decode(GOLDEN))).toBe(GOLDEN)
  })

  it('a message stores only the keys it uses: no empty call list, no absent id, no false error flag', () => {
    expect(StateCodec.encodeMessage(AgentMessage.user('hi'))).toEqual({
      role: 'user', content: [{ type: 'text', text: 'hi' }]
    })
    expect(JSON.stringify(StateCodec.encodeMessage(AgentMessage.assistant('ok', [])))).toBe(
      '{"role":"assistant","content":[{"type":"text","text":"ok"}]}')
    expect(JSON.stringify(StateCodec.encodeMessage(AgentMessage.assistant('', [new ToolCall('c1', 'f', '{}', 0)]))))
      .toBe('{"role":"assistant","content":[],"toolCalls":[{"id":"c1","name":"f","arguments":"{}","index":0}]}')
    expect(JSON.stringify(StateCodec.encodeMessage(AgentMessage.tool('c1', [ContentPart.text('no')], true, 'tool_denied'))))
      .toBe('{"role":"tool","content":[{"type":"text","text":"no"}],"toolCallId":"c1","isError":true,"errorCode":"tool_denied"}')
    expect(JSON.stringify(StateCodec.encodeMessage(AgentMessage.tool('c1', [ContentPart.text('yes')]))))
      .toBe('{"role":"tool","content":[{"type":"text","text":"yes"}],"toolCallId":"c1"}')
  })

  it('a typed part stores its type, text and only the fields it has (mimeType, data, uri)', () => {
    expect(JSON.stringify(StateCodec.encodeMessage(AgentMessage.tool('c1', [ContentPart.image('image/png', 'AAEC'),
      ContentPart.resource('notes://a'), ContentPart.resource('notes://b', 'text/plain', 'hi'), ContentPart.json('[1]')]))))
      .toBe('{"role":"tool","content":[{"type":"image","text":"","mimeType":"image/png","data":"AAEC"},' +
        '{"type":"resource","text":"","uri":"notes://a"},{"type":"resource","text":"hi","mimeType":"text/plain","uri":"notes://b"},' +
        '{"type":"json","text":"[1]"}],"toolCallId":"c1"}')
  })

  it('a version-2 state still loads: it re-encodes as version 3 with every field it had, byte for byte, and no approval records', () => {
    const old = JSON.parse(GOLDEN_V2) as Doc
    expect(old.schemaVersion).toBe(2)
    const state = StateCodec.decode(GOLDEN_V2)
    expect(state.grants).toEqual([])
    expect(state.decisions).toEqual([])
    expect(state.pendingApproval?.items.map((i) => [i.channel, i.actor, i.approvedCall, i.expiresAtMs])).toEqual(
      state.pendingApproval?.items.map(() => [undefined, undefined, undefined, undefined]))
    expect(StateCodec.encode(state)).toBe(JSON.stringify({ ...old, schemaVersion: 3 }))
    // And through the header path storage uses.
    expect(StateCodec.decodeHeader(old).pendingApproval?.items.length).toBe(3)
  })

  it('a state written before typed parts existed decodes and re-encodes to the same bytes', () => {
    const doc = goldenDoc()
    doc.history = doc.history.filter((m: Doc) => m.content.every((p: Doc) => p.type === 'text' || p.type === 'reasoning'))
    const before = JSON.stringify(doc)
    expect(StateCodec.encode(StateCodec.decode(before))).toBe(before)
  })
})

describe('optional fields', () => {
  it('a header without loopWarned and plan reads as not warned and no approved plan', () => {
    const doc = goldenDoc()
    delete doc.loopWarned
    delete doc.plan
    const s = StateCodec.decode(JSON.stringify(doc))
    expect(s.loopWarned).toBe(false)
    expect(s.plan).toBe('')
  })

  it('optional fields stored as null read as absent', () => {
    const doc = goldenDoc()
    doc.loopWarned = null
    doc.plan = null
    doc.lastError = null
    doc.pendingPlanReview = null
    doc.toolBatch = null
    doc.consumedApprovalIds = null
    doc.pendingApproval.items[2].denyReason = null
    doc.pendingApproval.items[2].decidedAtMs = null
    doc.pendingApproval.items[2].syntheticResult = null
    const s = StateCodec.decode(JSON.stringify(doc))
    expect(s.loopWarned).toBe(false)
    expect(s.plan).toBe('')
    expect(s.lastError).toBeUndefined()
    expect(s.pendingPlanReview).toBeUndefined()
    expect(s.toolBatch).toBeUndefined()
    expect(s.consumedApprovalIds).toEqual([])
    const item = s.pendingApproval!.items[2]
    expect([item.denyReason, item.decidedAtMs, item.syntheticResult]).toEqual([undefined, undefined, undefined])
  })
})

describe('what a damaged document is called', () => {
  const cases: Array<[string, (d: Doc) => void, string]> = [
    ['schemaVersion as a string', (d) => { d.schemaVersion = '2' }, 'State has no valid schemaVersion'],
    ['schemaVersion 2.5', (d) => { d.schemaVersion = 2.5 }, 'State has no valid schemaVersion'],
    ['schemaVersion missing', (d) => { delete d.schemaVersion }, 'State has no valid schemaVersion'],
    ['a plan that is a number', (d) => { d.plan = 5 }, 'Invalid state at $.plan: expected a string'],
    ['a consumed id that is a number', (d) => { d.consumedApprovalIds = ['a', 7] },
      'Invalid state at $.consumedApprovalIds[1]: expected a string'],
    ['a status that is unknown and long', (d) => { d.status = 'x'.repeat(30) + 'y'.repeat(30) },
      `Invalid state at $.status: unexpected value '${'x'.repeat(30)}${'y'.repeat(10)}'`],
    ['updatedAtMs as a string', (d) => { d.updatedAtMs = '5' }, 'Invalid state at $.updatedAtMs: expected a finite number'],
    ['a decision time as a string', (d) => { d.pendingApproval.items[1].decidedAtMs = '1500' },
      'Invalid state at $.pendingApproval.items[1].decidedAtMs: expected a finite number'],
    ['a batch that is null inside the items', (d) => { d.pendingApproval.items[0] = null },
      'Invalid state at $.pendingApproval.items[0]: expected an object'],
    ['a history entry that is an array', (d) => { d.history[0] = [] }, 'Invalid state at $.history[0]: expected an object'],
    ['a denial result stored as a user message', (d) => { d.pendingApproval.items[2].syntheticResult.role = 'user' },
      'Invalid state at $.pendingApproval.items[2].syntheticResult.role: expected a tool result'],
    ['a batch result stored as an assistant message', (d) => { d.toolBatch.entries[0].result.role = 'assistant' },
      'Invalid state at $.toolBatch.entries[0].result.role: expected a tool result']
  ]
  it.each(cases)('%s', (_name, edit, message) => {
    const doc = goldenDoc()
    edit(doc)
    const e = corrupt(doc)
    expect(e.code).toBe(ErrorCodes.stateCorrupt)
    expect(e.message).toBe(message)
  })

  it('a document that is JSON null is not an object', () => {
    const e = thrownBy(() => StateCodec.decode('null'))
    expect(e.code).toBe(ErrorCodes.stateCorrupt)
    expect(e.message).toBe('Invalid state at $: expected an object')
  })
})

describe('what a refusal to write is called', () => {
  it('the whole state names the field that would not load back', () => {
    const s = richState('r')
    s.history.push(AgentMessage.user(5 as unknown as string))
    const e = thrownBy(() => StateCodec.encode(s))
    expect(e.code).toBe(ErrorCodes.stateSaveFailed)
    expect(e.message).toBe('Refused to write the state: it would not load back ' +
      `(Invalid state at $.history[${s.history.length - 1}].content[0].text: expected a string)`)
  })

  it('a value JSON cannot hold is reported with the encoder\'s own error', () => {
    const s = richState('r')
    const loop: Record<string, unknown> = {}
    loop.self = loop
    ;(s as unknown as Record<string, unknown>).plan = loop
    const e = thrownBy(() => StateCodec.encode(s))
    expect(e.code).toBe(ErrorCodes.stateSaveFailed)
    expect(e.message).toMatch(/^Refused to write the state: it would not load back \(Converting circular structure to JSON/)
  })

  it('a range of messages is named by its indices and the path inside the range', () => {
    const history = [AgentMessage.user('a'), AgentMessage.user('b'), AgentMessage.tool('c', []),
      new AgentMessage('robot' as never, [])]
    expect(StateCodec.messagesText(history, 0, 3)).toBe(JSON.stringify(StateCodec.encodeMessages(history, 0, 3)))
    const e = thrownBy(() => StateCodec.messagesText(history, 2, 4))
    expect(e.code).toBe(ErrorCodes.stateSaveFailed)
    expect(e.message).toBe("Refused to write messages 2-3: it would not load back (Invalid state at $[1].role: unexpected value 'robot')")
  })

  it('a header is named as the state header, with the path of the bad field', () => {
    const header = StateCodec.encodeHeader(richState('h'))
    expect(StateCodec.headerText(header)).toBe(JSON.stringify(header))
    header['status'] = 'sleeping'
    const e = thrownBy(() => StateCodec.headerText(header))
    expect(e.code).toBe(ErrorCodes.stateSaveFailed)
    expect(e.message).toBe("Refused to write the state header: it would not load back (Invalid state at $.status: unexpected value 'sleeping')")
  })
})

describe('defaults of the state classes', () => {
  it('a new state is idle, not warned, without a plan, and only completed, cancelled and failed are terminal', () => {
    const s = new AgentState('fresh')
    expect([s.status, s.loopWarned, s.plan, s.runCount, s.turn]).toEqual([SessionStatus.idle, false, '', 0, 0])
    const terminal = [SessionStatus.completed, SessionStatus.cancelled, SessionStatus.failed]
    for (const status of Object.values(SessionStatus)) {
      s.status = status
      expect([status, s.isTerminal()]).toEqual([status, terminal.includes(status)])
    }
  })

  it('a batch entry is not started unless said so; a loaded state is resumable with no reason unless said so', () => {
    const entry = new ToolBatchEntry(new ToolCall('c', 'f', '{}', 0))
    expect([entry.started, entry.result]).toEqual([false, undefined])
    const loaded = new LoadedState(new AgentState('s'), true)
    expect([loaded.resumable, loaded.notResumableReason]).toEqual([true, ''])
  })
})
