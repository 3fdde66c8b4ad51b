import { JsonFields } from './JsonFields'
import { ElicitationAction, ElicitationKind, PendingElicitation } from './PendingElicitation'

const KINDS: string[] = ['input', 'sampling']
const ACTIONS: string[] = ['pending', 'accept', 'decline', 'cancel']
const CLOSED_BY: string[] = ['', 'user', 'ended', 'restore']

/** PendingElicitation records in the state header (key `elicitations`, written only when there are some). */
export class ElicitationCodec {
  private static readonly f: JsonFields = new JsonFields()

  static encode(items: PendingElicitation[]): Object[] {
    const out: Object[] = []
    for (let i = 0; i < items.length; i++) {
      const e = items[i]
      const o: Record<string, Object> = {
        'id': e.elicitationId, 'runId': e.runId, 'kind': e.kind, 'server': e.server, 'message': e.message,
        'schema': e.requestedSchemaJson, 'toolCallId': e.toolCallId, 'createdAtMs': e.createdAtMs, 'action': e.action,
        'closedBy': e.closedBy
      }
      if (e.decidedAtMs !== undefined) {
        o['decidedAtMs'] = e.decidedAtMs
      }
      if (e.reason !== undefined) {
        o['reason'] = e.reason
      }
      out.push(o)
    }
    return out
  }

  static decode(items: Object[], path: string): PendingElicitation[] {
    const f = ElicitationCodec.f
    const out: PendingElicitation[] = []
    for (let i = 0; i < items.length; i++) {
      const p = `${path}[${i}]`
      const o = f.asObject(items[i], p)
      const schema = f.str(o, 'schema', p)
      if (schema.length > 0) {
        const parsed = f.parse(schema, `${p}.schema`)
        if (parsed['type'] !== 'object') {
          throw f.fail(`${p}.schema`, 'expected an object schema')
        }
      }
      const e = new PendingElicitation(f.str(o, 'id', p), f.str(o, 'runId', p),
        f.oneOf(f.str(o, 'kind', p), KINDS, `${p}.kind`) as ElicitationKind, f.str(o, 'server', p), f.str(o, 'message', p),
        schema, f.str(o, 'toolCallId', p), f.num(o, 'createdAtMs', p),
        f.oneOf(f.str(o, 'action', p), ACTIONS, `${p}.action`) as ElicitationAction)
      e.closedBy = f.oneOf(f.str(o, 'closedBy', p), CLOSED_BY, `${p}.closedBy`)
      e.decidedAtMs = f.optNum(o, 'decidedAtMs', p)
      e.reason = f.optStr(o, 'reason', p)
      if (e.isPending() !== (e.closedBy.length === 0)) {
        throw f.fail(p, 'a pending elicitation has no closedBy, a closed one has one')
      }
      out.push(e)
    }
    return out
  }
}
