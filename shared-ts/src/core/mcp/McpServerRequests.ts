import { Thrown } from '../errors/Thrown'
import { AgentMessage } from '../model/AgentMessage'
import { JsonSchema } from '../schema/JsonSchema'
import { JsonSchemaOptions } from '../schema/JsonSchemaOptions'
import { SecretVault } from '../secrets/SecretVault'
import { CancellationToken } from '../util/Cancellation'
import { McpClientFeatures, McpElicitationHandler, McpSamplingHandler } from './McpClientFeatures'
import { McpElicitationAction, McpElicitationRequest } from './McpElicitation'
import { McpSamplingAnswer, McpSamplingRequest } from './McpSampling'

/** A JSON-RPC error to answer a server's request with. */
export class McpRpcError extends Error {
  static readonly userRejected: number = -1
  static readonly invalidRequest: number = -32600
  static readonly methodNotFound: number = -32601
  static readonly invalidParams: number = -32602
  static readonly internalError: number = -32603

  readonly code: number

  constructor(code: number, message: string) {
    super(SecretVault.redact(message))
    this.name = 'McpRpcError'
    this.code = code
  }
}

/** Longest `params` of a server request, in characters of its JSON. */
const MAX_PARAMS_CHARS: number = 1024 * 1024
/** Longest elicitation message. */
const MAX_MESSAGE_CHARS: number = 10000
/** Most messages in a sampling request. */
const MAX_SAMPLING_MESSAGES: number = 100
/** Largest `maxTokens` a server may ask for. */
const MAX_SAMPLING_TOKENS: number = 100000
/** What an elicitation's properties may be (MCP: primitives, and arrays for multi-select enums). */
const FIELD_TYPES: string[] = ['string', 'number', 'integer', 'boolean', 'array']

/**
 * The server talking back: answers the requests an MCP server sends the client, for both clients
 * (McpHttpClient, and McpToolSource on Node). Only what the app configured is served — `ping`,
 * `roots/list` (configured roots), `elicitation/create` (form mode, a flat schema the core's validator
 * compiles), `sampling/createMessage` (text only, no tool use) — everything else, and anything malformed
 * or too large, is a JSON-RPC error: never a crash, never an answer the user did not give.
 */
export class McpServerRequests {
  readonly server: string
  readonly features: McpClientFeatures

  constructor(server: string, features: McpClientFeatures) {
    this.server = server
    this.features = features
  }

  /** The JSON-RPC response to a request message (a result or an error); never rejects. */
  async respond(message: Record<string, Object>, toolCallId: string, token: CancellationToken): Promise<Record<string, Object>> {
    const id: Object | undefined = message['id']
    const out: Record<string, Object> = { 'jsonrpc': '2.0', 'id': id !== undefined ? id : 0 }
    try {
      const method: Object | undefined = message['method']
      if (typeof method !== 'string') {
        throw new McpRpcError(McpRpcError.invalidRequest, 'a request needs a method name')
      }
      out['result'] = await this.handle(method as string, message['params'], toolCallId, token)
    } catch (e) {
      const error = McpServerRequests.asRpcError(e as Object)
      const body: Record<string, Object> = { 'code': error.code, 'message': error.message }
      out['error'] = body
    }
    return out
  }

  /** The result of one request; rejects with an McpRpcError. */
  async handle(method: string, params: Object | null | undefined, toolCallId: string,
    token: CancellationToken): Promise<Record<string, Object>> {
    let size = 0
    try {
      const text = params === undefined ? '' : JSON.stringify(params)
      size = text !== undefined ? text.length : 0
    } catch (e) {
      size = -1
    }
    if (size < 0 || size > MAX_PARAMS_CHARS) {
      throw new McpRpcError(McpRpcError.invalidParams, `the request's params are not JSON or pass ${MAX_PARAMS_CHARS} characters`)
    }
    const p = params !== null && params !== undefined && typeof params === 'object' && !(params instanceof Array) ?
      params as Record<string, Object> : undefined
    if (method === 'ping') {
      return {}
    }
    const features = this.features
    const elicitation = features.elicitation
    const sampling = features.sampling
    if (method === 'roots/list' && features.hasRoots) {
      const roots: Object[] = []
      for (let i = 0; i < features.roots.length; i++) {
        const r: Record<string, Object> = { 'uri': features.roots[i].uri, 'name': features.roots[i].name }
        roots.push(r)
      }
      const result: Record<string, Object> = { 'roots': roots }
      return result
    }
    if (method === 'elicitation/create' && elicitation !== undefined) {
      return this.elicit(elicitation, McpServerRequests.paramsOf(p), toolCallId, token)
    }
    if (method === 'sampling/createMessage' && sampling !== undefined) {
      return this.sample(sampling, McpServerRequests.paramsOf(p), toolCallId, token)
    }
    throw new McpRpcError(McpRpcError.methodNotFound, `Method not found: ${method.substring(0, 100)}`)
  }

  private async elicit(handler: McpElicitationHandler, p: Record<string, Object>, toolCallId: string,
    token: CancellationToken): Promise<Record<string, Object>> {
    const mode: Object | undefined = p['mode']
    if (mode !== undefined && mode !== 'form') {
      throw new McpRpcError(McpRpcError.invalidParams, 'only form-mode elicitation is supported')
    }
    const message: Object | undefined = p['message']
    if (typeof message !== 'string' || (message as string).length === 0 || (message as string).length > MAX_MESSAGE_CHARS) {
      throw new McpRpcError(McpRpcError.invalidParams, `an elicitation needs a message of 1 to ${MAX_MESSAGE_CHARS} characters`)
    }
    const schema = McpServerRequests.requestedSchema(p['requestedSchema'])
    const json = JSON.stringify(p['requestedSchema'])
    const answer = await handler.elicit(new McpElicitationRequest(this.server, message as string, json, toolCallId), token)
    const action: Object | undefined = answer !== null && typeof answer === 'object' ? answer.action : undefined
    const result: Record<string, Object> = {}
    if (action === McpElicitationAction.accept) {
      const content: Object | undefined = answer.content
      // The handler is app code: what goes to the server is checked here once more.
      if (content === undefined || content === null || typeof content !== 'object' || content instanceof Array ||
        !schema.isValid(content)) {
        throw new McpRpcError(McpRpcError.internalError, 'the answer did not match the requested schema; nothing was sent')
      }
      if (SecretVault.leaks(JSON.stringify(content))) {
        throw new McpRpcError(McpRpcError.internalError, 'the answer holds a secret of this app; nothing was sent')
      }
      result['action'] = McpElicitationAction.accept
      result['content'] = content as Object
      return result
    }
    if (action !== McpElicitationAction.decline && action !== McpElicitationAction.cancel) {
      throw new McpRpcError(McpRpcError.internalError, 'the elicitation handler gave no answer')
    }
    result['action'] = action as string
    return result
  }

  /** The requested schema: a flat object schema of primitive fields that the core's validator compiles. */
  static requestedSchema(raw: Object | undefined): JsonSchema {
    if (raw === undefined || raw === null || typeof raw !== 'object' || raw instanceof Array) {
      throw new McpRpcError(McpRpcError.invalidParams, 'an elicitation needs a requestedSchema object')
    }
    const schema = raw as Record<string, Object>
    const props: Object | undefined = schema['properties']
    if (schema['type'] !== 'object' || props === undefined || props === null || typeof props !== 'object' || props instanceof Array) {
      throw new McpRpcError(McpRpcError.invalidParams, 'the requestedSchema must be an object schema with properties')
    }
    const fields = props as Record<string, Object>
    const names = Object.keys(fields)
    for (let i = 0; i < names.length; i++) {
      const field: Object | undefined = fields[names[i]]
      const type: Object | undefined = field !== null && typeof field === 'object' ? (field as Record<string, Object>)['type'] : undefined
      if (typeof type !== 'string' || FIELD_TYPES.indexOf(type as string) < 0) {
        throw new McpRpcError(McpRpcError.invalidParams,
          `field ${JSON.stringify(names[i].substring(0, 64))} of the requestedSchema must be a string, number, integer, boolean or enum list`)
      }
    }
    const options = new JsonSchemaOptions()
    // MCP's legacy titled enums: display names, asserting nothing.
    options.annotations = ['enumNames']
    options.maxDepth = 16
    try {
      return JsonSchema.compile(schema, options)
    } catch (e) {
      throw new McpRpcError(McpRpcError.invalidParams, `the requestedSchema is refused: ${Thrown.describe(e as Object)}`)
    }
  }

  private async sample(handler: McpSamplingHandler, p: Record<string, Object>, toolCallId: string,
    token: CancellationToken): Promise<Record<string, Object>> {
    if (p['tools'] !== undefined || p['toolChoice'] !== undefined) {
      throw new McpRpcError(McpRpcError.invalidParams, 'tool use in sampling is not supported by this client')
    }
    const raw: Object | undefined = p['messages']
    if (!(raw instanceof Array) || (raw as Object[]).length === 0 || (raw as Object[]).length > MAX_SAMPLING_MESSAGES) {
      throw new McpRpcError(McpRpcError.invalidParams, `a sampling request needs 1 to ${MAX_SAMPLING_MESSAGES} messages`)
    }
    const list = raw as Object[]
    const messages: AgentMessage[] = []
    for (let i = 0; i < list.length; i++) {
      messages.push(McpServerRequests.samplingMessage(list[i], i))
    }
    const system: Object | undefined = p['systemPrompt']
    if (system !== undefined && system !== null && typeof system !== 'string') {
      throw new McpRpcError(McpRpcError.invalidParams, 'systemPrompt must be a string')
    }
    const maxTokens: Object | undefined = p['maxTokens']
    if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens as number) || (maxTokens as number) < 1 ||
      (maxTokens as number) > MAX_SAMPLING_TOKENS) {
      throw new McpRpcError(McpRpcError.invalidParams, `maxTokens must be an integer from 1 to ${MAX_SAMPLING_TOKENS}`)
    }
    const temperature: Object | undefined = p['temperature']
    if (temperature !== undefined && temperature !== null && (typeof temperature !== 'number' ||
      !((temperature as number) >= 0 && (temperature as number) <= 2))) {
      throw new McpRpcError(McpRpcError.invalidParams, 'temperature must be a number from 0 to 2')
    }
    const request = new McpSamplingRequest(this.server, messages, typeof system === 'string' ? system as string : '',
      maxTokens as number, toolCallId, typeof temperature === 'number' ? temperature as number : undefined)
    const answer: McpSamplingAnswer = await handler.createMessage(request, token)
    if (answer === null || typeof answer !== 'object' || typeof answer.text !== 'string' || typeof answer.model !== 'string' ||
      typeof answer.stopReason !== 'string') {
      throw new McpRpcError(McpRpcError.internalError, 'the sampling handler gave no answer')
    }
    const content: Record<string, Object> = { 'type': 'text', 'text': SecretVault.redact(answer.text) }
    const result: Record<string, Object> = {
      'role': 'assistant', 'content': content, 'model': answer.model, 'stopReason': answer.stopReason
    }
    return result
  }

  /** One sampling message: user or assistant, text content (one block or a list of them). */
  private static samplingMessage(raw: Object, i: number): AgentMessage {
    const m = raw !== null && typeof raw === 'object' && !(raw instanceof Array) ? raw as Record<string, Object> : undefined
    const role: Object | undefined = m !== undefined ? m['role'] : undefined
    if (m === undefined || (role !== 'user' && role !== 'assistant')) {
      throw new McpRpcError(McpRpcError.invalidParams, `messages[${i}] needs the role user or assistant`)
    }
    const content: Object | undefined = m['content']
    const blocks: Object[] = content instanceof Array ? content as Object[] : [content as Object]
    const texts: string[] = []
    for (let k = 0; k < blocks.length; k++) {
      const b = blocks[k]
      const block = b !== null && b !== undefined && typeof b === 'object' ? b as Record<string, Object> : undefined
      const type: Object | undefined = block !== undefined ? block['type'] : undefined
      const text: Object | undefined = block !== undefined ? block['text'] : undefined
      if (type !== 'text' || typeof text !== 'string') {
        throw new McpRpcError(McpRpcError.invalidParams, `messages[${i}]: only text content can be sampled by this client` +
          (typeof type === 'string' ? ` (got ${(type as string).substring(0, 32)})` : ''))
      }
      texts.push(text as string)
    }
    const joined = texts.join('\n')
    return role === 'user' ? AgentMessage.user(joined) : AgentMessage.assistant(joined)
  }

  private static paramsOf(p: Record<string, Object> | undefined): Record<string, Object> {
    if (p === undefined) {
      throw new McpRpcError(McpRpcError.invalidParams, 'the request needs params')
    }
    return p
  }

  /** Any failure as a JSON-RPC error: its own code, else internal; the message redacted and capped. */
  static asRpcError(e: Object): McpRpcError {
    if (e instanceof McpRpcError) {
      return e as McpRpcError
    }
    return new McpRpcError(McpRpcError.internalError, Thrown.describe(e).substring(0, 500))
  }
}
