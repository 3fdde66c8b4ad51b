import { AgentController } from '../controller/AgentController'
import { AgentHook } from '../hook/AgentHook'
import { CompactionOptions } from '../context/CompactionOptions'
import { AgentHookPipeline } from '../hook/AgentHookPipeline'
import { LoopDetector } from '../loop/LoopDetector'
import { LoopDetectorOptions } from '../loop/LoopDetectorOptions'
import { ModelProvider } from '../provider/ModelProvider'
import { StateStorage } from '../storage/StateStorage'
import { AgentTool } from '../tools/AgentTool'
import { ApprovalPolicyHook } from '../tools/ApprovalPolicyHook'
import { ToolRegistry } from '../tools/ToolRegistry'
import { AgentRuntime } from './AgentRuntime'
import { AgentRuntimeConfig } from './AgentRuntimeConfig'

/**
 * Everything `createAgent` needs; only `sessionId` and `model` are required. An interface (not a
 * class) so an object literal works in TypeScript and in ArkTS alike.
 */
export interface AgentOptions {
  sessionId: string
  model: ModelProvider
  tools?: AgentTool[]
  /**
   * A registry of your own, kept by the agent (`tools` are added to it): one an MCP source keeps in
   * step with its server through `refreshHook(registry)`, or one you change between turns.
   */
  registry?: ToolRegistry
  /** Your hooks, in order; the approval policy (when on) runs after them, on the calls as they rewrote them. */
  hooks?: AgentHook[]
  /** Durable storage; without one the session lives in memory only. */
  storage?: StateStorage
  /** Dangerous tools wait for approval (default true); `sensitive: true` gates sensitive tools too. */
  approval?: boolean
  sensitive?: boolean
  /** Loop detection with its defaults (default true), or your options. */
  loopDetection?: boolean
  loopOptions?: LoopDetectorOptions
  systemPrompt?: string
  maxTurns?: number
  /** Bound of one tool call (the registry's default otherwise). */
  toolTimeoutMs?: number
  /**
   * Context compaction (docs/compaction.md): on by default when the model's context window is known
   * (a preset's provider); `false` turns it off; options tune it (or name the window).
   */
  compaction?: CompactionOptions | boolean
}

/** What `createAgent` returns: the runtime, and its controller for approvals and events. */
export class Agent {
  readonly runtime: AgentRuntime
  readonly controller: AgentController
  /** The tools the agent offers (the registry given in the options, or one made from `tools`). */
  readonly tools: ToolRegistry

  constructor(runtime: AgentRuntime, tools: ToolRegistry) {
    this.runtime = runtime
    this.controller = runtime.controller
    this.tools = tools
  }
}

/**
 * A runtime with safe defaults in one call: your hooks, then the approval policy for dangerous
 * tools, loop detection with warn-then-stop, your storage, context compaction when the model's
 * window is known. The explicit classes
 * (AgentRuntimeConfig, AgentHookPipeline, ToolRegistry) remain for anything else.
 */
export function createAgent(options: AgentOptions): Agent {
  const config = new AgentRuntimeConfig(options.sessionId, options.model)
  const registry = options.registry !== undefined ? options.registry : new ToolRegistry()
  const tools = options.tools !== undefined ? options.tools : []
  for (let i = 0; i < tools.length; i++) {
    registry.register(tools[i])
  }
  config.tools = registry
  const hooks: AgentHook[] = options.hooks !== undefined ? options.hooks.slice() : []
  if (options.approval !== false) {
    hooks.push(new ApprovalPolicyHook(options.sensitive === true))
  }
  config.hooks = new AgentHookPipeline(hooks)
  config.storage = options.storage
  if (options.loopDetection !== false) {
    config.loopDetector = new LoopDetector(options.loopOptions !== undefined ? options.loopOptions : new LoopDetectorOptions())
  }
  if (options.systemPrompt !== undefined) {
    config.systemPrompt = options.systemPrompt
  }
  if (options.maxTurns !== undefined) {
    config.maxTurns = options.maxTurns
  }
  if (options.toolTimeoutMs !== undefined) {
    config.toolTimeoutMs = options.toolTimeoutMs
  }
  const compaction = options.compaction
  if (compaction instanceof CompactionOptions) {
    config.compaction = compaction
  } else if (compaction !== false) {
    const window = options.model.contextWindow
    if (compaction === true || (window !== undefined && window > 0)) {
      config.compaction = new CompactionOptions()
    }
  }
  return new Agent(new AgentRuntime(config), registry)
}
