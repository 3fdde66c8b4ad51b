// Command-line options of `npm run chat`, validated into one-line errors.
import path from 'node:path'
import { ProviderPresets } from '@arkagent/core'
import { type McpServerSpec } from '@arkagent/core/mcp'

export interface ChatOptions {
  /** A preset id (deepseek, zhipu, qwen, moonshot, openai, ollama, vllm) or 'openai-compatible'. */
  provider: string
  baseUrl: string
  model: string
  apiKey: string
  sessionDir: string
  sessionId: string
  /** Thinking on or off; undefined leaves the vendor's default. */
  thinking?: boolean
  /** MCP servers whose tools the chat may use (`--mcp "<command>"`, `--mcp-url <url>`, repeatable). */
  mcp: McpServerSpec[]
}

export class ChatUsageError extends Error {}

const PROVIDERS = [...ProviderPresets.all().map((p) => p.id), 'openai-compatible']

export const USAGE =
  `usage: npm run chat -- --provider ${PROVIDERS.join('|')} [--base-url URL] [--model M] [--thinking on|off] [--session DIR] [--mcp "COMMAND"] [--mcp-url URL]`

/** `npm run chat -- --help`. */
export const HELP = [
  USAGE,
  '',
  '  --provider P     a preset (default deepseek) or openai-compatible with --base-url',
  '  --base-url URL   the server (presets bring theirs)',
  '  --model M        the model (presets bring a default)',
  '  --thinking on|off   the vendor\'s thinking mode',
  '  --session DIR    where the session is stored (default .arkagent-chat); the same DIR continues it',
  '  --mcp "COMMAND"  an MCP server over stdio, e.g. --mcp "node examples/mcp/notes-server.mjs" (repeatable)',
  '  --mcp-url URL    an MCP server over Streamable HTTP (repeatable)',
  '',
  'Keys come from the environment: DEEPSEEK_API_KEY, ZHIPU_API_KEY, DASHSCOPE_API_KEY, MOONSHOT_API_KEY,',
  'OPENAI_API_KEY (or ARKAGENT_API_KEY). Dangerous tools ask first: y allows once, n denies, a allows from now',
  'on in this session, e edits the arguments and allows; q or Ctrl-D leaves the approval pending.',
].join('\n')

/** The environment variable holding each vendor's key (local servers need none). */
const KEY_VARS: Record<string, string> = {
  deepseek: 'DEEPSEEK_API_KEY',
  zhipu: 'ZHIPU_API_KEY',
  qwen: 'DASHSCOPE_API_KEY',
  moonshot: 'MOONSHOT_API_KEY',
  openai: 'OPENAI_API_KEY',
  ollama: 'OLLAMA_API_KEY',
  vllm: 'VLLM_API_KEY',
  'openai-compatible': 'OPENAI_API_KEY',
}

export function parseChatArgs(argv: string[], env: Record<string, string | undefined>): ChatOptions {
  const flags = new Map<string, string>()
  const mcp: McpServerSpec[] = []
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i]
    if (!name.startsWith('--')) throw new ChatUsageError(`Unexpected argument '${name}'. ${USAGE}`)
    const value = argv[i + 1]
    if (value === undefined || value.startsWith('--')) throw new ChatUsageError(`${name} needs a value. ${USAGE}`)
    if (name === '--mcp' || name === '--mcp-url') mcp.push(mcpSpec(name, value, mcp))
    else flags.set(name.slice(2), value)
    i++
  }
  for (const name of flags.keys()) {
    if (!['provider', 'base-url', 'model', 'session', 'thinking'].includes(name)) {
      throw new ChatUsageError(`Unknown option --${name}. ${USAGE}`)
    }
  }
  const provider = flags.get('provider') ?? 'deepseek'
  if (!PROVIDERS.includes(provider)) {
    throw new ChatUsageError(`Unknown provider '${provider}'. ${USAGE}`)
  }
  const preset = provider === 'openai-compatible' ? undefined : ProviderPresets.byId(provider)
  const baseUrl = flags.get('base-url') ?? preset?.baseUrl ?? ''
  if (baseUrl === '') throw new ChatUsageError('--base-url is required with --provider openai-compatible')
  if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) {
    throw new ChatUsageError(`Bad --base-url '${baseUrl}': it must start with http:// or https://`)
  }
  const model = flags.get('model') ?? preset?.defaultModel ?? ''
  if (model === '') throw new ChatUsageError(`--model is required with --provider ${provider}`)
  const keyVar = KEY_VARS[provider]
  const apiKey = (env[keyVar] ?? env.ARKAGENT_API_KEY ?? '').trim()
  const needsKey = preset === undefined || preset.requiresKey
  if (apiKey === '' && needsKey) {
    throw new ChatUsageError(`Missing API key: set ${keyVar} (or ARKAGENT_API_KEY) in the environment`)
  }
  const thinkingFlag = flags.get('thinking')
  if (thinkingFlag !== undefined && thinkingFlag !== 'on' && thinkingFlag !== 'off') {
    throw new ChatUsageError(`--thinking takes on or off, not '${thinkingFlag}'`)
  }
  const sessionDir = path.resolve(flags.get('session') ?? '.arkagent-chat')
  return { provider, baseUrl, model, apiKey, sessionDir, sessionId: 'chat',
    thinking: thinkingFlag === undefined ? undefined : thinkingFlag === 'on', mcp }
}

/**
 * `--mcp "node server.mjs"` → a stdio server named after its script; `--mcp-url` → an HTTP one. Names
 * are valid MCP server names (letters, digits, '-') and unique: `server`, `server-2`, …
 */
function mcpSpec(flag: string, value: string, earlier: McpServerSpec[]): McpServerSpec {
  const unique = (base: string): string => {
    const taken = new Set(earlier.map((s) => s.name))
    let name = base
    for (let i = 2; taken.has(name); i++) name = `${base.slice(0, 20)}-${i}`
    return name
  }
  if (flag === '--mcp-url') {
    if (!/^https?:\/\/[^\s/]+/.test(value)) throw new ChatUsageError(`Bad --mcp-url '${value}': it must start with http:// or https://`)
    return { name: unique(`mcp${earlier.length + 1}`), url: value }
  }
  const words = value.trim().split(/\s+/)
  if (words[0] === '') throw new ChatUsageError('--mcp needs a command')
  const script = path.basename(words[words.length - 1]).replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '').slice(0, 20)
  return { name: unique(words.length > 1 && script.length > 0 ? script : `mcp${earlier.length + 1}`), command: words[0], args: words.slice(1) }
}
