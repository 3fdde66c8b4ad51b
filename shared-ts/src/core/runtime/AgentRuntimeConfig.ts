import { ApprovalPolicy } from '../approvals/ApprovalPolicy'
import { AppGrantStore } from '../approvals/ApprovalGrants'
import { GrantMatcher } from '../approvals/GrantMatcher'
import { AgentController } from '../controller/AgentController'
import { CompactionOptions } from '../context/CompactionOptions'
import { AgentHookPipeline } from '../hook/AgentHookPipeline'
import { LoopDetectorPort } from '../loop/LoopDetectorPort'
import { ModelProvider } from '../provider/ModelProvider'
import { OutputSchema } from '../output/OutputSchema'
import { StateStorage } from '../storage/StateStorage'
import { StorageGrantStore } from '../storage/StorageGrantStore'
import { Clock, SystemClock } from '../transport/Clock'
import { ToolRegistry } from '../tools/ToolRegistry'
import { ConfigCheck } from '../util/ConfigCheck'
import { SamplingPolicy } from '../elicitation/SamplingPolicy'

/** Everything an AgentRuntime is built from. Only `sessionId` and `provider` are required. */
export class AgentRuntimeConfig {
  readonly sessionId: string
  readonly provider: ModelProvider
  tools: ToolRegistry = new ToolRegistry()
  hooks: AgentHookPipeline = new AgentHookPipeline()
  /**
   * The runtime's approval gate, applied after every beforeToolCall hook: by default a dangerous
   * tool waits for the user's approval. `ApprovalPolicy.askForSensitiveToo()` asks for sensitive
   * tools as well; `ApprovalPolicy.runDangerousToolsWithoutApproval()` is the opt-out for headless jobs.
   */
  approvalPolicy: ApprovalPolicy = ApprovalPolicy.standard()
  /**
   * What an MCP server's `sampling/createMessage` gets (docs/mcp.md): `ask` the user (default), `allow`, `deny`.
   * Allowed or asked, it runs on this runtime's provider through the model hooks, at most maxTurns per run.
   */
  samplingPolicy: SamplingPolicy = SamplingPolicy.ask
  /** Without storage the session lives in memory only (and nothing survives a restart). */
  storage?: StateStorage
  controller: AgentController = new AgentController()
  systemPrompt: string = ''
  /** Provider model id; empty uses the provider's default. */
  model: string = ''
  /** Thinking on or off for every model call (each provider maps it to its vendor's switch); undefined: the vendor's default. */
  thinking?: boolean
  maxTurns: number = 25
  /** How often afterModelCall may ask for a retry within one turn. */
  maxModelRetries: number = 2
  /**
   * Bound for every decision-hook call in ms (0 disables). Precedence: this value when set, else
   * the one given to the pipeline (`new AgentHookPipeline(hooks, ms)` or its setter), else 30 s.
   * Setting both to different values is an invalid_config error when the runtime is built.
   */
  hookTimeoutMs?: number
  /** Bound for every tool execution in ms (0 disables); same precedence with `tools`, default 60 s. */
  toolTimeoutMs?: number
  /**
   * How many concurrent tool calls of one batch may run at once (docs/tools.md); 1 runs every call
   * alone. Only tools whose definition says `concurrent` overlap.
   */
  maxConcurrentTools: number = 4
  /** Adds the reserved `submit_plan` tool: the model must have its plan approved first. */
  planMode: boolean = false
  loopDetector?: LoopDetectorPort
  /** The runtime's time source: the loop detector gets each tool call's time from it. */
  clock: Clock = SystemClock.instance
  /**
   * How long a frozen approval batch waits for the user, in ms from when it froze (0 or absent: no
   * deadline). Past it, each undecided item resolves as denied (channel `expiry`), with a reason the
   * model sees — also when the deadline passed while the app was not running (checked on restore).
   */
  approvalDeadlineMs?: number
  /** Per-tool deadlines in ms, by tool name: they replace `approvalDeadlineMs` for that tool's items. */
  toolApprovalDeadlineMs: Record<string, number> = {}
  /** The argument predicates remembered decisions may name (docs/approvals.md). */
  grantMatchers: GrantMatcher[] = []
  /** Where "always allow / deny for this app" grants live (e.g. `new StorageGrantStore(storage)`); absent: session grants only. */
  appGrants?: AppGrantStore
  /**
   * About how many characters of calls and texts the session's decision log (`listDecisions()`) keeps;
   * older decisions are dropped first. It is part of the stored state header, written with every save:
   * keep header + log within the storage's value limit (HarmonyOS preferences on API 9-11: 8192 bytes).
   */
  decisionLogChars: number = 4096
  /** Lets an approval with edits replace the tool name too (off: only the arguments can be edited). */
  allowToolRenameOnApproval: boolean = false
  /** Continue the run automatically once the last approval of a batch (or the plan) is decided. */
  autoResume: boolean = true
  /**
   * Context compaction for long sessions (docs/compaction.md); absent: every request sends the whole
   * history. Needs a context window, here or from the provider.
   */
  compaction?: CompactionOptions
  /**
   * The shape of the run's final answer (docs/structured-output.md): it must be JSON valid against this
   * schema, `RunOutcome.output` carries it parsed. Asked of the vendor as its wire profile says, written
   * into the system prompt otherwise, always checked here. Absent: a free-text answer.
   */
  outputSchema?: OutputSchema
  /** Repair turns a run may have for invalid final answers before it fails with output_invalid. */
  maxOutputRepairs: number = 2
  /** Publish `output.partial` (OutputPartialEvent: the parsed prefix of the answer) while it streams. */
  partialOutput: boolean = false
  /** Text injected when the loop detector first fires. */
  loopWarning: string = 'You appear to be repeating the same actions without progress. ' +
    'Stop repeating them: change your approach or give your final answer.'

  constructor(sessionId: string, provider: ModelProvider) {
    this.sessionId = sessionId
    this.provider = provider
  }

  /**
   * Checks every setting and decides each timeout in one place (see `hookTimeoutMs`); the runtime
   * calls it once when it is built. Throws invalid_config naming the setting.
   */
  settle(): void {
    ConfigCheck.text(this.sessionId, 'sessionId', 1, 256)
    ConfigCheck.implementing(this.provider, ['streamModel'], 'provider (a ModelProvider)')
    if (!(this.tools instanceof ToolRegistry)) {
      throw ConfigCheck.invalid(`tools must be a ToolRegistry; got ${ConfigCheck.show(this.tools)}`)
    }
    if (!(this.hooks instanceof AgentHookPipeline)) {
      throw ConfigCheck.invalid(`hooks must be an AgentHookPipeline; got ${ConfigCheck.show(this.hooks)}`)
    }
    if (!(this.controller instanceof AgentController)) {
      throw ConfigCheck.invalid(`controller must be an AgentController; got ${ConfigCheck.show(this.controller)}`)
    }
    if (this.storage !== undefined) {
      ConfigCheck.implementing(this.storage, ['load', 'save', 'markNotResumable', 'delete'], 'storage (a StateStorage, or absent)')
    }
    if (this.loopDetector !== undefined) {
      ConfigCheck.implementing(this.loopDetector, ['recordToolResult', 'recordChunk', 'afterTurn', 'reset'],
        'loopDetector (a LoopDetectorPort, or absent)')
    }
    ConfigCheck.implementing(this.clock, ['now'], 'clock (a Clock)')
    if (this.compaction !== undefined && !(this.compaction instanceof CompactionOptions)) {
      throw ConfigCheck.invalid(`compaction must be a CompactionOptions or absent; got ${ConfigCheck.show(this.compaction)}`)
    }
    ConfigCheck.text(this.systemPrompt, 'systemPrompt')
    ConfigCheck.text(this.model, 'model', 0, 256)
    if (this.thinking !== undefined) {
      ConfigCheck.bool(this.thinking, 'thinking')
    }
    ConfigCheck.bool(this.planMode, 'planMode')
    ConfigCheck.bool(this.autoResume, 'autoResume')
    if (this.outputSchema !== undefined && !(this.outputSchema instanceof OutputSchema)) {
      throw ConfigCheck.invalid(`outputSchema must be an OutputSchema (OutputSchema.fromJson(schema)) or absent; got ` +
        ConfigCheck.show(this.outputSchema))
    }
    ConfigCheck.count(this.maxOutputRepairs, 0, 'maxOutputRepairs', 100)
    ConfigCheck.bool(this.partialOutput, 'partialOutput')
    ConfigCheck.text(this.loopWarning, 'loopWarning', 1, 10000)
    if (!(this.approvalPolicy instanceof ApprovalPolicy)) {
      // Plain JavaScript can put anything here: nothing but a policy object decides what runs unasked.
      throw ConfigCheck.invalid('approvalPolicy must be an ApprovalPolicy (ApprovalPolicy.standard(), ' +
        'askForSensitiveToo() or runDangerousToolsWithoutApproval())')
    }
    ConfigCheck.count(this.maxTurns, 1, 'maxTurns')
    ConfigCheck.count(this.maxConcurrentTools, 1, 'maxConcurrentTools', 256)
    this.checkApprovals()
    if (this.samplingPolicy !== SamplingPolicy.ask && this.samplingPolicy !== SamplingPolicy.allow &&
      this.samplingPolicy !== SamplingPolicy.deny) {
      throw ConfigCheck.invalid('samplingPolicy must be SamplingPolicy.ask, allow or deny')
    }
    ConfigCheck.count(this.maxModelRetries, 0, 'maxModelRetries')
    const hookMs = this.hookTimeoutMs
    if (hookMs !== undefined) {
      ConfigCheck.timeoutMs(hookMs, 'hookTimeoutMs')
      if (this.hooks.hasExplicitTimeout && this.hooks.hookTimeoutMs !== hookMs) {
        throw ConfigCheck.invalid(`The hook timeout is set twice: ${this.hooks.hookTimeoutMs} ms on the pipeline ` +
          `and hookTimeoutMs ${hookMs} ms in the config; set it in one place`)
      }
      this.hooks.hookTimeoutMs = hookMs
    }
    const compaction = this.compaction
    if (compaction !== undefined) {
      compaction.check()
      const window = this.provider.contextWindow
      const reserve = this.provider.outputReserve
      compaction.budgetFor(window !== undefined ? window : 0, reserve !== undefined ? reserve : 0)
    }
    const toolMs = this.toolTimeoutMs
    if (toolMs !== undefined) {
      ConfigCheck.timeoutMs(toolMs, 'toolTimeoutMs')
      if (this.tools.hasExplicitTimeout && this.tools.timeoutMs !== toolMs) {
        throw ConfigCheck.invalid(`The tool timeout is set twice: ${this.tools.timeoutMs} ms on the registry ` +
          `and toolTimeoutMs ${toolMs} ms in the config; set it in one place`)
      }
      this.tools.timeoutMs = toolMs
    }
  }

  /** The approval records' settings: deadlines, matchers, the app grant store (docs/approvals.md). */
  private checkApprovals(): void {
    if (this.approvalDeadlineMs !== undefined) {
      ConfigCheck.timeoutMs(this.approvalDeadlineMs, 'approvalDeadlineMs')
    }
    const perTool = this.toolApprovalDeadlineMs as Object
    if (perTool === null || typeof perTool !== 'object' || perTool instanceof Array) {
      throw ConfigCheck.invalid('toolApprovalDeadlineMs must be an object of tool names to deadlines in ms')
    }
    const names = Object.keys(this.toolApprovalDeadlineMs)
    for (let i = 0; i < names.length; i++) {
      ConfigCheck.timeoutMs(this.toolApprovalDeadlineMs[names[i]], `toolApprovalDeadlineMs.${names[i].slice(0, 64)}`)
    }
    if (!(this.grantMatchers instanceof Array)) {
      throw ConfigCheck.invalid('grantMatchers must be an array of GrantMatcher')
    }
    const seen: string[] = []
    for (let i = 0; i < this.grantMatchers.length; i++) {
      const m = this.grantMatchers[i]
      ConfigCheck.implementing(m, ['matches'], `grantMatchers[${i}] (a GrantMatcher)`)
      ConfigCheck.text(m.name, `grantMatchers[${i}].name`, 1, 128)
      if (seen.indexOf(m.name) >= 0) {
        throw ConfigCheck.invalid(`grantMatchers: two matchers are named ${JSON.stringify(m.name)}`)
      }
      seen.push(m.name)
    }
    if (this.appGrants !== undefined) {
      ConfigCheck.implementing(this.appGrants, ['load', 'update'], 'appGrants (an AppGrantStore, or absent)')
      if (this.appGrants instanceof StorageGrantStore && (this.appGrants as StorageGrantStore).key === this.sessionId) {
        throw ConfigCheck.invalid(`sessionId '${this.sessionId.slice(0, 64)}' is the session the app grants are kept in`)
      }
    }
    ConfigCheck.bool(this.allowToolRenameOnApproval, 'allowToolRenameOnApproval')
    ConfigCheck.count(this.decisionLogChars, 0, 'decisionLogChars', 1048576)
  }
}
