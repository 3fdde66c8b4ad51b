// Node fake of @kit.NetworkKit http.createHttp() + requestInStream, backed by node:http against a
// real server, faithful to netstack 5.0.0 (http_exec.cpp) where a device differs from Node:
// - `readTimeout` is curl's CURLOPT_TIMEOUT_MS: it bounds the WHOLE transfer (0: no limit), so a
//   stream still flowing when it expires is cut with 2300028;
// - redirects are followed (CURLOPT_FOLLOWLOCATION), and 'headersReceive' fires once per header
//   block with every block so far merged (later values win, earlier-only names stay);
// - 'dataReceive' (ArrayBuffer pieces as they arrive), then 'dataEnd', and the promise resolves
//   with the final response code. The two end signals alternate their order between requests, since
//   the device does not promise one. destroy() aborts; nothing is delivered after it.
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
  private totalTimer?: ReturnType<typeof setTimeout>

  destroy(): void {
    if (this.totalTimer !== undefined) clearTimeout(this.totalTimer)
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
      const fail = (code: number, message: string) => {
        if (total !== undefined) clearTimeout(total)
        if (!this.destroyed) reject(new FakeBusinessError(code, message))
      }
      const limit = options.readTimeout ?? 60000
      const total = limit > 0 ? setTimeout(() => { this.req?.destroy(); fail(2300028, 'Timeout was reached') }, limit) : undefined
      this.totalTimer = total
      const merged: Record<string, unknown> = {}
      const go = (target: string, method: string, body: string | undefined, hops: number): void => {
        let req: nodeHttp.ClientRequest
        try {
          req = nodeHttp.request(target, { method, headers: options.header ?? {} })
        } catch (e) {
          fail(2300003, `URL using bad/illegal format or missing URL: ${(e as Error).message}`)
          return
        }
        this.req = req
        req.on('error', (e: NodeJS.ErrnoException) => fail(e.code === 'ECONNREFUSED' ? 2300007 : 2300999,
          e.code === 'ECONNREFUSED' ? "Couldn't connect to server" : `Internal error: ${e.message}`))
        req.on('response', (res) => {
          Object.assign(merged, res.headers)
          this.emit('headersReceive', { ...merged })
          const status = res.statusCode ?? 0
          const location = res.headers.location
          if (status >= 300 && status < 400 && typeof location === 'string' && hops < 30) {
            res.resume()
            const keep = status === 307 || status === 308
            go(new URL(location, target).toString(), keep ? method : 'GET', keep ? body : undefined, hops + 1)
            return
          }
          res.on('data', (chunk: Buffer) => this.emit('dataReceive', chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength)))
          res.on('error', () => fail(2300056, 'Failure when receiving data from the peer'))
          res.on('end', () => {
            if (total !== undefined) clearTimeout(total)
            if (this.endFirst) {
              this.emit('dataEnd')
              if (!this.destroyed) resolve(status)
            } else {
              if (!this.destroyed) resolve(status)
              setImmediate(() => this.emit('dataEnd'))
            }
          })
        })
        if (typeof body === 'string') req.write(body)
        req.end()
      }
      go(url, options.method ?? 'GET', typeof options.extraData === 'string' ? options.extraData : undefined, 0)
    })
  }
}

export const http = {
  RequestMethod, HttpDataType, createHttp: () => new HttpRequest(),
}
