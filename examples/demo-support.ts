// Shared pieces of the demo: the sandbox tools, the redaction hook, the narrator that prints events.
import fs from 'node:fs'
import path from 'node:path'
import {
  AgentHook,
  AgentMessage,
  ApprovalRequiredEvent,
  BusEvent,
  ControllerEventTypes,
  EventBus,
  FunctionTool,
  HookDiagnosticEvent,
  LlmChunkEvent,
  LoopDetectedEvent,
  MessageRole,
  ModelChunkHookContext,
  ModelChunkHookResult,
  ModelRequest,
  PersistEvent,
  ScriptedTurn,
  ToolAfterEvent,
  ToolBeforeEvent,
  ToolDefinition,
  ToolRiskLevel,
  AgentFailedEvent,
  AgentSuccessEvent,
  AgentSuspendedEvent,
  AgentResumedEvent,
  ApprovalDecidedEvent,
} from '../shared-ts/src/index'

const useColor = !process.env.NO_COLOR && (process.stdout.isTTY || !!process.env.FORCE_COLOR)
const paint = (code: string) => (s: string) => (useColor ? `\x1b[${code}m${s}\x1b[0m` : s)
export const c = {
  dim: paint('2'),
  bold: paint('1'),
  red: paint('31'),
  green: paint('32'),
  yellow: paint('33'),
  blue: paint('34'),
  magenta: paint('35'),
  cyan: paint('36'),
}

/** The writes the demo shows (PersistEvent.reason). */
const SHOWN_WRITES = ['awaiting_approval', 'approval_decision', 'terminal']

export function heading(text: string, without?: string): void {
  console.log(`\n${c.bold(c.cyan('━━ ' + text + ' ' + '━'.repeat(Math.max(0, 60 - text.length))))}`)
  if (without !== undefined) console.log(c.dim(`   Without it: ${without}`))
}

/** Replaces anything that looks like an API key before the user (or history) sees it. */
export class RedactSecretsHook extends AgentHook {
  static readonly pattern = /sk-[A-Za-z0-9_-]{6,}/g
  redactions = 0

  override get hookName(): string {
    return 'RedactSecretsHook'
  }

  override async onModelChunk(ctx: ModelChunkHookContext): Promise<ModelChunkHookResult> {
    const clean = ctx.text.replace(RedactSecretsHook.pattern, () => {
      this.redactions++
      return '[REDACTED]'
    })
    return clean === ctx.text ? ModelChunkHookResult.proceed() : ModelChunkHookResult.proceed(clean)
  }
}

const pathArg: Record<string, Object> = {
  type: 'object',
  properties: { path: { type: 'string', minLength: 1 } },
  required: ['path'],
  additionalProperties: false,
}

function inSandbox(sandbox: string, rel: string): string {
  const full = path.resolve(sandbox, rel)
  if (!full.startsWith(path.resolve(sandbox) + path.sep)) throw new Error(`'${rel}' is outside the sandbox`)
  return full
}

/** list_files (safe) and delete_file (dangerous), confined to `sandbox`. */
export function sandboxTools(sandbox: string): FunctionTool[] {
  return [
    new FunctionTool(
      new ToolDefinition('list_files', 'List the files in the sandbox folder', { type: 'object', properties: {} }),
      async () => fs.readdirSync(sandbox).sort().join('\n') || '(empty)',
    ),
    new FunctionTool(
      new ToolDefinition('delete_file', 'Delete one file in the sandbox folder', pathArg, ToolRiskLevel.dangerous),
      async (args) => {
        fs.rmSync(inSandbox(sandbox, String(args['path'])))
        return `deleted ${String(args['path'])}`
      },
    ),
  ]
}

/** The scripted "model" of the cleanup session: it reacts to what is in the conversation. */
export function cleanupModel(request: ModelRequest): ScriptedTurn {
  const last = request.messages[request.messages.length - 1]
  if (last.role === MessageRole.user) {
    return ScriptedTurn.text(
      'Sure. I will check the folder ',
      'with the service key sk-live-9f8e7d6c5b4a ',
      'and remove the stale cache file.',
    )
      .call('call_list', 'list_files', '{}')
      .call('call_delete', 'delete_file', '{"path":"cache.tmp"}')
  }
  const results = request.messages.filter((m) => m.role === MessageRole.tool)
  const denied = results.some((m) => m.isError && m.errorCode === 'tool_denied')
  return ScriptedTurn.text(
    'Here is what I found: ',
    results.map((m) => m.text().split('\n').join(', ')).join('; ') + '. ',
    denied ? 'You declined the deletion, so cache.tmp is still there.' : 'cache.tmp is gone.',
  )
}

/** A scripted model that keeps checking the same status, whatever it is told. */
export function loopingModel(request: ModelRequest, index: number): ScriptedTurn {
  const warned = request.messages.some((m: AgentMessage) => m.role === MessageRole.system && m.text().includes('repeating'))
  return ScriptedTurn.text(warned && index % 2 === 0 ? 'Checking once more… ' : 'Let me check the build. ').call(
    `call_${index}`,
    'check_build',
    '{"job": "nightly", "verbose": false}',
  )
}

export function buildStatusTool(): FunctionTool {
  return new FunctionTool(
    new ToolDefinition('check_build', 'Check the status of a CI job', {
      type: 'object',
      properties: { job: { type: 'string' }, verbose: { type: 'boolean' } },
      required: ['job'],
    }),
    async () => 'status: pending',
  )
}

/** Prints every event of the bus, readably. Returns the list of type keys seen, in order. */
export function narrate(bus: EventBus): string[] {
  const seen: string[] = []
  let streaming = false
  const endStream = () => {
    if (streaming) {
      process.stdout.write('\n')
      streaming = false
    }
  }
  bus.subscribe(ControllerEventTypes.all, (e: BusEvent) => {
    const type = e.eventType()
    seen.push(type)
    if (type === ControllerEventTypes.llmChunk) {
      const chunk = e as LlmChunkEvent
      if (!streaming) {
        process.stdout.write(`  ${c.magenta('model')}  `)
        streaming = true
      }
      process.stdout.write(chunk.reasoning ? c.dim(chunk.text) : chunk.text)
      return
    }
    endStream()
    const line = describe(e)
    if (line !== '') console.log(line)
  })
  return seen
}

function describe(e: BusEvent): string {
  const t = e.eventType()
  const T = ControllerEventTypes
  switch (t) {
    case T.agentStarted:
      return `  ${c.blue('▶ run started')} ${c.dim(e.runId)}`
    case T.agentResumed:
      return `  ${c.blue('▶ run resumed')} ${c.dim((e as AgentResumedEvent).reason)}`
    case T.beforeCallLlm:
    case T.afterCallLlm:
      return ''
    case T.beforeToolCall: {
      const call = (e as ToolBeforeEvent).call
      return `  ${c.yellow('⚙ tool')}   ${call.name} ${c.dim(call.argumentsJson)}`
    }
    case T.afterToolCall: {
      const r = (e as ToolAfterEvent).result
      const text = r.textContent().split('\n').join(', ')
      return `  ${r.isError ? c.red('✗ result') : c.green('✓ result')} ${text}${r.errorCode ? c.dim(' [' + r.errorCode + ']') : ''}`
    }
    case T.approvalRequired: {
      const batch = (e as ApprovalRequiredEvent).batch
      const items = batch.items.map(
        (i) => `      • ${i.toolCall.name} ${c.dim(i.toolCall.argumentsJson)} — ${i.riskLevel}${i.isPending() ? '' : ' (' + i.decision + ')'}`,
      )
      const waiting = batch.items.filter((i) => i.riskLevel === 'safe').map((i) => i.toolCall.name)
      const why = waiting.length > 0
        ? `\n      ${c.dim(`(${waiting.join(', ')} is safe but waits too: one call needs approval, so the whole batch freezes — nothing of it runs before all of it is decided)`)}`
        : ''
      return `  ${c.yellow('⏸ approval required')} for the whole batch (saved to disk first):\n${items.join('\n')}${why}`
    }
    case T.approvalDecided: {
      const item = (e as ApprovalDecidedEvent).item
      return `  ${item.decision === 'approved' ? c.green('✓ approved') : c.red('✗ denied')} ${item.toolCall.name}${item.denyReason ? c.dim(' — ' + item.denyReason) : ''}`
    }
    case T.approvalResolved:
      return `  ${c.green('✓ every item decided')} — continuing the run`
    case T.loopDetected: {
      const l = e as LoopDetectedEvent
      return `  ${c.red('↻ loop detected')} (${l.verdict.kind}, ${l.verdict.count}×) → ${l.action === 'warned' ? c.yellow('model warned') : c.red('run stopped')}`
    }
    case T.persist: {
      // Only the writes a guarantee rests on (the frozen batch, each decision, the terminal state) and
      // any failure; autosaves and the per-call marks are written too, silently.
      const p = e as PersistEvent
      if (p.ok && (p.skipped || !SHOWN_WRITES.includes(p.reason))) return ''
      return `  ${c.dim(`💾 ${p.ok ? 'saved' : 'SAVE FAILED'} ${p.reason}${p.mandatory ? ' (mandatory)' : ''}, ${p.bytesWritten} bytes`)}`
    }
    case T.hookDiagnostic:
      return `  ${c.dim('ℹ ' + (e as HookDiagnosticEvent).slot + ': ' + (e as HookDiagnosticEvent).message)}`
    case T.agentSuccess:
      return `  ${c.green('■ completed')} ${c.dim((e as AgentSuccessEvent).stopReason)}`
    case T.agentSuspended:
      return `  ${c.yellow('■ suspended')} ${c.dim((e as AgentSuspendedEvent).stopReason)}`
    case T.agentCancelled:
      return `  ${c.yellow('■ cancelled')}`
    case T.agentFailed: {
      const err = (e as AgentFailedEvent).error
      return `  ${c.red('■ stopped')} ${err.layer}/${err.code}: ${err.message}`
    }
    default:
      return `  ${c.dim(t)}`
  }
}
