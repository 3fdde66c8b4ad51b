import { AgentMessage } from '../model/AgentMessage'
import { ToolCall } from '../model/ToolCall'
import { ToolResult } from '../model/ToolResult'
import { CancellationToken } from '../util/Cancellation'

/** The kind of loop found: the same call repeated, a cycle of calls, repeated text, or a loop the model itself confirmed when asked (diagnosis). */
export enum LoopKind {
  repeat = 'repeat',
  cycle = 'cycle',
  content = 'content',
  diagnosis = 'diagnosis'
}

/** Evidence that the agent is going in circles. */
export class LoopVerdict {
  readonly kind: LoopKind
  /** Signature of the repeated call, or the repeated text for content loops. */
  readonly signature: string
  readonly count: number
  /** Tool names of the cycle, in order (empty for a plain repeat). */
  readonly cycle: string[]
  readonly confidence: number
  readonly reason: string

  constructor(kind: LoopKind, signature: string, count: number, cycle: string[] = [],
    confidence: number = 1, reason: string = '') {
    this.kind = kind
    this.signature = signature
    this.count = count
    this.cycle = cycle
    this.confidence = confidence
    this.reason = reason
  }
}

/** What an end-of-turn check found: maybe a verdict, plus diagnostics to publish. */
export class LoopCheck {
  readonly verdict?: LoopVerdict
  readonly diagnostics: string[]

  constructor(verdict?: LoopVerdict, diagnostics: string[] = []) {
    this.verdict = verdict
    this.diagnostics = diagnostics
  }

  static readonly clear: LoopCheck = new LoopCheck()
}

/**
 * The runtime's loop-detection slot. The runtime owns escalation (warn the model first, stop the
 * run on the next detection); a detector only reports what it sees.
 */
export interface LoopDetectorPort {
  /**
   * Called once per tool call the model requested, with its result: executed calls, and calls
   * that never ran (denied by a hook or the user, unknown tool, invalid arguments) with their
   * error result. `atMs`: when the call ended, on the caller's clock (the runtime passes its
   * clock's time); absent, the detector reads its own clock.
   */
  recordToolResult(call: ToolCall, result: ToolResult, atMs?: number): LoopVerdict | undefined
  /** Called for every streamed chunk after chunk hooks; `reasoning` marks thinking text. */
  recordChunk(text: string, reasoning?: boolean): LoopVerdict | undefined
  /**
   * Called with the text of each user message a run starts with, after the run's reset(): the
   * user's request, so that repetition the user asked for, and the user's own words quoted back,
   * are not taken for a loop. Optional for implementations.
   */
  recordUserMessage?(text: string): void
  /** Called at the end of every turn; may consult a diagnosis model. Must not reject. */
  afterTurn(turn: number, history: AgentMessage[], token: CancellationToken): Promise<LoopCheck>
  /** Forget everything seen (a new run, or after the warning was given); the user's request stays. */
  reset(): void
}
