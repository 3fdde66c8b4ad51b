// The SDK's Streamable HTTP server transport with sessions, as tests mount it on a plain http server:
// a request without a known session id gets a new transport, connected by `connect`.
import { randomUUID } from 'node:crypto'
import type http from 'node:http'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'

export function sessionHandler(connect: (transport: StreamableHTTPServerTransport) => Promise<void>):
  (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void> {
  const transports = new Map<string, StreamableHTTPServerTransport>()
  return async (req, res) => {
    const id = req.headers['mcp-session-id']
    let transport = typeof id === 'string' ? transports.get(id) : undefined
    if (transport === undefined) {
      const made: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => { transports.set(sid, made) } })
      transport = made
      await connect(made)
    }
    await transport.handleRequest(req, res)
  }
}
