// Fuzz and sweep sizes. `npm run test:mutation` runs the suites once per mutant, so there
// (ARKAGENT_MUTATION=1, set by vitest.mutation.config.ts) they draw a fifth of the cases; `npm test`
// always runs the full counts that docs/reliability.md reports.
export const MUTATION_RUN = process.env.ARKAGENT_MUTATION === '1'

/** `n` cases, or a fifth of them (at least 20) in a mutation run. */
export function cases(n: number): number {
  return MUTATION_RUN ? Math.max(20, Math.round(n / 5)) : n
}
