import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { McpServerRequests } from '../mcp/McpServerRequests'
import { RunContext } from './RunContext'
import { RuntimeServices } from './RuntimeServices'
import { StatePersister } from './StatePersister'
import { Redactor } from '../redaction/Redactor'
import { SecretVault } from '../secrets/SecretVault'
import { AgentState } from '../state/AgentState'
import { CancellationToken } from '../util/Cancellation'
import { Ids } from '../util/Ids'
import { SerialQueue } from '../util/SerialQueue'
import { ElicitationRequiredEvent, ElicitationResolvedEvent } from '../events/ElicitationEvents'
import {
  ElicitationAction,
  ElicitationClosedBy,
  ElicitationDecisionResult,
  ElicitationKind,
  PendingElicitation
} from '../state/PendingElicitation'

/** Closed elicitations kept in the state (after every pending one), so a late answer gets a precise error. */
const CLOSED_MEMORY: number = 16

/** The persist reasons of elicitations (mandatory writes). */
export class ElicitationPersistReason {
  static readonly awaitingElicitation: string = 'awaiting_elicitation'
  static readonly elicitationAnswer: string = 'elicitation_answer'
  static readonly elicitationClosed: string = 'elicitation_closed'
}

/** A closed elicitation and, for an accept, the content the user gave (never stored). */
export class ElicitationOutcome {
  readonly elicitation: PendingElicitation
  readonly content?: Record<string, Object>

  constructor(elicitation: PendingElicitation, content?: Record<string, Object>) {
    this.elicitation = elicitation
    this.content = content
  }
}

type Waiter = (outcome: ElicitationOutcome) => void

/**
 * Questions from MCP servers put to the user, with the guarantees of an approval: written (mandatory)
 * before `elicitation.required` is published, answered once (the first answer wins; each answer is
 * written before it counts and before the server hears it), closed as `cancel` when the server's request
 * ends first, and closed as `cancel` by restore() when the app died while one was pending.
 */
export class ElicitationFlow {
  private readonly s: RuntimeServices
  private readonly persister: StatePersister
  private readonly decisions: SerialQueue = new SerialQueue()
  private readonly waiters: Map<string, Waiter> = new Map<string, Waiter>()

  constructor(services: RuntimeServices, persister: StatePersister) {
    this.s = services
    this.persister = persister
  }

  /**
   * Puts a question to the user and waits for the answer, or for `token` (the server's request ending: the
   * tool call's timeout, the run's cancellation), which closes it as cancel. Throws state_save_failed when
   * it cannot be written: nobody is asked what the state does not hold.
   */
  async ask(run: RunContext, kind: ElicitationKind, server: string, message: string, schemaJson: string, toolCallId: string,
    token: CancellationToken): Promise<ElicitationOutcome> {
    token.throwIfCancelled()
    const item = new PendingElicitation(Ids.next('eli'), run.runId, kind, SecretVault.redact(server), SecretVault.redact(message),
      schemaJson.length > 0 ? Redactor.jsonText(schemaJson) : '', toolCallId, Date.now())
    const answered = new Promise<ElicitationOutcome>((resolve: Waiter): void => {
      this.waiters.set(item.elicitationId, resolve)
    })
    try {
      await this.decisions.run<void>(async (): Promise<void> => {
        const list = this.s.state.elicitations
        list.push(item)
        const saved = await this.persister.persist(run, ElicitationPersistReason.awaitingElicitation, true)
        if (!saved.ok) {
          const at = list.indexOf(item)
          if (at >= 0) {
            list.splice(at, 1)
          }
          const own = saved.ownError
          throw own !== undefined ? own : new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateSaveFailed,
            `The elicitation could not be saved: ${saved.error !== undefined ? saved.error.message : 'unknown error'}`,
            ErrorRetryability.retryable)
        }
        this.s.publish(run, new ElicitationRequiredEvent(this.s.sessionId, run.runId, item.clone()))
      })
    } catch (e) {
      this.waiters.delete(item.elicitationId)
      throw e as Error
    }
    const off = token.onCancel((reason: string): void => {
      this.close(item.elicitationId, ElicitationClosedBy.ended,
        `the server's request ended before an answer${reason.length > 0 ? ' (' + reason + ')' : ''}`)
    })
    try {
      return await answered
    } finally {
      off()
      this.waiters.delete(item.elicitationId)
    }
  }

  /** Undecided elicitations, as copies. */
  pending(): PendingElicitation[] {
    const out: PendingElicitation[] = []
    const list = this.s.state.elicitations
    for (let i = 0; i < list.length; i++) {
      if (list[i].isPending()) {
        out.push(list[i].clone())
      }
    }
    return out
  }

  /** Records the user's answer; applied one at a time, each written before it counts (see ApprovalFlow.decide). */
  decide(elicitationId: string, action: ElicitationAction, content?: Record<string, Object>,
    reason?: string): Promise<ElicitationDecisionResult> {
    return this.decisions.run<ElicitationDecisionResult>(
      (): Promise<ElicitationDecisionResult> => this.decideNow(elicitationId, action, content, reason))
  }

  private async decideNow(elicitationId: string, action: ElicitationAction, content?: Record<string, Object>,
    reason?: string): Promise<ElicitationDecisionResult> {
    const id = typeof elicitationId === 'string' ? elicitationId : ''
    if (id.length === 0 || (reason !== undefined && reason !== null && typeof reason !== 'string') ||
      (action !== ElicitationAction.accept && action !== ElicitationAction.decline && action !== ElicitationAction.cancel)) {
      return ElicitationDecisionResult.failure(id, new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidInput,
        'An elicitation answer needs a string id, accept/decline/cancel and, when given, a string reason', ErrorRetryability.never))
    }
    const item = this.find(id)
    if (item === undefined) {
      return ElicitationDecisionResult.failure(id, new ArkAgentError(ErrorLayer.runtime, ErrorCodes.elicitationUnknown,
        `No elicitation has id '${id}'`, ErrorRetryability.never))
    }
    if (!item.isPending()) {
      if (item.closedBy !== ElicitationClosedBy.user) {
        return ElicitationDecisionResult.failure(id, new ArkAgentError(ErrorLayer.runtime, ErrorCodes.elicitationClosed,
          `Elicitation '${id}' was closed without an answer: ${item.reason ?? item.closedBy}`, ErrorRetryability.never))
      }
      return ElicitationDecisionResult.success(id, item.action)
    }
    let given: Record<string, Object> | undefined
    if (action === ElicitationAction.accept && item.kind === ElicitationKind.input) {
      const problem = ElicitationFlow.checkContent(item, content)
      if (problem.length > 0) {
        // Refused: the elicitation stays pending, the user can answer again.
        return ElicitationDecisionResult.failure(id, new ArkAgentError(ErrorLayer.config, ErrorCodes.elicitationInvalid,
          `The answer does not match the requested schema: ${problem}`, ErrorRetryability.afterAction))
      }
      given = JSON.parse(JSON.stringify(content)) as Record<string, Object>
    }
    item.action = action
    item.closedBy = ElicitationClosedBy.user
    item.decidedAtMs = Date.now()
    item.reason = action === ElicitationAction.decline && typeof reason === 'string' && reason.length > 0 ?
      SecretVault.redact(reason) : undefined
    const saved = await this.persister.persist(undefined, ElicitationPersistReason.elicitationAnswer, true)
    if (!saved.ok) {
      // Not durable, so not answered: the user can answer again.
      item.action = ElicitationAction.pending
      item.closedBy = ''
      item.decidedAtMs = undefined
      item.reason = undefined
      const own = saved.ownError
      return ElicitationDecisionResult.failure(id, own !== undefined && !saved.refused ? own :
        new ArkAgentError(ErrorLayer.storage, ErrorCodes.stateSaveFailed, `The answer could not be saved: ${saved.error !== undefined ?
          saved.error.message : 'unknown error'}`, ErrorRetryability.retryable))
    }
    this.settled(item, given)
    return ElicitationDecisionResult.success(id, action)
  }

  /** '' when `content` is an answer the requested schema accepts, else its problems (at most 5). */
  static checkContent(item: PendingElicitation, content?: Record<string, Object>): string {
    const value: Object | undefined = content === undefined || content === null ? new Object() : content
    if (typeof value !== 'object' || value instanceof Array) {
      return 'the content must be an object'
    }
    let text: string
    try {
      text = JSON.stringify(value)
    } catch (e) {
      return 'the content is not JSON'
    }
    const problems = McpServerRequests.requestedSchema(JSON.parse(item.requestedSchemaJson) as Object).errors(
      JSON.parse(text) as Object, 5)
    if (problems.length > 0) {
      return problems.join('; ')
    }
    // What the server would be sent must hold no secret of this app (it is never stored either).
    return SecretVault.leaks(text) ? 'the content holds a secret of this app' : ''
  }

  /** Closes a pending elicitation as cancel without the user (its request ended); best-effort write. */
  private close(elicitationId: string, closedBy: string, reason: string): void {
    this.decisions.run<void>(async (): Promise<void> => {
      const item = this.find(elicitationId)
      if (item === undefined || !item.isPending()) {
        return
      }
      item.action = ElicitationAction.cancel
      item.closedBy = closedBy
      item.reason = reason
      item.decidedAtMs = Date.now()
      // The server already gave up on it: a failed write only means a restore closes it again.
      await this.persister.persist(undefined, ElicitationPersistReason.elicitationClosed, false)
      this.settled(item, undefined)
    }).then((): void => {}, (): void => {})
  }

  /** The answer is durable: prune, tell the waiting request, publish. */
  private settled(item: PendingElicitation, content?: Record<string, Object>): void {
    ElicitationFlow.prune(this.s.state)
    const waiter = this.waiters.get(item.elicitationId)
    if (waiter !== undefined) {
      waiter(new ElicitationOutcome(item.clone(), content))
    }
    this.s.publish(this.s.currentRun, new ElicitationResolvedEvent(this.s.sessionId, item.runId, item.clone()))
  }

  private find(id: string): PendingElicitation | undefined {
    const list = this.s.state.elicitations
    for (let i = 0; i < list.length; i++) {
      if (list[i].elicitationId === id) {
        return list[i]
      }
    }
    return undefined
  }

  /** Every pending elicitation and the latest closed ones. */
  private static prune(state: AgentState): void {
    const list = state.elicitations
    let closed = 0
    for (let i = list.length - 1; i >= 0; i--) {
      if (!list[i].isPending() && ++closed > CLOSED_MEMORY) {
        list.splice(i, 1)
      }
    }
  }

  /**
   * After a restart: a pending elicitation's server request died with the process (its connection did),
   * so it can no longer be answered. Each is closed as cancel (closedBy `restore`); the tool call that was
   * waiting on it has no result and gets tool_interrupted — it is never run again by itself. Returns copies.
   */
  static closeOnRestore(state: AgentState): PendingElicitation[] {
    const out: PendingElicitation[] = []
    const list = state.elicitations
    const now = Date.now()
    for (let i = 0; i < list.length; i++) {
      const item = list[i]
      if (item.isPending()) {
        item.action = ElicitationAction.cancel
        item.closedBy = ElicitationClosedBy.restore
        item.reason = 'the app stopped before it was answered; the server\'s request ended with it'
        item.decidedAtMs = now
        out.push(item.clone())
      }
    }
    ElicitationFlow.prune(state)
    return out
  }
}
