// The autosave of a segment holding a long text (a 1 MiB tool result) runs in steps that give the
// (UI) thread back: the same text, checksum, byte count and refusals as the one-step functions.
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ArkAgentError, ErrorCodes } from '../../src/core/errors/ArkAgentError'
import { HostYield } from '../../src/core/host/HostYield'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ContentPart } from '../../src/core/model/ContentPart'
import { ToolCall } from '../../src/core/model/ToolCall'
import { AgentState } from '../../src/core/state/AgentState'
import { JsonFields } from '../../src/core/state/JsonFields'
import { LONG_TEXT, PacedMessages } from '../../src/core/state/PacedMessages'
import { StateCodec } from '../../src/core/state/StateCodec'
import { MemorySegmentBackend, MemoryStateStorage } from '../../src/core/storage/MemoryStateStorage'
import { SegmentedStorageOptions } from '../../src/core/storage/SegmentedStateStorage'
import { fnv1aAsync, utf8LengthAsync, yieldIfDue } from '../../src/core/storage/SlicedText'
import { fnv1a, fnv1aHex, fnv1aStep, FNV1A_START, pairSafeEnd, splitByUtf8Bytes, utf8Length, utf8LengthOf } from '../../src/core/util/Text'

/** Code units that put surrogate pairs, lone halves, escapes and multi-byte characters everywhere. */
const UNITS = ['a', 'é', '中', '\ud83d\ude00', '\ud83d', '\ude00', '"', '\\', '\n', '\u0000', '\u2028', '\u007f', ' ']
const tricky = fc.array(fc.constantFrom(...UNITS), { maxLength: 200 }).map((a) => a.join(''))
const noPause = async (): Promise<void> => {}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('sliced measures equal the one-pass functions', () => {
  it('fnv1aAsync and utf8LengthAsync equal fnv1a and utf8Length on random texts and slices (property)', async () => {
    await fc.assert(fc.asyncProperty(tricky, fc.integer({ min: 1, max: 17 }), async (text, slice) => {
      expect(await fnv1aAsync(text, slice)).toBe(fnv1a(text))
      expect(await utf8LengthAsync(text, slice)).toBe(utf8Length(text))
    }), { numRuns: 600, seed: 20261205 })
  })

  it('ranges ending where pairSafeEnd says add up to the whole; fnv1aStep chains over any cut (property)', () => {
    fc.assert(fc.property(tricky, fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
      const ends = [...new Set(cuts.map((c) => text.length === 0 ? 0 : c % (text.length + 1)))].sort((a, b) => a - b)
      let from = 0
      let bytes = 0
      let h = FNV1A_START
      for (const raw of [...ends, text.length]) {
        const to = Math.max(from, pairSafeEnd(text, raw))
        bytes += utf8LengthOf(text, from, to)
        h = fnv1aStep(h, text, from, to)
        from = to
      }
      expect(bytes).toBe(utf8Length(text))
      expect(fnv1aHex(h)).toBe(fnv1a(text))
    }), { numRuns: 600, seed: 20261206 })
  })

  it('a pair straddling a slice boundary is counted once, as 4 bytes', async () => {
    const text = 'ab\ud83d\ude00c'
    for (let slice = 1; slice <= text.length; slice++) {
      expect(await utf8LengthAsync(text, slice)).toBe(7)
    }
    expect(pairSafeEnd(text, 3)).toBe(4)
    expect(pairSafeEnd('a\ud83d\ud83d\ude00', 2)).toBe(2)
  })

  it('give the thread back between slices when a slice used its budget', async () => {
    vi.spyOn(HostYield, 'due').mockReturnValue(true)
    const text = 'x'.repeat(100)
    const before = HostYield.yields
    expect(await fnv1aAsync(text, 10)).toBe(fnv1a(text))
    expect(HostYield.yields - before).toBe(9)
    expect(await utf8LengthAsync(text, 10)).toBe(100)
    expect(HostYield.yields - before).toBe(18)
  })
})

/** A long text of tricky units (pairs and escapes across every slice boundary). */
function longText(seed: number, length: number): string {
  let out = ''
  let x = seed
  while (out.length < length) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0
    out += UNITS[x % UNITS.length]
  }
  return out
}

function messages(long: string): AgentMessage[] {
  return [
    AgentMessage.user('read the log'),
    AgentMessage.assistant('Reading it.', [new ToolCall('c1', 'dump_log', '{"path":"a.log"}')]),
    AgentMessage.tool('c1', [ContentPart.text(long), ContentPart.text('short tail')]),
    AgentMessage.assistant('The log is fine.')
  ]
}

function refusal(run: () => unknown): Promise<ArkAgentError> {
  return Promise.resolve().then(run).then(() => {
    throw new Error('expected a refusal')
  }, (e: unknown) => e as ArkAgentError)
}

describe('the paced stored text of messages', () => {
  it('JSON literal built in slices equals JSON.stringify (property)', async () => {
    await fc.assert(fc.asyncProperty(tricky, fc.integer({ min: 1, max: 13 }), async (text, slice) => {
      expect(await PacedMessages.literal(text, '$', new JsonFields(), noPause, slice)).toBe(JSON.stringify(text))
    }), { numRuns: 600, seed: 20261207 })
  })

  it('equals messagesText whatever the texts around a long one (property)', async () => {
    await fc.assert(fc.asyncProperty(tricky, tricky, fc.integer({ min: 1, max: 1_000_000 }), async (a, b, seed) => {
      const history = [AgentMessage.user(a), ...messages(a + longText(seed, LONG_TEXT + (seed % 5000)) + b),
        AgentMessage.tool('c2', [ContentPart.image('image/png', 'QUJD'.repeat(LONG_TEXT / 4 + (seed % 7))), ContentPart.text(b)])]
      const paced = await StateCodec.messagesTextPaced(history, 0, history.length, noPause)
      expect(paced).toBe(StateCodec.messagesText(history, 0, history.length))
      expect(await StateCodec.messagesTextPaced(history, 1, 4, noPause)).toBe(StateCodec.messagesText(history, 1, 4))
    }), { numRuns: 40, seed: 20261208 })
  })

  it('a message text that equals a placeholder is encoded and checked whole, to the same text', async () => {
    const fake = '\u0000arkagent-long-text-0\u0000'
    const history = [AgentMessage.tool('c1', [ContentPart.text(longText(7, LONG_TEXT)), ContentPart.text(fake)]),
      AgentMessage.user(`x"${fake}`)]
    expect(await StateCodec.messagesTextPaced(history, 0, 2, noPause)).toBe(StateCodec.messagesText(history, 0, 2))
    const ends = [AgentMessage.tool('c1', [ContentPart.text(`${longText(8, LONG_TEXT)}"${fake}`)])]
    expect(await StateCodec.messagesTextPaced(ends, 0, 1, noPause)).toBe(StateCodec.messagesText(ends, 0, 1))
  })

  it('refuses what would not load back with the error messagesText gives, naming the field', async () => {
    const long = longText(3, LONG_TEXT * 2)
    const bad = new AgentMessage('robot' as never, [ContentPart.text(long)])
    for (const history of [[AgentMessage.user('a'), bad], [AgentMessage.tool('c', [ContentPart.text(long)]),
      new AgentMessage('robot' as never, [])]]) {
      const one = await refusal(() => StateCodec.messagesText(history, 0, 2))
      const paced = await refusal(() => StateCodec.messagesTextPaced(history, 0, 2, noPause))
      expect(paced.code).toBe(ErrorCodes.stateSaveFailed)
      expect(paced.message).toBe(one.message)
      expect(paced.message).toBe("Refused to write messages 0-1: it would not load back (Invalid state at $[1].role: unexpected value 'robot')")
    }
  })

  it('gives the thread back between messages and slices; a long parse begins a slice of its own', async () => {
    vi.spyOn(HostYield, 'due').mockReturnValue(true)
    const history = messages(longText(5, LONG_TEXT * 4))
    const before = HostYield.yields
    const text = await StateCodec.messagesTextPaced(history, 0, history.length, yieldIfDue)
    expect(text).toBe(StateCodec.messagesText(history, 0, history.length))
    // A pause before each message, before each slice of the long text and before each message's parse.
    expect(HostYield.yields - before).toBeGreaterThanOrEqual(history.length * 2 + 4)
  })
})

describe('a save of a segment holding a long text', () => {
  for (const maxValueBytes of [0, 8192]) {
    it(`stores the bytes messagesText gives, under its fnv1a, and counts their UTF-8 bytes (maxValueBytes ${maxValueBytes})`, async () => {
      const backend = new MemorySegmentBackend()
      const options = new SegmentedStorageOptions()
      options.maxValueBytes = maxValueBytes
      const storage = new MemoryStateStorage(options, backend)
      const state = new AgentState('paced')
      state.history = messages(longText(11, LONG_TEXT * 3 + 1))
      vi.spyOn(HostYield, 'due').mockReturnValue(true)
      const before = HostYield.yields
      const report = await storage.save(state)
      expect(HostYield.yields).toBeGreaterThan(before)
      vi.restoreAllMocks()
      const text = StateCodec.messagesText(state.history, 0, state.history.length)
      const parts = splitByUtf8Bytes(text, maxValueBytes)
      const keys = (await backend.list('paced')).sort()
      const segmentKeys = parts.map((p, i) => `seg-0-4-${fnv1a(text)}.${i}`)
      expect(keys.filter((k) => k.startsWith('seg-')).sort()).toEqual([...segmentKeys].sort())
      for (let i = 0; i < parts.length; i++) {
        expect(await backend.read('paced', segmentKeys[i])).toBe(parts[i])
      }
      const header = await backend.readHeader('paced')
      expect(report.bytesWritten).toBe(utf8Length(text) + utf8Length(header!))
      const back = (await new MemoryStateStorage(options, backend).load('paced'))!.state
      expect(StateCodec.encode(back)).toBe(StateCodec.encode(state))
    })
  }
})

describe('HostYield.dueBefore', () => {
  it('a step that would take the current slice past its budget begins a slice of its own', async () => {
    const budget = HostYield.budgetMs
    try {
      await new Promise((resolve) => setTimeout(resolve, 0))
      // The thread was free: this check begins a slice, and nothing ran in it yet.
      expect(HostYield.dueBefore(budget)).toBe(false)
      expect(HostYield.dueBefore(budget)).toBe(true)
      HostYield.budgetMs = 0
      expect(HostYield.dueBefore(1000)).toBe(false)
    } finally {
      HostYield.budgetMs = budget
    }
  })
})
