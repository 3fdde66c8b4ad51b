import { ArkAgentError } from '../errors/ArkAgentError'

/** What the user is asked: input for an MCP server (a form), or consent to a server's sampling request. */
export enum ElicitationKind {
  input = 'input',
  sampling = 'sampling'
}

/** Where an elicitation stands: pending, or how it was answered (MCP's three actions). */
export enum ElicitationAction {
  pending = 'pending',
  accept = 'accept',
  decline = 'decline',
  cancel = 'cancel'
}

/** Who closed an elicitation. */
export class ElicitationClosedBy {
  /** The user answered through the controller. */
  static readonly user: string = 'user'
  /** The server's request ended before an answer (the tool call's timeout, the run was cancelled). */
  static readonly ended: string = 'ended'
  /** The app stopped while it was pending; restore() closed it as cancel (the server's request died with the process). */
  static readonly restore: string = 'restore'
}

/**
 * A question an MCP server put to the user while a tool call ran (`elicitation/create`), or its request
 * to use the model (`sampling/createMessage`) waiting for the user's consent. Pure data, persisted in the
 * session state before anyone is shown it. The user's answer content is not stored: it goes to the server.
 */
export class PendingElicitation {
  readonly elicitationId: string
  readonly runId: string
  readonly kind: ElicitationKind
  /** The server's name (the tool prefix the app gave it). */
  readonly server: string
  /** The server's message (input), or the sampling request as text (sampling); secrets removed. */
  readonly message: string
  /** The schema the answer must match, as JSON text (input); '' for sampling. */
  readonly requestedSchemaJson: string
  /** The tool call during which the server asked ('' when not known). */
  readonly toolCallId: string
  readonly createdAtMs: number
  action: ElicitationAction
  decidedAtMs?: number
  /** ElicitationClosedBy: '' while pending. */
  closedBy: string = ''
  /** A decline's reason, or why it closed without the user. */
  reason?: string

  constructor(elicitationId: string, runId: string, kind: ElicitationKind, server: string, message: string,
    requestedSchemaJson: string, toolCallId: string, createdAtMs: number,
    action: ElicitationAction = ElicitationAction.pending) {
    this.elicitationId = elicitationId
    this.runId = runId
    this.kind = kind
    this.server = server
    this.message = message
    this.requestedSchemaJson = requestedSchemaJson
    this.toolCallId = toolCallId
    this.createdAtMs = createdAtMs
    this.action = action
  }

  isPending(): boolean {
    return this.action === ElicitationAction.pending
  }

  /** The requested schema as an object (a form to render), or undefined for sampling. */
  requestedSchema(): Record<string, Object> | undefined {
    if (this.requestedSchemaJson.length === 0) {
      return undefined
    }
    return JSON.parse(this.requestedSchemaJson) as Record<string, Object>
  }

  clone(): PendingElicitation {
    const copy = new PendingElicitation(this.elicitationId, this.runId, this.kind, this.server, this.message,
      this.requestedSchemaJson, this.toolCallId, this.createdAtMs, this.action)
    copy.decidedAtMs = this.decidedAtMs
    copy.closedBy = this.closedBy
    copy.reason = this.reason
    return copy
  }
}

/** What an answer did. `ok` with the current action also for a repeated answer (the first one wins). */
export class ElicitationDecisionResult {
  readonly ok: boolean
  readonly elicitationId: string
  readonly action: string
  readonly error?: ArkAgentError

  private constructor(ok: boolean, elicitationId: string, action: string, error?: ArkAgentError) {
    this.ok = ok
    this.elicitationId = elicitationId
    this.action = action
    this.error = error
  }

  static success(elicitationId: string, action: string): ElicitationDecisionResult {
    return new ElicitationDecisionResult(true, elicitationId, action)
  }

  static failure(elicitationId: string, error: ArkAgentError): ElicitationDecisionResult {
    return new ElicitationDecisionResult(false, elicitationId, 'error', error)
  }
}
