// vitest for `npm run test:mutation`: the suites that pin core behaviour. The load test (a child
// process with --expose-gc) and the cross-process lock race (skipped under ARKAGENT_MUTATION) measure
// the platform, not the core's decisions, and do not run inside Stryker's sandbox.
import path from 'node:path'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: {
    alias: { '@arkagent/core': path.resolve(import.meta.dirname, 'shared-ts/src/index.ts') },
  },
  test: {
    include: ['shared-ts/test/**/*.test.ts'],
    exclude: ['shared-ts/test/reliability/Load.test.ts'],
    testTimeout: 30000,
    hookTimeout: 30000,
    pool: 'forks',
    // Fuzz and sweep suites draw a fifth of their cases per mutant (shared-ts/test/support/scale.ts).
    env: { ARKAGENT_MUTATION: '1' },
  },
})
