// The terminal chat: streaming answers, a spinner until the first token, approve (once, always, or
// with edited arguments) or deny of dangerous tools (resumable across restarts), Ctrl-C cancelling
// the run but not the program.
import path from 'node:path'
import { AgentHookPipeline, AgentRuntime, AgentRuntimeConfig, ArkAgentError, BusEvent, CancellationSource,
  CompactionOptions, ContextCompactedEvent, ControllerEventTypes, FileStateStorage, HttpTransport,
  LlmChunkEvent, ModelProvider, OpenAICompatibleProvider, ProviderPresets, RunOutcome, ToolAfterEvent,
  ToolBeforeEvent, ToolRegistry } from '@arkagent/core'
import { McpToolSource } from '@arkagent/core/mcp'
import { askApproval, printable } from './ApprovalPrompt'
import type { ChatOptions } from './ChatArgs'
import { sandboxTools } from './SandboxTools'

export { printable } from './ApprovalPrompt'

/** What the chat needs from a terminal; tests supply a scripted one. */
export interface ChatIO {
  write(text: string): void
  /** Resolves with the line typed, or null when input ended (Ctrl-D, closed stdin). */
  prompt(question: string): Promise<string | null>
  /** Registers the Ctrl-C handler; returns its removal. */
  onInterrupt(handler: () => void): () => void
  readonly interactive: boolean
}

export class ChatApp {
  readonly runtime: AgentRuntime
  private readonly storage: FileStateStorage
  private current?: CancellationSource
  /** What the current model call streamed last (undefined: nothing yet). */
  private streaming?: 'reasoning' | 'answer'
  private readonly tools: ToolRegistry
  private readonly mcp: McpToolSource[] = []
  private waitingForFirstToken = false
  private spinner?: ReturnType<typeof setInterval>

  constructor(
    private readonly options: ChatOptions,
    private readonly io: ChatIO,
    transport: HttpTransport,
    provider?: ModelProvider,
  ) {
    const preset = ProviderPresets.byId(options.provider)
    // A preset brings its vendor's wire profile (DeepSeek needs reasoning sent back) and error table.
    const model =
      provider ??
      (preset !== undefined
        ? OpenAICompatibleProvider.fromPreset(preset, { apiKey: options.apiKey, transport, model: options.model, baseUrl: options.baseUrl || undefined })
        : new OpenAICompatibleProvider({
          transport,
          baseUrl: options.baseUrl,
          apiKey: options.apiKey,
          model: options.model,
          providerId: options.provider,
        }))
    const config = new AgentRuntimeConfig(options.sessionId, model)
    config.thinking = options.thinking
    config.systemPrompt =
      'You are a helpful assistant with access to a sandbox folder. Use the tools to inspect or change files there.'
    this.tools = new ToolRegistry(sandboxTools(path.join(options.sessionDir, 'sandbox')))
    config.tools = this.tools
    for (const spec of options.mcp) this.mcp.push(new McpToolSource(spec))
    // A server's changed tool list is applied between turns (refresh hooks), then the approval policy.
    // delete_file and destructive MCP tools ask first: the runtime's approval policy is on by default.
    config.hooks = new AgentHookPipeline(this.mcp.map((m) => m.refreshHook(this.tools)))
    this.storage = new FileStateStorage(path.join(options.sessionDir, 'sessions'))
    config.storage = this.storage
    // The chat resumes explicitly so that Ctrl-C can cancel the continuation too.
    config.autoResume = false
    // A long chat stays within the model's window (the preset knows it; other servers send everything).
    if (model.contextWindow !== undefined && model.contextWindow > 0) config.compaction = new CompactionOptions()
    this.runtime = new AgentRuntime(config)
    this.runtime.controller.subscribeAll((e) => this.show(e))
  }

  /** Runs until input ends or the user types /quit. */
  async start(): Promise<void> {
    const offInterrupt = this.io.onInterrupt(() => this.interrupt())
    try {
      // MCP tools join the sandbox tools, under the same hooks and approvals (before a restored
      // batch that calls them is resumed).
      // A server that cannot be reached is reported and left out: the chat (and a pending approval) goes on.
      for (const source of this.mcp) {
        try {
          const names = await source.register(this.tools)
          this.io.write(`MCP ${source.spec.name}: ${names.length} tools (${names.join(', ')})\n`)
        } catch (e) {
          this.io.write(`MCP ${source.spec.name}: not available (${printable((e instanceof Error ? e.message : String(e)).split('\n')[0])}); going on without it\n`)
        }
      }
      const report = await this.runtime.restore()
      this.io.write(`ArkAgent chat — ${this.options.provider} (${this.options.model}); session ${this.options.sessionDir}\n`)
      this.io.write('Type a message, /quit to leave. Ctrl-C cancels a running answer.\n')
      if (report.kind === 'awaiting_approval') {
        this.io.write('A previous run is waiting for your approval.\n')
        if (!(await this.settleApprovals())) return
      } else if (report.kind === 'interrupted') {
        this.io.write('The previous run was interrupted; resuming it.\n')
        if (!(await this.follow(() => this.runtime.runStream([], undefined, this.newToken())))) return
      }
      for (;;) {
        const line = await this.io.prompt('\nyou> ')
        if (line === null || line.trim() === '/quit') return
        if (line.trim() === '') continue
        if (!(await this.follow(() => this.runtime.run(line, undefined, this.newToken())))) return
      }
    } finally {
      offInterrupt()
      this.stopSpinner()
      for (const source of this.mcp) await source.close().catch(() => {})
      // Leaving the chat releases the session's lock (another chat may open it now).
      await this.storage.close()
    }
  }

  /** Runs one run (and the approvals it asks for). Returns false if the user quit. */
  private async follow(start: () => Promise<RunOutcome>): Promise<boolean> {
    const outcome = await this.guard(start)
    if (outcome?.status === 'suspended' && outcome.stopReason === 'awaiting_approval') {
      return this.settleApprovals()
    }
    return true
  }

  /**
   * Asks about every pending item (ApprovalPrompt: y, n, a always, e edit; anything else, Enter
   * included, shows the keys and asks again), then resumes; repeats while runs keep asking. No answer
   * (Ctrl-C, end of input) or q leaves the decision pending: it is stored and asked again when the
   * chat starts with the same --session.
   */
  private async settleApprovals(): Promise<boolean> {
    for (;;) {
      const batch = this.runtime.controller.pendingBatch()
      for (const item of batch !== undefined ? batch.items : []) {
        if (item.decision === 'denied') {
          // Decided before the user was asked (a policy hook, or an invalid call): shown, not asked.
          this.io.write(`\nDenied: ${item.toolCall.name} ${printable(item.toolCall.argumentsJson)} (${printable(item.denyReason ?? item.reason)})\n`)
        }
      }
      const items = this.runtime.controller.listPendingApprovals()
      for (const item of items) {
        if (!(await askApproval(item, this.io, this.runtime.controller))) {
          this.io.write('\nLeaving; the approval stays pending. Start again with the same --session to continue.\n')
          return false
        }
      }
      const now = this.runtime.controller.pendingBatch()
      if (now === undefined || !now.allDecided()) return true
      const outcome = await this.guard(() => this.runtime.runStream([], undefined, this.newToken()))
      if (!(outcome?.status === 'suspended' && outcome.stopReason === 'awaiting_approval')) return true
    }
  }

  private async guard(start: () => Promise<RunOutcome>): Promise<RunOutcome | undefined> {
    this.startSpinner()
    try {
      const outcome = await start()
      this.stopSpinner()
      if (outcome.status === 'failed' && outcome.error) this.io.write(`\n${oneLine(outcome.error)}\n`)
      if (outcome.status === 'cancelled') this.io.write('\n(cancelled)\n')
      return outcome
    } catch (e) {
      this.stopSpinner()
      this.io.write(`\n${oneLine(e)}\n`)
      return undefined
    } finally {
      this.current = undefined
    }
  }

  private newToken() {
    this.current = new CancellationSource()
    return this.current.token
  }

  private interrupt(): void {
    if (this.current !== undefined) {
      this.current.cancel('Ctrl-C')
    } else {
      this.io.write('\n(nothing to cancel — type /quit or press Ctrl-D to leave)\n')
    }
  }

  private show(e: BusEvent): void {
    const T = ControllerEventTypes
    switch (e.eventType()) {
      case T.llmChunk: {
        const chunk = e as LlmChunkEvent
        if (this.waitingForFirstToken) {
          this.stopSpinner()
          this.io.write('assistant> ')
          this.streaming = undefined
        }
        // Reasoning (dimmed) and the answer each on lines of their own.
        const kind = chunk.reasoning ? 'reasoning' : 'answer'
        if (this.streaming !== undefined && this.streaming !== kind) this.io.write('\n' + (kind === 'answer' ? '\n' : ''))
        this.streaming = kind
        this.io.write(chunk.reasoning ? `\x1b[2m${printable(chunk.text)}\x1b[0m` : printable(chunk.text))
        break
      }
      case T.beforeToolCall: {
        const call = (e as ToolBeforeEvent).call
        this.stopSpinner()
        this.io.write(`\n  [tool] ${call.name} ${printable(call.argumentsJson)}\n`)
        break
      }
      case T.afterToolCall: {
        const r = (e as ToolAfterEvent).result
        this.io.write(`  [${r.isError ? 'error' : 'result'}] ${printable(r.modelText().slice(0, 200).replace(/\n/g, ', '))}\n`)
        this.startSpinner()
        break
      }
      case T.contextCompacted: {
        const c = e as ContextCompactedEvent
        this.io.write(`  [context] ${c.upTo - c.from} older messages ${c.truncated ? 'left out' : 'summarised'}` +
          ` (≈${c.tokensBefore} → ≈${c.tokensAfter} tokens)\n`)
        break
      }
      case T.agentSuccess:
        this.stopSpinner()
        this.io.write('\n')
        break
      default:
        break
    }
  }

  private startSpinner(): void {
    this.waitingForFirstToken = true
    if (!this.io.interactive || this.spinner !== undefined) return
    const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
    let i = 0
    this.spinner = setInterval(() => this.io.write(`\r${frames[i++ % frames.length]} thinking…`), 80)
  }

  private stopSpinner(): void {
    this.waitingForFirstToken = false
    if (this.spinner !== undefined) {
      clearInterval(this.spinner)
      this.spinner = undefined
      this.io.write('\r\x1b[K')
    }
  }
}

/** One line for any error: layer/code and message, with a hint for the usual suspects. */
export function oneLine(e: unknown): string {
  if (e instanceof ArkAgentError) {
    const hint = e.code === 'provider_auth' ? ' — check your API key' : ''
    return printable(`Error: ${e.layer}/${e.code}: ${e.message.split('\n')[0]}${hint}`)
  }
  return printable(`Error: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`)
}
