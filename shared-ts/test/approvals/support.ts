// Shared world for the approval-record tests: a dangerous tool with a schema that records exactly
// what it was given, a scripted model, a real file storage, and a clock the test moves.
import {
  AgentRuntime,
  AgentRuntimeConfig,
  ControllerEventTypes,
  FileStateStorage,
  RunStatus,
  ScriptedTurn,
  ToolRiskLevel
} from '../../src/index'
import type { BusEvent } from '../../src/index'
import { TestClock } from '../provider/support/TestClock'
import { CountingTool, makeRuntime, newSessionId, tempDir } from '../runtime/helpers'

export const FILE_SCHEMA: Record<string, Object> = {
  type: 'object',
  properties: { path: { type: 'string' }, text: { type: 'string' } },
  required: ['path'],
  additionalProperties: false
}

/** A test clock whose timers fire when the test moves time past them. */
export class MovableClock extends TestClock {
  timers: { at: number, fn: () => void }[] = []

  override setTimer(ms: number, callback: () => void): () => void {
    const t = { at: this.nowMs + ms, fn: callback }
    this.timers.push(t)
    return () => { this.timers = this.timers.filter((x) => x !== t) }
  }

  advance(ms: number): void {
    this.nowMs += ms
    const due = this.timers.filter((t) => t.at <= this.nowMs)
    this.timers = this.timers.filter((t) => t.at > this.nowMs)
    for (const t of due) t.fn()
  }
}

export class ApprovalWorld {
  readonly dir = tempDir()
  readonly sessionId = newSessionId()
  readonly clock = new MovableClock()
  /** Argument texts each tool run received, as JSON of the parsed object (the tool's view). */
  readonly received: string[] = []
  readonly write: CountingTool
  readonly events: BusEvent[] = []

  constructor(risk: ToolRiskLevel = ToolRiskLevel.dangerous, schema: Record<string, Object> = FILE_SCHEMA) {
    this.write = new CountingTool('write_file', risk, async (args) => {
      this.received.push(JSON.stringify(args))
      return 'written'
    }, schema)
  }

  storage(): FileStateStorage {
    return new FileStateStorage(this.dir, undefined, { lock: false })
  }

  runtime(turns: ScriptedTurn[], configure?: (cfg: AgentRuntimeConfig) => void, extraTools: CountingTool[] = []): AgentRuntime {
    const rt = makeRuntime(turns, {
      sessionId: this.sessionId,
      tools: [this.write.tool, ...extraTools.map((t) => t.tool)],
      storage: this.storage(),
      configure: (cfg) => {
        cfg.clock = this.clock
        configure?.(cfg)
      }
    })
    rt.controller.subscribe(ControllerEventTypes.all, (e) => this.events.push(e))
    return rt
  }

  /** Runs until the batch freezes; returns the pending approval ids. */
  static async frozen(rt: AgentRuntime, text: string = 'go'): Promise<string[]> {
    const outcome = await rt.run(text)
    if (outcome.status !== RunStatus.suspended) {
      throw new Error(`expected a suspended run, got ${outcome.status}`)
    }
    return rt.controller.listPendingApprovals().map((i) => i.approvalId)
  }
}

export function writeCall(id: string, args: string): ScriptedTurn {
  return ScriptedTurn.text('').call(id, 'write_file', args)
}
