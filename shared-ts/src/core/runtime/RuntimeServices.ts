import { ApprovalPolicy } from '../approvals/ApprovalPolicy'
import { BusEvent } from '../events/BusEvent'
import { EventBus } from '../events/EventBus'
import { AgentHookPipeline } from '../hook/AgentHookPipeline'
import { StateView } from '../hook/HookContexts'
import { AgentState } from '../state/AgentState'
import { OutputFormat } from '../model/OutputFormat'
import { OutputInstruction } from '../output/OutputInstruction'
import { OutputSchema } from '../output/OutputSchema'
import { OutputMode } from '../provider/WireProfile'
import { AgentRuntimeConfig } from './AgentRuntimeConfig'
import { RunContext } from './RunContext'

/**
 * What the runtime's parts share: the config, the one mutable state (owned here, never handed
 * out except as snapshots) and event delivery to the bus and the run's observer.
 */
export class RuntimeServices {
  readonly config: AgentRuntimeConfig
  state: AgentState
  readonly bus: EventBus
  readonly hooks: AgentHookPipeline
  /** Taken once when the runtime is built: changing the config afterwards changes nothing. */
  readonly policy: ApprovalPolicy
  /** The session's write generation this runtime last saw (SessionGenerations): its load or its own write. */
  generation: number = 0
  /** The run in progress (set by AgentRuntime while it executes one): MCP server requests belong to it. */
  currentRun?: RunContext
  /** The output schema, taken once when the runtime is built (like the policy); absent: free text. */
  readonly output?: OutputSchema
  /** How the provider asks for it (an OutputMode value), for the configured model. */
  readonly outputMode: string

  constructor(config: AgentRuntimeConfig) {
    this.config = config
    this.state = new AgentState(config.sessionId)
    this.bus = config.controller.eventBus
    this.hooks = config.hooks
    this.policy = config.approvalPolicy
    this.output = config.outputSchema
    const provider = config.provider
    this.outputMode = this.output !== undefined && provider.outputModeFor !== undefined ?
      provider.outputModeFor(config.model) : OutputMode.none
  }

  /** The system prompt every request starts with: the configured one, plus the output obligation. */
  get systemPrompt(): string {
    const output = this.output
    return output !== undefined ? OutputInstruction.systemPrompt(this.config.systemPrompt, output, this.outputMode) :
      this.config.systemPrompt
  }

  /** What requests carry as ModelRequest.output. */
  get outputFormat(): OutputFormat | undefined {
    const output = this.output
    return output !== undefined ? output.format() : undefined
  }

  get sessionId(): string {
    return this.config.sessionId
  }

  /** A lazily taken snapshot for hook contexts. */
  view(): StateView {
    return new StateView((): AgentState => this.state.snapshot())
  }

  /** True when an event would reach anyone (lets the chunk path skip building events). */
  hasAudience(run?: RunContext): boolean {
    return (run !== undefined && run.observer !== undefined) || this.bus.listenerCount() > 0
  }

  publish(run: RunContext | undefined, event: BusEvent): void {
    this.bus.publish(event)
    if (run !== undefined && run.observer !== undefined) {
      try {
        run.observer.onEvent(event)
      } catch (e) {
        // Observers are a side channel, like bus listeners: a throwing observer never alters the run.
      }
    }
  }

  touch(): void {
    this.state.updatedAtMs = Date.now()
  }
}
