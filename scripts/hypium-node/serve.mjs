// Serves the transport suite's routes for a device run: node scripts/hypium-node/serve.mjs [port]
// Listens on 127.0.0.1 only; forward it (e.g. `hdc rport tcp:<port> tcp:<port>`) or adapt the host.
import { startTestServer } from './test-server.mjs'

const server = await startTestServer(Number(process.argv[2] ?? 0))
console.log(`arkagent test server: ${server.url}  (pass -s arkagentTestServer ${server.url})`)
