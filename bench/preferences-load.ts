// Section 11: when the preferences 2 s load wait loses data, on the Node fake's device model.
//
// On a device (distributeddatamgr_preferences 5.0.0) getPreferences resolves before the file is
// read; every preferences file of the app is loaded on ONE executor thread, one after another
// (preferences_base.cpp:33); a get/put whose file's load has not STARTED within 2 s runs on the
// empty cache, and the load, when it comes, replaces the cache (preferences_impl.cpp:173-306). A
// file alone never waits that long (a running load holds the mutex the call waits on), so what
// bites is the size of the files loaded BEFORE it: another session restored at the same time, or
// the app's own settings opened right after a big session. The fake models a load as
// bytes / 16 MiB/s (scripts/hypium-node/fakes/arkdata/PreferencesFake.ts, LOAD_BYTES_PER_MS).
//
// Each trial writes a file of the given size ahead, reopens it, then opens a small file behind it
// and reads and puts there at once, as any app code would (unguarded), and then loads a session
// behind it through PreferencesStateStorage (which proves its file loaded before using it).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { AgentMessage, AgentState, ContentPart, ToolCall } from '../agent_core/src/main/ets/core/index.ets'
import { PreferencesLimits } from '../agent_core/src/main/ets/storage/PreferencesLimits.ets'
import { PreferencesStateStorage, PreferencesStorageOptions } from '../agent_core/src/main/ets/storage/PreferencesStateStorage.ets'
import { check, rng } from './lib'

const MiB = 1024 * 1024
const VALUE_CHARS = 15_000_000

export interface PreferencesLoadRow {
  aheadMiB: number
  /** The fake's modelled load time of the file ahead. */
  modelMs: number
  /** Unguarded: did the first read of the file behind come back without its data? */
  readEmpty: boolean
  /** Unguarded: was a put made at the same time dropped by the late load? */
  putLost: boolean
  /** PreferencesStateStorage behind the same file: did it load the session exactly, and in how long. */
  storageExact: boolean
  storageMs: number
}

export interface PreferencesLoadResult {
  bytesPerMs: number
  rows: PreferencesLoadRow[]
  /** Smallest size ahead (MiB) at which the unguarded read came back empty. */
  bitesAtMiB: number | undefined
  /** Bytes of preferences file per message of the bench's chat (10,000 messages saved). */
  fileBytesPerMessage: number
  defaultLimitMiB: number
}

function chat(sessionId: string, n: number): AgentState {
  const rand = rng(n)
  const state = new AgentState(sessionId)
  const words = ['Reading src/app/main.ts', '我们先看一下日志', 'The test suite fails', 'Done: the fix is in place.']
  for (let i = 0; i < n; i++) {
    const w = words[Math.floor(rand() * words.length)]
    if (i % 4 === 1) state.history.push(AgentMessage.assistant(w, [new ToolCall(`call_${i}`, 'read_file', `{"path":"src/m${i % 97}.ts"}`)]))
    else if (i % 4 === 2) state.history.push(AgentMessage.tool(`call_${i - 1}`, [ContentPart.text(`${w}\nexport const v${i} = ${i}\n`)]))
    else state.history.push(AgentMessage.user(`${w} (#${i})`))
  }
  return state
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export async function preferencesLoadBench(sizesMiB: number[]): Promise<PreferencesLoadResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-prefs-load-'))
  const context = { preferencesDir: path.join(dir, 'preferences'), databaseDir: path.join(dir, 'database') }
  const { preferences } = await import('../scripts/hypium-node/fakes/ArkData.ts')
  const { LOAD_BYTES_PER_MS } = await import('../scripts/hypium-node/fakes/arkdata/PreferencesFake.ts')
  const options = new PreferencesStorageOptions()
  options.limits = PreferencesLimits.api12()
  const storage = (): PreferencesStateStorage => new PreferencesStateStorage(context as never, options)
  const rows: PreferencesLoadRow[] = []
  try {
    // How big a chat's file is: 10,000 messages through the storage, measured on disk.
    const sized = storage()
    await sized.save(chat('sizing', 10_000))
    sized.close()
    const fileBytesPerMessage = fs.statSync(path.join(context.preferencesDir, 'arkagent_sizing')).size / 10_000
    const session = chat('behind', 20)
    const writer = storage()
    await writer.save(session)
    writer.close()
    // Every trial opens the session's file afresh, as a relaunched app does.
    await preferences.removePreferencesFromCache(context, 'arkagent_behind')
    const expected = JSON.stringify(session.history.map((m) => m.text()))
    for (const mib of sizesMiB) {
      const ahead = `ahead-${mib}`
      const a0 = await preferences.getPreferences(context, ahead)
      let left = Math.round(mib * MiB)
      for (let i = 0; left > 0; i++) {
        const n = Math.min(left, VALUE_CHARS)
        await a0.put(`v${i}`, 'x'.repeat(n))
        left -= n
      }
      await a0.flush()
      const small = await preferences.getPreferences(context, 'small')
      await small.put('k', 'v')
      await small.flush()
      await preferences.removePreferencesFromCache(context, 'small')
      await preferences.removePreferencesFromCache(context, ahead)
      // Unguarded: the file ahead loads; the small one behind it is read and written at once.
      const a1 = await preferences.getPreferences(context, ahead)
      const s1 = await preferences.getPreferences(context, 'small')
      const [first] = await Promise.all([s1.get('k', 'none'), s1.put('meanwhile', 'x')])
      await a1.has('v0')
      await sleep(5)
      const putLost = (await s1.get('meanwhile', 'lost')) === 'lost'
      await preferences.removePreferencesFromCache(context, 'small')
      await preferences.removePreferencesFromCache(context, ahead)
      // Guarded: the same queue, a session behind it through the storage.
      const a2 = await preferences.getPreferences(context, ahead)
      const reader = storage()
      const t0 = process.hrtime.bigint()
      const loaded = await reader.load('behind')
      const storageMs = Number(process.hrtime.bigint() - t0) / 1e6
      await a2.has('v0')
      reader.close()
      await preferences.removePreferencesFromCache(context, 'arkagent_behind')
      await preferences.deletePreferences(context, ahead)
      await preferences.deletePreferences(context, 'small')
      const storageExact = loaded !== undefined && JSON.stringify(loaded.state.history.map((m) => m.text())) === expected
      check(storageExact, `the storage did not load the session behind ${mib} MiB exactly`)
      rows.push({ aheadMiB: mib, modelMs: (mib * MiB) / LOAD_BYTES_PER_MS, readEmpty: first === 'none', putLost, storageExact, storageMs })
    }
    const bites = rows.filter((r) => r.readEmpty).map((r) => r.aheadMiB)
    return {
      bytesPerMs: LOAD_BYTES_PER_MS, rows, bitesAtMiB: bites.length > 0 ? Math.min(...bites) : undefined, fileBytesPerMessage,
      defaultLimitMiB: new PreferencesLimits().maxFileBytes / MiB,
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
