// Section 4: one autosave after appending a message, and restore, against a naive full rewrite.
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import {
  AgentMessage, AgentState, ContentPart, FileStateStorage, MemorySegmentBackend, MemoryStateStorage, migratePostgres,
  PostgresStateStorage, StateCodec, type StateStorage, ToolCall,
} from '../shared-ts/src/index'
import { RunningPostgres, startPostgres } from '../shared-ts/test/support/postgres'
import { check, rng, stats, Stats, gc } from './lib'

const SENTENCES = ['Let me look at the build configuration first.', 'The test suite fails in the storage module.',
  '我们先看一下日志，然后再决定下一步。', 'Reading src/app/main.ts to find the entry point.',
  'The function returns early when the cache is empty, which explains the bug.', 'Done: the fix is in place.']

/** The i-th message of a realistic-looking history: user turns, assistant turns with tool calls, tool results. */
export function message(i: number, rand: () => number): AgentMessage {
  const pick = (): string => SENTENCES[Math.floor(rand() * SENTENCES.length)]
  const kind = i % 4
  if (kind === 0) {
    return AgentMessage.user(`${pick()} ${pick()} (#${i})`)
  }
  if (kind === 1) {
    return AgentMessage.assistant(`${pick()} ${pick()}`,
      [new ToolCall(`call_${i}`, 'read_file', JSON.stringify({ path: `src/module${i % 97}/index.ts`, maxLines: 200 }))])
  }
  if (kind === 2) {
    return AgentMessage.tool(`call_${i - 1}`, [ContentPart.text(`${pick()}\n${pick()}\n${pick()}\nexport const v${i} = ${i}\n`)])
  }
  return AgentMessage.assistant(`${pick()} ${pick()} ${pick()}`)
}

export function buildState(sessionId: string, n: number): AgentState {
  const rand = rng(n)
  const state = new AgentState(sessionId)
  for (let i = 0; i < n; i++) {
    state.history.push(message(i, rand))
  }
  return state
}

export class PersistRow {
  constructor(
    readonly backend: string,
    readonly messages: number,
    readonly autosaveBytes: number,
    readonly fullBytes: number,
    readonly autosaveMs: Stats,
    readonly fullMs: Stats,
    readonly restoreMs: Stats,
  ) {}
}

async function naiveFileWrite(file: string, text: string): Promise<void> {
  const handle = await fs.open(file, 'w')
  try {
    await handle.writeFile(text, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** FileStateStorage locks a session per instance; release it so the next instance can open it. */
async function closeStorage(storage: StateStorage): Promise<void> {
  const closable = storage as StateStorage & { close?: () => Promise<void> }
  if (typeof closable.close === 'function') await closable.close()
}

async function timeIt(fn: () => Promise<void>): Promise<number> {
  const t0 = process.hrtime.bigint()
  await fn()
  return Number(process.hrtime.bigint() - t0) / 1e6
}

export async function persistenceBench(sizes: number[], warmup: number, iterations: number,
  restoreIterations: number): Promise<PersistRow[]> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'arkagent-bench-'))
  const rows: PersistRow[] = []
  // PostgreSQL (the embedded server the tests use), when it can start here: same run, same histories.
  let server: RunningPostgres | undefined
  let pool: pg.Pool | undefined
  try {
    server = await startPostgres()
    pool = new pg.Pool({ connectionString: server.url, max: 4 })
    await migratePostgres(pool, 'bench')
    await pool.query('CREATE TABLE IF NOT EXISTS bench.naive (id text PRIMARY KEY, doc text NOT NULL)')
  } catch (e) {
    process.stderr.write(`[bench] PostgreSQL rows skipped: ${(e as Error).message}\n`)
    await pool?.end().catch(() => {})
    pool = undefined
  }
  const backends = pool !== undefined ? ['file', 'postgres', 'memory'] : ['file', 'memory']
  try {
    for (const backendName of backends) {
      for (const n of sizes) {
        const sessionId = `bench-${backendName}-${n}`
        const memBackend = new MemorySegmentBackend()
        const makeStorage = (): StateStorage =>
          backendName === 'file' ? new FileStateStorage(root) :
            backendName === 'postgres' ? new PostgresStateStorage(pool as pg.Pool, { schema: 'bench' }) :
              new MemoryStateStorage(undefined, memBackend)
        const storage = makeStorage()
        const state = buildState(sessionId, n)
        await storage.save(state.snapshot())
        const rand = rng(7)
        const autosaveMs: number[] = []
        const autosaveBytes: number[] = []
        for (let i = 0; i < warmup + iterations; i++) {
          state.history.push(message(state.history.length, rand))
          gc()
          let bytes = 0
          const ms = await timeIt(async () => {
            bytes = (await storage.save(state.snapshot())).bytesWritten
          })
          if (i >= warmup) {
            autosaveMs.push(ms)
            autosaveBytes.push(bytes)
          }
        }
        // Naive: the whole state as one JSON document, rewritten (and fsynced, for files) every time.
        const naiveFile = path.join(root, `${sessionId}.naive.json`)
        const fullMs: number[] = []
        let fullBytes = 0
        for (let i = 0; i < warmup + iterations; i++) {
          gc()
          const ms = await timeIt(async () => {
            const text = StateCodec.encode(state.snapshot())
            fullBytes = Buffer.byteLength(text, 'utf8')
            if (backendName === 'file') {
              await naiveFileWrite(naiveFile, text)
            } else if (backendName === 'postgres') {
              await (pool as pg.Pool).query(`INSERT INTO bench.naive (id, doc) VALUES ($1, $2)
                ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`, [sessionId, text])
            }
          })
          if (i >= warmup) fullMs.push(ms)
        }
        await closeStorage(storage)
        const restoreMs: number[] = []
        for (let i = 0; i < 1 + restoreIterations; i++) {
          gc()
          let loaded = 0
          // A fresh instance each time, as a new process would open the session (lock included).
          const reader = makeStorage()
          const ms = await timeIt(async () => {
            const l = await reader.load(sessionId)
            loaded = l !== undefined ? l.state.history.length : -1
          })
          await closeStorage(reader)
          check(loaded === state.history.length, `restore of ${n} messages loaded ${loaded}`)
          if (i >= 1) restoreMs.push(ms)
        }
        const bytesMedian = stats(autosaveBytes).median
        rows.push(new PersistRow(backendName, n, bytesMedian, fullBytes, stats(autosaveMs), stats(fullMs), stats(restoreMs)))
      }
    }
  } finally {
    await fs.rm(root, { recursive: true, force: true })
    await pool?.end().catch(() => {})
    await server?.stop()
  }
  return rows
}
