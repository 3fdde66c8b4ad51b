// The last lines a stdio MCP server wrote to stderr, kept so that a server that does not start (a
// missing module, a bad argument, a crash on startup) is reported with its own words rather than a
// bare "connection closed". Bounded (the last MAX_CHARS characters), read continuously (a child never
// blocks on a full pipe) and redacted when shown.
import type { Stream } from 'node:stream'
import { Redactor } from '../../core/redaction/Redactor'

/** Characters of stderr kept: the end of a stack trace or a usage message. */
const MAX_CHARS = 4000

export class StderrTail {
  private text = ''

  /** Starts reading `stream` (the transport's piped stderr); nothing when there is none. */
  constructor(stream: Stream | null) {
    if (stream === null) return
    stream.on('data', (chunk: unknown) => {
      const piece = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : ''
      this.text = (this.text + piece).slice(-MAX_CHARS)
    })
    stream.on('error', () => {})
  }

  /** What the server wrote last, redacted, on one line, stack frames left out ('' when it wrote nothing). */
  shown(): string {
    const lines = this.text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l.length > 0 && !/^at\s/.test(l))
    return Redactor.text(lines.slice(-6).join(' | '))
  }
}
