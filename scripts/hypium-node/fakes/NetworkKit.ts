// Node fake of @kit.NetworkKit http.createHttp() + requestInStream, backed by node:http against a
// real server. Events are delivered like netstack does: 'headersReceive' (headers only, no
// status), 'dataReceive' (ArrayBuffer pieces as they arrive), 'dataEnd'; the promise resolves
// with the response code. The two end signals alternate their order between requests, since the
// device does not promise one. destroy() aborts; nothing is delivered after it.
import nodeHttp from 'node:http'
import { FakeBusinessError, violations } from './BusinessError'

type Listener = (data?: unknown) => void
let requestCount = 0

enum RequestMethod { OPTIONS = 'OPTIONS', GET = 'GET', HEAD = 'HEAD', POST = 'POST', PUT = 'PUT', DELETE = 'DELETE', TRACE = 'TRACE', CONNECT = 'CONNECT' }
enum HttpDataType { STRING = 0, OBJECT = 1, ARRAY_BUFFER = 2 }
interface HttpRequestOptions { method?: RequestMethod, extraData?: string, header?: Record<string, string>, readTimeout?: number, connectTimeout?: number }

class HttpRequest {
  private readonly listeners = new Map<string, Listener[]>()
  private destroyed = false
  private used = false
  private req?: nodeHttp.ClientRequest
  private readonly endFirst = requestCount++ % 2 === 0

  on(type: string, callback: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), callback])
  }
  off(type: string, callback?: Listener): void {
    const list = this.listeners.get(type) ?? []
    this.listeners.set(type, callback === undefined ? [] : list.filter((l) => l !== callback))
  }
  destroy(): void {
    const attached = [...this.listeners].filter(([, l]) => l.length > 0).map(([t]) => t)
    if (attached.length > 0) violations.push(`http request destroyed with listeners still attached: ${attached.join(', ')}`)
    this.destroyed = true
    this.req?.destroy()
  }
  private emit(type: string, data?: unknown): void {
    if (this.destroyed) return
    for (const l of this.listeners.get(type) ?? []) l(data)
  }

  requestInStream(url: string, options: HttpRequestOptions = {}): Promise<number> {
    if (this.used) violations.push('an HttpRequest was used for a second request')
    this.used = true
    return new Promise<number>((resolve, reject) => {
      const fail = (code: number, message: string) => { if (!this.destroyed) reject(new FakeBusinessError(code, message)) }
      let req: nodeHttp.ClientRequest
      try {
        req = nodeHttp.request(url, { method: options.method ?? 'GET', headers: options.header ?? {}, timeout: options.readTimeout })
      } catch (e) {
        fail(2300003, `URL using bad/illegal format or missing URL: ${(e as Error).message}`)
        return
      }
      this.req = req
      req.on('timeout', () => { req.destroy(); fail(2300028, 'Timeout was reached') })
      req.on('error', (e: NodeJS.ErrnoException) => fail(e.code === 'ECONNREFUSED' ? 2300007 : 2300999,
        e.code === 'ECONNREFUSED' ? "Couldn't connect to server" : `Internal error: ${e.message}`))
      req.on('response', (res) => {
        this.emit('headersReceive', { ...res.headers })
        res.on('data', (chunk: Buffer) => this.emit('dataReceive', chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength)))
        res.on('error', () => fail(2300056, 'Failure when receiving data from the peer'))
        res.on('end', () => {
          const status = res.statusCode ?? 0
          if (this.endFirst) {
            this.emit('dataEnd')
            if (!this.destroyed) resolve(status)
          } else {
            if (!this.destroyed) resolve(status)
            setImmediate(() => this.emit('dataEnd'))
          }
        })
      })
      if (typeof options.extraData === 'string') req.write(options.extraData)
      req.end()
    })
  }
}

export const http = {
  RequestMethod, HttpDataType, createHttp: () => new HttpRequest(),
}
