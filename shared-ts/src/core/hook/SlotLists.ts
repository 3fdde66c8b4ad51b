import { AgentHook } from './AgentHook'

/** Hooks per slot, in registration order, holding only the hooks that override that slot. */
export class SlotLists {
  beforeRun: AgentHook[] = []
  beforeModelCall: AgentHook[] = []
  onModelChunk: AgentHook[] = []
  afterModelCall: AgentHook[] = []
  beforeToolCall: AgentHook[] = []
  afterToolCall: AgentHook[] = []
  onTurnCompletion: AgentHook[] = []
  beforePersistState: AgentHook[] = []
  afterPersistState: AgentHook[] = []
  afterRun: AgentHook[] = []
  beforeCompaction: AgentHook[] = []
  afterCompaction: AgentHook[] = []
}
