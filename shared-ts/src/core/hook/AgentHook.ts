import {
  AfterRunHookContext,
  BeforeRunHookContext,
  CompactionHookContext,
  ModelCallHookContext,
  ModelChunkHookContext,
  ModelResponseHookContext,
  StatePersistenceHookContext,
  ToolCallHookContext,
  ToolResultHookContext,
  TurnCompletionHookContext
} from './HookContexts'
import {
  BeforeRunHookResult,
  CompactionHookResult,
  ModelCallHookResult,
  ModelChunkHookResult,
  ModelResponseHookResult,
  StatePersistenceHookResult,
  ToolCallHookResult,
  ToolResultHookResult,
  TurnCompletionHookResult
} from './HookResults'

/**
 * The hook SPI: extend it and override the slots you care about. Decision slots pass through by
 * default; afterPersistState, afterRun and afterCompaction only observe (their errors become diagnostics).
 * Slots you do not override are skipped by the pipeline at no cost.
 */
export class AgentHook {
  /** Shown in diagnostics and errors. */
  get hookName(): string {
    return 'AgentHook'
  }

  async beforeRun(context: BeforeRunHookContext): Promise<BeforeRunHookResult> {
    return BeforeRunHookResult.proceed(context.input)
  }

  async beforeModelCall(context: ModelCallHookContext): Promise<ModelCallHookResult> {
    return ModelCallHookResult.proceed(context.request)
  }

  async onModelChunk(context: ModelChunkHookContext): Promise<ModelChunkHookResult> {
    return ModelChunkHookResult.proceed(context.text)
  }

  async afterModelCall(context: ModelResponseHookContext): Promise<ModelResponseHookResult> {
    return ModelResponseHookResult.proceed(context.response)
  }

  async beforeToolCall(context: ToolCallHookContext): Promise<ToolCallHookResult> {
    return ToolCallHookResult.proceed(context.call)
  }

  async afterToolCall(context: ToolResultHookContext): Promise<ToolResultHookResult> {
    return ToolResultHookResult.proceed(context.result)
  }

  async onTurnCompletion(context: TurnCompletionHookContext): Promise<TurnCompletionHookResult> {
    return TurnCompletionHookResult.accept()
  }

  async beforePersistState(context: StatePersistenceHookContext): Promise<StatePersistenceHookResult> {
    return StatePersistenceHookResult.proceed()
  }

  async afterPersistState(context: StatePersistenceHookContext): Promise<void> {
  }

  async afterRun(context: AfterRunHookContext): Promise<void> {
  }

  /** Before a compaction takes effect: rewrite its summary, pin messages, skip it, or abort the run. */
  async beforeCompaction(context: CompactionHookContext): Promise<CompactionHookResult> {
    return CompactionHookResult.proceed()
  }

  /** After a compaction was stored (observer: errors become diagnostics). */
  async afterCompaction(context: CompactionHookContext): Promise<void> {
  }
}
