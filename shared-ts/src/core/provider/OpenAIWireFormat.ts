import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { AgentMessage, MessageRole } from '../model/AgentMessage'
import { ModelRequest } from '../model/ModelRequest'
import { OutputFormat } from '../model/OutputFormat'
import { Usage } from '../model/ModelResponse'
import { ToolDefinition } from '../model/ToolDefinition'
import { VendorErrorBody } from './VendorErrors'
import { OutputMode, ReasoningEcho, ThinkingStyle, UsageLocation, WireProfile } from './WireProfile'

/** One tool-call fragment of a streamed delta. `index` is -1 when the server omitted it. */
export class WireToolCallDelta {
  readonly index: number
  readonly id: string
  readonly name: string
  readonly argumentsDelta: string

  constructor(index: number, id: string, name: string, argumentsDelta: string) {
    this.index = index
    this.id = id
    this.name = name
    this.argumentsDelta = argumentsDelta
  }
}

/** The parts of `choices[0]` of one chunk that the provider uses. */
export class WireChoiceDelta {
  readonly content: string
  readonly reasoning: string
  readonly toolCalls: WireToolCallDelta[]
  /** '' while the model is still going. */
  readonly finishReason: string
  /** `choices[0].usage`, where Moonshot reports the usage of a stream; null elsewhere. */
  readonly usage: Usage | null

  constructor(content: string, reasoning: string, toolCalls: WireToolCallDelta[], finishReason: string,
    usage: Usage | null = null) {
    this.content = content
    this.reasoning = reasoning
    this.toolCalls = toolCalls
    this.finishReason = finishReason
    this.usage = usage
  }
}

/** One decoded `chat.completion.chunk`, or the `{"error": ...}` a server sent inside the stream. */
export class WireChunk {
  readonly model: string
  readonly choice: WireChoiceDelta | null
  readonly usage: Usage | null
  /** Set when the payload was an error report; the provider maps it with its vendor's error table. */
  readonly error: VendorErrorBody | null

  constructor(model: string, choice: WireChoiceDelta | null, usage: Usage | null,
    error: VendorErrorBody | null = null) {
    this.model = model
    this.choice = choice
    this.usage = usage
    this.error = error
  }
}

/** Request body settings that are not part of the conversation. */
export class WireRequestOptions {
  readonly model: string
  readonly extraBody: Record<string, Object>
  readonly profile: WireProfile

  constructor(model: string, extraBody: Record<string, Object>, profile: WireProfile = WireProfile.generic) {
    this.model = model
    this.extraBody = extraBody
    this.profile = profile
  }
}

const SNIPPET_CHARS: number = 200

/** Shows untrusted bytes in an error message: trimmed, on one line. */
export function snippet(text: string, max: number = SNIPPET_CHARS): string {
  const flat = text.replace(/[\r\n]+/g, ' ')
  return flat.length > max ? `${flat.substring(0, max)}…(${flat.length} chars)` : flat
}

export function malformed(message: string): ArkAgentError {
  return new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerMalformedResponse, message,
    ErrorRetryability.never)
}

/**
 * Encodes a request as an OpenAI chat-completions body. The history goes out as it was recorded:
 * assistant tool calls with their ids, tool results as role `tool`. Reasoning goes back as the
 * profile says (see ReasoningEcho); `request.thinking` becomes the profile's switch and
 * `request.maxTokens` its token-limit field — the profile of the request's model family
 * (WireProfile.forModel). Order of precedence: `extraBody`, then the thinking switch, then the
 * conversation fields.
 */
export function encodeChatRequest(request: ModelRequest, options: WireRequestOptions): string {
  const profile = options.profile.forModel(options.model)
  const messages: Record<string, Object>[] = []
  for (let i = 0; i < request.messages.length; i++) {
    messages.push(encodeMessage(request.messages[i], profile))
  }
  const body: Record<string, Object> = {}
  const keys = Object.keys(options.extraBody)
  for (let i = 0; i < keys.length; i++) {
    body[keys[i]] = options.extraBody[keys[i]]
  }
  if (request.thinking !== undefined) {
    setThinking(body, profile, request.thinking)
  }
  body['model'] = options.model
  body['messages'] = messages
  body['stream'] = true
  const streamOptions: Record<string, Object> = { 'include_usage': true }
  body['stream_options'] = streamOptions
  if (request.tools.length > 0) {
    const tools: Record<string, Object>[] = []
    for (let i = 0; i < request.tools.length; i++) {
      tools.push(encodeTool(request.tools[i]))
    }
    body['tools'] = tools
  }
  if (request.temperature !== undefined) {
    body['temperature'] = request.temperature
  }
  if (request.maxTokens !== undefined) {
    body[profile.tokenLimit] = request.maxTokens
  }
  if (request.output !== undefined) {
    setResponseFormat(body, profile, request.output)
  }
  return JSON.stringify(body)
}

/**
 * `response_format` as the profile says (OutputMode). Only for a schema whose root is an object: JSON
 * modes produce objects, OpenAI's structured outputs need an object root; any other root is instructed only.
 */
function setResponseFormat(body: Record<string, Object>, profile: WireProfile, output: OutputFormat): void {
  if (!output.rootIsObject || profile.output === OutputMode.none) {
    return
  }
  if (profile.output === OutputMode.jsonSchema) {
    const spec: Record<string, Object> = { 'name': output.name, 'schema': output.schema, 'strict': output.strict }
    const format: Record<string, Object> = { 'type': 'json_schema', 'json_schema': spec }
    body['response_format'] = format
  } else if (profile.output === OutputMode.jsonObject) {
    const format: Record<string, Object> = { 'type': 'json_object' }
    body['response_format'] = format
  }
}

/** The vendor's thinking switch (ThinkingStyle.none sends nothing). */
function setThinking(body: Record<string, Object>, profile: WireProfile, on: boolean): void {
  if (profile.thinking === ThinkingStyle.thinkingType) {
    const thinking: Record<string, Object> = { 'type': on ? 'enabled' : 'disabled' }
    body['thinking'] = thinking
  } else if (profile.thinking === ThinkingStyle.enableThinking) {
    body['enable_thinking'] = on
  } else if (profile.thinking === ThinkingStyle.reasoningEffort) {
    const effort = on ? profile.effortOn : profile.effortOff
    if (effort.length > 0) {
      body['reasoning_effort'] = effort
    }
  }
}

function encodeMessage(message: AgentMessage, profile: WireProfile): Record<string, Object> {
  const out: Record<string, Object> = { 'role': message.role }
  // Chat Completions carries text only: typed parts (a tool's image, resource, json) go as their description.
  const text = message.role === MessageRole.assistant ? message.text() : message.modelText()
  if (message.role === MessageRole.tool) {
    out['tool_call_id'] = message.toolCallId !== undefined ? message.toolCallId : ''
    out['content'] = text
    return out
  }
  if (message.role === MessageRole.assistant && message.callCount() > 0) {
    // `content` may be omitted when tool calls are present; an empty string is rejected by some servers.
    if (text.length > 0) {
      out['content'] = text
    }
    if (profile.reasoningEcho !== ReasoningEcho.never) {
      // Sent even when empty: DeepSeek rejects a tool-call message without the field.
      out[profile.reasoningField] = message.reasoning()
    }
    const calls: Record<string, Object>[] = []
    for (let i = 0; i < message.callCount(); i++) {
      const call = message.callAt(i)
      const fn: Record<string, Object> = { 'name': call.name, 'arguments': call.argumentsJson }
      const wire: Record<string, Object> = { 'id': call.id, 'type': 'function', 'function': fn }
      calls.push(wire)
    }
    out['tool_calls'] = calls
    return out
  }
  out['content'] = text
  if (message.role === MessageRole.assistant && profile.reasoningEcho === ReasoningEcho.all) {
    out[profile.reasoningField] = message.reasoning()
  }
  return out
}

function encodeTool(tool: ToolDefinition): Record<string, Object> {
  const fn: Record<string, Object> = {
    'name': tool.name,
    'description': tool.description,
    'parameters': tool.parameters
  }
  const out: Record<string, Object> = { 'type': 'function', 'function': fn }
  return out
}

function isRecord(value: Object | null | undefined): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * A string field's value, '' when absent or null; anything else is a shape error. Callers read the
 * field themselves with a literal key (`delta['content']`), so each read site stays monomorphic and
 * validation costs no more than the read: one pass over the fields the provider needs.
 */
function str(value: Object | null | undefined, where: string, key: string): string {
  if (value === undefined || value === null) {
    return ''
  }
  if (typeof value !== 'string') {
    throw malformed(`Unexpected stream chunk: ${where}.${key} is ${describe(value)}, expected a string`)
  }
  return value as string
}

function num(value: Object | null | undefined): number {
  return typeof value === 'number' ? value as number : 0
}

function describe(value: Object | null | undefined): string {
  if (value === null) {
    return 'null'
  }
  if (Array.isArray(value)) {
    return 'an array'
  }
  const type = typeof value
  return type === 'object' || type === 'undefined' ? `an ${type === 'object' ? 'object' : 'undefined value'}` : `a ${type}`
}

/**
 * Parses one `data:` payload. Any deviation becomes provider_malformed_response naming the bytes.
 * Usage is read from the chunk's top level and from the first choice (Moonshot reports it there);
 * when a chunk carries both, `usageAt` (the profile's place) wins.
 */
export function decodeChunk(data: string, usageAt: UsageLocation = UsageLocation.chunk): WireChunk {
  let parsed: Object | null = null
  try {
    parsed = JSON.parse(data) as Object | null
  } catch (e) {
    throw malformed(`Malformed JSON in stream data: ${snippet(data)}`)
  }
  if (!isRecord(parsed)) {
    throw malformed(`Unexpected stream chunk (${describe(parsed)}, expected an object): ${snippet(data)}`)
  }
  const chunk = parsed as Record<string, Object>
  const error: Object | null | undefined = chunk['error']
  if (error !== undefined && error !== null) {
    return new WireChunk('', null, null, VendorErrorBody.fromValue(chunk))
  }
  const choicesValue: Object | null | undefined = chunk['choices']
  let choice: WireChoiceDelta | null = null
  if (choicesValue !== undefined && choicesValue !== null) {
    if (!Array.isArray(choicesValue)) {
      throw malformed(`Unexpected stream chunk: choices is ${describe(choicesValue)}, expected an array: ${snippet(data)}`)
    }
    choice = decodeFirstChoice(choicesValue as Object[], data)
  }
  const usageValue: Object | null | undefined = chunk['usage']
  const topUsage = isRecord(usageValue) ? decodeUsage(usageValue as Record<string, Object>) : null
  const choiceUsage = choice !== null ? choice.usage : null
  let usage = topUsage
  if (choiceUsage !== null && (topUsage === null || usageAt === UsageLocation.choice)) {
    usage = choiceUsage
  }
  return new WireChunk(str(chunk['model'], 'chunk', 'model'), choice, usage)
}

function decodeFirstChoice(choices: Object[], data: string): WireChoiceDelta | null {
  for (let i = 0; i < choices.length; i++) {
    const entry: Object | null | undefined = choices[i]
    if (!isRecord(entry)) {
      throw malformed(`Unexpected stream chunk: choices[${i}] is ${describe(entry)}: ${snippet(data)}`)
    }
    const choice = entry as Record<string, Object>
    const index: Object | null | undefined = choice['index']
    // Only the first choice is followed (n > 1 is not requested).
    if (index !== undefined && index !== null && index !== 0) {
      continue
    }
    const deltaValue: Object | null | undefined = choice['delta']
    let delta: Record<string, Object> = {}
    if (deltaValue !== undefined && deltaValue !== null) {
      if (!isRecord(deltaValue)) {
        throw malformed(`Unexpected stream chunk: delta is ${describe(deltaValue)}: ${snippet(data)}`)
      }
      delta = deltaValue as Record<string, Object>
    }
    // Moonshot puts the usage of a stream inside its last choice (`choices[0].usage`).
    const usageValue: Object | null | undefined = choice['usage']
    return new WireChoiceDelta(str(delta['content'], 'delta', 'content'), reasoningOf(delta),
      decodeToolCalls(delta, data), str(choice['finish_reason'], 'choice', 'finish_reason'),
      isRecord(usageValue) ? decodeUsage(usageValue as Record<string, Object>) : null)
  }
  return null
}

/**
 * Streamed reasoning: `reasoning_content` (DeepSeek, GLM, Qwen, Kimi, older vLLM) or `reasoning`
 * (Ollama, newer vLLM, OpenRouter). A `reasoning` that is not a string (some gateways send an
 * object) is not reasoning text and is ignored.
 */
function reasoningOf(delta: Record<string, Object>): string {
  const content = str(delta['reasoning_content'], 'delta', 'reasoning_content')
  if (content.length > 0) {
    return content
  }
  const other: Object | null | undefined = delta['reasoning']
  return typeof other === 'string' ? other as string : ''
}

/** Read-only: never pushed to (decoded chunks are consumed, not modified). */
const NO_TOOL_CALLS: WireToolCallDelta[] = []

function decodeToolCalls(delta: Record<string, Object>, data: string): WireToolCallDelta[] {
  const value: Object | null | undefined = delta['tool_calls']
  if (value === undefined || value === null) {
    // Most chunks carry no tool calls: share one empty list instead of allocating one per chunk.
    return NO_TOOL_CALLS
  }
  const out: WireToolCallDelta[] = []
  if (!Array.isArray(value)) {
    throw malformed(`Unexpected stream chunk: tool_calls is ${describe(value)}: ${snippet(data)}`)
  }
  const calls = value as Object[]
  for (let i = 0; i < calls.length; i++) {
    const entry: Object | null | undefined = calls[i]
    if (!isRecord(entry)) {
      throw malformed(`Unexpected stream chunk: tool_calls[${i}] is ${describe(entry)}: ${snippet(data)}`)
    }
    const call = entry as Record<string, Object>
    const indexValue: Object | null | undefined = call['index']
    const index = typeof indexValue === 'number' && (indexValue as number) >= 0 ? indexValue as number : -1
    const fnValue: Object | null | undefined = call['function']
    let name = ''
    let args = ''
    if (isRecord(fnValue)) {
      const fn = fnValue as Record<string, Object>
      name = str(fn['name'], 'function', 'name')
      const argsValue: Object | null | undefined = fn['arguments']
      // Some servers send complete arguments as an object instead of a JSON string.
      args = isRecord(argsValue) ? JSON.stringify(argsValue) : str(fn['arguments'], 'function', 'arguments')
    }
    out.push(new WireToolCallDelta(index, str(call['id'], 'tool_call', 'id'), name, args))
  }
  return out
}

function decodeUsage(usage: Record<string, Object>): Usage {
  let reasoning = 0
  const details: Object | null | undefined = usage['completion_tokens_details']
  if (isRecord(details)) {
    reasoning = num((details as Record<string, Object>)['reasoning_tokens'])
  }
  const total: Object | null | undefined = usage['total_tokens']
  return new Usage(num(usage['prompt_tokens']), num(usage['completion_tokens']),
    typeof total === 'number' ? total as number : -1, reasoning)
}
