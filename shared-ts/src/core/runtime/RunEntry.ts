import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { Thrown } from '../errors/Thrown'
import { AgentMessage } from '../model/AgentMessage'
import { ModelCheck } from '../model/ModelCheck'
import { AgentState, SessionStatus } from '../state/AgentState'
import { PlanReviewDecision } from '../state/PendingPlanReview'
import { CancellationToken } from '../util/Cancellation'

/** What may start a run: the input checked, and what the session's state allows now. */
export class RunEntry {
  static readonly interruptedRun: string = 'interrupted run'

  /**
   * Input comes from app code (plain JavaScript included): it must be an array of well-formed
   * AgentMessages and a CancellationToken. Returns checked copies; throws config/invalid_input.
   */
  static checkInput(messages: AgentMessage[], token: CancellationToken): AgentMessage[] {
    let input: AgentMessage[]
    try {
      input = ModelCheck.messages(messages, 'messages')
    } catch (e) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidInput, `Invalid run input: ${Thrown.describe(e as Object)}`,
        ErrorRetryability.never)
    }
    if (!(token instanceof CancellationToken)) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidInput,
        'Invalid run input: the token must be a CancellationToken (on Node, tokenFromAbortSignal converts an AbortSignal)',
        ErrorRetryability.never)
    }
    return input
  }

  /** Validates what may start now; returns the resume reason for empty input ('' for new input). */
  static checkEntry(state: AgentState, messages: AgentMessage[]): string {
    const batch = state.pendingApproval
    const review = state.pendingPlanReview
    if (messages.length > 0) {
      // New input must not clear a frozen batch: that would leave unpaired tool calls behind.
      if (batch !== undefined) {
        throw new ArkAgentError(ErrorLayer.security, ErrorCodes.pendingApprovalBlocksInput,
          'Tool approvals are pending: approve or deny them (and resume) before sending new input',
          ErrorRetryability.afterAction)
      }
      if (review !== undefined) {
        throw new ArkAgentError(ErrorLayer.security, ErrorCodes.pendingPlanReviewBlocksInput,
          'A plan is waiting for review: approve or reject it before sending new input', ErrorRetryability.afterAction)
      }
      return ''
    }
    if (batch !== undefined) {
      if (!batch.allDecided()) {
        throw new ArkAgentError(ErrorLayer.security, ErrorCodes.awaitingApproval,
          'Cannot resume: some tool approvals are still undecided', ErrorRetryability.afterAction)
      }
      return 'approvals decided'
    }
    if (review !== undefined) {
      if (review.decision === PlanReviewDecision.pending) {
        throw new ArkAgentError(ErrorLayer.security, ErrorCodes.awaitingApproval,
          'Cannot resume: the plan has not been reviewed yet', ErrorRetryability.afterAction)
      }
      return 'plan reviewed'
    }
    if (state.status === SessionStatus.running) {
      return RunEntry.interruptedRun
    }
    throw new ArkAgentError(ErrorLayer.runtime, ErrorCodes.nothingToResume,
      'Nothing to resume: send a message to start a run', ErrorRetryability.never)
  }
}
