import { AgentState } from './AgentState'
import { JsonFields } from './JsonFields'

const NAME: RegExp = /^[A-Za-z0-9_-]{1,64}$/

/**
 * The header's `output` field: the output schema the active run owes (by name, its stable id) and
 * the repair turns it has had. Written only while a run has one, so sessions without structured
 * output keep their exact bytes.
 */
export class OutputObligationCodec {
  static encode(state: AgentState, h: Record<string, Object>): void {
    if (state.outputSchema.length === 0) {
      return
    }
    const o: Record<string, Object> = { 'schema': state.outputSchema, 'repairs': state.outputRepairs }
    h['output'] = o
  }

  static decode(h: Record<string, Object>, state: AgentState, f: JsonFields): void {
    const o = f.optObj(h, 'output', '$')
    if (o === undefined) {
      return
    }
    const name = f.str(o, 'schema', '$.output')
    if (!NAME.test(name)) {
      throw f.fail('$.output.schema', 'expected an output schema name (1 to 64 letters, digits, _ or -)')
    }
    const repairs = f.int(o, 'repairs', '$.output')
    if (repairs < 0) {
      throw f.fail('$.output.repairs', 'expected a count')
    }
    state.outputSchema = name
    state.outputRepairs = repairs
  }
}
