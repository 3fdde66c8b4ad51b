/** Generates ids that are unique within a process and unlikely to collide across restarts. */
export class Ids {
  private static counter: number = 0
  /** Process-wide random part of `sequential` ids, chosen on first use. */
  private static epoch: string = ''

  static next(prefix: string): string {
    Ids.counter++
    const rand = Math.floor(Math.random() * 0xffffffff).toString(36)
    return `${prefix}_${Date.now().toString(36)}${Ids.counter.toString(36)}${rand}`
  }

  /**
   * Cheaper ids for high-volume objects (bus events): a per-process epoch (start time and random
   * bits, drawn once) plus a decimal counter (cheap to format). Same guarantees as `next` — unique within the process,
   * unlikely to collide across restarts — but no clock read or random draw per id.
   */
  static sequential(prefix: string): string {
    if (Ids.epoch.length === 0) {
      Ids.epoch = `${Date.now().toString(36)}${Math.floor(Math.random() * 0xffffffff).toString(36)}_`
    }
    Ids.counter++
    return `${prefix}_${Ids.epoch}${Ids.counter}`
  }
}
