import { ErrorCodes } from '../errors/ArkAgentError'
import { ContentPart } from '../model/ContentPart'
import { ToolResult } from '../model/ToolResult'

/**
 * MCP tool-result content as typed parts, shared by the core's HTTP client and the Node SDK source so
 * both map a server's answer the same way. Server output is untrusted: a block that does not fit its
 * type becomes a text note saying so, never an exception and never a part the codec would refuse.
 */
export class McpContent {
  /**
   * `content` blocks in order (adjacent text blocks joined by a newline), then `structuredContent`
   * as one json part when the server sent it.
   */
  static toParts(content: Object | null | undefined, structured: Object | null | undefined): ContentPart[] {
    const parts: ContentPart[] = []
    const pending: string[] = []
    if (content instanceof Array) {
      const blocks = content as Object[]
      for (let i = 0; i < blocks.length; i++) {
        const block = blocks[i]
        if (block === null || typeof block !== 'object') {
          continue
        }
        const c = block as Record<string, Object>
        if (c['type'] === 'text' && typeof c['text'] === 'string') {
          pending.push(c['text'] as string)
          continue
        }
        McpContent.flush(pending, parts)
        parts.push(McpContent.typed(c))
      }
    }
    McpContent.flush(pending, parts)
    if (structured !== undefined && structured !== null && typeof structured === 'object') {
      let json: string | undefined = undefined
      try {
        json = JSON.stringify(structured)
      } catch (e) {
        json = undefined
      }
      parts.push(typeof json === 'string' ? ContentPart.json(json) : ContentPart.text('[structured content that is not JSON]'))
    }
    return parts
  }

  /**
   * A `tools/call` result for call `callId`: its content as typed parts; `isError` makes it an
   * error-flagged tool_execution_failed result. Anything malformed (no result object, `content` that
   * is not a list) is said in a text part, never thrown and never dropped silently.
   */
  static toResult(callId: string, tool: string, result: Object | null | undefined): ToolResult {
    if (result === null || result === undefined || typeof result !== 'object' || result instanceof Array) {
      return ToolResult.error(callId, ErrorCodes.toolExecutionFailed,
        `MCP tool ${tool} answered with ${McpContent.kindOf(result)} instead of a result object`)
    }
    const r = result as Record<string, Object>
    const content: Object | undefined = r['content']
    const parts = McpContent.toParts(content, r['structuredContent'])
    if (content !== undefined && content !== null && !(content instanceof Array)) {
      parts.unshift(ContentPart.text('[MCP content that is not a list dropped]'))
    }
    const isError = r['isError'] === true
    if (isError && parts.length === 0) {
      parts.push(ContentPart.text(`MCP tool ${tool} reported an error`))
    }
    return new ToolResult(callId, parts, isError, isError ? ErrorCodes.toolExecutionFailed : undefined)
  }

  /** What a JSON value is, for a message: 'a string', 'null', 'a list'... */
  static kindOf(value: Object | null | undefined): string {
    if (value === undefined) {
      return 'nothing'
    }
    if (value === null) {
      return 'null'
    }
    if (value instanceof Array) {
      return 'a list'
    }
    const t = typeof value
    return t === 'object' ? 'an object' : `a ${t}`
  }

  private static flush(pending: string[], parts: ContentPart[]): void {
    if (pending.length > 0) {
      parts.push(ContentPart.text(pending.join('\n')))
      pending.length = 0
    }
  }

  private static typed(c: Record<string, Object>): ContentPart {
    const type = c['type']
    if (type === 'image' || type === 'audio') {
      const mime = McpContent.str(c['mimeType'])
      const data = McpContent.str(c['data'])
      const part = type === 'image' ? ContentPart.image(mime, data) : ContentPart.audio(mime, data)
      return McpContent.orNote(part, `${type as string} block`)
    }
    if (type === 'resource') {
      const r = c['resource']
      if (r === null || typeof r !== 'object') {
        return ContentPart.text('[MCP resource block without a resource]')
      }
      const res = r as Record<string, Object>
      return McpContent.orNote(ContentPart.resource(McpContent.str(res['uri']), McpContent.str(res['mimeType']),
        McpContent.str(res['text']), McpContent.str(res['blob'])), 'resource block')
    }
    if (type === 'resource_link') {
      return McpContent.orNote(ContentPart.resource(McpContent.str(c['uri']), McpContent.str(c['mimeType'])),
        'resource_link block')
    }
    return ContentPart.text(`[MCP content of type ${typeof type === 'string' ? JSON.stringify(type) : 'unknown'} not supported]`)
  }

  private static orNote(part: ContentPart, what: string): ContentPart {
    const problem = part.problem()
    return problem.length === 0 ? part : ContentPart.text(`[MCP ${what} dropped: ${problem}]`)
  }

  private static str(value: Object | null | undefined): string {
    return typeof value === 'string' ? value as string : ''
  }
}
