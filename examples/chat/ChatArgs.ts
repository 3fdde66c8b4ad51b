// Command-line options of `npm run chat`, validated into one-line errors.
import path from 'node:path'
import { ProviderPresets } from '@arkagent/core'

export interface ChatOptions {
  provider: 'deepseek' | 'zhipu' | 'openai-compatible'
  baseUrl: string
  model: string
  apiKey: string
  sessionDir: string
  sessionId: string
}

export class ChatUsageError extends Error {}

export const USAGE =
  'usage: npm run chat -- --provider deepseek|zhipu|openai-compatible [--base-url URL] [--model M] [--session DIR]'

const KEY_VARS: Record<ChatOptions['provider'], string> = {
  deepseek: 'DEEPSEEK_API_KEY',
  zhipu: 'ZHIPU_API_KEY',
  'openai-compatible': 'OPENAI_API_KEY',
}

export function parseChatArgs(argv: string[], env: Record<string, string | undefined>): ChatOptions {
  const flags = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]
    if (!name.startsWith('--')) throw new ChatUsageError(`Unexpected argument '${name}'. ${USAGE}`)
    const value = argv[i + 1]
    if (value === undefined || value.startsWith('--')) throw new ChatUsageError(`${name} needs a value. ${USAGE}`)
    flags.set(name.slice(2), value)
    i++
  }
  for (const name of flags.keys()) {
    if (!['provider', 'base-url', 'model', 'session'].includes(name)) {
      throw new ChatUsageError(`Unknown option --${name}. ${USAGE}`)
    }
  }
  const provider = flags.get('provider') ?? 'deepseek'
  if (provider !== 'deepseek' && provider !== 'zhipu' && provider !== 'openai-compatible') {
    throw new ChatUsageError(`Unknown provider '${provider}'. ${USAGE}`)
  }
  const preset = provider === 'openai-compatible' ? undefined : ProviderPresets.byId(provider)
  const baseUrl = flags.get('base-url') ?? preset?.baseUrl ?? ''
  if (baseUrl === '') throw new ChatUsageError('--base-url is required with --provider openai-compatible')
  if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) {
    throw new ChatUsageError(`Bad --base-url '${baseUrl}': it must start with http:// or https://`)
  }
  const model = flags.get('model') ?? preset?.defaultModel ?? ''
  if (model === '') throw new ChatUsageError('--model is required with --provider openai-compatible')
  const keyVar = KEY_VARS[provider]
  const apiKey = env[keyVar] ?? env.ARKAGENT_API_KEY ?? ''
  if (apiKey.trim() === '') {
    throw new ChatUsageError(`Missing API key: set ${keyVar} (or ARKAGENT_API_KEY) in the environment`)
  }
  const sessionDir = path.resolve(flags.get('session') ?? '.arkagent-chat')
  return { provider, baseUrl, model, apiKey: apiKey.trim(), sessionDir, sessionId: 'chat' }
}
