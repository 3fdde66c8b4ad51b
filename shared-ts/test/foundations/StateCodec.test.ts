import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { AgentMessage, MessageRole } from '../../src/core/model/AgentMessage'
import { ContentPartType } from '../../src/core/model/ContentPart'
import { AgentState, SessionStatus } from '../../src/core/state/AgentState'
import { ApprovalDecision } from '../../src/core/state/PendingApproval'
import { StateCodec } from '../../src/core/state/StateCodec'
import { plain, richBatch, richState, thrownBy } from './fixtures'

function corruptError(text: string): ArkAgentError {
  const e = thrownBy(() => StateCodec.decode(text))
  expect(e).toBeInstanceOf(ArkAgentError)
  return e
}

function expectCorrupt(text: string, pathFragment: string): void {
  const e = corruptError(text)
  expect({ code: e.code, layer: e.layer }).toEqual({ code: ErrorCodes.stateCorrupt, layer: ErrorLayer.storage })
  expect(e.message).toContain(pathFragment)
}

/** A valid encoding of the rich state, as a mutable object. */
function doc(): Record<string, any> {
  return JSON.parse(StateCodec.encode(richState()))
}

describe('StateCodec: round trip', () => {
  it('round-trips a rich state: every message kind, reasoning parts, calls, error results, approvals, plan, batch, lastError', () => {
    const s = richState()
    const back = StateCodec.decode(StateCodec.encode(s))
    expect(back).toBeInstanceOf(AgentState)
    expect(plain(back)).toEqual(plain(s))
    // Spot checks on types and details that JSON equality could blur.
    expect(back.history[2].reasoning()).toBe('The user wants weather; call search.')
    expect(back.history[2].toolCalls.map((c) => [c.id, c.name, c.argumentsJson, c.index]))
      .toEqual([['call_1', 'search', '{"q":"天气 🌦"}', 0], ['call_2', 'fetch', '{"url":"https://example.com"}', 1]])
    expect(back.history[4].role).toBe(MessageRole.tool)
    expect(back.history[4].isError).toBe(true)
    expect(back.history[4].errorCode).toBe('tool_execution_failed')
    expect(back.history[3].isError).toBe(false)
    expect(back.history[3].errorCode).toBeUndefined()
    expect(back.history[5].content.map((p) => p.type)).toEqual([ContentPartType.reasoning, ContentPartType.text,
      ContentPartType.reasoning, ContentPartType.text])
    const batch = back.pendingApproval!
    expect(batch.items.map((i) => i.decision)).toEqual(['pending', 'approved', 'denied'])
    expect(batch.items[0].isPending()).toBe(true)
    expect(batch.items[0].decidedAtMs).toBeUndefined()
    expect(batch.items[2].syntheticResult!.isError).toBe(true)
    expect(batch.items[2].syntheticResult!.errorCode).toBe('tool_denied')
    expect(batch.items[2].syntheticResult!.callId).toBe('call_c')
    expect(batch.modelMessage.toolCalls).toHaveLength(3)
    expect(batch.allDecided()).toBe(false)
    expect(back.pendingPlanReview!.reason).toBe('too vague')
    expect(back.toolBatch!.entries.map((e) => [e.started, e.result?.textContent()])).toEqual([[true, 'done'],
      [true, undefined], [false, undefined]])
    expect(back.lastError!.message).toBe('slow down "quoted" \\ backslash')
    // Encoding is deterministic.
    expect(StateCodec.encode(back)).toBe(StateCodec.encode(s))
  })

  it('round-trips a fresh empty state', () => {
    const s = new AgentState('empty')
    const back = StateCodec.decode(StateCodec.encode(s))
    expect(plain(back)).toEqual(plain(s))
    expect(back.pendingApproval).toBeUndefined()
    expect(back.status).toBe(SessionStatus.idle)
  })

  it('writes the current schema version', () => {
    expect(JSON.parse(StateCodec.encode(new AgentState('x'))).schemaVersion).toBe(AgentState.schemaVersion)
    expect(AgentState.schemaVersion).toBe(3)
  })
})

describe('AgentState.snapshot', () => {
  it('is a deep copy: mutating the snapshot\'s history, approvals, plan review and tool batch leaves the original intact', () => {
    const s = richState()
    const before = StateCodec.encode(s)
    const snap = s.snapshot()
    expect(plain(snap)).toEqual(plain(s))
    snap.history.push(AgentMessage.user('more'))
    snap.history.splice(0, 2)
    snap.pendingApproval!.items[0].decision = ApprovalDecision.approved
    snap.pendingApproval!.items[0].denyReason = 'x'
    snap.pendingApproval!.items.pop()
    snap.pendingPlanReview!.reason = 'changed'
    snap.toolBatch!.entries[2].started = true
    snap.toolBatch!.entries.pop()
    snap.consumedApprovalIds.push('y')
    snap.status = SessionStatus.failed
    snap.lastError = undefined
    expect(StateCodec.encode(s)).toBe(before)
    expect(s.pendingApproval!.items[0].isPending()).toBe(true)
  })

  it('snapshot of a snapshot is independent of both', () => {
    const s = richState()
    const a = s.snapshot()
    const b = a.snapshot()
    b.pendingApproval!.items[0].decision = ApprovalDecision.denied
    expect(a.pendingApproval!.items[0].decision).toBe(ApprovalDecision.pending)
    expect(s.pendingApproval!.items[0].decision).toBe(ApprovalDecision.pending)
  })
})

describe('StateCodec: schema version 1 migration', () => {
  it('migrates {schemaVersion:1, sessionId, messages} to an idle state with that history', () => {
    const v1 = JSON.stringify({
      schemaVersion: 1, sessionId: 'old',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'hello' }] }]
    })
    const s = StateCodec.decode(v1)
    expect(s.sessionId).toBe('old')
    expect(s.history.map((m) => `${m.role}:${m.text()}`)).toEqual(['user:hi', 'assistant:hello'])
    expect(s.status).toBe(SessionStatus.idle)
    expect(s.pendingApproval).toBeUndefined()
  })

  it('migrates isRunning:true to a running (interrupted) state', () => {
    const s = StateCodec.decode(JSON.stringify({ schemaVersion: 1, sessionId: 'old', messages: [], isRunning: true }))
    expect(s.status).toBe(SessionStatus.running)
  })

  it('migrates a pending approval batch into awaiting_approval with the batch\'s run id', () => {
    const batch = JSON.parse(StateCodec.encode(richState())).pendingApproval
    const s = StateCodec.decode(JSON.stringify({ schemaVersion: 1, sessionId: 'old', messages: [], isRunning: true,
      pendingApproval: batch }))
    expect(s.status).toBe(SessionStatus.awaitingApproval)
    expect(s.activeRunId).toBe('run_1')
    expect(JSON.parse(JSON.stringify(s.pendingApproval))).toEqual(JSON.parse(JSON.stringify(richBatch('run_1'))))
    // A migrated state re-encodes as version 2 and round-trips.
    const again = StateCodec.decode(StateCodec.encode(s))
    expect(plain(again)).toEqual(plain(s))
  })

  it('rejects a corrupt version-1 document with state_corrupt naming the path', () => {
    expectCorrupt(JSON.stringify({ schemaVersion: 1, sessionId: 'old' }), '$.messages')
    expectCorrupt(JSON.stringify({ schemaVersion: 1, sessionId: 'old', messages: [{ role: 'robot', content: [] }] }),
      '$.messages[0].role')
    expectCorrupt(JSON.stringify({ schemaVersion: 1, sessionId: 'old', messages: [], isRunning: 'yes' }), '$.isRunning')
    expectCorrupt(JSON.stringify({ schemaVersion: 1, messages: [] }), '$.sessionId')
  })
})

describe('StateCodec: invalid input', () => {
  it('rejects an unknown schema version with state_version_unsupported', () => {
    for (const v of [0, 4, 99, -1]) {
      const d = doc()
      d.schemaVersion = v
      const e = corruptError(JSON.stringify(d))
      expect(e.code).toBe(ErrorCodes.stateVersionUnsupported)
      expect(e.layer).toBe(ErrorLayer.storage)
      expect(e.message).toContain(String(v))
    }
  })

  it('rejects a missing or non-integer schema version as state_corrupt', () => {
    for (const v of [undefined, '2', 2.5, null, true]) {
      const d = doc()
      d.schemaVersion = v
      expect(corruptError(JSON.stringify(d)).code).toBe(ErrorCodes.stateCorrupt)
    }
  })

  it('rejects text that is not JSON, or JSON that is not an object, as state_corrupt', () => {
    for (const t of ['', 'not json', '{', '{"schemaVersion":2,', 'null', '[]', '42', '"str"', 'true']) {
      const e = corruptError(t)
      expect({ t, code: e.code }).toEqual({ t, code: ErrorCodes.stateCorrupt })
    }
  })

  const cases: Array<[string, (d: Record<string, any>) => void, string]> = [
    ['sessionId missing', (d) => { delete d.sessionId }, '$.sessionId'],
    ['sessionId a number', (d) => { d.sessionId = 5 }, '$.sessionId'],
    ['status unknown', (d) => { d.status = 'sleeping' }, '$.status'],
    ['runCount negative', (d) => { d.runCount = -1 }, '$.runCount'],
    ['runCount fractional', (d) => { d.runCount = 1.5 }, '$.runCount'],
    ['turn a string', (d) => { d.turn = '2' }, '$.turn'],
    ['updatedAtMs missing', (d) => { delete d.updatedAtMs }, '$.updatedAtMs'],
    ['consumedApprovalIds holds a number', (d) => { d.consumedApprovalIds = ['a', 1] }, '$.consumedApprovalIds[1]'],
    ['loopWarned a string', (d) => { d.loopWarned = 'true' }, '$.loopWarned'],
    ['history missing', (d) => { delete d.history }, '$.history'],
    ['history an object', (d) => { d.history = {} }, '$.history'],
    ['history item null', (d) => { d.history[1] = null }, '$.history[1]'],
    ['history item an array', (d) => { d.history[1] = [] }, '$.history[1]'],
    ['unknown role', (d) => { d.history[0].role = 'wizard' }, '$.history[0].role'],
    ['role missing', (d) => { delete d.history[0].role }, '$.history[0].role'],
    ['content missing', (d) => { delete d.history[1].content }, '$.history[1].content'],
    ['content part text a number', (d) => { d.history[1].content[0].text = 1 }, '$.history[1].content[0].text'],
    ['content part unknown type', (d) => { d.history[1].content[0].type = 'video' }, '$.history[1].content[0].type'],
    ['image part without bytes', (d) => { d.history[1].content[0].type = 'image' }, '$.history[1].content[0]'],
    ['image data not base64', (d) => { Object.assign(d.history[1].content[0], { type: 'image', mimeType: 'image/png', data: 'a*==' }) }, '$.history[1].content[0]'],
    ['resource without uri', (d) => { d.history[1].content[0].type = 'resource' }, '$.history[1].content[0]'],
    ['json part that does not parse', (d) => { Object.assign(d.history[1].content[0], { type: 'json', text: '{' }) }, '$.history[1].content[0]'],
    ['part mimeType a number', (d) => { Object.assign(d.history[1].content[0], { type: 'image', mimeType: 7, data: 'AAAA' }) }, '$.history[1].content[0].mimeType'],
    ['content part a string', (d) => { d.history[1].content[0] = 'hi' }, '$.history[1].content[0]'],
    ['tool message without toolCallId', (d) => { delete d.history[3].toolCallId }, '$.history[3]'],
    ['tool call id a number', (d) => { d.history[2].toolCalls[0].id = 7 }, '$.history[2].toolCalls[0].id'],
    ['tool call index negative', (d) => { d.history[2].toolCalls[1].index = -3 }, '$.history[2].toolCalls[1].index'],
    ['toolCalls not an array', (d) => { d.history[2].toolCalls = 'x' }, '$.history[2].toolCalls'],
    ['isError a string', (d) => { d.history[4].isError = 'yes' }, '$.history[4].isError'],
    ['lastError not an object', (d) => { d.lastError = 'oops' }, '$.lastError'],
    ['lastError code missing', (d) => { delete d.lastError.code }, '$.lastError.code'],
    ['approval items missing', (d) => { delete d.pendingApproval.items }, '$.pendingApproval.items'],
    ['approval decision unknown', (d) => { d.pendingApproval.items[1].decision = 'maybe' }, '$.pendingApproval.items[1].decision'],
    ['approval risk unknown', (d) => { d.pendingApproval.items[0].riskLevel = 'spicy' }, '$.pendingApproval.items[0].riskLevel'],
    ['approval toolCall missing', (d) => { delete d.pendingApproval.items[0].toolCall }, '$.pendingApproval.items[0].toolCall'],
    ['approval synthetic result without id', (d) => { delete d.pendingApproval.items[2].syntheticResult.toolCallId },
      '$.pendingApproval.items[2].syntheticResult'],
    ['approval modelMessage missing', (d) => { delete d.pendingApproval.modelMessage }, '$.pendingApproval.modelMessage'],
    ['plan review decision unknown', (d) => { d.pendingPlanReview.decision = 'approved!' }, '$.pendingPlanReview.decision'],
    ['plan review createdAtMs a string', (d) => { d.pendingPlanReview.createdAtMs = '1e999' }, '$.pendingPlanReview.createdAtMs'],
    ['tool batch started missing', (d) => { delete d.toolBatch.entries[1].started }, '$.toolBatch.entries[1].started'],
    ['tool batch entry call wrong', (d) => { d.toolBatch.entries[0].call = [] }, '$.toolBatch.entries[0].call'],
    ['tool batch result wrong role', (d) => { d.toolBatch.entries[0].result.role = 'nobody' }, '$.toolBatch.entries[0].result.role']
  ]
  for (const [name, mutate, path] of cases) {
    it(`rejects ${name} with state_corrupt naming ${path}`, () => {
      const d = doc()
      mutate(d)
      expectCorrupt(JSON.stringify(d), path)
    })
  }

  it('rejects a number that overflows to Infinity (finite numbers only)', () => {
    const text = StateCodec.encode(richState()).replace('"updatedAtMs":1700000000123', '"updatedAtMs":1e999')
    expect(text).toContain('1e999')
    expectCorrupt(text, '$.updatedAtMs')
  })

  it('ignores a null optional field as absent', () => {
    const d = doc()
    d.lastError = null
    d.pendingPlanReview = null
    d.plan = null
    expect(StateCodec.decode(JSON.stringify(d)).lastError).toBeUndefined()
  })
})

describe('StateCodec: fuzzing', () => {
  const valid = StateCodec.encode(richState())

  /** A JSON value, or a string, that replaces a node of the document. */
  const junk: fc.Arbitrary<unknown> = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double(),
    fc.string({ maxLength: 8 }), fc.constant([]), fc.constant({}), fc.constantFrom('user', 'tool', 'text', 'reasoning',
      'pending', 'approved', 'running', 2, 1, 3), fc.array(fc.integer(), { maxLength: 3 }))

  /** Replaces or deletes the node at a random path of a parsed document. */
  function mutateAt(d: unknown, choices: number[], replacement: unknown, remove: boolean): unknown {
    if (choices.length === 0 || d === null || typeof d !== 'object') {
      return remove ? undefined : replacement
    }
    const keys = Object.keys(d as object)
    if (keys.length === 0) {
      return remove ? undefined : replacement
    }
    const key = keys[choices[0] % keys.length]
    const child = (d as Record<string, unknown>)[key]
    const next = mutateAt(child, choices.slice(1), replacement, remove)
    if (next === undefined) {
      if (Array.isArray(d)) (d as unknown[]).splice(Number(key), 1)
      else delete (d as Record<string, unknown>)[key]
    } else {
      (d as Record<string, unknown>)[key] = next
    }
    return d
  }

  function decodeOutcome(text: string): void {
    try {
      StateCodec.decode(text)
    } catch (e) {
      expect(e).toBeInstanceOf(ArkAgentError)
      expect([ErrorCodes.stateCorrupt, ErrorCodes.stateVersionUnsupported]).toContain((e as ArkAgentError).code)
    }
  }

  it('structurally mutated documents either decode or fail with state_corrupt / state_version_unsupported', () => {
    fc.assert(fc.property(fc.array(fc.nat(), { minLength: 0, maxLength: 7 }), junk, fc.boolean(), (path, repl, remove) => {
      const d = JSON.parse(valid)
      const mutated = mutateAt(d, path, repl, remove)
      decodeOutcome(JSON.stringify(mutated === undefined ? null : mutated))
    }), { numRuns: 2000, seed: 424242 })
  })

  it('byte-level truncations and character edits either decode or fail with a storage error, never a TypeError', () => {
    fc.assert(fc.property(fc.nat({ max: valid.length }), fc.nat({ max: valid.length }), fc.string({ maxLength: 3 }),
      fc.constantFrom('truncate', 'replace', 'insert', 'delete'), (at, len, s, op) => {
        let text: string
        switch (op) {
          case 'truncate': text = valid.slice(0, at); break
          case 'replace': text = valid.slice(0, at) + s + valid.slice(at + s.length); break
          case 'insert': text = valid.slice(0, at) + s + valid.slice(at); break
          default: text = valid.slice(0, at) + valid.slice(at + (len % 20)); break
        }
        decodeOutcome(text)
      }), { numRuns: 2000, seed: 777 })
  })
})
