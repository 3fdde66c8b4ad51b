import { ArkAgentError } from '../errors/ArkAgentError'
import { LoopVerdict } from '../loop/LoopDetectorPort'
import { AgentMessage } from '../model/AgentMessage'

/** What executing a batch came to: a stop or abort asked for by an afterToolCall hook, injections, a loop verdict. */
export class BatchOutcome {
  /** An afterToolCall hook asked to end the loop after this batch. */
  stop: boolean = false
  stopReason: string = ''
  abortError?: ArkAgentError
  injected: AgentMessage[] = []
  loopVerdict?: LoopVerdict
}
