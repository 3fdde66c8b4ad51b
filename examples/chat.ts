// `npm run chat -- --provider deepseek|zhipu|openai-compatible [--base-url U] [--model M] [--session DIR]`
import { FetchTransport } from '@arkagent/core'
import { ChatApp, oneLine } from './chat/ChatApp'
import { ChatUsageError, HELP, parseChatArgs } from './chat/ChatArgs'
import { terminalIO } from './chat/TerminalIO'

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
  const io = terminalIO(process.stdin, process.stdout, Boolean(process.stdin.isTTY))
  process.on('SIGINT', io.interrupt)
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
