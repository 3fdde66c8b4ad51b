// Section 8: the HarmonyOS storages on their Node fakes — PreferencesStateStorage (the device keeps
// a preferences file wholly in memory; the fake does too) and RelationalStateStorage (SQLite; the
// fake runs SQLite compiled to wasm by sql.js and rewrites its whole database file per statement,
// where a device writes pages). Bytes written are the storages' own and hold on a device; times are
// the fakes' and only compare the two within this run.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { AgentMessage, AgentState, ContentPart, ToolCall } from '../agent_core/src/main/ets/core/index.ets'
import { PreferencesStateStorage, PreferencesStorageOptions } from '../agent_core/src/main/ets/storage/PreferencesStateStorage.ets'
import { RelationalStateStorage, RelationalStorageOptions } from '../agent_core/src/main/ets/storage/RelationalStateStorage.ets'
import { check, gc, rng, stats, Stats } from './lib'

const SENTENCES = ['Let me look at the build configuration first.', 'The test suite fails in the storage module.',
  '我们先看一下日志，然后再决定下一步。', 'Reading src/app/main.ts to find the entry point.',
  'The function returns early when the cache is empty, which explains the bug.', 'Done: the fix is in place.']

function message(i: number, rand: () => number): AgentMessage {
  const pick = (): string => SENTENCES[Math.floor(rand() * SENTENCES.length)]
  const kind = i % 4
  if (kind === 0) return AgentMessage.user(`${pick()} ${pick()} (#${i})`)
  if (kind === 1) {
    return AgentMessage.assistant(`${pick()} ${pick()}`,
      [new ToolCall(`call_${i}`, 'read_file', JSON.stringify({ path: `src/module${i % 97}/index.ts`, maxLines: 200 }))])
  }
  if (kind === 2) return AgentMessage.tool(`call_${i - 1}`, [ContentPart.text(`${pick()}\n${pick()}\nexport const v${i} = ${i}\n`)])
  return AgentMessage.assistant(`${pick()} ${pick()} ${pick()}`)
}

function stateOf(sessionId: string, n: number): AgentState {
  const rand = rng(n)
  const state = new AgentState(sessionId)
  for (let i = 0; i < n; i++) state.history.push(message(i, rand))
  return state
}

export interface DeviceStorageRow {
  backend: string
  messages: number
  fullBytes: number
  autosaveBytes: number
  autosaveMs: Stats
  restoreMs: Stats
  /** JS heap still held by a storage instance after it loaded the session (the loaded state dropped). */
  heldBytes: number
}

interface Closable { close(): void }

async function measureBackend(name: string, make: () => { save(s: AgentState): Promise<{ bytesWritten: number }>, load(id: string): Promise<unknown> } & Closable,
  forget: () => Promise<void>, n: number, rounds: number): Promise<DeviceStorageRow> {
  const id = `bench-${name}-${n}`
  const state = stateOf(id, n)
  const writer = make()
  const full = await writer.save(state)
  const autosave: number[] = []
  let autosaveBytes = 0
  for (let r = 0; r < rounds; r++) {
    state.history.push(AgentMessage.user(`one more ${r}`))
    gc()
    const t0 = process.hrtime.bigint()
    const report = await writer.save(state)
    autosave.push(Number(process.hrtime.bigint() - t0) / 1e6)
    autosaveBytes = report.bytesWritten
  }
  writer.close()
  const restore: number[] = []
  for (let r = 0; r < rounds; r++) {
    await forget()
    const reader = make()
    gc()
    const t0 = process.hrtime.bigint()
    const loaded = await reader.load(id)
    restore.push(Number(process.hrtime.bigint() - t0) / 1e6)
    check(loaded !== undefined, `${name}: nothing loaded`)
    reader.close()
  }
  // Memory a storage instance keeps after loading (the loaded state itself is let go).
  await forget()
  gc()
  const before = process.memoryUsage().heapUsed
  const holder = make()
  let loaded: unknown = await holder.load(id)
  check(loaded !== undefined, `${name}: nothing loaded`)
  loaded = undefined
  gc()
  const held = process.memoryUsage().heapUsed - before
  holder.close()
  return { backend: name, messages: n, fullBytes: full.bytesWritten, autosaveBytes, autosaveMs: stats(autosave), restoreMs: stats(restore), heldBytes: held }
}

export async function deviceStorageBench(n: number, rounds: number): Promise<DeviceStorageRow[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-device-bench-'))
  const context = { preferencesDir: path.join(dir, 'preferences'), databaseDir: path.join(dir, 'database') }
  // The fakes' system caches hold instances like a device process; a relaunch is simulated by
  // dropping them (what a killed process loses), then opening the files again.
  const { preferences, forgetStores } = await import('../scripts/hypium-node/fakes/ArkData.ts')
  try {
    const prefOptions = new PreferencesStorageOptions()
    const prefs = await measureBackend('preferences', () => new PreferencesStateStorage(context as never, prefOptions),
      async () => { await preferences.removePreferencesFromCache(context, { name: `arkagent_bench-preferences-${n}` }) }, n, rounds)
    const relOptions = new RelationalStorageOptions()
    relOptions.databaseName = 'bench.db'
    const rel = await measureBackend('relational', () => new RelationalStateStorage(context as never, relOptions),
      async () => { forgetStores() }, n, rounds)
    return [prefs, rel]
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
