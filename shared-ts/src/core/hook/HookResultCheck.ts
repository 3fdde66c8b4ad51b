import { ArkAgentError } from '../errors/ArkAgentError'
import { AgentMessage } from '../model/AgentMessage'
import { ModelCheck, ModelProblem } from '../model/ModelCheck'
import { ModelRequest } from '../model/ModelRequest'
import { ModelResponse } from '../model/ModelResponse'
import { ToolCall } from '../model/ToolCall'
import { ToolResult } from '../model/ToolResult'
import {
  BeforeRunHookAction,
  CompactionHookAction,
  CompactionHookResult,
  BeforeRunHookResult,
  ModelCallHookAction,
  ModelCallHookResult,
  ModelChunkHookAction,
  ModelChunkHookResult,
  ModelResponseHookAction,
  ModelResponseHookResult,
  StatePersistenceHookAction,
  StatePersistenceHookResult,
  ToolCallHookAction,
  ToolCallHookResult,
  ToolResultHookAction,
  ToolResultHookResult,
  TurnCompletionHookAction,
  TurnCompletionHookResult
} from './HookResults'

/**
 * What a decision hook returns is untrusted: plain JavaScript can return a look-alike object, an
 * action its slot does not have, a rewrite of the wrong type, or values built to change between
 * reads. Each check accepts only a result of the slot's class with one of its actions, and
 * rebuilds it from checked copies (ModelCheck), so the runtime acts on exactly what was checked.
 * A failed check throws ModelProblem; the pipeline turns it into hook_failed.
 */
export class HookResultCheck {
  static beforeRun(r: BeforeRunHookResult): BeforeRunHookResult {
    HookResultCheck.instance(r instanceof BeforeRunHookResult, 'BeforeRunHookResult')
    if (r.action === BeforeRunHookAction.proceed) {
      return BeforeRunHookResult.proceed(ModelCheck.absent(r.input) ? undefined : ModelCheck.messages(r.input, 'input'))
    }
    if (r.action === BeforeRunHookAction.abort) {
      return BeforeRunHookResult.abort(HookResultCheck.reason(r.reason), HookResultCheck.error(r.error))
    }
    throw HookResultCheck.badAction(r.action)
  }

  static beforeModelCall(r: ModelCallHookResult): ModelCallHookResult {
    HookResultCheck.instance(r instanceof ModelCallHookResult, 'ModelCallHookResult')
    if (r.action === ModelCallHookAction.proceed) {
      const request: ModelRequest | undefined = r.request
      return ModelCallHookResult.proceed(ModelCheck.absent(request) ? undefined : ModelCheck.request(request, 'request'))
    }
    if (r.action === ModelCallHookAction.respond) {
      return ModelCallHookResult.respond(ModelCheck.response(r.response, 'response'))
    }
    if (r.action === ModelCallHookAction.abort) {
      return ModelCallHookResult.abort(HookResultCheck.reason(r.reason), HookResultCheck.error(r.error))
    }
    throw HookResultCheck.badAction(r.action)
  }

  /** The chunk path's check, called for every chunk of every hook: a pass-through costs no allocation. */
  static onModelChunk(r: ModelChunkHookResult): ModelChunkHookResult {
    HookResultCheck.instance(r instanceof ModelChunkHookResult, 'ModelChunkHookResult')
    const action = r.action
    if (action === ModelChunkHookAction.proceed) {
      // Each field is read once and the answer rebuilt from those reads: a getter cannot show the
      // check one value and the pipeline another. The pass-through answer allocates nothing.
      const text = r.text
      if (text === undefined || text === null) {
        return ModelChunkHookResult.proceed()
      }
      if (typeof text !== 'string') {
        throw new ModelProblem(`text: expected a string, got ${typeof text}`)
      }
      return ModelChunkHookResult.proceed(text)
    }
    if (action === ModelChunkHookAction.drop) {
      return ModelChunkHookResult.drop(HookResultCheck.reason(r.reason))
    }
    if (action === ModelChunkHookAction.abort) {
      return ModelChunkHookResult.abort(HookResultCheck.reason(r.reason), HookResultCheck.error(r.error))
    }
    throw HookResultCheck.badAction(action)
  }

  static afterModelCall(r: ModelResponseHookResult): ModelResponseHookResult {
    HookResultCheck.instance(r instanceof ModelResponseHookResult, 'ModelResponseHookResult')
    if (r.action === ModelResponseHookAction.proceed) {
      const response: ModelResponse | undefined = r.response
      return ModelResponseHookResult.proceed(ModelCheck.absent(response) ? undefined :
        ModelCheck.response(response, 'response'))
    }
    if (r.action === ModelResponseHookAction.retry) {
      return ModelResponseHookResult.retry(HookResultCheck.reason(r.reason))
    }
    if (r.action === ModelResponseHookAction.abort) {
      return ModelResponseHookResult.abort(HookResultCheck.reason(r.reason), HookResultCheck.error(r.error))
    }
    throw HookResultCheck.badAction(r.action)
  }

  static beforeToolCall(r: ToolCallHookResult): ToolCallHookResult {
    HookResultCheck.instance(r instanceof ToolCallHookResult, 'ToolCallHookResult')
    const call: ToolCall | undefined = ModelCheck.absent(r.call) ? undefined : ModelCheck.call(r.call, 'call')
    if (r.action === ToolCallHookAction.proceed) {
      return ToolCallHookResult.proceed(call)
    }
    if (r.action === ToolCallHookAction.defer) {
      return ToolCallHookResult.defer(HookResultCheck.reason(r.reason), call)
    }
    if (r.action === ToolCallHookAction.deny) {
      const synthetic: ToolResult | undefined = ModelCheck.absent(r.syntheticResult) ? undefined :
        ModelCheck.result(r.syntheticResult, 'syntheticResult')
      return ToolCallHookResult.deny(synthetic, HookResultCheck.reason(r.reason))
    }
    if (r.action === ToolCallHookAction.abort) {
      return ToolCallHookResult.abort(HookResultCheck.reason(r.reason), HookResultCheck.error(r.error))
    }
    throw HookResultCheck.badAction(r.action)
  }

  static afterToolCall(r: ToolResultHookResult): ToolResultHookResult {
    HookResultCheck.instance(r instanceof ToolResultHookResult, 'ToolResultHookResult')
    if (r.action === ToolResultHookAction.abort) {
      return ToolResultHookResult.abort(HookResultCheck.reason(r.reason), HookResultCheck.error(r.error))
    }
    const result: ToolResult | undefined = ModelCheck.absent(r.result) ? undefined : ModelCheck.result(r.result, 'result')
    const injected: AgentMessage[] = ModelCheck.messages(r.injectedMessages, 'injectedMessages')
    if (r.action === ToolResultHookAction.proceed) {
      return ToolResultHookResult.proceed(result, injected)
    }
    if (r.action === ToolResultHookAction.stop) {
      return ToolResultHookResult.stop(result, injected, HookResultCheck.reason(r.reason))
    }
    throw HookResultCheck.badAction(r.action)
  }

  static onTurnCompletion(r: TurnCompletionHookResult): TurnCompletionHookResult {
    HookResultCheck.instance(r instanceof TurnCompletionHookResult, 'TurnCompletionHookResult')
    if (r.action === TurnCompletionHookAction.accept) {
      return TurnCompletionHookResult.accept()
    }
    if (r.action === TurnCompletionHookAction.continueRun) {
      return TurnCompletionHookResult.continueRun(ModelCheck.messages(r.injectedMessages, 'injectedMessages'),
        HookResultCheck.reason(r.reason))
    }
    if (r.action === TurnCompletionHookAction.abort) {
      return TurnCompletionHookResult.abort(HookResultCheck.reason(r.reason), HookResultCheck.error(r.error))
    }
    throw HookResultCheck.badAction(r.action)
  }

  static beforePersistState(r: StatePersistenceHookResult): StatePersistenceHookResult {
    HookResultCheck.instance(r instanceof StatePersistenceHookResult, 'StatePersistenceHookResult')
    if (r.action === StatePersistenceHookAction.proceed) {
      return StatePersistenceHookResult.proceed()
    }
    if (r.action === StatePersistenceHookAction.skip) {
      return StatePersistenceHookResult.skip(HookResultCheck.reason(r.reason))
    }
    if (r.action === StatePersistenceHookAction.abort) {
      return StatePersistenceHookResult.abort(HookResultCheck.reason(r.reason), HookResultCheck.error(r.error))
    }
    throw HookResultCheck.badAction(r.action)
  }

  static beforeCompaction(r: CompactionHookResult): CompactionHookResult {
    HookResultCheck.instance(r instanceof CompactionHookResult, 'CompactionHookResult')
    if (r.action === CompactionHookAction.proceed) {
      const summary = ModelCheck.optText(r.summary, 'summary')
      const pin = r.pin
      if (!(pin instanceof Array)) {
        throw new ModelProblem('pin: expected an array of history indices')
      }
      const copy: number[] = []
      for (let i = 0; i < pin.length; i++) {
        const v: Object = pin[i]
        if (typeof v !== 'number' || !Number.isInteger(v as number)) {
          throw new ModelProblem(`pin[${i}]: expected an integer history index`)
        }
        copy.push(v as number)
      }
      return CompactionHookResult.proceed(summary, copy)
    }
    if (r.action === CompactionHookAction.skip) {
      return CompactionHookResult.skip(HookResultCheck.reason(r.reason))
    }
    if (r.action === CompactionHookAction.abort) {
      return CompactionHookResult.abort(HookResultCheck.reason(r.reason), HookResultCheck.error(r.error))
    }
    throw HookResultCheck.badAction(r.action)
  }

  private static instance(ok: boolean, expected: string): void {
    if (!ok) {
      throw new ModelProblem(`expected a ${expected} (use its static factories)`)
    }
  }

  private static reason(reason: string | undefined): string | undefined {
    return ModelCheck.optText(reason, 'reason')
  }

  private static error(error: ArkAgentError | undefined): ArkAgentError | undefined {
    if (ModelCheck.absent(error)) {
      return undefined
    }
    const known = ArkAgentError.asArkError(error)
    if (known === undefined) {
      throw new ModelProblem('error: expected an ArkAgentError')
    }
    return known
  }

  private static badAction(action: string): ModelProblem {
    return new ModelProblem(`action '${String(action).substring(0, 40)}' is not one of this slot's actions`)
  }
}
