import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['shared-ts/test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 30000,
    hookTimeout: 30000,
    pool: 'forks',
  },
})
