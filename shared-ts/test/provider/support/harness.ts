import { ArkAgentError } from '../../../src/core/errors/ArkAgentError'
import { AgentMessage } from '../../../src/core/model/AgentMessage'
import { ModelRequest } from '../../../src/core/model/ModelRequest'
import { OpenAICompatibleProvider } from '../../../src/core/provider/OpenAICompatibleProvider'
import type { OpenAICompatibleOptions } from '../../../src/core/provider/ProviderOptions'
import { RetryPolicy } from '../../../src/core/provider/RetryPolicy'
import { FetchTransport } from '../../../src/node/transport/FetchTransport'
import type { ScriptedServer } from './ScriptedServer'
import { TestClock } from './TestClock'

export const API_KEY = 'sk-test-5f1e2d3c4b5a69788796a5b4c3d2e1f0'

export function makeProvider(server: ScriptedServer, clock: TestClock,
  overrides: Partial<OpenAICompatibleOptions> = {}): OpenAICompatibleProvider {
  return new OpenAICompatibleProvider({
    transport: new FetchTransport(),
    baseUrl: server.baseUrl,
    apiKey: API_KEY,
    model: 'deepseek-chat',
    providerId: 'deepseek',
    clock,
    retry: new RetryPolicy(3, 100, 1000, 60000, () => 0.5),
    firstChunkTimeoutMs: 5000,
    idleTimeoutMs: 5000,
    ...overrides,
  })
}

export const userRequest = (text = 'Hello?', model = ''): ModelRequest =>
  new ModelRequest([AgentMessage.user(text)], [], model)

/** Awaits a rejection and returns it as an ArkAgentError (fails the test otherwise). */
export async function rejection(promise: Promise<unknown>): Promise<ArkAgentError> {
  try {
    await promise
  } catch (e) {
    if (!(e instanceof ArkAgentError)) throw new Error(`expected ArkAgentError, got ${String(e)}`)
    return e
  }
  throw new Error('expected a rejection')
}
