// Starts the test run's PostgreSQL server once (see postgres.ts) and hands its URL to the suites.
import type { TestProject } from 'vitest/node'
import { RunningPostgres, startPostgres } from './postgres'

declare module 'vitest' {
  export interface ProvidedContext {
    /** '' when no server could be started (the Postgres suites then skip; see pgSkipReason). */
    pgUrl: string
    pgSkipReason: string
  }
}

let running: RunningPostgres | undefined

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  try {
    running = await startPostgres()
    project.provide('pgUrl', running.url)
    project.provide('pgSkipReason', '')
  } catch (e) {
    const reason = `PostgreSQL could not be started: ${(e as Error).message}`
    if (process.env.ARKAGENT_REQUIRE_PG === '1') throw new Error(`${reason} (ARKAGENT_REQUIRE_PG=1)`)
    process.stderr.write(`[postgres] ${reason}; the Postgres suites are skipped\n`)
    project.provide('pgUrl', '')
    project.provide('pgSkipReason', reason)
  }
  return async () => {
    await running?.stop()
  }
}
