import { AppGrantStore } from '../approvals/ApprovalGrants'
import { AgentState } from '../state/AgentState'
import { ApprovalGrant } from '../state/ApprovalGrant'
import { SerialQueue } from '../util/SerialQueue'
import { StateStorage } from './StateStorage'

/**
 * App-scope grants kept in any StateStorage (file, memory, PostgreSQL, preferences, relational), as the
 * grants of one reserved session (`key`, default `arkagent-app-grants`) that holds nothing else. Reads
 * and writes of one store object are applied one at a time; failures reject with the storage's error.
 */
export class StorageGrantStore implements AppGrantStore {
  private readonly storage: StateStorage
  /** The reserved session id the grants are kept under; no runtime may use it as its own session. */
  readonly key: string
  private readonly queue: SerialQueue = new SerialQueue()

  constructor(storage: StateStorage, key: string = 'arkagent-app-grants') {
    this.storage = storage
    this.key = key
  }

  load(): Promise<ApprovalGrant[]> {
    return this.queue.run<ApprovalGrant[]>(async (): Promise<ApprovalGrant[]> => {
      const loaded = await this.storage.load(this.key)
      return loaded === undefined ? [] : loaded.state.grants.slice()
    })
  }

  /**
   * Reads, changes and writes in one queued step: within one store object no other change comes in
   * between. Other processes change the reserved session only through the storage's own ownership
   * (a file lock, a PostgreSQL lease), which refuses them with session_locked while this one holds it.
   */
  update(change: (current: ApprovalGrant[]) => ApprovalGrant[]): Promise<ApprovalGrant[]> {
    return this.queue.run<ApprovalGrant[]>(async (): Promise<ApprovalGrant[]> => {
      const loaded = await this.storage.load(this.key)
      const state = loaded !== undefined ? loaded.state : new AgentState(this.key)
      state.grants = change(state.grants.slice()).slice()
      state.updatedAtMs = Date.now()
      await this.storage.save(state)
      return state.grants.slice()
    })
  }
}
