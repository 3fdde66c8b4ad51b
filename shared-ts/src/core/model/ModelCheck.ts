import { Thrown } from '../errors/Thrown'
import { AgentMessage, MessageRole } from './AgentMessage'
import { ContentPart, ContentPartType, PART_TYPES } from './ContentPart'
import { ModelRequest } from './ModelRequest'
import { OutputFormat } from './OutputFormat'
import { FinishReason, ModelResponse, Usage } from './ModelResponse'
import { ToolCall } from './ToolCall'
import { ToolDefinition } from './ToolDefinition'
import { ToolResult } from './ToolResult'

const ROLES: string[] = [MessageRole.system, MessageRole.user, MessageRole.assistant, MessageRole.tool]

/** A model value from outside the runtime that is not well formed; the message names where. */
export class ModelProblem extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ModelProblem'
  }
}

/**
 * The gate for model values that come from outside the runtime (hooks, tools, custom providers,
 * app input) before they can reach the state. Plain JavaScript can hand over anything: a
 * `ContentPart` whose text is a number, a message built with `Object.create`, a call whose getter
 * answers differently on every read. Each check reads every field once, checks it has the type the
 * state codec will require on load, and returns a fresh copy built from those reads, so what is
 * stored is what was checked and nobody outside holds a reference to it. Throws ModelProblem.
 */
export class ModelCheck {
  static message(value: Object | null | undefined, path: string): AgentMessage {
    if (!ModelCheck.isInstance(value, 'message')) {
      throw new ModelProblem(`${path}: expected an AgentMessage`)
    }
    try {
      return ModelCheck.copyMessage(value as AgentMessage, path)
    } catch (e) {
      throw ModelCheck.unreadable(e as Object, path)
    }
  }

  static messages(value: Object | null | undefined, path: string): AgentMessage[] {
    if (!(value instanceof Array)) {
      throw new ModelProblem(`${path}: expected an array of AgentMessage`)
    }
    const list = value as Object[]
    const out: AgentMessage[] = []
    for (let i = 0; i < list.length; i++) {
      out.push(ModelCheck.message(list[i], `${path}[${i}]`))
    }
    return out
  }

  static call(value: Object | null | undefined, path: string): ToolCall {
    if (!ModelCheck.isInstance(value, 'call')) {
      throw new ModelProblem(`${path}: expected a ToolCall`)
    }
    try {
      const c = value as ToolCall
      const id = ModelCheck.text(c.id, `${path}.id`)
      const name = ModelCheck.text(c.name, `${path}.name`)
      const args = ModelCheck.text(c.argumentsJson, `${path}.argumentsJson`)
      const index = c.index
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) {
        throw new ModelProblem(`${path}.index: expected a non-negative integer`)
      }
      return new ToolCall(id, name, args, index)
    } catch (e) {
      throw ModelCheck.unreadable(e as Object, path)
    }
  }

  static result(value: Object | null | undefined, path: string): ToolResult {
    if (!ModelCheck.isInstance(value, 'result')) {
      throw new ModelProblem(`${path}: expected a ToolResult`)
    }
    try {
      const r = value as ToolResult
      const callId = ModelCheck.text(r.callId, `${path}.callId`)
      const content = r.content
      if (!(content instanceof Array)) {
        throw new ModelProblem(`${path}.content: expected an array of ContentPart`)
      }
      const parts: ContentPart[] = []
      for (let i = 0; i < content.length; i++) {
        parts.push(ModelCheck.part(content[i], `${path}.content[${i}]`))
      }
      const isError = r.isError
      if (typeof isError !== 'boolean') {
        throw new ModelProblem(`${path}.isError: expected a boolean`)
      }
      return new ToolResult(callId, parts, isError, ModelCheck.optText(r.errorCode, `${path}.errorCode`))
    } catch (e) {
      throw ModelCheck.unreadable(e as Object, path)
    }
  }

  static response(value: Object | null | undefined, path: string): ModelResponse {
    if (!ModelCheck.isInstance(value, 'response')) {
      throw new ModelProblem(`${path}: expected a ModelResponse`)
    }
    try {
      const r = value as ModelResponse
      const message = ModelCheck.message(r.message, `${path}.message`)
      if (message.role !== MessageRole.assistant) {
        throw new ModelProblem(`${path}.message.role: expected 'assistant', got '${message.role}'`)
      }
      const finish = r.finishReason
      const usage = r.usage
      const model = r.model
      return new ModelResponse(message, typeof finish === 'string' ? finish as string : FinishReason.unknown,
        ModelCheck.isInstance(usage, 'usage') ? usage : new Usage(), typeof model === 'string' ? model as string : '')
    } catch (e) {
      throw ModelCheck.unreadable(e as Object, path)
    }
  }

  /**
   * A request only travels to the provider (it never enters the state), so it is checked, not
   * copied: the shape a provider relies on, so a bad rewrite is a clear error and not a crash
   * inside an encoder.
   */
  static request(value: Object | null | undefined, path: string): ModelRequest {
    if (!ModelCheck.isInstance(value, 'request')) {
      throw new ModelProblem(`${path}: expected a ModelRequest`)
    }
    try {
      const r = value as ModelRequest
      const messages = r.messages
      if (!(messages instanceof Array)) {
        throw new ModelProblem(`${path}.messages: expected an array of AgentMessage`)
      }
      for (let i = 0; i < messages.length; i++) {
        if (!ModelCheck.isInstance(messages[i], 'message')) {
          throw new ModelProblem(`${path}.messages[${i}]: expected an AgentMessage`)
        }
      }
      const tools = r.tools
      if (!(tools instanceof Array)) {
        throw new ModelProblem(`${path}.tools: expected an array of ToolDefinition`)
      }
      for (let i = 0; i < tools.length; i++) {
        if (!ModelCheck.isInstance(tools[i], 'definition')) {
          throw new ModelProblem(`${path}.tools[${i}]: expected a ToolDefinition`)
        }
      }
      if (typeof r.model !== 'string') {
        throw new ModelProblem(`${path}.model: expected a string`)
      }
      const thinking = r.thinking
      if (thinking !== undefined && typeof thinking !== 'boolean') {
        throw new ModelProblem(`${path}.thinking: expected a boolean`)
      }
      const output = r.output as Object | undefined
      if (output !== undefined && !(output instanceof OutputFormat)) {
        throw new ModelProblem(`${path}.output: expected an OutputFormat or nothing`)
      }
      return r
    } catch (e) {
      throw ModelCheck.unreadable(e as Object, path)
    }
  }

  static text(value: Object | null | undefined, path: string): string {
    if (typeof value !== 'string') {
      throw new ModelProblem(`${path}: expected a string, got ${ModelCheck.kind(value)}`)
    }
    return value as string
  }

  /** Optional text: undefined and null both mean absent. */
  static optText(value: Object | null | undefined, path: string): string | undefined {
    return ModelCheck.absent(value) ? undefined : ModelCheck.text(value, path)
  }

  /** Plain JavaScript writes null where TypeScript writes undefined: both mean "not given". */
  static absent(value: Object | null | undefined): boolean {
    return value === undefined || value === null
  }

  private static copyMessage(m: AgentMessage, path: string): AgentMessage {
    const role = m.role
    if (typeof role !== 'string' || ROLES.indexOf(role as string) < 0) {
      throw new ModelProblem(`${path}.role: expected one of ${ROLES.join(', ')}`)
    }
    const parts: ContentPart[] = []
    const partCount = m.partCount()
    for (let i = 0; i < partCount; i++) {
      parts.push(ModelCheck.part(m.partAt(i), `${path}.content[${i}]`))
    }
    const calls: ToolCall[] = []
    const callCount = m.callCount()
    for (let i = 0; i < callCount; i++) {
      calls.push(ModelCheck.call(m.callAt(i), `${path}.toolCalls[${i}]`))
    }
    const toolCallId = ModelCheck.optText(m.toolCallId, `${path}.toolCallId`)
    if (role === MessageRole.tool && toolCallId === undefined) {
      throw new ModelProblem(`${path}.toolCallId: a tool message needs the id of the call it answers`)
    }
    const isError = m.isError
    if (typeof isError !== 'boolean') {
      throw new ModelProblem(`${path}.isError: expected a boolean`)
    }
    return new AgentMessage(role, parts, calls, toolCallId, isError, ModelCheck.optText(m.errorCode,
      `${path}.errorCode`))
  }

  private static part(value: Object | null | undefined, path: string): ContentPart {
    if (!ModelCheck.isInstance(value, 'part')) {
      throw new ModelProblem(`${path}: expected a ContentPart`)
    }
    const p = value as ContentPart
    const type = p.type
    const text = ModelCheck.text(p.text, `${path}.text`)
    if (type === ContentPartType.text) {
      return ContentPart.text(text)
    }
    if (type === ContentPartType.reasoning) {
      return ContentPart.reasoning(text)
    }
    if (PART_TYPES.indexOf(type) < 0) {
      throw new ModelProblem(`${path}.type: expected one of ${PART_TYPES.join(', ')}`)
    }
    const part = ContentPart.of(type, text, ModelCheck.text(p.mimeType, `${path}.mimeType`),
      ModelCheck.text(p.data, `${path}.data`), ModelCheck.text(p.uri, `${path}.uri`))
    const problem = part.problem()
    if (problem.length > 0) {
      throw new ModelProblem(`${path}: ${problem}`)
    }
    return part
  }

  /** instanceof that cannot throw (a Proxy's getPrototypeOf trap can). */
  private static isInstance(value: Object | null | undefined, kind: string): boolean {
    try {
      if (kind === 'message') {
        return value instanceof AgentMessage
      }
      if (kind === 'call') {
        return value instanceof ToolCall
      }
      if (kind === 'result') {
        return value instanceof ToolResult
      }
      if (kind === 'part') {
        return value instanceof ContentPart
      }
      if (kind === 'response') {
        return value instanceof ModelResponse
      }
      if (kind === 'request') {
        return value instanceof ModelRequest
      }
      if (kind === 'definition') {
        return value instanceof ToolDefinition
      }
      return value instanceof Usage
    } catch (e) {
      return false
    }
  }

  private static kind(value: Object | null | undefined): string {
    return value === null ? 'null' : typeof value
  }

  private static unreadable(e: Object, path: string): ModelProblem {
    try {
      if (e instanceof ModelProblem) {
        return e as ModelProblem
      }
    } catch (ignored) {
      // fall through
    }
    return new ModelProblem(`${path}: unreadable (${Thrown.describe(e)})`)
  }
}
