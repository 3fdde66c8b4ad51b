// The chat's terminal: lines from `input`, text to `output`, Ctrl-C to the registered handlers.
// Ctrl-C never quits by itself: at a prompt it clears the line typed so far, tells the handlers (the
// chat says what Ctrl-C does and how to leave) and asks the same question again; during a run the
// handlers cancel the answer. Ctrl-D (end of input) or /quit leaves.
import readline from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import type { ChatIO } from './ChatApp'

export interface TerminalIO extends ChatIO {
  /** What Ctrl-C does (readline's SIGINT on a terminal, the process's SIGINT otherwise). */
  interrupt(): void
  close(): void
}

export function terminalIO(input: Readable, output: Writable & { isTTY?: boolean }, tty: boolean): TerminalIO {
  const rl = readline.createInterface({ input, output, terminal: tty })
  let ended = false
  let pending: ((line: string | null) => void) | undefined
  let question = ''
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
  const interrupt = (): void => {
    if (pending !== undefined && tty) rl.write(null, { ctrl: true, name: 'u' }) // drop what was typed
    handlers.forEach((h) => h())
    // The prompt still waits for its answer (an approval stays pending until answered): ask again.
    if (pending !== undefined) output.write(question)
  }
  rl.on('SIGINT', interrupt)
  return {
    interactive: Boolean(output.isTTY),
    write: (text) => { output.write(text) },
    prompt: (q) => {
      question = q
      output.write(q)
      if (lines.length > 0) return Promise.resolve(lines.shift() as string)
      if (ended) return Promise.resolve(null)
      return new Promise((resolve) => (pending = resolve))
    },
    onInterrupt: (h) => {
      handlers.add(h)
      return () => handlers.delete(h)
    },
    interrupt,
    close: () => rl.close(),
  }
}
