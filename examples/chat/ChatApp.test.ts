import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FetchTransport, FunctionTool, PendingApprovalItem, ToolCall, ToolRiskLevel } from '@arkagent/core'
import { approvalQuestion } from './ApprovalPrompt'
import { ChatApp, ChatIO, printable } from './ChatApp'
import { ChatOptions, parseChatArgs } from './ChatArgs'
import { ScriptedServer, respond, silentAfterHeaders, sse } from '../../shared-ts/test/provider/support/ScriptedServer'
import { DONE, deepseekChunk, toolDelta } from '../../shared-ts/test/provider/support/fixtures'

/** A terminal whose user types the given answers; an answer function may act (e.g. press Ctrl-C). */
class ScriptedIO implements ChatIO {
  readonly interactive = false
  output = ''
  private handlers = new Set<() => void>()
  constructor(private readonly answers: Array<string | null | ((io: ScriptedIO) => Promise<string | null>)>) {}
  write(text: string): void {
    this.output += text
  }
  async prompt(question: string): Promise<string | null> {
    this.output += question
    const next = this.answers.shift()
    if (next === undefined) return null
    return typeof next === 'function' ? next(this) : next
  }
  onInterrupt(handler: () => void): () => void {
    this.handlers.add(handler)
    return () => this.handlers.delete(handler)
  }
  pressCtrlC(): void {
    this.handlers.forEach((h) => h())
  }
}

const text = (s: string) => sse([deepseekChunk('deepseek-chat', { content: s }), deepseekChunk('deepseek-chat', {}, 'stop'), DONE])
const deleteCall = (file = 'old.log', callId = 'call_1') =>
  sse([
    deepseekChunk('deepseek-chat', { content: 'Deleting it.' }),
    deepseekChunk('deepseek-chat', { tool_calls: [toolDelta(0, '{"path":', callId, 'delete_file')] }),
    deepseekChunk('deepseek-chat', { tool_calls: [toolDelta(0, `"${file}"}`)] }),
    deepseekChunk('deepseek-chat', {}, 'tool_calls'),
    DONE,
  ])

/** Wraps the chat's delete_file so that the test sees the arguments each call handed to it. */
function recordDeletes(app: ChatApp): Array<Record<string, Object>> {
  const received: Array<Record<string, Object>> = []
  const tools = app['tools']
  const original = tools.get('delete_file')!
  tools.unregister('delete_file')
  tools.register(new FunctionTool(original.definition, (args, context) => {
    received.push(args)
    return original.execute(args, context)
  }))
  return received
}

let server: ScriptedServer
let dir: string
let options: ChatOptions

beforeEach(async () => {
  server = await new ScriptedServer().start()
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-chat-'))
  options = parseChatArgs(['--provider', 'openai-compatible', '--base-url', server.baseUrl, '--model', 'deepseek-chat',
    '--session', dir], { OPENAI_API_KEY: 'sk-test-secret-123' })
  fs.mkdirSync(path.join(dir, 'sandbox'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'sandbox', 'old.log'), 'x')
})

afterEach(async () => {
  await server.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('chat client', () => {
  it('streams the answer of a real OpenAI-compatible server', async () => {
    server.enqueue(text('Hello from the server.'))
    const io = new ScriptedIO(['hi', null])
    await new ChatApp(options, io, new FetchTransport()).start()
    expect(io.output).toContain('assistant> Hello from the server.')
    expect(server.requests[0].headers.authorization).toBe('Bearer sk-test-secret-123')
  })

  it('asks before a dangerous tool and runs it only when approved', async () => {
    server.enqueue(deleteCall(), text('Done, old.log is gone.'))
    const io = new ScriptedIO(['delete old.log', 'y', null])
    await new ChatApp(options, io, new FetchTransport()).start()
    expect(io.output).toMatch(/Allow delete_file \{"path":"old\.log"\} \(dangerous\)\?/)
    expect(io.output).toContain('[result] deleted old.log')
    expect(fs.existsSync(path.join(dir, 'sandbox', 'old.log'))).toBe(false)
    expect(io.output).toContain('Done, old.log is gone.')
  })

  it('resumes a pending approval after quitting and starting again with the same session', async () => {
    server.enqueue(deleteCall())
    const first = new ScriptedIO(['delete old.log', 'q'])
    await new ChatApp(options, first, new FetchTransport()).start()
    expect(first.output).toContain('the approval stays pending')
    expect(fs.existsSync(path.join(dir, 'sandbox', 'old.log'))).toBe(true)

    server.enqueue(text('Kept it.'))
    const second = new ScriptedIO(['n', null])
    await new ChatApp(options, second, new FetchTransport()).start()
    expect(second.output).toContain('A previous run is waiting for your approval.')
    expect(second.output).toContain('Kept it.')
    const sent = server.requestBody(1).messages as Array<{ role: string; content: string; tool_call_id?: string }>
    const toolMessage = sent.find((m) => m.role === 'tool')
    expect(toolMessage?.tool_call_id).toBe('call_1')
    expect(toolMessage?.content).toContain("The user denied 'delete_file'")
    expect(fs.existsSync(path.join(dir, 'sandbox', 'old.log'))).toBe(true)
  })

  it('prints a 401 as one line without the key and keeps the program running', async () => {
    server.enqueue(respond(401, JSON.stringify({ error: { message: 'Authentication Fails (no such user)', type: 'authentication_error' } })))
    server.enqueue(text('second try works'))
    const io = new ScriptedIO(['hi', 'again', null])
    await new ChatApp(options, io, new FetchTransport()).start()
    const errorLine = io.output.split('\n').find((l) => l.startsWith('Error:'))
    expect(errorLine).toMatch(/^Error: provider\/provider_auth: .*Authentication Fails.* — check your API key$/)
    expect(io.output).not.toContain('sk-test-secret-123')
    expect(io.output).toContain('second try works')
  })

  it('shows the reasoning and the answer on lines of their own', async () => {
    server.enqueue(sse([deepseekChunk('deepseek-chat', { reasoning_content: 'Let me think.' }),
      deepseekChunk('deepseek-chat', { content: 'The answer.' }), deepseekChunk('deepseek-chat', {}, 'stop'), DONE]))
    const io = new ScriptedIO(['hi', null])
    await new ChatApp(options, io, new FetchTransport()).start()
    const plain = io.output.replace(/\x1b\[[0-9]*m/g, '')
    expect(plain).toContain('assistant> Let me think.\n\nThe answer.')
  })

  it('Ctrl-C with nothing running says how to leave and keeps the program running', async () => {
    server.enqueue(text('still here'))
    const io = new ScriptedIO([
      async (term) => {
        term.pressCtrlC()
        return 'hi'
      },
      null,
    ])
    await new ChatApp(options, io, new FetchTransport()).start()
    expect(io.output).toContain('(nothing to cancel — type /quit or press Ctrl-D to leave)')
    expect(io.output).toContain('still here')
  })

  it('cancels the running answer on Ctrl-C and keeps the program running', async () => {
    server.enqueue(silentAfterHeaders(), text('still here'))
    const io = new ScriptedIO([
      async (term) => {
        setTimeout(() => term.pressCtrlC(), 100)
        return 'tell me a long story'
      },
      'again',
      null,
    ])
    await new ChatApp(options, io, new FetchTransport()).start()
    expect(io.output).toContain('(cancelled)')
    expect(io.output).toContain('still here')
  })
})

describe('chat arguments', () => {
  it('refuses to start without an API key, in one line', () => {
    expect(() => parseChatArgs(['--provider', 'zhipu'], {})).toThrow(
      /^Missing API key: set ZHIPU_API_KEY \(or ARKAGENT_API_KEY\) in the environment$/,
    )
  })

  it('rejects a base URL that is not http(s)', () => {
    expect(() => parseChatArgs(['--provider', 'openai-compatible', '--base-url', 'localhost:8080', '--model', 'm'],
      { OPENAI_API_KEY: 'k' })).toThrow(/^Bad --base-url 'localhost:8080'/)
  })

  it('uses the preset base URL and default model of a vendor', () => {
    const o = parseChatArgs(['--provider', 'deepseek'], { DEEPSEEK_API_KEY: 'k' })
    expect(o.baseUrl).toBe('https://api.deepseek.com')
    expect(o.model).toBe('deepseek-v4-flash')
    expect(o.thinking).toBeUndefined()
  })

  it('knows every preset, its key variable, and local servers that need no key', () => {
    expect(parseChatArgs(['--provider', 'qwen'], { DASHSCOPE_API_KEY: 'k' }).baseUrl)
      .toBe('https://dashscope.aliyuncs.com/compatible-mode/v1')
    expect(() => parseChatArgs(['--provider', 'moonshot'], {})).toThrow(/MOONSHOT_API_KEY/)
    const local = parseChatArgs(['--provider', 'ollama', '--model', 'qwen3:8b', '--thinking', 'off'], {})
    expect(local.apiKey).toBe('')
    expect(local.thinking).toBe(false)
    expect(() => parseChatArgs(['--provider', 'ollama'], {})).toThrow(/--model is required/)
    expect(() => parseChatArgs(['--provider', 'deepseek', '--thinking', 'maybe'], { DEEPSEEK_API_KEY: 'k' })).toThrow(/on or off/)
  })

  it('asks on a new line and again until it gets y or n; Enter or anything else is not a decision', async () => {
    server.enqueue(deleteCall(), text('Done.'))
    const io = new ScriptedIO(['delete old.log', '', 'maybe', 'y', null])
    await new ChatApp(options, io, new FetchTransport()).start()
    expect(io.output.match(/\nAllow delete_file/g)?.length).toBe(3)
    expect(io.output).toContain('Please answer with one of these keys')
    expect(io.output).toContain('  e  edit: type new arguments')
    expect(fs.existsSync(path.join(dir, 'sandbox', 'old.log'))).toBe(false)
  })

  it('a denial is shown, and the model is told', async () => {
    server.enqueue(deleteCall(), text('Understood, not deleting.'))
    const io = new ScriptedIO(['delete old.log', 'n', null])
    await new ChatApp(options, io, new FetchTransport()).start()
    expect(io.output).toContain('Denied: delete_file {"path":"old.log"}')
    expect(fs.existsSync(path.join(dir, 'sandbox', 'old.log'))).toBe(true)
    expect(io.output).toContain('Understood, not deleting.')
  })

  it('e edits the arguments: the tool runs with exactly the edited ones', async () => {
    fs.writeFileSync(path.join(dir, 'sandbox', 'other.log'), 'y')
    server.enqueue(deleteCall(), text('Done.'))
    const io = new ScriptedIO(['delete old.log', 'e', '{"path":"other.log"}', null])
    const app = new ChatApp(options, io, new FetchTransport())
    const received = recordDeletes(app)
    await app.start()
    expect(io.output).toContain('Current arguments: {"path":"old.log"}')
    expect(io.output).toContain('Allowed with the edited arguments: delete_file {"path":"other.log"}')
    expect(received).toEqual([{ path: 'other.log' }])
    expect(app.runtime.controller.listDecisions()[0].executedCall?.argumentsJson).toBe('{"path":"other.log"}')
    expect(fs.existsSync(path.join(dir, 'sandbox', 'other.log'))).toBe(false)
    expect(fs.existsSync(path.join(dir, 'sandbox', 'old.log'))).toBe(true)
    expect(io.output).toContain('[result] deleted other.log')
  })

  it('an edit that does not fit the schema is refused and the same item is asked again; y approves the original', async () => {
    server.enqueue(deleteCall(), text('Done.'))
    const io = new ScriptedIO(['delete old.log', 'e', '{"path":42}', 'y', null])
    const app = new ChatApp(options, io, new FetchTransport())
    const received = recordDeletes(app)
    await app.start()
    expect(io.output).toMatch(/Not decided: .*refused.*\$\.path: expected string/)
    expect(io.output.match(/\nAllow delete_file \{"path":"old\.log"\}/g)?.length).toBe(2)
    expect(received).toEqual([{ path: 'old.log' }])
    expect(fs.existsSync(path.join(dir, 'sandbox', 'old.log'))).toBe(false)
  })

  it('a approves and remembers: the same tool in a later turn runs without asking', async () => {
    fs.writeFileSync(path.join(dir, 'sandbox', 'other.log'), 'y')
    server.enqueue(deleteCall(), text('Done.'), deleteCall('other.log', 'call_2'), text('Done too.'))
    const io = new ScriptedIO(['delete old.log', 'a', 'delete other.log', null])
    const app = new ChatApp(options, io, new FetchTransport())
    const received = recordDeletes(app)
    await app.start()
    expect(io.output).toContain('Allowed; delete_file runs without asking for the rest of this session.')
    expect(io.output.match(/\nAllow delete_file/g)?.length).toBe(1)
    expect(received).toEqual([{ path: 'old.log' }, { path: 'other.log' }])
    expect(io.output).toContain('Done too.')
    expect(fs.existsSync(path.join(dir, 'sandbox', 'other.log'))).toBe(false)
    const grants = await app.runtime.controller.listGrants()
    expect(grants.map((g) => [g.toolName, g.scope])).toEqual([['delete_file', 'session']])
  })

  it('no answer at the prompt (Ctrl-C, end of input) leaves the approval pending; the next start asks again', async () => {
    server.enqueue(deleteCall(), text('Done.'))
    const first = new ScriptedIO(['delete old.log', null])
    await new ChatApp(options, first, new FetchTransport()).start()
    expect(first.output).toContain('the approval stays pending')
    expect(fs.existsSync(path.join(dir, 'sandbox', 'old.log'))).toBe(true)
    const second = new ScriptedIO(['y', null])
    await new ChatApp(options, second, new FetchTransport()).start()
    expect(second.output).toMatch(/Allow delete_file \{"path":"old\.log"\}/)
    expect(fs.existsSync(path.join(dir, 'sandbox', 'old.log'))).toBe(false)
  })
})

describe('chat command line', () => {
  it('--help prints the usage and the options and exits 0', async () => {
    const { spawnSync } = await import('node:child_process')
    const root = path.resolve(__dirname, '../..')
    const r = spawnSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'examples/chat.ts', '--help'],
      { cwd: root, encoding: 'utf8', timeout: 240_000 })
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('usage: npm run chat')
    expect(r.stdout).toContain('--session DIR')
  })

  it('--mcp attaches an MCP server: its tools are listed and a call runs through the chat', async () => {
    const root = path.resolve(__dirname, '../..')
    const withMcp = parseChatArgs(['--provider', 'openai-compatible', '--base-url', server.baseUrl, '--model', 'deepseek-chat',
      '--session', dir, '--mcp', `${process.execPath} ${path.join(root, 'examples/mcp/notes-server.mjs')}`], { OPENAI_API_KEY: 'sk-test-secret-123' })
    expect(withMcp.mcp.map((m) => m.name)).toEqual(['notes-server'])
    server.enqueue(sse([
      deepseekChunk('deepseek-chat', { tool_calls: [toolDelta(0, '{"name":"welcome"}', 'call_1', 'notes-server__read_note')] }),
      deepseekChunk('deepseek-chat', {}, 'tool_calls'),
      DONE,
    ]), text('The note says hello.'))
    const io = new ScriptedIO(['read the welcome note', null])
    await new ChatApp(withMcp, io, new FetchTransport()).start()
    expect(io.output).toContain('MCP notes-server: 7 tools')
    expect(io.output).not.toContain('notes-server__crash')
    expect(io.output).toContain('Hello from the notes server.')
    expect(io.output).toContain('The note says hello.')
  })

  it('two servers with the same script name get distinct names; one that cannot start is reported and the chat goes on', async () => {
    const root = path.resolve(__dirname, '../..')
    const notes = `${process.execPath} ${path.join(root, 'examples/mcp/notes-server.mjs')}`
    const args = parseChatArgs(['--provider', 'openai-compatible', '--base-url', server.baseUrl, '--model', 'deepseek-chat',
      '--session', dir, '--mcp', notes, '--mcp', notes, '--mcp', 'no-such-mcp-binary-here'], { OPENAI_API_KEY: 'sk-test-secret-123' })
    expect(args.mcp.map((m) => m.name)).toEqual(['notes-server', 'notes-server-2', 'mcp3'])
    server.enqueue(text('Hi.'))
    const io = new ScriptedIO(['hello', null])
    await new ChatApp(args, io, new FetchTransport()).start()
    expect(io.output).toContain('MCP notes-server: 7 tools')
    expect(io.output).toContain('MCP notes-server-2: 7 tools')
    expect(io.output).toMatch(/MCP mcp3: not available \(.*\); going on without it/)
    expect(io.output).toContain('Hi.')
  })
})

describe('what the terminal shows', () => {
  it('the approval question shows the keys, and the deadline when the item has one', () => {
    const now = Date.UTC(2025, 0, 1, 12, 0, 0)
    const item = new PendingApprovalItem('apr_1', new ToolCall('call_1', 'delete_file', '{"path":"a"}'),
      ToolRiskLevel.dangerous, 'dangerous tool', now)
    expect(approvalQuestion(item, now)).toBe('\nAllow delete_file {"path":"a"} (dangerous)? [y/n, a always, e edit, q to quit] ')
    item.expiresAtMs = now + 270_000
    const by = new Date(item.expiresAtMs).toTimeString().slice(0, 8)
    expect(approvalQuestion(item, now)).toContain(`(dangerous; decide by ${by}, 4m 30s left)?`)
    expect(approvalQuestion(item, now + 300_000)).toContain('(dangerous; its deadline has passed: it counts as denied)?')
  })

  it('control characters from a model or a tool server cannot move the cursor or fake a prompt', () => {
    const hostile = 'ok\x1b[2K\rAllow read_note {} (safe)? [y/n]\x07\x9b31m\ttab\nline'
    expect(printable(hostile)).toBe('ok\uFFFD[2K\uFFFDAllow read_note {} (safe)? [y/n]\uFFFD\uFFFD31m\ttab\nline')
    expect(printable('北京 😀')).toBe('北京 😀')
  })
})
