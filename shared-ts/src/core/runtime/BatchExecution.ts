import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { ToolAfterEvent, ToolBeforeEvent } from '../events/AgentEvents'
import { ToolResultHookContext } from '../hook/HookContexts'
import { ToolResultHookAction } from '../hook/HookResults'
import { ToolCall } from '../model/ToolCall'
import { ToolConcurrency, ToolDefinition } from '../model/ToolDefinition'
import { ToolResult } from '../model/ToolResult'
import { Redactor } from '../redaction/Redactor'
import { ToolBatchEntry, ToolBatchProgress } from '../state/ToolBatchProgress'
import { ToolAdmission } from '../tools/ToolRegistry'
import { CancellationSource, CancellationToken } from '../util/Cancellation'
import { ApprovalLog } from './ApprovalLog'
import { ModelTurn } from './ModelTurn'
import { RunContext } from './RunContext'
import { RuntimeServices } from './RuntimeServices'
import { PersistReason, StatePersister } from './StatePersister'
import { BatchOutcome } from './BatchOutcome'

/** What a halted execution gives the calls it never started. */
enum Halt {
  none = 0,
  /** An afterToolCall hook stopped the run: 'Not executed: a hook stopped the run'. */
  stop = 1,
  /** Cancellation, a failed write or a failed hook: left without a result (closed out by whoever ends the run). */
  leave = 2,
  /** An afterToolCall hook aborted the run: 'Not executed: a hook aborted the run'. */
  abort = 3
}

/**
 * One execution of a batch's remaining calls (docs/tools.md). Calls start in model order; a call of a
 * `concurrent` tool may start while earlier concurrent calls still run — at most `maxConcurrentTools`
 * at once and at most its group's limit — while a `serial` call runs alone. Each call's started mark
 * is written before it starts (one write for the calls that start together). Everything else is in
 * model order whatever the timing: afterToolCall hooks (one at a time), results, `tool.after` events,
 * the loop detector. A stop, abort, cancellation, failed write or failed hook starts nothing new; the
 * calls already running are waited for (after a failed hook, cancelled first) before the batch ends.
 * A call that finishes after the run was cancelled may be recorded as interrupted.
 */
export class BatchExecution {
  private readonly s: RuntimeServices
  private readonly persister: StatePersister
  private readonly run: RunContext
  private readonly entries: ToolBatchEntry[]
  private readonly admit: (entry: ToolBatchEntry) => ToolAdmission
  private readonly outcome: BatchOutcome = new BatchOutcome()
  /** By position: started by this execution; the tool's raw result once it settled; it rejected. */
  private readonly startedHere: boolean[] = []
  private readonly raw: (ToolResult | undefined)[] = []
  private readonly rejected: boolean[] = []
  private readonly inFlight: Map<number, Promise<void>> = new Map<number, Promise<void>>()
  private readonly groups: Map<string, number> = new Map<string, number>()
  private serialInFlight: boolean = false
  private next: number = 0
  private cursor: number = 0
  private halt: Halt = Halt.none
  private failure?: ArkAgentError
  /** What the calls of this batch run with: the run's token, also cancelled when the batch fails. */
  private readonly calls: CancellationSource

  constructor(services: RuntimeServices, persister: StatePersister, run: RunContext, batch: ToolBatchProgress,
    admit: (entry: ToolBatchEntry) => ToolAdmission) {
    this.s = services
    this.persister = persister
    this.run = run
    this.entries = batch.entries
    this.admit = admit
    this.calls = CancellationSource.linked([run.token])
    for (let i = 0; i < this.entries.length; i++) {
      this.startedHere.push(false)
      this.raw.push(undefined)
      this.rejected.push(false)
    }
  }

  async execute(): Promise<BatchOutcome> {
    try {
      return await this.executeAll()
    } finally {
      this.calls.dispose()
    }
  }

  private async executeAll(): Promise<BatchOutcome> {
    let idle = 0
    while (this.cursor < this.entries.length) {
      if (await this.advance() || (this.halt === Halt.none && await this.startNext())) {
        idle = 0
        continue
      }
      if (this.inFlight.size > 0) {
        idle = 0
        await Promise.race(Array.from(this.inFlight.values()))
        continue
      }
      // A call may have settled while advance() was awaited: look again once before giving up.
      if (++idle > 1) {
        // Unreachable: with nothing running, the call at the cursor can always start or be settled.
        throw new ArkAgentError(ErrorLayer.runtime, ErrorCodes.providerError, 'Tool batch execution made no progress',
          ErrorRetryability.never)
      }
    }
    // Nothing outlives the batch: whatever still runs (a failure halted the batch) is waited for.
    while (this.inFlight.size > 0) {
      await Promise.race(Array.from(this.inFlight.values()))
    }
    if (this.failure !== undefined) {
      throw this.failure
    }
    return this.outcome
  }

  /** Settles the call at the cursor if it can be, in model order. */
  private async advance(): Promise<boolean> {
    const i = this.cursor
    const entry = this.entries[i]
    if (this.startedHere[i]) {
      if (this.raw[i] === undefined && !this.rejected[i]) {
        return false
      }
      if (!this.rejected[i]) {
        try {
          await this.afterCall(entry, this.raw[i] as ToolResult)
        } catch (e) {
          // A hook (or the loop detector) failed: the result it never passed stays out of history (the call is
          // tool_interrupted), nothing new starts, the calls still running are cancelled and waited for, and
          // the run then ends with this error — as with one call at a time.
          entry.result = undefined
          this.halted(Halt.leave, ArkAgentError.from(e as Object, ErrorLayer.runtime, ErrorCodes.hookFailed, 'afterToolCall'))
          this.calls.cancel('a hook of the batch failed')
        }
      }
      this.cursor++
      return true
    }
    if (entry.result !== undefined) {
      // Requested but never run (denied by a hook or the user, decided before execution): the loop
      // detector still sees it, so retrying a refused call is caught like any repeat.
      const detector = this.s.config.loopDetector
      if (!entry.started && this.halt === Halt.none && detector !== undefined && this.outcome.loopVerdict === undefined) {
        this.outcome.loopVerdict = detector.recordToolResult(entry.call, entry.result, this.s.config.clock.now())
      }
      this.cursor++
      return true
    }
    if (entry.started) {
      // Started by a process that died before its result: never run again.
      entry.result = BatchExecution.interrupted(entry.call)
      this.cursor++
      return true
    }
    if (this.halt !== Halt.none) {
      if (this.halt === Halt.stop || this.halt === Halt.abort) {
        entry.result = ToolResult.error(entry.call.id, ErrorCodes.toolInterrupted,
          `Not executed: a hook ${this.halt === Halt.stop ? 'stopped' : 'aborted'} the run`)
      }
      this.cursor++
      return true
    }
    return false
  }

  /** Starts the next calls that may start now (their marks in one mandatory write); false when none. */
  private async startNext(): Promise<boolean> {
    if (this.run.token.isCancelled) {
      this.halted(Halt.leave, CancellationToken.cancelledError(this.run.token.reason))
      return false
    }
    const registry = this.s.config.tools
    const limit = this.s.config.maxConcurrentTools
    const starting: number[] = []
    /** By position in `starting`: the group it was counted in (read with its definition, before the marks). */
    const startingGroups: string[] = []
    const counted: Map<string, number> = new Map<string, number>()
    let serial = false
    let j = this.next
    for (; j < this.entries.length && !this.serialInFlight; j++) {
      const e = this.entries[j]
      if (e.result !== undefined || e.started) {
        continue
      }
      const definition = registry.definition(e.call.name)
      const concurrent = limit > 1 && definition !== undefined && definition.concurrency === ToolConcurrency.concurrent
      if (!concurrent) {
        if (this.inFlight.size === 0 && starting.length === 0) {
          starting.push(j)
          startingGroups.push('')
          serial = true
          j++
        }
        break
      }
      if (this.inFlight.size + starting.length >= limit) {
        break
      }
      const group = definition !== undefined ? definition.concurrencyGroup : ''
      const groupLimit = group.length === 0 ? 0 : registry.concurrencyLimit(group) > 0 ? registry.concurrencyLimit(group) :
        (definition !== undefined ? definition.groupLimit : 0)
      const inGroup = (this.groups.get(group) ?? 0) + (counted.get(group) ?? 0)
      if (groupLimit > 0 && inGroup >= groupLimit) {
        break
      }
      counted.set(group, (counted.get(group) ?? 0) + 1)
      starting.push(j)
      startingGroups.push(group)
    }
    this.next = j
    if (starting.length === 0) {
      return false
    }
    if (!await this.mark(starting)) {
      return false
    }
    const alongside = !serial && (starting.length > 1 || this.inFlight.size > 0)
    for (let k = 0; k < starting.length; k++) {
      this.launch(starting[k], serial, alongside, startingGroups[k])
    }
    return true
  }

  /** Writes the started marks of `starting` (and the executed call of the approvals they run on) before any starts. */
  private async mark(starting: number[]): Promise<boolean> {
    const records = starting.map((i: number) => {
      const entry = this.entries[i]
      entry.started = true
      this.startedHere[i] = true
      const record = entry.approvalId !== undefined ? ApprovalLog.find(this.s.state.decisions, entry.approvalId) : undefined
      if (record !== undefined) {
        record.executedCall = Redactor.call(entry.call)
        record.executedAtMs = this.s.config.clock.now()
      }
      return record
    })
    const saved = await this.persister.persist(this.run, PersistReason.toolStarted, true)
    if (saved.ok) {
      return true
    }
    for (let k = 0; k < starting.length; k++) {
      this.entries[starting[k]].started = false
      this.startedHere[starting[k]] = false
      const record = records[k]
      if (record !== undefined) {
        record.executedCall = undefined
        record.executedAtMs = undefined
      }
    }
    const own = saved.ownError
    this.halted(Halt.leave, own !== undefined ? own : BatchExecution.saveFailed(saved.error))
    return false
  }

  private launch(i: number, serial: boolean, alongside: boolean, group: string): void {
    const entry = this.entries[i]
    const admit = this.admit(entry)
    // Scheduled by the definition read before the marks were written: a tool that changed how it may run
    // since (no longer concurrent, another group) is not run now, as it would break the limits.
    const admitHere = (definition: ToolDefinition): string => {
      if (!serial && (definition.concurrency !== ToolConcurrency.concurrent || definition.concurrencyGroup !== group)) {
        return `'${entry.call.name}' changed how it may run while it was being started: not run (the model may call it again)`
      }
      return admit(definition)
    }
    this.s.publish(this.run, new ToolBeforeEvent(this.s.sessionId, this.run.runId, entry.call, alongside))
    if (serial) {
      this.serialInFlight = true
    }
    if (group.length > 0) {
      this.groups.set(group, (this.groups.get(group) ?? 0) + 1)
    }
    const settled = (): void => {
      this.inFlight.delete(i)
      if (serial) {
        this.serialInFlight = false
      }
      if (group.length > 0) {
        this.groups.set(group, (this.groups.get(group) ?? 1) - 1)
      }
    }
    const running = this.s.config.tools.execute(entry.call, this.s.sessionId, this.run.runId, this.calls.token,
      admitHere).then((result: ToolResult): void => {
      this.raw[i] = result
      settled()
    }, (e: Object): void => {
      // Only cancellation propagates from the registry (the run's, or the batch's after a failure): the call
      // stays started without a result, and the run ends as interrupted there.
      this.rejected[i] = true
      this.halted(Halt.leave, ArkAgentError.from(e, ErrorLayer.runtime, ErrorCodes.cancelled, 'Tool execution'))
      settled()
    })
    this.inFlight.set(i, running)
  }

  /** afterToolCall for one result, in model order: its rewrite, injections, tool.after, the loop detector, stop / abort. */
  private async afterCall(entry: ToolBatchEntry, raw: ToolResult): Promise<void> {
    let result = raw
    const after = await this.s.hooks.afterToolCall(
      new ToolResultHookContext(this.s.sessionId, this.run.runId, this.s.view(), entry.call, result))
    if (after.action === ToolResultHookAction.abort) {
      entry.result = result
      if (this.outcome.abortError === undefined) {
        this.outcome.abortError = ModelTurn.abortError('afterToolCall', after.reason, after.error)
      }
      this.halted(Halt.abort, undefined)
      this.s.publish(this.run, new ToolAfterEvent(this.s.sessionId, this.run.runId, entry.call, result))
      return
    }
    if (after.result !== undefined) {
      // A hook's rewrite is stored, published and sent to the model like the tool's own result.
      result = Redactor.toolResult(after.result)
    }
    entry.result = result
    for (let j = 0; j < after.injectedMessages.length; j++) {
      this.outcome.injected.push(Redactor.message(after.injectedMessages[j]))
    }
    this.s.publish(this.run, new ToolAfterEvent(this.s.sessionId, this.run.runId, entry.call, result))
    const detector = this.s.config.loopDetector
    if (detector !== undefined && this.outcome.loopVerdict === undefined) {
      this.outcome.loopVerdict = detector.recordToolResult(entry.call, result, this.s.config.clock.now())
    }
    if (after.action === ToolResultHookAction.stop && !this.outcome.stop && this.outcome.abortError === undefined) {
      this.outcome.stop = true
      this.outcome.stopReason = after.reason ?? 'stopped by afterToolCall'
      this.halted(Halt.stop, undefined)
    }
  }

  /** Nothing new starts from now on; the first failure is what the execution throws once all settled. */
  private halted(how: Halt, failure: ArkAgentError | undefined): void {
    if (this.halt === Halt.none) {
      this.halt = how
    }
    if (failure !== undefined && this.failure === undefined) {
      this.failure = failure
    }
  }

  static interrupted(call: ToolCall): ToolResult {
    return ToolResult.error(call.id, ErrorCodes.toolInterrupted,
      `Tool '${call.name}' was interrupted before it reported a result; it was not run again and may have partially run`)
  }

  static saveFailed(cause?: ArkAgentError): ArkAgentError {
    return new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateSaveFailed,
      `Could not persist state before running a tool${cause !== undefined ? ': ' + cause.message : ''}`,
      ErrorRetryability.retryable)
  }
}
