import { ApprovalPolicy } from '../approvals/ApprovalPolicy'
import { AgentController } from '../controller/AgentController'
import { ConfigCheck } from '../util/ConfigCheck'
import { AgentHook } from '../hook/AgentHook'
import { CompactionOptions } from '../context/CompactionOptions'
import { AgentHookPipeline } from '../hook/AgentHookPipeline'
import { LoopDetector } from '../loop/LoopDetector'
import { LoopDetectorOptions } from '../loop/LoopDetectorOptions'
import { ModelProvider } from '../provider/ModelProvider'
import { StateStorage } from '../storage/StateStorage'
import { AgentTool } from '../tools/AgentTool'
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
  /** Your hooks, in order; the approval policy runs after them, on the calls as they rewrote them. */
  hooks?: AgentHook[]
  /** Durable storage; without one the session lives in memory only. */
  storage?: StateStorage
  /**
   * Which tools wait for the user's approval (default `ApprovalPolicy.standard()`: dangerous ones).
   * `ApprovalPolicy.runDangerousToolsWithoutApproval()` is the opt-out for headless jobs.
   */
  approvalPolicy?: ApprovalPolicy
  /** `true` asks for sensitive tools too (`ApprovalPolicy.askForSensitiveToo()`). */
  sensitive?: boolean
  /**
   * Kept so that old code fails loudly: `false` is refused (invalid_config) — the opt-out is
   * `approvalPolicy: ApprovalPolicy.runDangerousToolsWithoutApproval()`. `true` changes nothing.
   */
  approval?: boolean
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

/** The approval policy the options ask for; contradictions and the old opt-out are refused. */
function createAgentPolicy(options: AgentOptions): ApprovalPolicy {
  const approval = options.approval as Object | undefined
  if (approval !== undefined && approval !== true) {
    throw ConfigCheck.invalid('createAgent: approval: ' + (approval === false ? 'false no longer turns approvals off; ' +
      'to run dangerous tools without asking anyone, pass approvalPolicy: ApprovalPolicy.runDangerousToolsWithoutApproval()' :
      'must be true or absent'))
  }
  const sensitive = options.sensitive as Object | undefined
  if (sensitive !== undefined && typeof sensitive !== 'boolean') {
    throw ConfigCheck.invalid('createAgent: sensitive must be a boolean')
  }
  const given = options.approvalPolicy as Object | undefined
  if (given === undefined) {
    return sensitive === true ? ApprovalPolicy.askForSensitiveToo() : ApprovalPolicy.standard()
  }
  if (!(given instanceof ApprovalPolicy)) {
    throw ConfigCheck.invalid('createAgent: approvalPolicy must be an ApprovalPolicy')
  }
  if (sensitive === true) {
    throw ConfigCheck.invalid('createAgent: give sensitive: true or an approvalPolicy, not both ' +
      '(ApprovalPolicy.askForSensitiveToo() asks for sensitive tools)')
  }
  return given as ApprovalPolicy
}

/**
 * A runtime with safe defaults in one call: your hooks, then the runtime's approval policy for
 * dangerous tools, loop detection with warn-then-stop, your storage, context compaction when the model's
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
  config.approvalPolicy = createAgentPolicy(options)
  const hooks: AgentHook[] = options.hooks !== undefined ? options.hooks.slice() : []
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
