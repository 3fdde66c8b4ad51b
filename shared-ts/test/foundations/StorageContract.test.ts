import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ContentPart } from '../../src/core/model/ContentPart'
import { AgentState, SessionStatus } from '../../src/core/state/AgentState'
import { StateCodec } from '../../src/core/state/StateCodec'
import { MemorySegmentBackend, MemoryStateStorage } from '../../src/core/storage/MemoryStateStorage'
import { SegmentBackend } from '../../src/core/storage/SegmentBackend'
import { SegmentedStateStorage, SegmentedStorageOptions } from '../../src/core/storage/SegmentedStateStorage'
import { StateStorage } from '../../src/core/storage/StateStorage'
import { utf8Length } from '../../src/core/util/Text'
import { FileSegmentBackend } from '../../src/node/files/FileSegmentBackend'
import { FileStateStorage } from '../../src/node/files/FileStateStorage'
import { conversation, headerDoc, rejectionOf, richState, sealHeader, sleep } from './fixtures'

import { fileFactory, memoryFactory, opts, stateWith, storageContract } from './storageContract'

storageContract(memoryFactory())
storageContract(fileFactory())

describe('FileStateStorage specifics', () => {
  let dir = ''
  beforeEach(async () => { dir = await fs.mkdtemp(path.join(os.tmpdir(), 'arkagent-file-')) })
  afterEach(async () => { await fs.rm(dir, { recursive: true, force: true }) })

  it('rejects unsafe session ids (path traversal, separators, empty, too long) with a clear error and touches nothing outside its root', async () => {
    const root = path.join(dir, 'root')
    const st = new FileStateStorage(root, undefined, { lock: false })
    const bad = ['../evil', '..', '.', 'a/../../evil', '/etc/passwd', 'a/b', 'a\\b', '', '.hidden', 'ok..x',
      'x'.repeat(200), 'nul\u0000byte', '空格 id']
    for (const id of bad) {
      const s = new AgentState(id)
      s.history = [AgentMessage.user('x')]
      for (const op of [() => st.save(s), () => st.load(id), () => st.markNotResumable(id, 'r'), () => st.delete(id)]) {
        const e = await rejectionOf(op())
        expect(e).toBeInstanceOf(ArkAgentError)
        expect({ id, code: e.code }).toEqual({ id, code: ErrorCodes.invalidConfig })
        expect(e.message).toContain('Session id')
      }
    }
    expect((await fs.readdir(dir)).sort()).toEqual([])
    const good = new AgentState('user-1_session.2')
    await st.save(good)
    expect(await fs.readdir(root)).toEqual(['user-1_session.2'])
  })

  it('stores one file per value under the session directory and an atomically replaced header.json', async () => {
    const st = new FileStateStorage(dir, opts(2), { lock: false })
    const s = stateWith('files', conversation(5))
    await st.save(s)
    const names = (await fs.readdir(path.join(dir, 'files'))).sort()
    expect(names.filter((n) => n.endsWith('.val')).length).toBe(3)
    expect(names).toContain('header.json')
    expect(names.some((n) => n.endsWith('.tmp'))).toBe(false)
  })
})

describe('segment list in the header', () => {
  it('lists each segment compactly so a long history still fits an 8192-byte header', async () => {
    const { MemoryStateStorage, SegmentedStorageOptions, AgentState, AgentMessage } = await import('../../src/index')
    const options = new SegmentedStorageOptions()
    options.segmentSize = 32
    options.maxValueBytes = 8192
    const storage = new MemoryStateStorage(options)
    const state = new AgentState('long')
    for (let i = 0; i < 12_000; i++) state.history.push(AgentMessage.user(`m${i}`))
    await storage.save(state)
    const header = storage.memory.peek('long', 'header') as string
    expect(Buffer.byteLength(header)).toBeLessThanOrEqual(8192)
    const loaded = await new MemoryStateStorage(options, storage.memory).load('long')
    expect(loaded?.state.history.length).toBe(12_000)
  })

  it('still loads a header written with the earlier object form of the segment list', async () => {
    const { MemoryStateStorage, AgentState, AgentMessage } = await import('../../src/index')
    const storage = new MemoryStateStorage()
    const state = new AgentState('old-form')
    state.history.push(AgentMessage.user('hello'), AgentMessage.assistant('hi'))
    await storage.save(state)
    const header = headerDoc(storage.memory.peek('old-form', 'header') as string)
    header.segments = (header.segments as string[]).map((s: string, i: number) => {
      const [count, hash, parts] = s.split('.')
      return { key: `seg-${i}-${count}-${hash}`, count: Number(count), hash, parts: Number(parts) }
    })
    storage.memory.poke('old-form', 'header', JSON.stringify(header))
    const loaded = await new MemoryStateStorage(undefined, storage.memory).load('old-form')
    expect(loaded?.state.history.map((m) => m.text())).toEqual(['hello', 'hi'])
  })
})
