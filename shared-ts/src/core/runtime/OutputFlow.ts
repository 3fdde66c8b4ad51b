import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../errors/ArkAgentError'
import { AgentMessage } from '../model/AgentMessage'
import { OutputInstruction } from '../output/OutputInstruction'
import { OutputVerdict } from '../output/OutputVerdict'
import { RunContext } from './RunContext'
import { RuntimeServices } from './RuntimeServices'
import { PersistReason, StatePersister } from './StatePersister'

/**
 * The run's output obligation (docs/structured-output.md): taken on when a run starts, kept in the
 * stored state by the schema's name while the run lives (suspended, interrupted), checked on every
 * resume, and applied to each final answer — a valid one completes the run with its parsed value,
 * an invalid one gets a repair turn (a user message saying exactly what failed), at most
 * `maxOutputRepairs` per run, then the run ends with output_invalid (the last answer stays in history).
 */
export class OutputFlow {
  private readonly s: RuntimeServices
  private readonly persister: StatePersister

  constructor(services: RuntimeServices, persister: StatePersister) {
    this.s = services
    this.persister = persister
  }

  /** A new run: it owes an answer to the configured schema (or none), with no repairs yet. */
  static begin(s: RuntimeServices): void {
    const output = s.output
    s.state.outputSchema = output !== undefined ? output.name : ''
    s.state.outputRepairs = 0
  }

  /**
   * Before a stored run resumes (decided approvals, a reviewed plan, an interrupted run): the schema
   * it owes must be this runtime's, by name. Fails closed — throws output_schema_mismatch before
   * anything runs, the stored state untouched — when this runtime has no schema or another one. A run
   * stored without an obligation takes on this runtime's schema, if any.
   */
  static checkResume(s: RuntimeServices): void {
    const owed = s.state.outputSchema
    const output = s.output
    if (owed.length === 0) {
      s.state.outputSchema = output !== undefined ? output.name : ''
      return
    }
    if (output === undefined || output.name !== owed) {
      throw new ArkAgentError(ErrorLayer.config, ErrorCodes.outputSchemaMismatch,
        `The stored run owes a final answer to the output schema '${owed}', but this runtime has ` +
        (output === undefined ? 'no outputSchema' : `outputSchema '${output.name}'`) +
        `: build it with the outputSchema named '${owed}' to resume`, ErrorRetryability.afterAction)
    }
  }

  /** The run is over: nothing is owed any more. */
  static end(s: RuntimeServices): void {
    s.state.outputSchema = ''
    s.state.outputRepairs = 0
  }

  /**
   * Checks a final answer already in history. Valid: its verdict (with the value). Invalid: a repair
   * turn is queued (the message appended and saved) and the invalid verdict returned — or, past the
   * bound, output_invalid is thrown. Undefined when the runtime has no output schema.
   */
  async review(run: RunContext, message: AgentMessage): Promise<OutputVerdict | undefined> {
    const output = this.s.output
    if (output === undefined) {
      return undefined
    }
    const verdict = output.verify(message.text())
    if (verdict.ok) {
      return verdict
    }
    const state = this.s.state
    const max = this.s.config.maxOutputRepairs
    if (state.outputRepairs >= max) {
      throw new ArkAgentError(ErrorLayer.runtime, ErrorCodes.outputInvalid,
        `The final answer is not valid against the output schema '${output.name}'` +
        (max > 0 ? ` after ${max} repair turn${max === 1 ? '' : 's'}` : '') + `: ${verdict.describe()}`,
        ErrorRetryability.never)
    }
    state.outputRepairs++
    state.append(AgentMessage.user(OutputInstruction.repair(output, verdict, state.outputRepairs, max)))
    await this.persister.autosave(run, PersistReason.afterModelText)
    return verdict
  }
}
