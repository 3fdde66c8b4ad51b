/**
 * What the runtime does with an MCP server's request to use the model (`sampling/createMessage`):
 * `ask` (the default) puts it to the user like an approval, `allow` runs it, `deny` refuses it.
 * Whatever the policy, a sampling call passes the model hooks and counts against the run's limits.
 */
export enum SamplingPolicy {
  ask = 'ask',
  allow = 'allow',
  deny = 'deny'
}
