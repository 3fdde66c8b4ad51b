// Messages, tool calls, results and content parts to plain JSON and back, every field validated.
import { ContentPart, ContentPartType, PART_TYPES } from '../model/ContentPart'
import { AgentMessage, MessageRole } from '../model/AgentMessage'
import { ToolCall } from '../model/ToolCall'
import { ToolResult } from '../model/ToolResult'
import { JsonFields } from './JsonFields'

const ROLES: string[] = ['system', 'user', 'assistant', 'tool']

/** The message part of the state codec (StateCodec holds the document and the header). */
export class MessageCodec {
  private static readonly f: JsonFields = new JsonFields()

  // ---- messages ----

  static encodeMessages(messages: AgentMessage[], from: number, to: number): Object[] {
    const out: Object[] = []
    for (let i = from; i < to; i++) {
      out.push(MessageCodec.encodeMessage(messages[i]))
    }
    return out
  }

  static decodeMessages(items: Object[], path: string): AgentMessage[] {
    const out: AgentMessage[] = []
    for (let i = 0; i < items.length; i++) {
      out.push(MessageCodec.decodeMessage(MessageCodec.f.asObject(items[i], `${path}[${i}]`), `${path}[${i}]`))
    }
    return out
  }

  static encodeMessage(m: AgentMessage): Record<string, Object> {
    const content: Object[] = []
    for (let i = 0; i < m.partCount(); i++) {
      const p = m.partAt(i)
      const part: Record<string, Object> = { 'type': p.type, 'text': p.text }
      // Typed parts only: a text part stays two fields, as it was stored before typed parts existed.
      if (p.mimeType.length > 0) {
        part['mimeType'] = p.mimeType
      }
      if (p.data.length > 0) {
        part['data'] = p.data
      }
      if (p.uri.length > 0) {
        part['uri'] = p.uri
      }
      content.push(part)
    }
    const o: Record<string, Object> = { 'role': m.role, 'content': content }
    if (m.callCount() > 0) {
      const calls: Object[] = []
      for (let i = 0; i < m.callCount(); i++) {
        calls.push(MessageCodec.encodeCall(m.callAt(i)))
      }
      o['toolCalls'] = calls
    }
    if (m.toolCallId !== undefined) {
      o['toolCallId'] = m.toolCallId
    }
    if (m.isError) {
      o['isError'] = true
    }
    if (m.errorCode !== undefined) {
      o['errorCode'] = m.errorCode
    }
    return o
  }

  static decodeMessage(o: Record<string, Object>, path: string): AgentMessage {
    const f = MessageCodec.f
    const role = f.oneOf(f.str(o, 'role', path), ROLES, `${path}.role`) as MessageRole
    const content = MessageCodec.decodeParts(f.arr(o, 'content', path), `${path}.content`)
    const calls: ToolCall[] = []
    const rawCalls = f.optArr(o, 'toolCalls', path)
    for (let i = 0; i < rawCalls.length; i++) {
      calls.push(MessageCodec.decodeCall(f.asObject(rawCalls[i], `${path}.toolCalls[${i}]`), `${path}.toolCalls[${i}]`))
    }
    const toolCallId = f.optStr(o, 'toolCallId', path)
    if (role === MessageRole.tool && toolCallId === undefined) {
      throw f.fail(path, 'tool message without toolCallId')
    }
    return new AgentMessage(role, content, calls, toolCallId, f.optBool(o, 'isError', path, false),
      f.optStr(o, 'errorCode', path))
  }

  static decodeParts(items: Object[], path: string): ContentPart[] {
    const f = MessageCodec.f
    const parts: ContentPart[] = []
    for (let i = 0; i < items.length; i++) {
      const p = f.asObject(items[i], `${path}[${i}]`)
      const type = f.str(p, 'type', `${path}[${i}]`)
      const text = f.str(p, 'text', `${path}[${i}]`)
      if (type === ContentPartType.text) {
        parts.push(ContentPart.text(text))
      } else if (type === ContentPartType.reasoning) {
        parts.push(ContentPart.reasoning(text))
      } else if (PART_TYPES.indexOf(type) < 0) {
        throw f.fail(`${path}[${i}].type`, 'unknown content part type')
      } else {
        const where = `${path}[${i}]`
        const part = ContentPart.of(type as ContentPartType, text, f.optStr(p, 'mimeType', where) ?? '',
          f.optStr(p, 'data', where) ?? '', f.optStr(p, 'uri', where) ?? '')
        const problem = part.problem()
        if (problem.length > 0) {
          throw f.fail(where, problem)
        }
        parts.push(part)
      }
    }
    return parts
  }

  static encodeCall(c: ToolCall): Record<string, Object> {
    const o: Record<string, Object> = { 'id': c.id, 'name': c.name, 'arguments': c.argumentsJson, 'index': c.index }
    return o
  }

  static decodeCall(o: Record<string, Object>, path: string): ToolCall {
    const f = MessageCodec.f
    return new ToolCall(f.str(o, 'id', path), f.str(o, 'name', path), f.str(o, 'arguments', path),
      f.int(o, 'index', path))
  }

  static encodeResult(r: ToolResult): Record<string, Object> {
    const m = MessageCodec.encodeMessage(AgentMessage.tool(r.callId, r.content, r.isError, r.errorCode))
    return m
  }

  static decodeResult(o: Record<string, Object>, path: string): ToolResult {
    const m = MessageCodec.decodeMessage(o, path)
    if (m.role !== MessageRole.tool) {
      throw MessageCodec.f.fail(`${path}.role`, 'expected a tool result')
    }
    // decodeMessage guarantees a tool message its toolCallId.
    return new ToolResult(m.toolCallId as string, m.content, m.isError, m.errorCode)
  }

  // ---- approvals, plan review, tool batch ----
}
