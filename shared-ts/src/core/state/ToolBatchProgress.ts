import { AgentMessage } from '../model/AgentMessage'
import { ToolCall } from '../model/ToolCall'
import { ToolRiskLevel } from '../model/ToolDefinition'
import { ToolResult } from '../model/ToolResult'

/** One call of a batch being executed: whether it started and, once known, its result. */
export class ToolBatchEntry {
  readonly call: ToolCall
  /** Written (durably) before the tool runs: a started entry is never run again. */
  started: boolean
  result?: ToolResult
  /**
   * The highest risk level this call was cleared to run at: the tool's level when the approval
   * policy let it through, or the level the user approved. A tool that is riskier when the call
   * executes (and that the policy would ask about) is not run on this clearance. Defaults to safe.
   */
  readonly clearance: ToolRiskLevel
  /** The approval item (in the decision log) that cleared this call, when one did: its record notes the execution. */
  readonly approvalId?: string

  constructor(call: ToolCall, started: boolean = false, result?: ToolResult,
    clearance: ToolRiskLevel = ToolRiskLevel.safe, approvalId?: string) {
    this.call = call
    this.started = started
    this.result = result
    this.clearance = clearance
    this.approvalId = approvalId
  }

  clone(): ToolBatchEntry {
    return new ToolBatchEntry(this.call, this.started, this.result, this.clearance, this.approvalId)
  }
}

/**
 * A tool batch in flight. The assistant message and its results enter history together when the
 * batch ends, so history never holds an unpaired tool call; until then this record is the
 * write-ahead log that makes execution at-most-once across a crash.
 */
export class ToolBatchProgress {
  readonly batchId: string
  readonly runId: string
  readonly modelMessage: AgentMessage
  readonly entries: ToolBatchEntry[]

  constructor(batchId: string, runId: string, modelMessage: AgentMessage, entries: ToolBatchEntry[]) {
    this.batchId = batchId
    this.runId = runId
    this.modelMessage = modelMessage
    this.entries = entries
  }

  clone(): ToolBatchProgress {
    const entries: ToolBatchEntry[] = []
    for (let i = 0; i < this.entries.length; i++) {
      entries.push(this.entries[i].clone())
    }
    return new ToolBatchProgress(this.batchId, this.runId, this.modelMessage, entries)
  }
}
