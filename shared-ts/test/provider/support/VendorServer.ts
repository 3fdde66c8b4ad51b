// A small OpenAI-compatible vendor on 127.0.0.1 that speaks one vendor's documented dialect:
// its auth rule, its reasoning field, where its usage arrives (a last `choices: []` chunk, the last
// choice chunk, or inside the last choice as Moonshot does), what it refuses in a request body
// (VendorRules: OpenAI's per-family `max_tokens` and `reasoning_effort` rules, ...), and — for
// DeepSeek and Kimi thinking models — its rule that an assistant message with tool calls must carry
// `reasoning_content` (HTTP 400 with the vendor's real error body otherwise). The conversation is
// scripted by the number of tool results so far: a tool call per scripted step, then a final answer.
// A compaction's summary request (its system message opens "You compact a conversation") is
// answered with a summary, under the same rules.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { NO_RULES, type RequestRule } from './VendorRules'

export interface VendorDialect {
  name: string
  /** The key the server accepts; '' accepts none and rejects an Authorization header. */
  key: string
  /** The streamed field for reasoning ('' streams none). */
  reasoningField: 'reasoning_content' | 'reasoning' | ''
  /** The 400 body for an assistant tool-call message without reasoning_content ('' = no such rule). */
  missingReasoningBody: (index: number) => string
  /**
   * Usage in a last chunk with `choices: []` (OpenAI/DeepSeek/Qwen), at the top level of the last
   * choice chunk (GLM), or inside the last choice, `choices[0].usage` (Moonshot Kimi).
   */
  usageChunk: 'separate' | 'on-last-choice' | 'in-choice'
  /** Tool names to call, one per step, before the final answer. */
  steps: string[]
  /** What the vendor refuses in a body (VendorRules); none when absent. */
  rules?: RequestRule
  /** The final answer's content for a request (structured-output tests: JSON); default "Done after N steps.". */
  finalAnswer?: (body: Record<string, unknown>) => string
}

export const DEEPSEEK_MISSING_REASONING = (index: number): string => JSON.stringify({ error: {
  message: `Missing \`reasoning_content\` field in the assistant message at message index ${index}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`,
  type: 'invalid_request_error', param: null, code: 'invalid_request_error' } })

export const KIMI_MISSING_REASONING = (index: number): string => JSON.stringify({ error: {
  message: `thinking is enabled but reasoning_content is missing in assistant tool call message at index ${index}`,
  type: 'invalid_request_error' } })

interface WireMessage { role: string, content?: unknown, tool_calls?: unknown[], reasoning_content?: unknown, reasoning?: unknown }

export const SUMMARY_TEXT = 'Summary: the user asked numbered questions; every one was answered.'

export class VendorServer {
  /** Bodies of the conversation's requests (summary requests are in summaryBodies). */
  readonly bodies: Array<Record<string, unknown>> = []
  /** Bodies of compaction summary requests. */
  readonly summaryBodies: Array<Record<string, unknown>> = []
  /** The prompt tokens reported for each answered request, in order. */
  readonly promptTokens: number[] = []
  readonly authHeaders: Array<string | undefined> = []
  readonly rejections: string[] = []
  private readonly server: http.Server
  baseUrl = ''

  constructor(readonly dialect: VendorDialect) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => { void this.answer(req, res, Buffer.concat(chunks).toString('utf8')) })
    })
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`
    return this
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  /** Reasoning the server streamed for each answer, in order (what must come back). */
  readonly reasoningSent: string[] = []

  private async answer(req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> {
    const d = this.dialect
    const auth = req.headers.authorization
    this.authHeaders.push(auth)
    if (d.key.length > 0 ? auth !== `Bearer ${d.key}` : auth !== undefined) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"Authentication Fails","type":"authentication_error"}}')
      return
    }
    const body = JSON.parse(raw) as Record<string, unknown>
    const messages = body.messages as WireMessage[]
    const summary = messages[0]?.role === 'system' && typeof messages[0].content === 'string' &&
      messages[0].content.startsWith('You compact a conversation')
    ;(summary ? this.summaryBodies : this.bodies).push(body)
    const refused = (d.rules ?? NO_RULES)(body)
    if (refused !== undefined) {
      this.rejections.push(`${summary ? 'summary' : 'request'}: ${refused.body}`)
      res.writeHead(refused.status, { 'content-type': 'application/json' }).end(refused.body)
      return
    }
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i]
      if (m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0 &&
        d.missingReasoningBody !== NO_RULE && typeof m.reasoning_content !== 'string') {
        this.rejections.push(`index ${i}`)
        res.writeHead(400, { 'content-type': 'application/json' }).end(d.missingReasoningBody(i))
        return
      }
    }
    const step = messages.filter((m) => m.role === 'tool').length
    const reasoning = `thinking about step ${step}; `
    if (!summary) this.reasoningSent.push(reasoning)
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' })
    const model = String(body.model)
    const write = (delta: Record<string, unknown>, finish: string | null = null, usage?: unknown): void => {
      const choice: Record<string, unknown> = { index: 0, delta, finish_reason: finish }
      const chunk: Record<string, unknown> = { id: 'c1', object: 'chat.completion.chunk', created: 1, model,
        choices: [choice] }
      if (usage !== undefined && d.usageChunk === 'in-choice') choice.usage = usage
      else if (usage !== undefined) chunk.usage = usage
      res.write(`data: ${JSON.stringify(chunk)}\n\n`)
    }
    // The vendor's own count: more than the client's estimate (about a token per two characters of JSON).
    const prompt = Math.ceil(JSON.stringify(messages).length / 2)
    this.promptTokens.push(prompt)
    const usage = { prompt_tokens: prompt, completion_tokens: 5, total_tokens: prompt + 5 }
    write({ role: 'assistant', content: '' })
    if (d.reasoningField !== '' && !summary) {
      write({ [d.reasoningField]: reasoning.slice(0, 9) })
      write({ [d.reasoningField]: reasoning.slice(9) })
    }
    const last = d.usageChunk !== 'separate' ? usage : undefined
    if (summary) {
      write({ content: SUMMARY_TEXT })
      write({}, 'stop', last)
    } else if (step < d.steps.length) {
      write({ tool_calls: [{ index: 0, id: `call_${step}`, type: 'function', function: { name: d.steps[step], arguments: '' } }] })
      write({ tool_calls: [{ index: 0, function: { arguments: `{"n":${step}}` } }] })
      write({}, 'tool_calls', last)
    } else {
      write({ content: d.finalAnswer !== undefined ? d.finalAnswer(body) : `Done after ${step} steps.` })
      write({}, 'stop', last)
    }
    if (d.usageChunk === 'separate') {
      res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model, choices: [], usage })}\n\n`)
    }
    res.end('data: [DONE]\n\n')
  }
}

/** For dialects without the reasoning rule. */
export const NO_RULE = (_index: number): string => ''
