// Node fake of @kit.NetworkKit http.createHttp() + requestInStream, backed by node:http against a
// real server, faithful to netstack 5.0.0 (http_exec.cpp) where a device differs from Node:
// - `readTimeout` is curl's CURLOPT_TIMEOUT_MS: it bounds the WHOLE transfer (0: no limit), so a
//   stream still flowing when it expires is cut with 2300028;
// - redirects are followed (CURLOPT_FOLLOWLOCATION), and 'headersReceive' fires once per header
//   block with every block so far merged (later values win, earlier-only names stay);
// - 'dataReceive' (ArrayBuffer pieces as they arrive), then 'dataEnd', and the promise resolves
//   with the final response code. The two end signals alternate their order between requests, since
//   the device does not promise one. destroy() aborts; nothing is delivered after it.
// - failures reject with a plain object {code (a number), message} (napi_utils.cpp CreateErrorMessage),
//   not an Error; on()/off() with bad arguments throw synchronously through napi_throw_error, whose
//   `code` is the string "401" (module_template.cpp OnManagerWrapper);
// - without ohos.permission.INTERNET every request rejects with 201 "Permission denied"
//   (http_exec.cpp ExecRequest): the permission counts as granted when the HAR's or the test module's
//   module.json5 requests it, as the installed test HAP would;
// - https: a certificate the peer fails to verify is 2300060, curl's CURLE_PEER_FAILED_VERIFICATION
//   (request_context.cpp HTTP_ERR_MAP); an unknown host is 2300006.
import fs from 'node:fs'
import nodeHttp from 'node:http'
import nodeHttps from 'node:https'
import path from 'node:path'
import { violations } from './BusinessError'

type Listener = (data?: unknown) => void
let requestCount = 0

/** What a requestInStream promise rejects with on a device. */
function rejection(code: number, message: string): { code: number, message: string } {
  return { code, message }
}

/** What on()/off() throw on a device for bad arguments. */
function parameterThrow(): Error {
  const e = new Error('Parameter error') as Error & { code: string }
  e.code = '401'
  return e
}

let internet: boolean | undefined
/** True when a module.json5 the test HAP is built from requests ohos.permission.INTERNET. */
function hasInternetPermission(): boolean {
  if (internet !== undefined) return internet
  internet = false
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    const modules = ['main', 'ohosTest'].map((m) => path.join(dir, 'agent_core', 'src', m, 'module.json5'))
    if (modules.some((m) => fs.existsSync(m))) {
      internet = modules.some((m) => fs.existsSync(m) &&
        /"name"\s*:\s*"ohos\.permission\.INTERNET"/.test(fs.readFileSync(m, 'utf8').replace(/\/\/.*$/gm, '')))
      return internet
    }
    if (path.dirname(dir) === dir) return internet
  }
}

const CERT_ERRORS = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_UNTRUSTED'])

/** netstack's code (curl error + 2300000) and message for a Node request error. */
function curlError(e: NodeJS.ErrnoException): [number, string] {
  if (e.code === 'ECONNREFUSED') return [2300007, "Couldn't connect to server"]
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return [2300006, "Couldn't resolve host name"]
  if (e.code !== undefined && CERT_ERRORS.has(e.code)) return [2300060, 'SSL peer certificate or SSH remote key was not OK']
  return [2300999, `Unknown Other Error: ${e.message}`]
}

enum RequestMethod { OPTIONS = 'OPTIONS', GET = 'GET', HEAD = 'HEAD', POST = 'POST', PUT = 'PUT', DELETE = 'DELETE', TRACE = 'TRACE', CONNECT = 'CONNECT' }
enum HttpDataType { STRING = 0, OBJECT = 1, ARRAY_BUFFER = 2 }
interface HttpRequestOptions { method?: RequestMethod, extraData?: string, header?: Record<string, string>, readTimeout?: number, connectTimeout?: number, usingCache?: boolean }

class HttpRequest {
  private readonly listeners = new Map<string, Listener[]>()
  private destroyed = false
  private used = false
  private req?: nodeHttp.ClientRequest
  private readonly endFirst = requestCount++ % 2 === 0

  on(...args: unknown[]): void {
    const [type, callback] = args
    if (args.length !== 2 || typeof type !== 'string' || typeof callback !== 'function') throw parameterThrow()
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), callback as Listener])
  }
  off(...args: unknown[]): void {
    const [type, callback] = args
    if ((args.length !== 1 && args.length !== 2) || typeof type !== 'string' ||
      (args.length === 2 && typeof callback !== 'function')) throw parameterThrow()
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
    if (!hasInternetPermission()) {
      return new Promise<number>((_, reject) => setImmediate(() => reject(rejection(201, 'Permission denied'))))
    }
    return new Promise<number>((resolve, reject) => {
      const fail = (code: number, message: string) => {
        if (total !== undefined) clearTimeout(total)
        if (!this.destroyed) reject(rejection(code, message))
      }
      const limit = options.readTimeout ?? 60000
      const total = limit > 0 ? setTimeout(() => { this.req?.destroy(); fail(2300028, 'Timeout was reached') }, limit) : undefined
      this.totalTimer = total
      const merged: Record<string, unknown> = {}
      const go = (target: string, method: string, body: string | undefined, hops: number): void => {
        let req: nodeHttp.ClientRequest
        try {
          const client = /^https:/i.test(target) ? nodeHttps : nodeHttp
          req = client.request(target, { method, headers: options.header ?? {} })
        } catch (e) {
          fail(2300003, `URL using bad/illegal format or missing URL: ${(e as Error).message}`)
          return
        }
        this.req = req
        req.on('error', (e: NodeJS.ErrnoException) => fail(...curlError(e)))
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
