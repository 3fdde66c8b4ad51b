// What is stored can always be loaded: for any state the runtime can produce, decode(encode(s))
// equals s (directly and through segmented storage at several segment and value sizes), and a
// state holding a value decode would reject is refused at encode time, before any byte is written.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { AgentMessage, MessageRole } from '../../src/core/model/AgentMessage'
import { ContentPart } from '../../src/core/model/ContentPart'
import { ToolCall } from '../../src/core/model/ToolCall'
import { AgentState } from '../../src/core/state/AgentState'
import { StateCodec } from '../../src/core/state/StateCodec'
import { MemorySegmentBackend, MemoryStateStorage } from '../../src/core/storage/MemoryStateStorage'
import { SegmentedStorageOptions } from '../../src/core/storage/SegmentedStateStorage'
import { stateOf } from './arbitraries'
import { plain, richState, thrownBy } from './fixtures'
import { cases } from '../support/scale'

const SEED = 20261201

function options(segmentSize: number, maxValueBytes: number): SegmentedStorageOptions {
  const o = new SegmentedStorageOptions()
  o.segmentSize = segmentSize
  o.maxValueBytes = maxValueBytes
  return o
}

describe('StateCodec: decode(encode(s)) equals s for any state', () => {
  it('as one document', () => {
    fc.assert(fc.property(stateOf('s1'), (s) => {
      const text = StateCodec.encode(s)
      const back = StateCodec.decode(text)
      expect(plain(back)).toEqual(plain(s))
      expect(StateCodec.encode(back)).toBe(text)
    }), { seed: SEED, numRuns: cases(1500) })
  })

  it('through segmented storage (segments of 1, 3 and 64 messages)', async () => {
    await fc.assert(fc.asyncProperty(stateOf('s2', 30), fc.constantFrom(1, 3, 64),
      async (s, segmentSize) => {
        const maxValueBytes = 0
        const backend = new MemorySegmentBackend()
        await new MemoryStateStorage(options(segmentSize, maxValueBytes), backend).save(s)
        const loaded = await new MemoryStateStorage(options(segmentSize, maxValueBytes), backend).load('s2')
        expect(loaded).toBeDefined()
        expect(plain(loaded!.state)).toEqual(plain(s))
        expect(StateCodec.encode(loaded!.state)).toBe(StateCodec.encode(s))
      }), { seed: SEED, numRuns: cases(300) })
  })

  it('through segmented storage with values split into parts of at most 2048 bytes', async () => {
    await fc.assert(fc.asyncProperty(stateOf('s3', 80, true), fc.constantFrom(4, 64), async (s, segmentSize) => {
      const backend = new MemorySegmentBackend()
      await new MemoryStateStorage(options(segmentSize, 2048), backend).save(s)
      for (const key of await backend.list('s3')) expect(Buffer.byteLength(backend.peek('s3', key)!)).toBeLessThanOrEqual(2048)
      const loaded = await new MemoryStateStorage(options(segmentSize, 2048), backend).load('s3')
      expect(plain(loaded!.state)).toEqual(plain(s))
    }), { seed: SEED, numRuns: cases(200) })
  })
})

type Loose = Record<string, unknown>

/** Ways a value that decode rejects could reach a state (plain JavaScript, casts). */
const poisons: Array<{ name: string, apply: (s: AgentState) => void }> = [
  { name: 'a text part that is a number', apply: (s) => s.history.push(AgentMessage.user(5 as unknown as string)) },
  { name: 'a text part that is undefined', apply: (s) => s.history.push(AgentMessage.user(undefined as unknown as string)) },
  { name: 'an unknown role', apply: (s) => s.history.push(new AgentMessage('robot' as MessageRole, [ContentPart.text('x')])) },
  { name: 'a tool message without a call id', apply: (s) => s.history.push(new AgentMessage(MessageRole.tool, [])) },
  { name: 'a call index of 1.5', apply: (s) => s.history.push(AgentMessage.assistant('', [new ToolCall('a', 'b', '{}', 1.5)])) },
  { name: 'a call index of NaN', apply: (s) => s.history.push(AgentMessage.assistant('', [new ToolCall('a', 'b', '{}', NaN)])) },
  { name: 'a call name that is undefined', apply: (s) => s.history.push(AgentMessage.assistant('', [new ToolCall('a', undefined as unknown as string, '{}')])) },
  { name: 'arguments that are an object', apply: (s) => s.history.push(AgentMessage.assistant('', [new ToolCall('a', 'b', {} as unknown as string)])) },
  { name: 'an error code that is a number', apply: (s) => s.history.push(AgentMessage.tool('a', [], true, 7 as unknown as string)) },
  { name: 'a BigInt in the plan', apply: (s) => { (s as unknown as Loose).plan = BigInt(7) } },
  { name: 'an unknown status', apply: (s) => { (s as unknown as Loose).status = 'sleeping' } },
  { name: 'a run count of -1', apply: (s) => { s.runCount = -1 } },
  { name: 'a turn of 2.5', apply: (s) => { s.turn = 2.5 } },
  { name: 'updatedAtMs of NaN', apply: (s) => { s.updatedAtMs = NaN } },
  { name: 'updatedAtMs of Infinity', apply: (s) => { s.updatedAtMs = Infinity } },
  { name: 'an unknown risk level', apply: (s) => { (s.pendingApproval!.items[0] as unknown as Loose).riskLevel = 'mild' } },
  { name: 'an unknown decision', apply: (s) => { s.pendingApproval!.items[0].decision = 'maybe' as never } },
  { name: 'a deny reason that is a number', apply: (s) => { s.pendingApproval!.items[0].denyReason = 3 as unknown as string } },
  { name: 'a last error code that is missing', apply: (s) => { (s.lastError as unknown as Loose).code = undefined } },
  { name: 'a consumed approval id that is a number', apply: (s) => { s.consumedApprovalIds.push(5 as unknown as string) } },
  { name: 'a circular value', apply: (s) => { const o: Loose = {}; o.self = o; (s as unknown as Loose).plan = o } }
]

describe('StateCodec: encode refuses what decode would reject', () => {
  for (const p of poisons) {
    it(`${p.name}: encode and save refuse with state_save_failed, nothing is written`, async () => {
      const s = richState('poisoned')
      p.apply(s)
      const e = thrownBy(() => StateCodec.encode(s))
      expect(e).toBeInstanceOf(ArkAgentError)
      expect({ code: e.code, layer: e.layer }).toEqual({ code: ErrorCodes.stateSaveFailed, layer: ErrorLayer.storage })
      expect(e.message).toContain('would not load back')
      // A fresh session: nothing at all reaches the backend.
      const backend = new MemorySegmentBackend()
      const storage = new MemoryStateStorage(options(4, 0), backend)
      await expect(storage.save(s)).rejects.toMatchObject({ code: ErrorCodes.stateSaveFailed })
      expect(await backend.list('poisoned')).toEqual([])
      expect(await backend.readHeader('poisoned')).toBeUndefined()
      // A stored session: the committed snapshot stays exactly as it was.
      const good = richState('poisoned')
      await storage.save(good)
      const before = new Map<string, string | undefined>()
      for (const key of await backend.list('poisoned')) before.set(key, backend.peek('poisoned', key))
      const header = backend.peek('poisoned', 'header')
      const bad = good.snapshot()
      p.apply(bad)
      await expect(storage.save(bad)).rejects.toMatchObject({ code: ErrorCodes.stateSaveFailed })
      expect(backend.peek('poisoned', 'header')).toBe(header)
      for (const [key, value] of before) expect(backend.peek('poisoned', key)).toBe(value)
      const loaded = await new MemoryStateStorage(options(4, 0), backend).load('poisoned')
      expect(StateCodec.encode(loaded!.state)).toBe(StateCodec.encode(good))
    })
  }
})
