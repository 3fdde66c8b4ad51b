import path from 'node:path'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    // The package's entries, as the sources (exact matches: '@arkagent/core' is a prefix of the others).
    alias: [
      { find: /^@arkagent\/core$/, replacement: path.resolve(import.meta.dirname, 'shared-ts/src/index.ts') },
      { find: /^@arkagent\/core\/core$/, replacement: path.resolve(import.meta.dirname, 'shared-ts/src/core/index.ts') },
      { find: /^@arkagent\/core\/mcp$/, replacement: path.resolve(import.meta.dirname, 'shared-ts/src/mcp.ts') },
      { find: /^@arkagent\/core\/zod$/, replacement: path.resolve(import.meta.dirname, 'shared-ts/src/zod.ts') },
    ],
  },
  test: {
    include: ['shared-ts/test/**/*.test.ts', 'examples/**/*.test.ts'],
    // Hang detectors, not performance limits: the suite must pass on a loaded 2-core machine, where a
    // property test or a crash sweep can take several times its usual time.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Prints the reliability suite's combined table (crash points, fuzz cases, races, sessions).
    globalSetup: ['shared-ts/test/reliability/summaryGlobalSetup.ts', 'shared-ts/test/support/postgresGlobalSetup.ts'],
  },
})
