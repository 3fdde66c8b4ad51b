import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { terminalIO } from './TerminalIO'

function terminal() {
  const input = new PassThrough()
  const output = new PassThrough()
  let shown = ''
  output.on('data', (c: Buffer) => { shown += c.toString('utf8') })
  const io = terminalIO(input, output, false)
  return { input, io, shown: () => shown }
}

describe('the chat terminal', () => {
  it('Ctrl-C at a prompt tells the handlers and asks again; it never ends the prompt', async () => {
    const t = terminal()
    let told = 0
    t.io.onInterrupt(() => { told++ })
    let answered: string | null | undefined
    const answer = t.io.prompt('you> ').then((line) => { answered = line })
    t.io.interrupt()
    t.io.interrupt()
    await new Promise((resolve) => setImmediate(resolve))
    expect(told).toBe(2)
    expect(answered).toBeUndefined()
    expect(t.shown()).toBe('you> you> you> ')
    t.input.write('hello\n')
    await answer
    expect(answered).toBe('hello')
    t.io.close()
  })

  it('end of input (Ctrl-D) ends the prompt with null', async () => {
    const t = terminal()
    const answer = t.io.prompt('you> ')
    t.input.end()
    expect(await answer).toBeNull()
  })
})
