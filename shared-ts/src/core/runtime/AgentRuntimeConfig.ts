import { AgentController } from '../controller/AgentController'
import { AgentHookPipeline } from '../hook/AgentHookPipeline'
import { LoopDetectorPort } from '../loop/LoopDetectorPort'
import { ModelProvider } from '../provider/ModelProvider'
import { StateStorage } from '../storage/StateStorage'
import { ToolRegistry } from '../tools/ToolRegistry'

/** Everything an AgentRuntime is built from. Only `sessionId` and `provider` are required. */
export class AgentRuntimeConfig {
  readonly sessionId: string
  readonly provider: ModelProvider
  tools: ToolRegistry = new ToolRegistry()
  hooks: AgentHookPipeline = new AgentHookPipeline()
  /** Without storage the session lives in memory only (and nothing survives a restart). */
  storage?: StateStorage
  controller: AgentController = new AgentController()
  systemPrompt: string = ''
  /** Provider model id; empty uses the provider's default. */
  model: string = ''
  maxTurns: number = 25
  /** How often afterModelCall may ask for a retry within one turn. */
  maxModelRetries: number = 2
  /** Bound for every decision-hook call (0 disables). Applied to `hooks`. */
  hookTimeoutMs: number = 30000
  /** Bound for every tool execution (0 disables). Applied to `tools`. */
  toolTimeoutMs: number = 60000
  /** Adds the reserved `submit_plan` tool: the model must have its plan approved first. */
  planMode: boolean = false
  loopDetector?: LoopDetectorPort
  /** Continue the run automatically once the last approval of a batch (or the plan) is decided. */
  autoResume: boolean = true
  /** Text injected when the loop detector first fires. */
  loopWarning: string = 'You appear to be repeating the same actions without progress. ' +
    'Stop repeating them: change your approach or give your final answer.'

  constructor(sessionId: string, provider: ModelProvider) {
    this.sessionId = sessionId
    this.provider = provider
  }
}
