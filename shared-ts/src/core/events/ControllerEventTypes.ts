/** The type keys of every event the runtime publishes. Subscribe with these, never with raw strings. */
export class ControllerEventTypes {
  static readonly all: string = '*'
  static readonly agentStarted: string = 'agent.started'
  static readonly agentResumed: string = 'agent.resumed'
  static readonly agentSuccess: string = 'agent.success'
  static readonly agentSuspended: string = 'agent.suspended'
  static readonly agentCancelled: string = 'agent.cancelled'
  static readonly agentFailed: string = 'agent.failed'
  static readonly beforeCallLlm: string = 'llm.before'
  static readonly afterCallLlm: string = 'llm.after'
  static readonly llmChunk: string = 'llm.chunk'
  static readonly beforeToolCall: string = 'tool.before'
  static readonly afterToolCall: string = 'tool.after'
  static readonly approvalRequired: string = 'approval.required'
  static readonly approvalDecided: string = 'approval.decided'
  static readonly approvalResolved: string = 'approval.resolved'
  /** A remembered decision was made or revoked (ApprovalGrantEvent), after it was written. Never terminal. */
  static readonly approvalGrant: string = 'approval.grant'
  static readonly planReviewRequired: string = 'plan_review.required'
  static readonly planReviewResolved: string = 'plan_review.resolved'
  static readonly loopDetected: string = 'loop.detected'
  static readonly persist: string = 'state.persist'
  static readonly hookDiagnostic: string = 'hook.diagnostic'
  static readonly contextCompacted: string = 'context.compacted'
  /** A compaction fell back to truncation: its summary call failed (CompactionWarningEvent). Never terminal. */
  static readonly compactionWarning: string = 'context.compaction_warning'
  /** restore() loaded a stored session: what it found (SessionRestoredEvent). Once per runtime; never terminal. */
  static readonly sessionRestored: string = 'session.restored'
  /** An MCP server's question or sampling request waits for the user (ElicitationRequiredEvent), after it was written. */
  static readonly elicitationRequired: string = 'elicitation.required'
  /** An elicitation was answered or closed without the user (ElicitationResolvedEvent). */
  static readonly elicitationResolved: string = 'elicitation.resolved'
  /** An MCP server's sampling request ended: answered, denied or failed (SamplingCompletedEvent). Never terminal. */
  static readonly samplingCompleted: string = 'sampling.completed'
  /** The structured answer as it streams: its parsed prefix (OutputPartialEvent, with partialOutput on). Never terminal. */
  static readonly outputPartial: string = 'output.partial'

  /** Types that end a run; exactly one of them is the last event of every run. */
  static readonly terminalTypes: string[] = [
    ControllerEventTypes.agentSuccess,
    ControllerEventTypes.agentSuspended,
    ControllerEventTypes.agentCancelled,
    ControllerEventTypes.agentFailed
  ]

  static isTerminal(type: string): boolean {
    return ControllerEventTypes.terminalTypes.indexOf(type) >= 0
  }
}
