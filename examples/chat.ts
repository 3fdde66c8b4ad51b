// `npm run chat -- --provider deepseek|zhipu|openai-compatible [--base-url U] [--model M] [--session DIR]`
import readline from 'node:readline'
import { FetchTransport } from '@arkagent/core'
import { ChatApp, ChatIO, oneLine } from './chat/ChatApp'
import { ChatUsageError, HELP, parseChatArgs } from './chat/ChatArgs'

function terminalIO(): ChatIO & { close(): void } {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY })
  let ended = false
  let pending: ((line: string | null) => void) | undefined
  const lines: string[] = []
  rl.on('line', (line) => {
    if (pending) {
      const p = pending
      pending = undefined
      p(line)
    } else lines.push(line)
  })
  rl.on('close', () => {
    ended = true
    pending?.(null)
    pending = undefined
  })
  const handlers = new Set<() => void>()
  const fire = () => {
    // Ctrl-C at a prompt answers nothing: an approval stays pending (stored, asked again next time).
    if (pending) {
      const p = pending
      pending = undefined
      process.stdout.write('\n')
      p(null)
      return
    }
    handlers.forEach((h) => h())
  }
  rl.on('SIGINT', fire)
  process.on('SIGINT', fire)
  return {
    interactive: Boolean(process.stdout.isTTY),
    write: (text) => process.stdout.write(text),
    prompt: (question) => {
      process.stdout.write(question)
      if (lines.length > 0) return Promise.resolve(lines.shift() as string)
      if (ended) return Promise.resolve(null)
      return new Promise((resolve) => (pending = resolve))
    },
    onInterrupt: (h) => {
      handlers.add(h)
      return () => handlers.delete(h)
    },
    close: () => rl.close(),
  }
}

async function main(): Promise<void> {
  let options
  const args = process.argv.slice(2)
  if (args.includes('--help') || args.includes('-h')) {
    console.log(HELP)
    return
  }
  try {
    options = parseChatArgs(args, process.env)
  } catch (e) {
    console.error(e instanceof ChatUsageError ? e.message : oneLine(e))
    process.exitCode = 2
    return
  }
  const io = terminalIO()
  try {
    await new ChatApp(options, io, new FetchTransport()).start()
  } finally {
    io.close()
  }
}

main().catch((e: unknown) => {
  console.error(oneLine(e))
  process.exitCode = 1
})
