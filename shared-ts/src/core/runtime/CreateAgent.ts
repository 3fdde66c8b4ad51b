import { ApprovalPolicy } from '../approvals/ApprovalPolicy'
import { AppGrantStore } from '../approvals/ApprovalGrants'
import { GrantMatcher } from '../approvals/GrantMatcher'
import { AgentController } from '../controller/AgentController'
import { ConfigCheck } from '../util/ConfigCheck'
import { AgentHook } from '../hook/AgentHook'
import { CompactionOptions } from '../context/CompactionOptions'
import { AgentHookPipeline } from '../hook/AgentHookPipeline'
import { LoopDetector } from '../loop/LoopDetector'
import { LoopDetectorOptions } from '../loop/LoopDetectorOptions'
import { ModelProvider } from '../provider/ModelProvider'
import { OutputSchema } from '../output/OutputSchema'
import { StateStorage } from '../storage/StateStorage'
import { AgentTool } from '../tools/AgentTool'
import { ToolRegistry } from '../tools/ToolRegistry'
import { AgentRuntime } from './AgentRuntime'
import { AgentRuntimeConfig } from './AgentRuntimeConfig'
import { SamplingPolicy } from '../elicitation/SamplingPolicy'

/**
 * Everything `createAgent` needs; only `sessionId` and `model` are required. An interface (not a
 * class) so an object literal works in TypeScript and in ArkTS alike.
 */
export interface AgentOptions {
  /** The session's id (1 to 256 characters): the key its state is stored and loaded under. */
  sessionId: string
  /** The provider every model call goes through (a known `contextWindow` turns compaction on by default). */
  model: ModelProvider
  /** Tools registered, in order, in the agent's registry (`registry`, or a new one). */
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
  /** Options for the loop detector (default `new LoopDetectorOptions()`); refused with `loopDetection: false`. */
  loopOptions?: LoopDetectorOptions
  /** Your system prompt, sent with every request (default none; an output schema adds its instruction). */
  systemPrompt?: string
  /** Most model turns per run (default 25, at least 1); past it the run fails with `max_turns`. */
  maxTurns?: number
  /** Bound of one tool call (the registry's default otherwise). */
  toolTimeoutMs?: number
  /**
   * Context compaction (docs/compaction.md): on by default when the model's context window is known
   * (a preset's provider); `false` turns it off; options tune it (or name the window).
   */
  compaction?: CompactionOptions | boolean
  /**
   * The controller to use (made beforehand, so an MCP client can take `controller.serverRequests` as its
   * elicitation or sampling handler before the agent exists); a new one otherwise.
   */
  controller?: AgentController
  /** What MCP servers' sampling requests get (default SamplingPolicy.ask: the user decides; docs/mcp.md). */
  samplingPolicy?: SamplingPolicy
  /**
   * The shape of the final answer (docs/structured-output.md): an OutputSchema, or a JSON Schema object
   * (compiled as `OutputSchema.fromJson(schema)`, named `final_answer`). `RunOutcome.output` carries the answer.
   */
  outputSchema?: OutputSchema | Record<string, Object>
  /** Repair turns for invalid final answers (default 2). */
  outputRepairs?: number
  /** Publish `output.partial` views of the answer while it streams (default false). */
  partialOutput?: boolean
  /** How long a frozen approval batch waits, in ms (docs/approvals.md); past it the items are denied. Default: no deadline. */
  approvalDeadlineMs?: number
  /** Per-tool approval deadlines in ms, by tool name (0: none for that tool). */
  toolApprovalDeadlineMs?: Record<string, number>
  /** Argument predicates remembered decisions may name (e.g. `new PathPrefixMatcher('path-prefix', 'path')`). */
  grantMatchers?: GrantMatcher[]
  /** Where "always, for the app" decisions live (e.g. `new StorageGrantStore(storage)`); default: session grants only. */
  appGrants?: AppGrantStore
  /** Lets an approval with edits replace the tool name too (default false). */
  allowToolRenameOnApproval?: boolean
  /** How many concurrent tool calls of one batch may run at once (default 4; 1: every call alone; docs/tools.md). */
  maxConcurrentTools?: number
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

const AGENT_OPTION_NAMES: string[] = ['sessionId', 'model', 'tools', 'registry', 'hooks', 'storage', 'approvalPolicy',
  'sensitive', 'approval', 'loopDetection', 'loopOptions', 'systemPrompt', 'maxTurns', 'toolTimeoutMs', 'compaction',
  'controller', 'samplingPolicy',
  'outputSchema', 'outputRepairs', 'partialOutput', 'approvalDeadlineMs', 'toolApprovalDeadlineMs', 'grantMatchers',
  'appGrants', 'allowToolRenameOnApproval', 'maxConcurrentTools']

/**
 * The options' shape, checked before anything is built: from plain JavaScript (or a cast) a
 * misspelt name such as `approvalPolicyy` would otherwise be ignored and its safety setting lost.
 * The values themselves are checked where they are used (the runtime config, the registry, the pipeline).
 */
function checkAgentOptions(options: AgentOptions): void {
  if (options === undefined || options === null || typeof options !== 'object') {
    throw ConfigCheck.invalid(`createAgent needs an options object; got ${ConfigCheck.show(options)}`)
  }
  ConfigCheck.knownNames(options as Object, AGENT_OPTION_NAMES, 'createAgent')
  const tools = options.tools as Object | undefined
  if (tools !== undefined && !(tools instanceof Array)) {
    throw ConfigCheck.invalid(`createAgent: tools must be an array of AgentTool; got ${ConfigCheck.show(tools)}`)
  }
  const hooks = options.hooks as Object | undefined
  if (hooks !== undefined && !(hooks instanceof Array)) {
    throw ConfigCheck.invalid(`createAgent: hooks must be an array of AgentHook; got ${ConfigCheck.show(hooks)}`)
  }
  const registry = options.registry as Object | undefined
  if (registry !== undefined && !(registry instanceof ToolRegistry)) {
    throw ConfigCheck.invalid(`createAgent: registry must be a ToolRegistry; got ${ConfigCheck.show(registry)}`)
  }
  const loopDetection = options.loopDetection as Object | undefined
  if (loopDetection !== undefined && typeof loopDetection !== 'boolean') {
    throw ConfigCheck.invalid(`createAgent: loopDetection must be true or false; got ${ConfigCheck.show(loopDetection)}`)
  }
  const loopOptions = options.loopOptions as Object | undefined
  if (loopOptions !== undefined && !(loopOptions instanceof LoopDetectorOptions)) {
    throw ConfigCheck.invalid(`createAgent: loopOptions must be a LoopDetectorOptions; got ${ConfigCheck.show(loopOptions)}`)
  }
  if (loopOptions !== undefined && options.loopDetection === false) {
    throw ConfigCheck.invalid('createAgent: loopOptions given with loopDetection: false; give one or the other')
  }
  const compaction = options.compaction as Object | undefined
  if (compaction !== undefined && typeof compaction !== 'boolean' && !(compaction instanceof CompactionOptions)) {
    throw ConfigCheck.invalid(`createAgent: compaction must be true, false or a CompactionOptions; got ${ConfigCheck.show(compaction)}`)
  }
  if (options.maxTurns !== undefined) {
    ConfigCheck.count(options.maxTurns, 1, 'createAgent: maxTurns')
  }
  if (options.systemPrompt !== undefined) {
    ConfigCheck.text(options.systemPrompt, 'createAgent: systemPrompt')
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

/** The approval records' options (docs/approvals.md); their values are checked by the runtime config. */
function applyApprovalOptions(config: AgentRuntimeConfig, options: AgentOptions): void {
  config.approvalDeadlineMs = options.approvalDeadlineMs
  if (options.toolApprovalDeadlineMs !== undefined) {
    config.toolApprovalDeadlineMs = options.toolApprovalDeadlineMs
  }
  if (options.grantMatchers !== undefined) {
    config.grantMatchers = options.grantMatchers
  }
  config.appGrants = options.appGrants
  if (options.allowToolRenameOnApproval !== undefined) {
    config.allowToolRenameOnApproval = options.allowToolRenameOnApproval
  }
}

/**
 * A runtime with safe defaults in one call: your hooks, then the runtime's approval policy for
 * dangerous tools, loop detection with warn-then-stop, your storage, context compaction when the model's
 * window is known. The explicit classes
 * (AgentRuntimeConfig, AgentHookPipeline, ToolRegistry) remain for anything else.
 */
export function createAgent(options: AgentOptions): Agent {
  checkAgentOptions(options)
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
  if (options.maxConcurrentTools !== undefined) {
    config.maxConcurrentTools = options.maxConcurrentTools
  }
  if (options.controller !== undefined) {
    config.controller = options.controller
  }
  if (options.samplingPolicy !== undefined) {
    config.samplingPolicy = options.samplingPolicy
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
  const output = options.outputSchema
  if (output !== undefined) {
    config.outputSchema = output instanceof OutputSchema ? output : OutputSchema.fromJson(output)
  }
  if (options.outputRepairs !== undefined) {
    config.maxOutputRepairs = options.outputRepairs
  }
  if (options.partialOutput !== undefined) {
    config.partialOutput = options.partialOutput
  }
  applyApprovalOptions(config, options)
  return new Agent(new AgentRuntime(config), registry)
}
