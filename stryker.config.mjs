// `npm run test:mutation`: mutation testing of the safety-critical core folders with the vitest
// runner. Not part of `npm test` (it takes a while); docs/testing.md lists the score and every
// surviving mutant with why it is equivalent.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  coverageAnalysis: 'perTest',
  mutate: [
    'shared-ts/src/core/hook/**/*.ts',
    'shared-ts/src/core/runtime/**/*.ts',
    'shared-ts/src/core/storage/**/*.ts',
    'shared-ts/src/core/state/**/*.ts',
    'shared-ts/src/core/controller/**/*.ts',
    'shared-ts/src/core/events/**/*.ts'
  ],
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 8000,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  thresholds: { high: 95, low: 90, break: 90 },
  tempDirName: '.stryker-tmp'
}
